; Recursive Fibonacci (two recursive calls per call)
;
;     fib(n) = n                        if n < 2
;            = fib(n - 1) + fib(n - 2)  otherwise
;
; The first result has to survive the second call, so it is PUSHed while the
; second call runs. This naive recursion recomputes the same values again and
; again: the number of calls grows like fib(n) itself, so keep n small
; (compare fibonacci.asm, which takes n steps).
;
; Input:  R1 = n = 12
; Result: R0 = 144 (fib(12)); R7 = 465 (calls made, = 2 * fib(13) - 1);
;         SP = 65536 at the end.
;
; Subroutine fib: in R1 = n; out R0 = fib(n); clobbers R1, R2; counts calls in R7.

    MOV R1, 12
    MOV R7, 0               ; call counter
    CALL fib
    HALT

; fib(R1) -> R0
fib:
    INC R7                  ; one more call
    CMP R1, 2
    JGE fib_recurse
    MOV R0, R1              ; fib(0) = 0, fib(1) = 1
    RET
fib_recurse:
    PUSH R1                 ; save n
    DEC R1
    CALL fib                ; R0 = fib(n - 1)
    POP R1                  ; n
    PUSH R0                 ; save fib(n - 1) across the next call
    SUB R1, R1, 2
    CALL fib                ; R0 = fib(n - 2)
    POP R2                  ; fib(n - 1)
    ADD R0, R0, R2          ; fib(n) = fib(n - 2) + fib(n - 1)
    RET
