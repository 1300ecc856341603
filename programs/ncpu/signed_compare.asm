; Signed comparisons: JL, JG, JLE, JGE
;
; CMP a, b computes a - b and sets the flags. For signed numbers the answer to
; "a < b?" is SF != OF: the sign of the difference, corrected when the
; subtraction overflowed. JL/JG/JLE/JGE do that for you.
; Each test sets its result register to 1, compares, and jumps over the line that
; clears the result again when the condition holds: 1 = true, 0 = false.
;
; Result: R0 = 1 (-5 < 3: JL taken)
;         R1 = 0 (-5 > 3 is false: JG not taken)
;         R2 = 1 (-1 <= -1: JLE taken on equality)
;         R3 = 0 (-100 >= -99 is false: JGE not taken)
;         R4 = 1 (INT_MIN < INT_MAX: the difference overflows, SF = 0 but OF = 1)
;         R5 = 0 (the same pair tested with JS, "is a - b negative?": wrong, by overflow)
;         R6 = 1 (INT_MIN <= -1: JLE taken)

    MOV R7, -5
    ; --- -5 < 3 ? ---
    MOV R0, 1
    CMP R7, 3
    JL t1_done
    MOV R0, 0
t1_done:
    ; --- -5 > 3 ? ---
    MOV R1, 1
    CMP R7, 3
    JG t2_done
    MOV R1, 0
t2_done:
    ; --- -1 <= -1 ? ---
    MOV R7, -1
    MOV R2, 1
    CMP R7, -1
    JLE t3_done
    MOV R2, 0
t3_done:
    ; --- -100 >= -99 ? ---
    MOV R7, -100
    MOV R3, 1
    CMP R7, -99
    JGE t4_done
    MOV R3, 0
t4_done:
    ; --- INT_MIN < INT_MAX ? INT_MIN - INT_MAX wraps round to +1 ---
    MOV R7, 0x80000000      ; INT_MIN = -2147483648
    MOV R6, 0x7FFFFFFF      ; INT_MAX =  2147483647
    MOV R4, 1
    CMP R7, R6              ; result 1: SF = 0, but OF = 1
    JL t5_done              ; SF != OF: "less", correctly
    MOV R4, 0
t5_done:
    ; --- the naive test: is the difference negative? ---
    MOV R5, 1
    CMP R7, R6
    JS t6_done              ; SF = 0, so this says "not less": wrong
    MOV R5, 0
t6_done:
    ; --- INT_MIN <= -1 ? ---
    MOV R6, 1               ; R6 is free again: it becomes the last result
    CMP R7, -1
    JLE t7_done
    MOV R6, 0
t7_done:
    HALT
