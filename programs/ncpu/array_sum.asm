; Sum of a word array
;
; Adds up N signed words with a pointer that walks the array and a counter that
; counts down to zero.
;
; Data:   numbers = 10 signed words at address 0 (N = 10)
; Result: R0 = 2080 (the sum); R3 = 208 (the average, sum / N, truncated).
;
; Registers: R1 = pointer, R2 = elements left, R4 = current element.

.equ N, 10

.data
numbers: .word 100, -25, 300, 7, 1000, -2, 450, 250, -5, 5

.text
    MOV R0, 0               ; sum
    MOV R1, numbers         ; pointer to the first element
    MOV R2, N               ; elements left
loop:
    LDR R4, [R1]            ; current element
    ADD R0, R0, R4          ; sum += element
    ADD R1, R1, 4           ; words are 4 bytes apart
    DEC R2
    JNZ loop
    DIV R3, R0, N           ; average (DIV truncates toward zero)
    HALT
