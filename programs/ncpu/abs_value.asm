; Absolute value, with and without branches
;
; 1. With a branch: if x < 0, x = -x (NEG).
; 2. Without a branch: m = x >> 31 (arithmetic: all 1s if x < 0, else all 0s);
;    |x| = (x ^ m) - m. For negative x that is ~x + 1 = -x; for x >= 0 it is x.
; 3. The one value with no positive partner: |INT_MIN| wraps back to INT_MIN,
;    because +2147483648 does not fit in 32-bit two's complement.
;
; Inputs: -42, 17, -12345, INT_MIN (-2147483648)
; Result: R0 = 42 (|-42|, branching); R1 = 17 (|17|, branching);
;         R2 = 12345 (|-12345|, branch-free); R3 = -2147483648 (|INT_MIN| overflows).

    ; --- 1. branching abs of -42 and of 17 ---
    MOV R0, -42
    CMP R0, 0
    JGE r0_done             ; already non-negative
    NEG R0, R0              ; R0 = -R0
r0_done:
    MOV R1, 17
    CMP R1, 0
    JGE r1_done
    NEG R1, R1
r1_done:
    ; --- 2. branch-free abs of -12345 ---
    MOV R2, -12345
    SAR R4, R2, 31          ; m = 0xFFFFFFFF (x is negative)
    XOR R2, R2, R4          ; x ^ m = ~x = 12344
    SUB R2, R2, R4          ; ... - m = 12344 + 1 = 12345
    ; --- 3. INT_MIN has no absolute value in 32 bits ---
    MOV R3, 0x80000000      ; INT_MIN
    NEG R3, R3              ; 0 - INT_MIN wraps to INT_MIN (and sets OF)
    HALT
