; Count leading zeros (clz)
;
; Counts the 0 bits above the highest 1 bit. The loop shifts x left until its top
; bit (the sign bit) is 1, which JS/JNS can test directly after the shift sets the
; flags. x = 0 is a special case: it has no 1 bit, so the answer is 32.
;
; Inputs: 0x00012345, 1, 0 and 0x80000000, passed to the subroutine in R1
; Result: R0 = 15 (clz(0x00012345)); R4 = 31 (clz(1)); R5 = 32 (clz(0));
;         R6 = 0 (clz(0x80000000)).
;
; Subroutine clz: in R1 = x; out R0 = leading zeros; clobbers R1.

    MOV R1, 1
    CALL clz
    MOV R4, R0              ; 31
    MOV R1, 0
    CALL clz
    MOV R5, R0              ; 32
    MOV R1, 0x80000000
    CALL clz
    MOV R6, R0              ; 0
    MOV R1, 0x12345
    CALL clz                ; R0 = 15
    HALT

; clz(R1) -> R0
clz:
    MOV R0, 32
    CMP R1, 0
    JZ clz_done             ; no 1 bit at all
    MOV R0, 0
    CMP R1, 0
    JS clz_done             ; top bit already set: no leading zeros
clz_loop:
    INC R0                  ; one more zero on top
    SHL R1, R1, 1           ; shift it out; SF = the new top bit
    JNS clz_loop            ; top bit still 0: keep going
clz_done:
    RET
