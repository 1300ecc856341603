; Reverse the bits of a word
;
; Bit i of the input becomes bit 31 - i of the output: 32 times, take the lowest
; bit of x and append it at the bottom of r, which shifts left each time.
;     r = (r << 1) | (x & 1);  x >>= 1
;
; Inputs: 0x12345678 and 1, passed to the subroutine in R1
; Result: R0 = 510274632 (0x1E6A2C48, reverse of 0x12345678);
;         R2 = -2147483648 (0x80000000: bit 0 of 1 moves to the sign bit).
;
; Subroutine reverse: in R1 = x; out R0 = x with its bits reversed; clobbers R1, R3, R4.

    MOV R1, 1
    CALL reverse
    MOV R2, R0              ; 0x80000000
    MOV R1, 0x12345678      ; 32-bit constant (kept in the literal pool)
    CALL reverse            ; R0 = 0x1E6A2C48
    HALT

; reverse(R1) -> R0
reverse:
    MOV R0, 0               ; r
    MOV R3, 32              ; bits to move
rev_loop:
    SHL R0, R0, 1           ; make room at the bottom of r
    AND R4, R1, 1           ; lowest bit of x
    OR R0, R0, R4           ; ... goes to the bottom of r
    SHR R1, R1, 1           ; next bit of x
    DEC R3
    JNZ rev_loop
    RET
