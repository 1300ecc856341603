; Multiply by shifts and adds (classic nCPU dialect)
;
; Multiplies two numbers without MUL, the way binary long multiplication works:
; for every 1 bit of b, add a copy of a shifted to that bit's position.
;     while b != 0:  if b & 1: p += a;  a <<= 1;  b >>= 1
;
; Inputs: R1 = a = 1234, R2 = b = 567
; Result: R0 = 699678 (1234 * 567); R3 = 699678 (the same product from MUL, to compare).
;
; Registers: R4 = scratch (b & 1), R6 = constant 1, R7 = constant 0.

    MOV R1, 1234        ; a (the multiplicand; shifted left each step)
    MOV R2, 567         ; b (the multiplier; shifted right each step)
    MUL R3, R1, R2      ; the answer MUL gives, for comparison
    MOV R0, 0           ; p = 0
    MOV R6, 1           ; mask for the lowest bit
    MOV R7, 0
    CMP R2, R7
    JZ done             ; b == 0: product is 0
loop:
    AND R4, R2, R6      ; lowest bit of b
    JZ skip_add         ; bit is 0: nothing to add
    ADD R0, R0, R1      ; bit is 1: p += a
skip_add:
    SHL R1, R1, 1       ; a <<= 1  (a * 2: the next bit is worth twice as much)
    SHR R2, R2, 1       ; b >>= 1  (move on to b's next bit; ZF when b is used up)
    JNZ loop
done:
    HALT
