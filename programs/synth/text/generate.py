"""Writes the text machine's suite: one JSON task per file, outputs computed by plain-Python
references written here from the standard library (str methods, codecs' rot13, itertools.groupby, re),
independently of the DSL in ncpu_nb/text, so the suite checks the text machine against a second
opinion.

    python3 programs/synth/text/generate.py

Each task: the training examples a person would type (1-3 pairs) and 8 held-out pairs the text
machine never sees: the whole alphabet in both cases, the wrap-around letters, digits, punctuation,
runs, and random sentences. `description` says the task in words; the text machine never reads it.
"""
import codecs
import itertools
import json
import random
import re
import string
from pathlib import Path

HERE = Path(__file__).parent
LOW, UP = string.ascii_lowercase, string.ascii_uppercase
VOWELS = "aeiouAEIOU"


def caesar(k):
    return lambda s: s.translate(str.maketrans(LOW + UP, LOW[k:] + LOW[:k] + UP[k:] + UP[:k]))


def atbash(s):
    return s.translate(str.maketrans(LOW + UP, LOW[::-1] + UP[::-1]))


def vigenere(key):
    shifts = [LOW.index(c) for c in key]

    def encode(s):
        out, i = [], 0
        for c in s:
            if c.isascii() and c.isalpha():
                base = LOW if c.islower() else UP
                out.append(base[(base.index(c) + shifts[i % len(shifts)]) % 26])
                i += 1
            else:
                out.append(c)
        return "".join(out)
    return encode


def rle(count_first=True, ones=True):
    def encode(s):
        parts = []
        for c, run in itertools.groupby(s):
            n = len(list(run))
            count = str(n) if ones or n > 1 else ""
            parts.append(count + c if count_first else c + count)
        return "".join(parts)
    return encode


def remove(pattern):
    return lambda s: re.sub(pattern, "", s)


def replace(pattern, to):
    return lambda s: re.sub(pattern, to, s)


def then(f, g):
    return lambda s: g(f(s))


PUNCT = "[" + re.escape(string.punctuation) + "]"
rot13 = lambda s: codecs.encode(s, "rot13")  # noqa: E731
reverse = lambda s: s[::-1]  # noqa: E731
double_all = lambda s: "".join(c + c for c in s)  # noqa: E731
double_letters = lambda s: "".join(c + c if c.isascii() and c.isalpha() else c for c in s)  # noqa: E731

# name, category, description, function, training inputs. `atbash` and `atbash_upper` keep the famous
# trap: Atbash of "wizard" is "draziw", its reversal too, so one example cannot tell them apart.
TASKS = [
    ("caesar_3", "caesar", "shift letters 3 forward", caesar(3), ["hello"]),
    ("caesar_1", "caesar", "shift letters 1 forward", caesar(1), ["HAL"]),
    ("caesar_7_mixed", "caesar", "shift letters 7 forward", caesar(7), ["Attack at Dawn"]),
    ("caesar_back_3", "caesar", "shift letters 3 back", caesar(23), ["khoor zruog"]),
    ("caesar_25_wrap", "caesar", "shift letters 25 forward", caesar(25), ["abc xyz"]),
    ("caesar_10_two", "caesar", "shift letters 10 forward", caesar(10), ["hello", "Zebra"]),
    ("rot13", "caesar", "ROT13", rot13, ["Hello, World!"]),
    ("rot13_decode", "caesar", "ROT13 of ROT13 text", rot13, ["uryyb"]),
    ("atbash", "atbash", "Atbash", atbash, ["wizard"]),
    ("atbash_mixed", "atbash", "Atbash, both cases", atbash, ["Hello World"]),
    ("upper", "case", "uppercase", str.upper, ["Hello World"]),
    ("lower", "case", "lowercase", str.lower, ["Hello World"]),
    ("swapcase", "case", "swap case", str.swapcase, ["Hello World"]),
    ("upper_two", "case", "uppercase", str.upper, ["abc", "Mixed Case 42"]),
    ("remove_vowels", "remove", "remove vowels", remove("[aeiouAEIOU]"), ["programs from examples"]),
    ("remove_digits", "remove", "remove digits", remove("[0-9]"), ["R2-D2 and C-3PO"]),
    ("remove_spaces", "remove", "remove spaces", remove(" "), ["a b c", "hello world"]),
    ("remove_punctuation", "remove", "remove punctuation", remove(PUNCT), ["Hello, World! (yes)"]),
    ("remove_uppercase", "remove", "remove uppercase letters", remove("[A-Z]"), ["Hello World OK"]),
    ("remove_consonants", "remove", "remove consonants", remove("[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]"),
     ["programs from examples"]),
    ("replace_vowels_star", "replace", "vowels become *", replace("[aeiouAEIOU]", "*"), ["hello world"]),
    ("replace_digits_hash", "replace", "digits become #", replace("[0-9]", "#"), ["call 555 0123 now"]),
    ("replace_spaces_underscore", "replace", "spaces become _", replace(" ", "_"), ["snake case name"]),
    ("replace_punctuation_space", "replace", "punctuation becomes a space", replace(PUNCT, " "), ["a,b.c!d"]),
    ("reverse_word", "reverse", "reverse", reverse, ["stressed"]),
    ("reverse_sentence", "reverse", "reverse", reverse, ["hello world"]),
    ("double_all", "double", "every character twice", double_all, ["a b"]),
    ("double_letters", "double", "every letter twice", double_letters, ["hi there!"]),
    ("rle", "rle", "run-length: count then character", rle(), ["aaabccdddd"]),
    ("rle_char_first", "rle", "run-length: character then count", rle(count_first=False), ["aaabccdddd"]),
    ("rle_compact", "rle", "run-length, counts of 1 left out", rle(ones=False), ["aaabccdddd"]),
    ("vigenere_go", "vigenere", "Vigenère, key go", vigenere("go"), ["attack at dawn"]),
    ("vigenere_key", "vigenere", "Vigenère, key key", vigenere("key"), ["attack at dawn", "Hello World"]),
    ("vigenere_bird", "vigenere", "Vigenère, key bird", vigenere("bird"), ["meet me at the park"]),
    ("vigenere_ab", "vigenere", "Vigenère, key ab", vigenere("ab"), ["banana bread"]),
    ("add_one_every_byte", "bytes", "add 1 to every byte", lambda s: "".join(chr(ord(c) + 1) for c in s),
     ["HAL 9000"]),
    ("reverse_then_caesar", "composition", "reverse, then shift 3", then(reverse, caesar(3)), ["hello world"]),
    ("upper_no_vowels", "composition", "remove vowels, then uppercase", then(remove("[aeiouAEIOU]"), str.upper),
     ["programs from examples"]),
    ("rot13_reverse", "composition", "ROT13, then reverse", then(rot13, reverse), ["Hello World"]),
    ("atbash_upper", "composition", "Atbash, then uppercase", then(atbash, str.upper), ["wizard"]),
    ("no_spaces_reverse", "composition", "remove spaces, then reverse", then(remove(" "), reverse),
     ["never odd or even", "a b c"]),
    ("double_upper", "composition", "every character twice, uppercase", then(double_all, str.upper), ["hi yo"]),
    ("rle_of_reverse", "composition", "reverse, then run-length", then(reverse, rle()), ["aaabccdddd"]),
    ("lower_no_punctuation", "composition", "lowercase, then remove punctuation",
     then(str.lower, remove(PUNCT)), ["Hello, World!"]),
    ("caesar_double", "composition", "shift 1, then every character twice", then(caesar(1), double_all), ["abc"]),
    ("swapcase_reverse", "composition", "swap case, then reverse", then(str.swapcase, reverse), ["Hello World"]),
    ("vigenere_reverse", "composition", "Vigenère key go, then reverse", then(vigenere("go"), reverse),
     ["attack at dawn", "hello"]),
    ("digits_hash_upper", "composition", "digits become #, then uppercase", then(replace("[0-9]", "#"), str.upper),
     ["room 101 is here"]),
]

WORDS = ("the quick brown fox jumps over lazy dog zebra quiz jazz vex xylophone yak hello world attack "
         "dawn meet park at is a an of to by my we").split()


def held_out_inputs(rng: random.Random) -> list[str]:
    fixed = ["xyz XYZ wrap", "The Quick Brown Fox Jumps Over The Lazy Dog", "Room 404, floor 12!",
             "aaabbbcccd  zzz"]
    sentences = []
    for _ in range(4):
        words = rng.sample(WORDS, rng.randrange(2, 6))
        words = [w.capitalize() if rng.random() < 0.3 else w for w in words]
        text = " ".join(words) + rng.choice(["", ".", "!", "?", " 7", ", 42"])
        sentences.append(text)
    return fixed + sentences


def main() -> None:
    rng = random.Random(2024)
    names = []
    for name, category, words, fn, training in TASKS:
        task = {"name": name, "category": category, "description": words,
                "examples": [[x, fn(x)] for x in training],
                "held_out": [[x, fn(x)] for x in held_out_inputs(rng)],
                "time_limit": 30}
        (HERE / f"{name}.json").write_text(json.dumps(task, indent=1) + "\n")
        names.append(name)
    assert len(set(names)) == len(names)
    print(f"wrote {len(names)} tasks to {HERE}")


if __name__ == "__main__":
    main()
