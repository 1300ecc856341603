; Collatz sequence length
;
; Starting from n, repeat: if n is even, n = n / 2; if odd, n = 3n + 1.
; Count the steps until n reaches 1, and track the largest value on the way.
; (Nobody has proved that this always reaches 1, but it does for every n tried.)
;
; Input:  R1 = n = 27 (a famously long one)
; Result: R0 = 111 (steps from 27 to 1); R2 = 9232 (the highest value reached); R1 = 1.
;
; TEST sets the flags from an AND without keeping the result: ideal for "is bit 0 set?".

    MOV R1, 27              ; n
    MOV R0, 0               ; steps
    MOV R2, R1              ; peak so far
    MOV R6, 1               ; the bit mask for "odd?"
loop:
    CMP R1, 1
    JZ done                 ; reached 1
    INC R0
    TEST R1, R6             ; flags from n & 1
    JNZ odd
    SHR R1, R1, 1           ; even: n = n / 2
    JMP loop                ; halving never sets a new peak
odd:
    MUL R1, R1, 3           ; n = 3n ...
    INC R1                  ; ... + 1
    CMP R1, R2
    JLE loop
    MOV R2, R1              ; new peak
    JMP loop
done:
    HALT
