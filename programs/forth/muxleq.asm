; MUXLEQ on the nCPU: the two-instruction machine that runs eForth (programs/forth/muxleq.dec)
;
; Each MUXLEQ instruction is three 16-bit cells a, b, c at pc; pc += 3, then
;   a == -1          m[b] = next input byte, or -1 at end of input
;   b == -1          output the low byte of m[a]
;   c < 0, c != -1   m[b] = (m[a] & ~m[c & 0x7FFF]) | (m[b] & m[c & 0x7FFF])   (mux)
;   otherwise        r = m[b] - m[a], wrapped to 16 bits; m[b] = r; if r <= 0, pc = c   (subleq)
; and the machine stops when pc is negative (as a 16-bit number, i.e. >= 0x8000).
;
; Memory (bytes):
;   0x0000  IN_HEAD   next input byte to read (index into IN_BUF)
;   0x0004  IN_LEN    input bytes in IN_BUF
;   0x0008  IN_EOF    1: no more input will come (an input instruction then reads -1)
;   0x000C  OUT_LEN   output bytes in OUT_BUF
;   0x0010  OUT_CAP   how many bytes OUT_BUF may take before the driver must empty it (at most 0x1F00)
;   0x0100  IN_BUF    input bytes (IN_CAP of them)
;   0x2100  OUT_BUF   output bytes (OUT_CAP of them)
;   0x4000  CELLS     the 65,536 cells, 4 bytes each, cell i at CELLS + 4*i, each held sign-extended
;                     (-32768..32767), so -1 and "negative" are plain 32-bit comparisons
; The driver (ncpu_nb/muxleq/ncpu_vm.py) fills the input, empties the output and restarts at `loop`.
; The program HALTs with R7 telling why: 0 the MUXLEQ machine stopped, 1 it wants input the buffer does not
; hold yet, 2 the output buffer is full. For 1 and 2 the MUXLEQ pc (R0) is wound back to the instruction,
; which runs again after the restart.
;
; Registers: R0 = MUXLEQ pc; R1, R2, R3 = a, b, c (then byte offsets of their cells); R4-R7 scratch.
; A cell's byte offset is (cell & 0xFFFF) * 4, made by SHL 16 then SHR 14 (no 16-bit mask needed).

.equ IN_HEAD, 0x0
.equ IN_LEN, 0x4
.equ IN_EOF, 0x8
.equ OUT_LEN, 0xC
.equ IN_BUF, 0x100
.equ IN_CAP, 0x2000
.equ OUT_BUF, 0x2100        ; up to 0x4000
.equ OUT_CAP, 0x10
.equ CELLS, 0x4000
.equ CELLS_B, 0x4004        ; CELLS + 4 and + 8: the cells after a
.equ CELLS_C, 0x4008

    MOV R0, 0               ; MUXLEQ execution starts at cell 0
loop:
    CMP R0, 32767
    JA stopped              ; unsigned: pc >= 0x8000, or negative after a jump
    SHL R4, R0, 2
    LDR R1, [R4 + CELLS]    ; a
    LDR R2, [R4 + CELLS_B]  ; b
    LDR R3, [R4 + CELLS_C]  ; c
    ADD R0, R0, 3
    CMP R1, -1
    JZ input
    CMP R2, -1
    JZ output
    SHL R2, R2, 16
    SHR R2, R2, 14          ; b's byte offset
    SHL R1, R1, 16
    SHR R1, R1, 14          ; a's byte offset
    CMP R3, -1
    JZ subleq
    CMP R3, 0
    JL mux
subleq:
    LDR R5, [R1 + CELLS]    ; m[a]
    LDR R6, [R2 + CELLS]    ; m[b]
    SUB R6, R6, R5
    SHL R6, R6, 16
    SAR R6, R6, 16          ; r = m[b] - m[a], wrapped to a signed 16-bit number
    STR R6, [R2 + CELLS]
    CMP R6, 0
    JG loop                 ; r > 0: fall through to the next instruction
    MOV R0, R3              ; r <= 0: jump to c
    JMP loop
mux:
    AND R3, R3, 32767
    SHL R3, R3, 2
    LDR R7, [R3 + CELLS]    ; the selector m[c & 0x7FFF]
    LDR R5, [R1 + CELLS]    ; m[a]
    LDR R6, [R2 + CELLS]    ; m[b]
    XOR R6, R6, R5
    AND R6, R6, R7
    XOR R6, R6, R5          ; m[a] ^ ((m[a] ^ m[b]) & sel): m[b]'s bits where sel is 1, m[a]'s elsewhere
    STR R6, [R2 + CELLS]
    JMP loop
input:
    LDR R5, [IN_HEAD]
    LDR R6, [IN_LEN]
    CMP R5, R6
    JL have_byte
    LDR R6, [IN_EOF]
    CMP R6, 0
    JNZ end_of_input
    SUB R0, R0, 3           ; run this input instruction again once the driver has added input
    MOV R7, 1
    HALT
have_byte:
    LDRB R6, [R5 + IN_BUF]
    INC R5
    STR R5, [IN_HEAD]
    JMP store_input
end_of_input:
    MOV R6, -1
store_input:
    SHL R2, R2, 16
    SHR R2, R2, 14
    STR R6, [R2 + CELLS]
    JMP loop
output:
    SHL R1, R1, 16
    SHR R1, R1, 14
    LDR R6, [R1 + CELLS]
    LDR R5, [OUT_LEN]
    LDR R4, [OUT_CAP]
    CMP R5, R4
    JL room
    SUB R0, R0, 3           ; full: the driver empties the buffer, then this output runs again
    MOV R7, 2
    HALT
room:
    STRB R6, [R5 + OUT_BUF]
    INC R5
    STR R5, [OUT_LEN]
    JMP loop
stopped:
    MOV R7, 0
    HALT
