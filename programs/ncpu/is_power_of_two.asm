; Counting powers of two (classic nCPU dialect)
;
; x is a power of two exactly when x != 0 and x & (x - 1) == 0
; (a power of two has a single 1 bit, and x - 1 turns that bit off).
; The program tests every x from 1 to 1000 and counts the powers of two.
;
; Input:  R1 = limit = 1000
; Result: R0 = 10 (1, 2, 4, ..., 512); R2 = 512 (the largest one found); R1 = 0.
;
; Registers: R3 = x (counts up from 1), R4 = x - 1 then x & (x - 1).

    MOV R1, 1000        ; how many values to test
    MOV R0, 0           ; count
    MOV R2, 0           ; largest power of two seen
    MOV R3, 1           ; x = 1
loop:
    MOV R4, R3
    DEC R4              ; x - 1
    AND R4, R4, R3      ; x & (x - 1): zero only for powers of two (x starts at 1, never 0)
    JNZ next
    INC R0              ; found one
    MOV R2, R3          ; remember it
next:
    INC R3              ; next x
    DEC R1              ; one fewer to test
    JNZ loop
    HALT
