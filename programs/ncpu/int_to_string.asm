; Integer to decimal string (itoa)
;
; Produces the decimal digits with MOD 10 / DIV 10, which yields them last digit
; first; pushing each digit on the stack and popping them afterwards puts them
; back in reading order.
; The conversion works on the NEGATIVE of the number: every positive 32-bit value
; has a negative partner but INT_MIN has no positive one, so this way INT_MIN
; converts correctly too. With n <= 0, n MOD 10 is in -9..0 and the digit
; character is '0' - (n MOD 10).
;
; Data:   three 16-byte buffers at addresses 0, 16 and 32
; Inputs: -12345, 0 and -2147483648 (INT_MIN)
; Result: bytes at 0  = "-12345\0";  bytes at 16 = "0\0";
;         bytes at 32 = "-2147483648\0";
;         R0 = 6 (length of "-12345", the last conversion); R5 = 1; R6 = 11.
;
; Subroutine itoa: in R1 = n, R2 = buffer; out R0 = characters written (without
; the 0 terminator); clobbers R1-R4.

.data
buf1:   .zero 16
buf2:   .zero 16
buf3:   .zero 16

.text
    MOV R1, 0
    MOV R2, buf2
    CALL itoa
    MOV R5, R0              ; 1
    MOV R1, 0x80000000      ; INT_MIN
    MOV R2, buf3
    CALL itoa
    MOV R6, R0              ; 11
    MOV R1, -12345
    MOV R2, buf1
    CALL itoa               ; R0 = 6
    HALT

; itoa(R1 = n, R2 = buffer) -> R0 = length
itoa:
    MOV R0, R2              ; remember where the buffer starts
    CMP R1, 0
    JL itoa_negative
    NEG R1, R1              ; n >= 0: work with -n (no sign printed)
    JMP itoa_digits
itoa_negative:
    MOV R3, '-'
    STRB R3, [R2]           ; print the sign, keep n negative
    INC R2
itoa_digits:
    MOV R4, 0               ; digits pushed
itoa_split:
    MOD R3, R1, 10          ; -9..0: minus the last digit
    NEG R3, R3              ; the digit 0..9
    ADD R3, R3, '0'         ; as a character
    PUSH R3
    INC R4
    DIV R1, R1, 10          ; drop the last digit (truncates toward zero)
    CMP R1, 0
    JNZ itoa_split          ; do ... while: 0 still gives one digit
itoa_emit:
    POP R3                  ; most significant digit first
    STRB R3, [R2]
    INC R2
    DEC R4
    JNZ itoa_emit
    MOV R3, 0
    STRB R3, [R2]           ; terminating 0
    SUB R0, R2, R0          ; length = end - start
    RET
