; Walking a linked list
;
; Each node is two words: a value and the address of the next node (0 ends the
; list). The nodes are deliberately scattered through memory, out of order: the
; program only ever finds a node by following the pointer in the previous one.
; Node addresses are .equ constants, because .word accepts numbers and constants
; but not data labels.
;
; Data:   head (address 0) holds the address of the first node;
;         nodes: 15 @ 0x40 -> -4 @ 0x100 -> 100 @ 0x20 -> 7 @ 0xC0 -> 32 @ 0x80 -> end
; Result: R0 = 150 (sum of the values); R1 = 5 (nodes visited);
;         R2 = 100 (largest value); R3 = 0 (the null pointer that ended the walk).

.equ NODE1, 0x40
.equ NODE2, 0x100
.equ NODE3, 0x20
.equ NODE4, 0xC0
.equ NODE5, 0x80

.data
head:   .word NODE1
.data NODE1
        .word 15, NODE2         ; value, next
.data NODE2
        .word -4, NODE3
.data NODE3
        .word 100, NODE4
.data NODE4
        .word 7, NODE5
.data NODE5
        .word 32, 0             ; next = 0: the end of the list

.text
    MOV R0, 0                   ; sum
    MOV R1, 0                   ; count
    MOV R2, 0x80000000          ; max so far: start from the smallest signed value
    LDR R3, [head]              ; p = head
walk:
    CMP R3, 0
    JZ done                     ; null pointer: end of list
    LDR R4, [R3]                ; p->value
    ADD R0, R0, R4
    INC R1
    CMP R4, R2
    JLE not_max
    MOV R2, R4
not_max:
    LDR R3, [R3 + 4]            ; p = p->next
    JMP walk
done:
    HALT
