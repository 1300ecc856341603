; Factorial (classic nCPU dialect)
;
; Computes n! = 1 * 2 * ... * n with a counting-down loop: product *= n; n -= 1.
;
; Input:  R1 = n = 10 (set by the first instruction)
; Result: R0 = 3628800 (10!); R1 = 0 at the end.
;
; Note: 12! = 479001600 is the largest factorial that fits in 32 bits;
; MUL keeps only the low 32 bits, so 13! and beyond wrap around.

    MOV R1, 10          ; n
    MOV R0, 1           ; product = 1 (0! = 1, so n = 0 needs no loop)
    MOV R7, 0           ; constant 0 for the comparison below
    CMP R1, R7
    JZ done             ; n == 0: answer is 1
loop:
    MUL R0, R0, R1      ; product *= n
    DEC R1              ; n -= 1, ZF set when n becomes 0
    JNZ loop
done:
    HALT
