; Table of triangular numbers
;
; T(k) = 1 + 2 + ... + k. Each entry follows from the one before: T(k) = T(k-1) + k,
; so the table costs one addition per entry. Entry k - 1 of the table holds T(k).
;
; Data:   table = 12 words at address 0, filled by the program
; Result: table = 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78;
;         R0 = 78 (T(12), the last entry); R1 = 12.

.equ N, 12

.data
table:  .zero 48            ; N words

.text
    MOV R0, 0               ; T(0) = 0
    MOV R1, 0               ; k
    MOV R2, table           ; where T(k) goes
loop:
    INC R1                  ; k = k + 1
    ADD R0, R0, R1          ; T(k) = T(k - 1) + k
    STR R0, [R2]
    ADD R2, R2, 4
    CMP R1, N
    JL loop
    HALT
