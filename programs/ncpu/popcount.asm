; Population count (classic nCPU dialect)
;
; Counts the 1 bits of a word with Kernighan's trick: x & (x - 1) clears the
; lowest set bit, so the loop runs once per 1 bit rather than once per bit.
;
; Input:  R1 = x = 0x5A5A7 (370087, binary 101 1010 0101 1010 0111)
; Result: R0 = 11 (bits set in 0x5A5A7); R1 = 0 at the end.
;
; Registers: R2 = x - 1, R7 = constant 0.

    MOV R1, 0x5A5A7     ; the value to examine (fits the 20-bit MOV immediate)
    MOV R0, 0           ; count = 0
    MOV R7, 0
    CMP R1, R7
    JZ done             ; no bits at all
loop:
    MOV R2, R1
    DEC R2              ; R2 = x - 1: lowest 1 bit becomes 0, the 0s below it become 1s
    INC R0              ; count this bit (before AND, so AND's flags drive the branch)
    AND R1, R1, R2      ; x &= x - 1 clears exactly that lowest 1 bit; ZF when none left
    JNZ loop
done:
    HALT
