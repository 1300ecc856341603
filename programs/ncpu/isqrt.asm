; Integer square root by Newton's method
;
; isqrt(n) = the largest x with x * x <= n. Newton's iteration for x^2 = n,
;     y = (x + n / x) / 2
; started above the root, decreases every step until it stops decreasing;
; the last x is then exactly floor(sqrt(n)).
;
; Input:  R1 = n = 2000000 (needs the 32-bit MOV form: it does not fit in 20 bits)
; Result: R0 = 1414 (isqrt(2000000), since 1414^2 = 1999396 <= n < 1415^2 = 2002225);
;         R2 = 1999396 (R0 squared, as a check); R3 = 14 (Newton steps taken).

    MOV R1, 2000000         ; n
    MOV R3, 0               ; steps
    MOV R0, R1              ; x = n (any start >= sqrt(n) works)
    CMP R1, 2
    JL done                 ; isqrt(0) = 0 and isqrt(1) = 1: x = n already
newton:
    DIV R2, R1, R0          ; n / x
    ADD R2, R2, R0          ; x + n / x
    SHR R2, R2, 1           ; y = (x + n / x) / 2
    INC R3
    CMP R2, R0
    JGE done                ; y >= x: converged, x is the answer
    MOV R0, R2              ; x = y
    JMP newton
done:
    MUL R2, R0, R0          ; x * x, to check against n
    HALT
