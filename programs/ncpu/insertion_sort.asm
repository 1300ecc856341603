; Insertion sort of a word array (signed, ascending)
;
; Grows a sorted prefix one element at a time: take the next element (the key),
; shift every larger element of the prefix one place right, and drop the key into
; the gap. Each shift undoes exactly one inversion (a pair in the wrong order),
; so counting the shifts counts the inversions of the input.
;
; Data:   array = 8 signed words at address 0 (N = 8)
; Result: array = -9, -2, 0, 4, 4, 11, 23, 58 (sorted in place);
;         R0 = 17 (shifts made = inversions in the input).
;
; Registers: R1 = i, R2 = key, R3 = address of the gap (where the key may go),
;            R4 = the element just left of the gap.

.equ N, 8

.data
array:  .word 23, 4, -2, 58, 0, 11, -9, 4

.text
    MOV R0, 0               ; shifts
    MOV R1, 1               ; i = 1: a one-element prefix is already sorted
outer:
    CMP R1, N
    JGE done
    SHL R3, R1, 2
    ADD R3, R3, array       ; gap = &a[i]
    LDR R2, [R3]            ; key = a[i]
shift:
    CMP R3, array
    JBE insert              ; the gap is at a[0]: the key goes to the front
    LDR R4, [R3 - 4]        ; the element left of the gap
    CMP R4, R2
    JLE insert              ; it is <= key: the key goes in the gap (equal keys keep their order)
    STR R4, [R3]            ; move it right, into the gap ...
    SUB R3, R3, 4           ; ... so the gap moves one place left
    INC R0
    JMP shift
insert:
    STR R2, [R3]            ; drop the key into the gap
    INC R1
    JMP outer
done:
    HALT
