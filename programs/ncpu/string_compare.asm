; String comparison (strcmp)
;
; Walks two zero-terminated strings side by side until the bytes differ or both
; end. The result is the difference of the first differing bytes: negative if the
; first string sorts before the second, 0 if they are equal, positive if after.
; A shorter string that is a prefix of the longer one sorts first, because its
; 0 terminator is smaller than any character.
;
; Data:   "apple", "apply", "same", "same", "abc", "ab" (zero-terminated)
; Result: R0 = -20 (strcmp("apple", "apply") = 'e' - 'y' = 101 - 121);
;         R5 = 0 (strcmp("same", "same"));
;         R6 = 99 (strcmp("abc", "ab") = 'c' - 0).
;
; Subroutine strcmp: in R1, R2 = the strings; out R0; clobbers R1-R4.

.data
s_apple: .asciz "apple"
s_apply: .asciz "apply"
s_same1: .asciz "same"
s_same2: .asciz "same"
s_abc:   .asciz "abc"
s_ab:    .asciz "ab"

.text
    MOV R1, s_same1
    MOV R2, s_same2
    CALL strcmp
    MOV R5, R0              ; 0
    MOV R1, s_abc
    MOV R2, s_ab
    CALL strcmp
    MOV R6, R0              ; 99
    MOV R1, s_apple
    MOV R2, s_apply
    CALL strcmp             ; R0 = -20
    HALT

; strcmp(R1, R2) -> R0
strcmp:
    LDRB R3, [R1]
    LDRB R4, [R2]
    SUB R0, R3, R4          ; difference of this pair of bytes
    JNZ strcmp_done         ; they differ: that decides it
    CMP R3, 0
    JZ strcmp_done          ; equal, and both strings ended: R0 = 0
    INC R1
    INC R2
    JMP strcmp
strcmp_done:
    RET
