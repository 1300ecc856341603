; Parity by XOR folding (classic nCPU dialect)
;
; The parity of a word is the XOR of all its bits: 1 if it has an odd number of
; 1 bits. Folding halves the work each step with no loop and no branch:
;     x ^= x >> 16;  x ^= x >> 8;  x ^= x >> 4;  x ^= x >> 2;  x ^= x >> 1;  parity = x & 1
;
; Input:  R1 = x = 0x6B3D1 (439249, which has 11 one bits)
; Result: R0 = 1 (odd parity); R2 = 0 (parity of 0x6B3D0, which has 10 one bits).
;
; Registers: R3 = scratch, R6 = constant 1.

    MOV R6, 1
    MOV R1, 0x6B3D1     ; the value to test
    MOV R0, R1          ; work on a copy
    SHR R3, R0, 16
    XOR R0, R0, R3      ; bit 0 now holds parity of bits 0 and 16, bit 1 of 1 and 17, ...
    SHR R3, R0, 8
    XOR R0, R0, R3
    SHR R3, R0, 4
    XOR R0, R0, R3
    SHR R3, R0, 2
    XOR R0, R0, R3
    SHR R3, R0, 1
    XOR R0, R0, R3      ; bit 0 is now the XOR of all 32 bits
    AND R0, R0, R6      ; keep just that bit
    ; --- the same for x with its lowest bit cleared: one bit fewer, parity flips ---
    MOV R2, 0x6B3D0
    SHR R3, R2, 16
    XOR R2, R2, R3
    SHR R3, R2, 8
    XOR R2, R2, R3
    SHR R3, R2, 4
    XOR R2, R2, R3
    SHR R3, R2, 2
    XOR R2, R2, R3
    SHR R3, R2, 1
    XOR R2, R2, R3
    AND R2, R2, R6
    HALT
