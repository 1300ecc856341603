; Integer power by repeated squaring (classic nCPU dialect)
;
; Computes base^exp with O(log exp) multiplications:
;     result = 1
;     while exp != 0:
;         if exp & 1: result *= base
;         base *= base;  exp >>= 1
;
; Inputs: R1 = base = 3, R2 = exp = 13
; Result: R0 = 1594323 (3^13); R2 = 0.
;
; Registers: R3 = scratch (exp & 1), R6 = constant 1, R7 = constant 0.
; (base is squared once more after the last bit; that extra value is never used,
;  and MUL simply wraps if it gets too big.)

    MOV R1, 3           ; base
    MOV R2, 13          ; exp = 0b1101, so 3^13 = 3^8 * 3^4 * 3^1
    MOV R0, 1           ; result
    MOV R6, 1
    MOV R7, 0
    CMP R2, R7
    JZ done             ; x^0 = 1
loop:
    AND R3, R2, R6      ; lowest bit of exp
    JZ square           ; 0: this power of base is not part of the product
    MUL R0, R0, R1      ; 1: result *= base^(2^i)
square:
    MUL R1, R1, R1      ; base^(2^i) -> base^(2^(i+1))
    SHR R2, R2, 1       ; next bit of exp; ZF when no bits are left
    JNZ loop
done:
    HALT
