; Sum of 1..n (classic nCPU dialect)
;
; Adds 1 + 2 + ... + n with a loop, then checks it against Gauss's formula
; n * (n + 1) / 2 (the divide by two is a right shift).
;
; Input:  R1 = n = 100
; Result: R0 = 5050 (the loop sum); R2 = 5050 (the formula); R1 = 0.

    MOV R1, 100         ; n
    ; --- the formula first, while R1 still holds n ---
    MOV R2, R1          ; R2 = n
    INC R2              ; R2 = n + 1
    MUL R2, R2, R1      ; R2 = n * (n + 1)
    SHR R2, R2, 1       ; R2 = n * (n + 1) / 2   (the product is always even)
    ; --- now the loop: add n, n-1, ..., 1 ---
    MOV R0, 0           ; sum = 0
    MOV R7, 0
    CMP R1, R7
    JZ done             ; n == 0: the sum is empty
loop:
    ADD R0, R0, R1      ; sum += n
    DEC R1              ; n -= 1
    JNZ loop            ; until n == 0
done:
    HALT
