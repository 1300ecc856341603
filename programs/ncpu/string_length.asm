; String length (strlen)
;
; Walks a zero-terminated (.asciz) string one byte at a time with LDRB until it
; finds the terminating 0 byte; the length is the number of bytes before it.
;
; Data:   message = "Hello, nCPU world!" (18 characters + a 0 byte) at address 0
; Result: R0 = 18 (its length); R1 = 18 (the address of its terminating 0).

.data
message: .asciz "Hello, nCPU world!"

.text
    MOV R1, message         ; p = start of the string
loop:
    LDRB R2, [R1]           ; c = *p (LDRB zero-extends the byte)
    CMP R2, 0
    JZ found_end            ; the 0 byte ends the string
    INC R1                  ; p++
    JMP loop
found_end:
    SUB R0, R1, message     ; length = p - start
    HALT
