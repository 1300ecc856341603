; Bubble sort of a word array (signed, ascending)
;
; Repeatedly walks the array swapping neighbours that are out of order; after
; each pass the largest remaining value has bubbled to the end, so the next pass
; can stop one element earlier. A pass without any swap means the array is
; sorted, and the sort stops early.
;
; Data:   array = 10 signed words at address 0 (N = 10)
; Result: array = -8, -3, 0, 1, 7, 13, 21, 42, 42, 99 (sorted in place);
;         R0 = 7 (passes made, the last of them finding nothing to swap).
;
; Registers: R1 = address of a[i], R2 = a[i], R3 = a[i+1],
;            R4 = address of the last element this pass looks at, R5 = swapped flag.

.equ N, 10

.data
array:  .word 42, 7, -3, 99, 0, 13, -8, 42, 21, 1

.text
    MOV R0, 0               ; passes
    MOV R4, N
    DEC R4
    SHL R4, R4, 2           ; (N - 1) * 4 = byte offset of the last element
    ADD R4, R4, array       ; R4 = &a[N-1]
pass:
    INC R0
    MOV R5, 0               ; no swap yet in this pass
    MOV R1, array           ; start at a[0]
inner:
    CMP R1, R4
    JAE pass_done           ; a[i] is the last element: no pair left (addresses: unsigned)
    LDR R2, [R1]            ; a[i]
    LDR R3, [R1 + 4]        ; a[i+1]
    CMP R2, R3
    JLE in_order            ; a[i] <= a[i+1] (signed): leave them
    STR R3, [R1]            ; swap the pair
    STR R2, [R1 + 4]
    MOV R5, 1               ; remember that this pass changed something
in_order:
    ADD R1, R1, 4           ; next pair
    JMP inner
pass_done:
    SUB R4, R4, 4           ; the largest value of this pass is now in its final place
    CMP R5, 0
    JNZ pass                ; something moved: go again
    HALT
