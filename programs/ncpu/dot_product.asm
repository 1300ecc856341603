; Dot product of two vectors
;
; dot(u, v) = u[0]*v[0] + u[1]*v[1] + ... : multiply matching elements and sum.
; One index register addresses both arrays, since their elements are both words.
;
; Data:   u = 3, -1, 4, 1, -5, 9, 2, -6    (8 words at address 0)
;         v = 2, 7, -1, 8, 2, -8, 1, 3     (8 words at address 32)
; Result: R0 = -95 (the dot product); R1 = 32 (byte offset just past the last element).

.equ N, 8

.data
u:      .word 3, -1, 4, 1, -5, 9, 2, -6
v:      .word 2, 7, -1, 8, 2, -8, 1, 3

.text
    MOV R0, 0               ; sum
    MOV R1, 0               ; byte offset of element i (4 * i)
    MOV R2, N               ; elements left
loop:
    LDR R3, [R1 + u]        ; u[i]
    LDR R4, [R1 + v]        ; v[i]
    MUL R3, R3, R4
    ADD R0, R0, R3
    ADD R1, R1, 4
    DEC R2
    JNZ loop
    HALT
