; 2x2 matrix multiplication
;
; C = A * B with C[i][j] = sum over k of A[i][k] * B[k][j]. The matrices are
; stored row by row as words, so element [r][c] of an N x N matrix lives at
; byte offset 4 * (r * N + c). Written with three general loops, so changing N
; (and the data) multiplies bigger matrices too.
;
; Data:   A = [[2, -3], [5, 7]]   at address 0
;         B = [[-1, 4], [6, 2]]   at address 16
;         C = 4 words at address 32, filled by the program
; Result: C = [[-20, 2], [37, 34]], stored as the words -20, 2, 37, 34;
;         R0 = 34 (the last element computed, C[1][1]).
;
; Registers: R1 = i, R2 = j, R3 = k, R0 = running sum, R4-R6 = addresses and products.

.equ N, 2

.data
mat_a:  .word 2, -3
        .word 5, 7
mat_b:  .word -1, 4
        .word 6, 2
mat_c:  .zero 16

.text
    MOV R1, 0               ; i = row of C
row:
    MOV R2, 0               ; j = column of C
col:
    MOV R0, 0               ; sum = 0
    MOV R3, 0               ; k
inner:
    MUL R4, R1, N
    ADD R4, R4, R3
    SHL R4, R4, 2           ; offset of A[i][k]
    LDR R4, [R4 + mat_a]
    MUL R5, R3, N
    ADD R5, R5, R2
    SHL R5, R5, 2           ; offset of B[k][j]
    LDR R5, [R5 + mat_b]
    MUL R4, R4, R5          ; A[i][k] * B[k][j]
    ADD R0, R0, R4
    INC R3
    CMP R3, N
    JL inner
    MUL R6, R1, N
    ADD R6, R6, R2
    SHL R6, R6, 2           ; offset of C[i][j]
    STR R0, [R6 + mat_c]
    INC R2
    CMP R2, N
    JL col
    INC R1
    CMP R1, N
    JL row
    HALT
