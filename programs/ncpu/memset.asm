; Fill a block of bytes (memset)
;
; Stores the same byte value into n consecutive bytes. Guard bytes on each side
; of the buffer show that exactly n bytes change and nothing around them.
;
; Data:   guard_lo (4 bytes 0x11), buffer (20 bytes of 0), guard_hi (4 bytes 0x22)
; Inputs: R1 = buffer address (4), R2 = value = 0xAB, R3 = n = 20
; Result: bytes 0..27 = 11 11 11 11, twenty times AB, 22 22 22 22;
;         R0 = 24 (the address just past the filled block); R3 = 0.

.data
guard_lo: .byte 0x11, 0x11, 0x11, 0x11
buffer:   .zero 20
guard_hi: .byte 0x22, 0x22, 0x22, 0x22

.text
    MOV R1, buffer          ; destination
    MOV R2, 0xAB            ; fill value (STRB stores its low byte)
    MOV R3, 20              ; count
    CMP R3, 0
    JZ done
loop:
    STRB R2, [R1]
    INC R1
    DEC R3
    JNZ loop
done:
    MOV R0, R1              ; one past the last byte written
    HALT
