; Maximum of three signed numbers
;
; Keeps a running maximum: start with a, then replace it with b or c when they
; are bigger. JGE compares as signed numbers, so negative values work.
;
; Inputs: R1 = a = -5, R2 = b = 42, R3 = c = 17
; Result: R0 = 42 (max(-5, 42, 17)); R4 = -5 (the minimum, found the same way with JLE).

    MOV R1, -5              ; a
    MOV R2, 42              ; b
    MOV R3, 17              ; c
    ; --- maximum ---
    MOV R0, R1              ; max = a
    CMP R0, R2
    JGE keep_b              ; max >= b: keep it
    MOV R0, R2              ; max = b
keep_b:
    CMP R0, R3
    JGE keep_c
    MOV R0, R3              ; max = c
keep_c:
    ; --- minimum, for comparison ---
    MOV R4, R1              ; min = a
    CMP R4, R2
    JLE min_b
    MOV R4, R2
min_b:
    CMP R4, R3
    JLE min_c
    MOV R4, R3
min_c:
    HALT
