"""Character classes the text transforms act on: which bytes belong, said in words.

Membership is defined here once, as byte sets; `assembly.class_test` writes the same sets as compare
chains for the nCPU, and the tests check the two agree on every byte.
"""
from __future__ import annotations

LOWER = frozenset(range(ord("a"), ord("z") + 1))
UPPER = frozenset(range(ord("A"), ord("Z") + 1))
LETTERS = LOWER | UPPER
VOWELS = frozenset(b"aeiouAEIOU")
PUNCTUATION_RANGES = ((33, 47), (58, 64), (91, 96), (123, 126))  # printable ASCII that is no letter, digit, space

CLASSES: dict[str, frozenset[int]] = {
    "vowels": VOWELS,
    "consonants": LETTERS - VOWELS,
    "digits": frozenset(range(ord("0"), ord("9") + 1)),
    "spaces": frozenset(b" "),
    "punctuation": frozenset(c for lo, hi in PUNCTUATION_RANGES for c in range(lo, hi + 1)),
    "uppercase": UPPER,
    "lowercase": LOWER,
    "letters": LETTERS,
}


def member(name: str, byte: int) -> bool:
    return byte in CLASSES[name]
