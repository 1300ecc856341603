; Fibonacci numbers (classic nCPU dialect)
;
; Computes fib(n) iteratively, with fib(0) = 0 and fib(1) = 1:
; keep two consecutive terms (a, b) and step (a, b) -> (b, a + b) n times.
;
; Input:  R1 = n = 10 (set by the first instruction)
; Result: R0 = 55 (fib(10)); R2 = 89 (fib(11), the next term); R1 = 0.
;
; Registers: R0 = a = fib(i), R2 = b = fib(i + 1), R3 = scratch, R7 = constant 0.

    MOV R1, 10          ; n: which Fibonacci number we want
    MOV R0, 0           ; a = fib(0)
    MOV R2, 1           ; b = fib(1)
    MOV R7, 0           ; a zero to compare against
    CMP R1, R7          ; n == 0?  then fib(0) is already in R0
    JZ done
loop:
    ADD R3, R0, R2      ; t = a + b
    MOV R0, R2          ; a = b
    MOV R2, R3          ; b = t
    DEC R1              ; one step done; DEC sets ZF when n reaches 0
    JNZ loop
done:
    HALT
