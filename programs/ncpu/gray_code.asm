; Gray code: encode and decode (classic nCPU dialect)
;
; The reflected binary Gray code of n is g = n ^ (n >> 1); consecutive numbers'
; codes differ in exactly one bit. Decoding XORs together all right shifts of g:
;     n = g ^ (g >> 1) ^ (g >> 2) ^ ...
;
; Input:  R1 = n = 200 (binary 11001000)
; Result: R0 = 172 (gray(200) = 200 ^ 100, binary 10101100);
;         R2 = 200 (decoded back from 172); R3 = 0.
;         R4 = 1   (gray(201) ^ gray(200) is a single bit: 201 ^ 100 = 173, 173 ^ 172 = 1).

    MOV R1, 200         ; n
    ; --- encode: g = n ^ (n >> 1) ---
    SHR R0, R1, 1       ; n >> 1
    XOR R0, R0, R1      ; g = n ^ (n >> 1)
    ; --- decode: b = g; s = g >> 1; while s != 0: b ^= s; s >>= 1 ---
    MOV R2, R0          ; b = g
    SHR R3, R0, 1       ; s = g >> 1; ZF if it is already 0
    JZ decoded
decode:
    XOR R2, R2, R3      ; b ^= s
    SHR R3, R3, 1       ; s >>= 1
    JNZ decode
decoded:
    ; --- neighbours differ in one bit: gray(n + 1) ^ gray(n) ---
    MOV R5, R1
    INC R5              ; n + 1
    SHR R4, R5, 1
    XOR R4, R4, R5      ; gray(n + 1)
    XOR R4, R4, R0      ; ... ^ gray(n): a single 1 bit
    HALT
