; Count the vowels in a string
;
; For every character of the text, look it up in a second string that lists the
; vowels in both cases: a nested loop over two zero-terminated strings.
;
; Data:   text = "The quick brown fox jumps over the lazy dog" at address 0,
;         vowels = "aeiouAEIOU" right after it
; Result: R0 = 11 (vowels in the sentence); R5 = 43 (characters scanned).
;
; Registers: R1 = pointer into text, R2 = its character,
;            R3 = pointer into vowels, R4 = a vowel.

.data
text:   .asciz "The quick brown fox jumps over the lazy dog"
vowels: .asciz "aeiouAEIOU"

.text
    MOV R0, 0               ; vowel count
    MOV R5, 0               ; characters scanned
    MOV R1, text
next_char:
    LDRB R2, [R1]
    CMP R2, 0
    JZ done                 ; end of the text
    INC R5
    MOV R3, vowels          ; search the vowel list for this character
search:
    LDRB R4, [R3]
    CMP R4, 0
    JZ not_vowel            ; end of the list: not a vowel
    CMP R4, R2
    JZ is_vowel
    INC R3
    JMP search
is_vowel:
    INC R0
not_vowel:
    INC R1
    JMP next_char
done:
    HALT
