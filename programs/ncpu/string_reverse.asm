; Reverse a string in place
;
; First find the end of the string (its terminating 0), then swap bytes from both
; ends towards the middle. The terminating 0 stays where it is.
;
; Data:   text = "stressed" (8 characters + 0) at address 0
; Result: text = "desserts" followed by its 0 byte; R0 = 8 (the string's length).
;
; Registers: R1 = left pointer, R2 = right pointer, R3/R4 = bytes being swapped.

.data
text:   .asciz "stressed"

.text
    ; --- find the terminating 0 ---
    MOV R2, text
find_end:
    LDRB R3, [R2]
    CMP R3, 0
    JZ found_end
    INC R2
    JMP find_end
found_end:
    SUB R0, R2, text        ; length
    DEC R2                  ; right = last character (before the 0)
    MOV R1, text            ; left = first character
    ; --- swap towards the middle ---
swap:
    CMP R1, R2
    JAE done                ; met in the middle (also handles the empty string)
    LDRB R3, [R1]
    LDRB R4, [R2]
    STRB R4, [R1]
    STRB R3, [R2]
    INC R1
    DEC R2
    JMP swap
done:
    HALT
