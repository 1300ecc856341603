; Adler-32 checksum of a string
;
; Adler-32 (used by zlib) keeps two sums modulo 65521, the largest prime below
; 2^16: a = 1 + the sum of the bytes, b = the sum of the running values of a.
; b depends on the order of the bytes, so swapping two characters changes it.
;     a = 1, b = 0
;     for each byte c:  a = (a + c) mod 65521;  b = (b + a) mod 65521
;     checksum = (b << 16) | a
;
; Data:   text = "Wikipedia" (9 bytes) at address 0
; Result: R0 = 300286872 (0x11E60398, Adler-32 of "Wikipedia");
;         R1 = 920 (a = 0x398); R2 = 4582 (b = 0x11E6).
;
; Registers: R3 = pointer, R4 = byte, R6 = 65521 (too big for an imm16 operand).

.data
text:   .asciz "Wikipedia"

.text
    MOV R1, 1               ; a
    MOV R2, 0               ; b
    MOV R6, 65521           ; the modulus (fits MOV's 20-bit immediate)
    MOV R3, text
loop:
    LDRB R4, [R3]
    CMP R4, 0
    JZ done                 ; the 0 terminator is not part of the data
    ADD R1, R1, R4          ; a += c
    MOD R1, R1, R6          ; a %= 65521
    ADD R2, R2, R1          ; b += a
    MOD R2, R2, R6          ; b %= 65521
    INC R3
    JMP loop
done:
    SHL R0, R2, 16          ; b in the high half
    OR R0, R0, R1           ; a in the low half
    HALT
