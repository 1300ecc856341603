; Summing values through the stack (PUSH and POP)
;
; Pushes 10, 20, 30, 40, 50, then pops them all, adding them up and writing each
; popped value to memory. The stack is last-in, first-out, so they come back in
; reverse order. The stack starts at the top of data memory (SP = 65536) and
; grows down: PUSH does SP -= 4 then stores; POP loads then does SP += 4.
;
; Data:   out = 5 words at address 0, filled in the order the values are popped
; Result: R0 = 150 (10 + 20 + 30 + 40 + 50); out = 50, 40, 30, 20, 10;
;         R5 = 65516 (SP after the five pushes, 20 bytes below the top);
;         SP = 65536 (balanced again at the end).

.equ COUNT, 5

.data
out:    .zero 20

.text
    ; --- push 10, 20, ..., 50 ---
    MOV R1, 10              ; next value
    MOV R2, COUNT
push_loop:
    PUSH R1
    ADD R1, R1, 10
    DEC R2
    JNZ push_loop
    MOV R5, SP              ; look at the stack pointer now
    ; --- pop them back, summing ---
    MOV R0, 0               ; sum
    MOV R3, out             ; where the popped values go
    MOV R2, COUNT
pop_loop:
    POP R4                  ; last pushed comes out first
    ADD R0, R0, R4
    STR R4, [R3]
    ADD R3, R3, 4
    DEC R2
    JNZ pop_loop
    HALT
