; Saturating addition (signed and unsigned)
;
; Instead of wrapping around, a saturating add clamps a result that does not fit
; to the largest or smallest representable value (handy for audio and pixels).
;  * signed:   add; if OF, the true sum lies beyond the range on the side of the
;              operands' sign: INT_MAX if a >= 0, INT_MIN if a < 0. Branch-free
;              clamp: (a >> 31 arithmetic) ^ INT_MAX gives exactly that.
;  * unsigned: add; if CF, the true sum exceeds 0xFFFFFFFF: clamp to 0xFFFFFFFF.
;
; Result: R0 = 2147483647 (sat(2147483637 + 100): clamped to INT_MAX)
;         R4 = -2147483648 (sat(INT_MIN + -1): clamped to INT_MIN)
;         R5 = 3000 (sat(1000 + 2000): no overflow, plain sum)
;         R6 = -1 (usat(0xFFFFFFF0 + 0x20) = 0xFFFFFFFF, clamped)
;         R7 = 12 (usat(5 + 7): plain sum)
;
; Subroutines: sat_add and usat_add take R1, R2 and return R0; sat_add clobbers R3.

    MOV R1, 0x80000000      ; INT_MIN
    MOV R2, -1
    CALL sat_add
    MOV R4, R0
    MOV R1, 1000
    MOV R2, 2000
    CALL sat_add
    MOV R5, R0
    MOV R1, 0xFFFFFFF0
    MOV R2, 0x20
    CALL usat_add
    MOV R6, R0
    MOV R1, 5
    MOV R2, 7
    CALL usat_add
    MOV R7, R0
    MOV R1, 2147483637      ; INT_MAX - 10
    MOV R2, 100
    CALL sat_add            ; R0 = INT_MAX
    HALT

; sat_add(R1, R2) -> R0, signed
sat_add:
    ADD R0, R1, R2
    JNO sat_done            ; the sum fits: done
    SAR R0, R1, 31          ; 0 if a >= 0, -1 (all ones) if a < 0
    MOV R3, 0x7FFFFFFF
    XOR R0, R0, R3          ; 0 ^ INT_MAX = INT_MAX;  -1 ^ INT_MAX = INT_MIN
sat_done:
    RET

; usat_add(R1, R2) -> R0, unsigned
usat_add:
    ADD R0, R1, R2
    JNC usat_done           ; no carry out of bit 31: the sum fits
    MOV R0, 0xFFFFFFFF      ; clamp to the unsigned maximum
usat_done:
    RET
