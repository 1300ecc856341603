; Greatest common divisor (Euclid with MOD)
;
; Euclid's algorithm: gcd(a, b) = gcd(b, a mod b), and gcd(a, 0) = a.
; Written as a subroutine and called on three pairs.
;
; Inputs: the pairs (270, 192), (17, 5) and (1071, 462), loaded into R1, R2 before each CALL.
; Result: R0 = 21 (gcd(1071, 462)); R5 = 6 (gcd(270, 192)); R6 = 1 (gcd(17, 5): coprime).
;
; Subroutine gcd: in R1 = a, R2 = b (non-negative); out R0 = gcd(a, b); clobbers R1, R2, R3.

    MOV R1, 270
    MOV R2, 192
    CALL gcd
    MOV R5, R0          ; keep this answer (the next CALL overwrites R0)
    MOV R1, 17
    MOV R2, 5
    CALL gcd
    MOV R6, R0
    MOV R1, 1071
    MOV R2, 462
    CALL gcd            ; R0 = gcd(1071, 462)
    HALT

; gcd(R1, R2) -> R0
gcd:
    CMP R2, 0
    JZ gcd_done         ; b == 0: the answer is a
    MOD R3, R1, R2      ; r = a mod b
    MOV R1, R2          ; a = b
    MOV R2, R3          ; b = r
    JMP gcd
gcd_done:
    MOV R0, R1
    RET
