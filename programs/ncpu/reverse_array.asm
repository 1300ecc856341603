; Reverse a word array in place
;
; Two pointers start at both ends and walk towards each other, swapping the
; words they point at, until they meet in the middle.
;
; Data:   items = 9 words 1, 2, 3, ..., 9 at address 0 (N = 9, odd: the middle stays put)
; Result: items = 9, 8, 7, 6, 5, 4, 3, 2, 1; R0 = 4 (swaps made, N / 2).
;
; Registers: R1 = left pointer, R2 = right pointer, R3/R4 = the two words.

.equ N, 9

.data
items:  .word 1, 2, 3, 4, 5, 6, 7, 8, 9

.text
    MOV R0, 0               ; swaps
    MOV R1, items           ; left = &items[0]
    MOV R2, N
    DEC R2
    SHL R2, R2, 2
    ADD R2, R2, items       ; right = &items[N-1]
loop:
    CMP R1, R2
    JAE done                ; pointers met or crossed (unsigned compare of addresses)
    LDR R3, [R1]
    LDR R4, [R2]
    STR R4, [R1]            ; swap *left and *right
    STR R3, [R2]
    INC R0
    ADD R1, R1, 4           ; left moves right
    SUB R2, R2, 4           ; right moves left
    JMP loop
done:
    HALT
