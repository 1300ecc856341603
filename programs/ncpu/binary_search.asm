; Binary search in a sorted word array
;
; Keeps a window [lo, hi) that must contain the key if it is present, and halves
; it by comparing the key with the middle element. Takes at most log2(N) + 1 steps.
;
; Data:   table = 16 sorted signed words at address 0
; Inputs: the keys 37 (present) and 40 (absent), passed to the subroutine in R1
; Result: R0 = 9 (index of 37 in table); R6 = -1 (40 is not there);
;         R7 = 4 (probes the search for 37 needed).
;
; Subroutine bsearch: in R1 = key; out R0 = index or -1, R7 = probes; clobbers R2-R5.

.equ N, 16

.data
table:  .word -50, -20, -7, 0, 3, 8, 15, 21, 30, 37, 44, 52, 60, 71, 85, 99

.text
    MOV R1, 40
    CALL bsearch
    MOV R6, R0              ; -1: not found
    MOV R1, 37
    CALL bsearch            ; R0 = 9
    HALT

; bsearch(key = R1) -> R0 = index or -1
bsearch:
    MOV R2, 0               ; lo = 0
    MOV R3, N               ; hi = N  (the window is lo <= i < hi)
    MOV R7, 0               ; probes
bs_loop:
    CMP R2, R3
    JGE bs_missing          ; empty window: the key is not in the table
    ADD R4, R2, R3
    SHR R4, R4, 1           ; mid = (lo + hi) / 2
    SHL R5, R4, 2           ; byte offset of table[mid]
    LDR R5, [R5 + table]    ; table[mid]
    INC R7
    CMP R5, R1
    JZ bs_found             ; table[mid] == key
    JL bs_right             ; table[mid] < key: the key can only be right of mid
    MOV R3, R4              ; table[mid] > key: hi = mid
    JMP bs_loop
bs_right:
    ADD R2, R4, 1           ; lo = mid + 1
    JMP bs_loop
bs_found:
    MOV R0, R4
    RET
bs_missing:
    MOV R0, -1
    RET
