; Unsigned comparisons: JA, JB, JC, JBE
;
; The same 32 bits mean different numbers signed and unsigned: 0xFFFFFFFF is -1
; signed but 4294967295 unsigned. After CMP a, b the carry flag CF is the borrow of
; a - b, set exactly when a < b as unsigned numbers: JB (another name for JC)
; tests it. JA means "no borrow and not equal"; JBE is its opposite.
; Each test sets its result register to 1, compares, and jumps over the line that
; clears the result again when the condition holds: 1 = true, 0 = false.
;
; Result: R0 = 1 (0x80000000 above 1 unsigned: JA taken, though it is negative signed)
;         R1 = 0 (0xFFFFFFFF below 5 unsigned? no: JB not taken)
;         R2 = 1 (0xFFFFFFFF less than 5 signed: it is -1, JL taken)
;         R3 = 1 (0xFFFFFFFF + 1 carries out of 32 bits: JC taken); R7 = 0 (that sum)
;         R4 = 1 (0x90000000 below or equal 0x90000000: JBE taken)
;         R5 = -1 (0xFFFFFFFF, the unsigned maximum of 7, 0x80000000 and 0xFFFFFFFF)

    MOV R6, 1
    ; --- 0x80000000 > 1 (unsigned)? ---
    MOV R7, 0x80000000
    MOV R0, 1
    CMP R7, R6
    JA t1_done
    MOV R0, 0
t1_done:
    ; --- 0xFFFFFFFF < 5 (unsigned)? ---
    MOV R7, 0xFFFFFFFF
    MOV R1, 1
    CMP R7, 5
    JB t2_done              ; borrow? (4294967295 - 5 needs none)
    MOV R1, 0
t2_done:
    ; --- the same bits compared as signed numbers ---
    MOV R2, 1
    CMP R7, 5
    JL t3_done              ; -1 < 5
    MOV R2, 0
t3_done:
    ; --- carry out of an addition ---
    MOV R3, 1
    ADD R7, R7, R6          ; 0xFFFFFFFF + 1 = 0x1_00000000: keeps 0, sets CF
    JC t4_done
    MOV R3, 0
t4_done:
    ; --- equal values: "below or equal" is true ---
    MOV R6, 0x90000000
    MOV R5, 0x90000000
    MOV R4, 1
    CMP R6, R5
    JBE t5_done
    MOV R4, 0
t5_done:
    ; --- unsigned maximum of 7, 0x80000000, 0xFFFFFFFF ---
    MOV R5, 7               ; max so far
    MOV R6, 0x80000000
    CMP R6, R5
    JBE m1                  ; not above the max: keep the max
    MOV R5, R6              ; 0x80000000 is above 7 (as a signed number it is below!)
m1:
    MOV R6, 0xFFFFFFFF
    CMP R6, R5
    JBE m2
    MOV R5, R6              ; 0xFFFFFFFF is above 0x80000000
m2:
    HALT
