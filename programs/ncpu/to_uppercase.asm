; Convert a string to upper case, in place
;
; ASCII lower-case letters 'a'..'z' (97..122) sit exactly 32 above 'A'..'Z', so
; clearing bit 5 (subtracting 32) upper-cases them. Everything else (digits,
; punctuation, letters that are already capitals) must be left alone, which is
; why the range check comes first.
;
; Data:   text = "Hello, World! abc xyz 123" at address 0
; Result: text = "HELLO, WORLD! ABC XYZ 123" (and its 0 byte);
;         R0 = 14 (letters that were changed).

.data
text:   .asciz "Hello, World! abc xyz 123"

.text
    MOV R0, 0               ; changed letters
    MOV R1, text            ; p
loop:
    LDRB R2, [R1]           ; c = *p
    CMP R2, 0
    JZ done                 ; end of string
    CMP R2, 'a'
    JL next                 ; below 'a': not a lower-case letter
    CMP R2, 'z'
    JG next                 ; above 'z': not one either
    SUB R2, R2, 32          ; 'a' - 'A' = 32
    STRB R2, [R1]           ; write it back
    INC R0
next:
    INC R1
    JMP loop
done:
    HALT
