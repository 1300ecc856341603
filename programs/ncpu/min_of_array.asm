; Minimum of a word array (and where it is)
;
; Scans the array once, keeping the smallest value seen and its index.
; The comparison is signed (JGE), so negative numbers count as small.
;
; Data:   values = 12 signed words at address 0 (N = 12)
; Result: R0 = -17 (the minimum); R1 = 7 (its index, the first one if it repeats).
;
; Registers: R2 = i, R3 = address of values[i], R4 = values[i].

.equ N, 12

.data
values: .word 31, -4, 8, 120, 0, -9, 55, -17, 3, -17, 64, 2

.text
    LDR R0, [values]        ; min = values[0]
    MOV R1, 0               ; index of min
    MOV R2, 1               ; i = 1
    MOV R3, values
    ADD R3, R3, 4           ; &values[1]
loop:
    CMP R2, N
    JGE done                ; i == N: scanned everything
    LDR R4, [R3]            ; values[i]
    CMP R4, R0
    JGE not_smaller         ; values[i] >= min: not a new minimum (ties keep the first)
    MOV R0, R4              ; new minimum ...
    MOV R1, R2              ; ... at index i
not_smaller:
    INC R2                  ; i++
    ADD R3, R3, 4           ; next word
    JMP loop
done:
    HALT
