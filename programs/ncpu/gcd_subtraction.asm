; Greatest common divisor by subtraction (classic nCPU dialect)
;
; Euclid's original algorithm: gcd(a, b) = gcd(a - b, b) when a > b, so keep
; subtracting the smaller number from the larger until the two are equal.
; (Both inputs must be positive; see gcd.asm for the faster MOD version.)
;
; Inputs: R1 = a = 1071, R2 = b = 462
; Result: R0 = 21 (gcd(1071, 462)); R1 = R2 = 21; R3 = 11 (subtraction steps).

    MOV R1, 1071        ; a
    MOV R2, 462         ; b
    MOV R3, 0           ; steps
loop:
    CMP R1, R2          ; flags from a - b
    JZ done             ; a == b: that is the gcd
    JS b_bigger         ; a - b negative: a < b (safe here, the values are small)
    SUB R1, R1, R2      ; a > b: a -= b
    INC R3
    JMP loop
b_bigger:
    SUB R2, R2, R1      ; b -= a
    INC R3
    JMP loop
done:
    MOV R0, R1
    HALT
