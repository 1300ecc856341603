; XOR swap (classic nCPU dialect)
;
; Swaps two registers without a temporary register, using x ^ x = 0 and x ^ 0 = x:
;     a ^= b;  b ^= a;  a ^= b
; Also shows the usual swap through a third register, for contrast.
;
; Inputs: R1 = 42, R2 = 99; R3 = 7, R4 = 1000
; Result: R1 = 99, R2 = 42 (swapped by XOR); R3 = 1000, R4 = 7 (swapped through R0);
;         R0 = 7 (the temporary keeps the last value it held).

    MOV R1, 42
    MOV R2, 99
    XOR R1, R1, R2      ; R1 = a ^ b
    XOR R2, R2, R1      ; R2 = b ^ (a ^ b) = a
    XOR R1, R1, R2      ; R1 = (a ^ b) ^ a = b
    ; the ordinary way needs a spare register:
    MOV R3, 7
    MOV R4, 1000
    MOV R0, R3          ; tmp = x
    MOV R3, R4          ; x = y
    MOV R4, R0          ; y = tmp
    HALT
; Pitfall: "XOR R1, R1, R1" zeroes R1, so an XOR swap of a register with itself
; destroys the value; the temporary-register swap has no such trap.
