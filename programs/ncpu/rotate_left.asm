; Rotate left with shifts (classic nCPU dialect)
;
; nCPU has no rotate instruction. Rotating left by k (0 < k < 32) is
;     rotl(x, k) = (x << k) | (x >> (32 - k))
; the bits pushed out at the top come back in at the bottom.
; Rotating right by k is the same as rotating left by 32 - k.
;
; Inputs: x = 0x12345678, built from two 16-bit halves (the classic MOV immediate
;         holds 20 bits, so larger constants are assembled with SHL and OR).
; Result: R0 = 0x34567812 (878082066, rotl(x, 8));
;         R2 = 0x81234567 (-2128394905 signed, rotr(x, 4) = rotl(x, 28));
;         R3 = 3 (rotl(0x80000001, 1): the top bit wraps round to bit 0);
;         R1 = 0x12345678 (x, unchanged).
;
; Careful: k = 0 would need x >> 32, but shift amounts are clamped to 0..31 in nCPU,
; so the formula only works for 0 < k < 32 (handle k = 0 separately).

    ; --- build x = 0x12345678 ---
    MOV R1, 0x1234
    SHL R1, R1, 16      ; 0x12340000
    MOV R4, 0x5678
    OR R1, R1, R4       ; 0x12345678
    ; --- rotl(x, 8) ---
    SHL R4, R1, 8       ; 0x34567800 (the top byte 0x12 fell off)
    SHR R5, R1, 24      ; 0x00000012 (... and here it is again)
    OR R0, R4, R5       ; 0x34567812
    ; --- rotr(x, 4) = rotl(x, 28) ---
    SHL R4, R1, 28      ; 0x80000000
    SHR R5, R1, 4       ; 0x01234567
    OR R2, R4, R5       ; 0x81234567
    ; --- rotl(0x80000001, 1) ---
    MOV R3, 1
    SHL R6, R3, 31      ; 0x80000000
    OR R6, R6, R3       ; 0x80000001
    SHL R4, R6, 1       ; 0x00000002 (bit 31 shifted out)
    SHR R5, R6, 31      ; 0x00000001 (bit 31 brought back to bit 0)
    OR R3, R4, R5       ; 3
    HALT
