; A planted bug behind a magic word: the fuzzer's target (chapter 24)
;
; Reads the string at `input` and checks it against "BUG!" one byte at a time. Each
; matched byte takes a branch no shorter match takes, so a coverage-guided fuzzer
; climbs the word byte by byte. All four matched, the program stores through a wild
; pointer (a memory fault: the crash). "HA" sends it into a loop that never ends
; (the hang). Any other input halts with R0 = how many bytes of the word matched.
;
; Data:   input = "hello" and 3 zero bytes (8 bytes at address 0)
; Result: R0 = 0 (no byte of "BUG!" matched).

.data
input:  .ascii "hello"
        .zero 3

.text
    MOV R0, 0               ; bytes of the word matched
    MOV R1, input
    LDRB R2, [R1]
    CMP R2, 'H'
    JZ maybe_hang
    CMP R2, 'B'
    JNZ done
    INC R0
    LDRB R2, [R1 + 1]
    CMP R2, 'U'
    JNZ done
    INC R0
    LDRB R2, [R1 + 2]
    CMP R2, 'G'
    JNZ done
    INC R0
    LDRB R2, [R1 + 3]
    CMP R2, '!'
    JNZ done
    INC R0
    MOV R3, 0xFFFFF         ; 1 MiB: past any lane's data memory
    STR R0, [R3]            ; the planted bug: a store through a wild pointer
done:
    HALT
maybe_hang:
    LDRB R2, [R1 + 1]
    CMP R2, 'A'
    JNZ done
spin:
    JMP spin                ; "HA": never halts
