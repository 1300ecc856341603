; Detecting signed overflow with JO
;
; OF is set when a signed result does not fit in 32 bits: adding two positives
; gives a "negative" sum, or subtracting goes below INT_MIN. The carry flag CF is
; about unsigned overflow instead, and the two are independent.
; Each test sets its result register to 1, does the arithmetic, and jumps over the
; line that clears the result again when the flag is set: 1 = set, 0 = clear.
;
; Result: R0 = -2147483648 (INT_MAX + 1 wraps round to INT_MIN)
;         R1 = 1 (JO taken: that addition overflowed)
;         R2 = 0 (100 + 200 = 300 does not overflow)
;         R3 = 1 (INT_MIN - 1 overflows too ...)
;         R4 = 2147483647 (... and wraps round to INT_MAX)
;         R5 = 1 (-1 + -1 = -2 carries out as unsigned numbers: JC taken)
;         R6 = 0 (... yet it is no signed overflow: JO not taken)

    ; --- INT_MAX + 1 ---
    MOV R0, 0x7FFFFFFF      ; INT_MAX = 2147483647
    MOV R1, 1
    ADD R0, R0, 1           ; 0x80000000: two positives gave a negative
    JO t1_done
    MOV R1, 0
t1_done:
    ; --- 100 + 200 ---
    MOV R7, 100
    MOV R2, 1
    ADD R7, R7, 200
    JO t2_done
    MOV R2, 0
t2_done:
    ; --- INT_MIN - 1 ---
    MOV R4, 0x80000000      ; INT_MIN = -2147483648
    MOV R3, 1
    SUB R4, R4, 1           ; 0x7FFFFFFF: a negative minus a positive gave a positive
    JO t3_done
    MOV R3, 0
t3_done:
    ; --- -1 + -1: an unsigned carry without a signed overflow ---
    MOV R7, -1
    MOV R5, 1
    MOV R6, 1
    ADD R7, R7, -1          ; 0xFFFFFFFF + 0xFFFFFFFF = 0x1_FFFFFFFE: CF = 1, OF = 0
    JC t4_done
    MOV R5, 0
t4_done:
    JO t5_done              ; the jump above left the flags alone: OF is still the ADD's
    MOV R6, 0
t5_done:
    HALT
