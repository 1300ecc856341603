; Recursive factorial (CALL/RET with PUSH/POP)
;
;     fact(n) = 1               if n <= 1
;             = n * fact(n - 1) otherwise
;
; Each call saves its own n on the stack before recursing, because the inner
; call reuses R1; after the inner call returns, POP brings n back. CALL pushes
; the return address and RET pops it, so the stack interleaves return
; addresses and saved values.
;
; Input:  R1 = n = 10
; Result: R0 = 3628800 (10!); R1 = 10 (fact preserves its argument);
;         R2 = 65460 (SP at the deepest call: 10 return addresses and 9 saved n's
;                     = 19 words = 76 bytes below the top, 65536);
;         SP = 65536 again at the end (every PUSH was matched by a POP).
;
; Subroutine fact: in R1 = n; out R0 = n!; preserves R1; writes R2 in the base case.

    MOV R1, 10
    CALL fact
    HALT

; fact(R1) -> R0
fact:
    CMP R1, 1
    JG fact_recurse         ; n > 1: recurse
    MOV R0, 1               ; base case: 0! = 1! = 1
    MOV R2, SP              ; (record how deep the stack got)
    RET
fact_recurse:
    PUSH R1                 ; save n: the inner call overwrites R1
    DEC R1
    CALL fact               ; R0 = (n - 1)!
    POP R1                  ; n again
    MUL R0, R0, R1          ; n! = n * (n - 1)!
    RET
