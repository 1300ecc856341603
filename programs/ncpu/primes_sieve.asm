; Sieve of Eratosthenes: the primes below 100
;
; sieve[i] is one byte per number 0..99: 1 while i may be prime, 0 once it is
; known to be composite. For each p with p * p < 100 that is still marked prime,
; cross out p*p, p*p + p, p*p + 2p, ... (smaller multiples were crossed out by
; smaller primes already). Finally collect the survivors.
;
; Data:   sieve (100 bytes at address 0), primes (25 words at address 100)
; Result: R0 = 25 (there are 25 primes below 100);
;         sieve = [0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, ...]  (1 exactly at the primes);
;         primes = 2, 3, 5, 7, 11, ..., 97 as words; R5 = 97 (the last prime found).

.equ N, 100

.data
sieve:  .zero N             ; one byte per number below N
primes: .zero 100           ; up to 25 words: the primes in increasing order

.text
    ; --- mark 2..N-1 as "maybe prime" (0 and 1 stay 0) ---
    MOV R1, 2
    MOV R2, 1
init:
    STRB R2, [R1 + sieve]   ; sieve[i] = 1
    INC R1
    CMP R1, N
    JL init
    ; --- cross out multiples ---
    MOV R1, 2               ; p
outer:
    MUL R3, R1, R1          ; m = p * p
    CMP R3, N
    JGE collect             ; p * p >= N: every composite is already crossed out
    LDRB R4, [R1 + sieve]
    CMP R4, 0
    JZ next_p               ; p itself is composite: its multiples are done already
    MOV R2, 0
cross:
    STRB R2, [R3 + sieve]   ; sieve[m] = 0
    ADD R3, R3, R1          ; m += p
    CMP R3, N
    JL cross
next_p:
    INC R1
    JMP outer
    ; --- count the primes and write them out as words ---
collect:
    MOV R0, 0               ; count
    MOV R1, 0               ; i
    MOV R6, primes          ; where the next prime goes
scan:
    LDRB R4, [R1 + sieve]
    CMP R4, 0
    JZ not_prime
    STR R1, [R6]            ; primes[count] = i
    ADD R6, R6, 4
    INC R0
    MOV R5, R1              ; last prime so far
not_prime:
    INC R1
    CMP R1, N
    JL scan
    HALT
