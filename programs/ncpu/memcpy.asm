; Copy a block of bytes (memcpy)
;
; Copies n bytes from src to dst one byte at a time with LDRB/STRB.
; (The two blocks do not overlap; an overlapping copy would need memmove's care.)
;
; Data:   src = "nCPU copies bytes!" (18 bytes + 0) at address 0,
;         dst = 24 bytes of 0xEE at address 32 (so the untouched ones show)
; Inputs: R1 = src, R2 = dst, R3 = n = 19 (the string and its terminating 0)
; Result: dst = "nCPU copies bytes!\0" followed by 5 bytes of 0xEE (untouched);
;         R0 = 19 (bytes copied); R3 = 0.

.data
src:    .asciz "nCPU copies bytes!"
.data 32
dst:    .byte 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE
        .byte 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE
        .byte 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE

.text
    MOV R1, src             ; from
    MOV R2, dst             ; to
    MOV R3, 19              ; count
    MOV R0, 0               ; bytes copied
    CMP R3, 0
    JZ done
loop:
    LDRB R4, [R1]           ; read one byte ...
    STRB R4, [R2]           ; ... and write it
    INC R1
    INC R2
    INC R0
    DEC R3
    JNZ loop
done:
    HALT
