; Signed division and remainder (DIV and MOD)
;
; DIV truncates toward zero (like C, unlike Python's //), and MOD is the matching
; remainder, so a == (a / b) * b + a % b always holds and the remainder takes the
; sign of the dividend. Dividing by zero does not trap: x / 0 = 0 and x % 0 = x.
;
; Data:   cases = five (a, b) pairs: (17, 5), (-17, 5), (17, -5), (-17, -5), (7, 0)
;         out   = one (quotient, remainder) pair of words per case, at address 64
; Result: out = 3, 2,  -3, -2,  -3, 2,  3, -2,  0, 7;
;         R0 = -3 and R1 = -2 (-17 / 5 and -17 % 5, computed again directly);
;         R2 = -17 (q * b + r rebuilds a); R7 = 0 (cases left).

.equ NCASES, 5

.data
cases:  .word 17, 5
        .word -17, 5
        .word 17, -5
        .word -17, -5
        .word 7, 0
.data 64
out:    .zero 40

.text
    MOV R5, cases           ; reads pairs from here
    MOV R6, out             ; writes results here
    MOV R7, NCASES
loop:
    LDR R1, [R5]            ; a
    LDR R2, [R5 + 4]        ; b
    DIV R3, R1, R2          ; quotient, truncated toward zero
    MOD R4, R1, R2          ; remainder, sign of a
    STR R3, [R6]
    STR R4, [R6 + 4]
    ADD R5, R5, 8
    ADD R6, R6, 8
    DEC R7
    JNZ loop
    ; --- once more in registers, with the identity a == q * b + r ---
    MOV R1, -17
    MOV R2, 5
    DIV R0, R1, R2          ; -3 (Python's -17 // 5 would give -4)
    MOD R1, R1, R2          ; -2 (Python's -17 % 5 would give 3)
    MUL R2, R0, R2          ; q * b = -15
    ADD R2, R2, R1          ; + r = -17
    HALT
