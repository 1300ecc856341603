"""The typed DSL of text transforms: what each one does to a byte string (the Python reference), its
cost (simpler ranks first), its description in words, and how its parameters follow from examples.

A `Transform` is one family with one parameter value; a `Pipeline` is one or two of them in order.
The nCPU program for a pipeline is written by `assembly.py`; the search is `transform_search.py`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ncpu_nb.text.char_classes import CLASSES, LETTERS, LOWER, UPPER

Pairs = list[tuple[bytes, bytes]]


def _shift_letter(c: int, k: int) -> int:
    """`c` moved `k` places along its own alphabet (wrapping z to a); non-letters unchanged."""
    if c in LOWER:
        return ord("a") + (c - ord("a") + k) % 26
    if c in UPPER:
        return ord("A") + (c - ord("A") + k) % 26
    return c


def _letter_shifts(pairs: Pairs) -> list[list[int]] | None:
    """Per example, the shift (0..25) of each letter, in order; None unless every letter maps to a
    letter of the same case and every other byte to itself (what any letter shift needs)."""
    out = []
    for x, y in pairs:
        if len(x) != len(y):
            return None
        shifts = []
        for a, b in zip(x, y):
            if a in LETTERS:
                if (a in LOWER) != (b in LOWER) or b not in LETTERS:
                    return None
                shifts.append((b - a) % 26)
            elif a != b:
                return None
        out.append(shifts)
    return out


def _runs(s: bytes) -> list[tuple[int, int]]:
    runs: list[list[int]] = []
    for c in s:
        if runs and runs[-1][0] == c:
            runs[-1][1] += 1
        else:
            runs.append([c, 1])
    return [(c, n) for c, n in runs]


class Family:
    """One kind of transform. `instances` lists the parameter values worth enumerating (empty where
    there are too many: those are only ever inferred); `infer` gives the values consistent with
    every example pair (the default tries each instance)."""

    name = ""
    cost = 1
    kind = "map"  # how assembly.py writes it: map, filter, double, reverse or rle

    def instances(self) -> list:
        return [None]

    def apply(self, param, s: bytes) -> bytes:
        raise NotImplementedError

    def words(self, param) -> str:
        raise NotImplementedError

    def infer(self, pairs: Pairs) -> list:
        return [p for p in self.instances() if all(self.apply(p, x) == y for x, y in pairs)]

    def extra_cost(self, param) -> int:
        return 0

    def inverse(self, param):
        """The transform undoing this one, for inferring a first stage backwards; None if there is none."""
        return None


class Copy(Family):
    name, cost = "copy", 0

    def apply(self, param, s):
        return s

    def words(self, param):
        return "copy the text unchanged"


class Upper(Family):
    name = "upper"

    def apply(self, param, s):
        return bytes(c - 32 if c in LOWER else c for c in s)

    def words(self, param):
        return "make every letter uppercase"


class Lower(Family):
    name = "lower"

    def apply(self, param, s):
        return bytes(c + 32 if c in UPPER else c for c in s)

    def words(self, param):
        return "make every letter lowercase"


class SwapCase(Family):
    name = "swapcase"

    def apply(self, param, s):
        return bytes(c - 32 if c in LOWER else c + 32 if c in UPPER else c for c in s)

    def words(self, param):
        return "swap the case of every letter"

    def inverse(self, param):
        return Transform("swapcase")


class Reverse(Family):
    name, kind = "reverse", "reverse"

    def apply(self, param, s):
        return s[::-1]

    def words(self, param):
        return "reverse the text"

    def inverse(self, param):
        return Transform("reverse")


class Atbash(Family):
    name = "atbash"

    def apply(self, param, s):
        return bytes(ord("a") + ord("z") - c if c in LOWER else ord("A") + ord("Z") - c if c in UPPER else c
                     for c in s)

    def words(self, param):
        return "mirror the alphabet (Atbash: a↔z, b↔y, …), other characters unchanged"

    def inverse(self, param):
        return Transform("atbash")


class Caesar(Family):
    name, cost = "caesar", 2

    def instances(self):
        return list(range(1, 26))

    def apply(self, k, s):
        return bytes(_shift_letter(c, k) for c in s)

    def words(self, k):
        back = f" (= {26 - k} back)" if k > 13 else ""
        name = "ROT13" if k == 13 else "a Caesar cipher"
        return (f"shift every letter {k} place{'s' if k > 1 else ''} forward{back}, wrapping z to "
                f"{chr(ord('a') + (k - 1))} ({name}); other characters unchanged")

    def infer(self, pairs):
        # shift = (k - h) mod 26 from any letter; every other letter must agree
        shifts = _letter_shifts(pairs)
        found = {d for per in shifts or [] for d in per}
        return [found.pop()] if len(found) == 1 and 0 not in found else []

    def inverse(self, k):
        return Transform("caesar", 26 - k)


class Vigenere(Family):
    """Letter i (counting letters only) moves by key[i mod len(key)]: Vigenère with a short key."""

    name, cost = "vigenere", 2
    MAX_KEY = 4

    def instances(self):
        return []  # 26**4 keys: inferred only

    def apply(self, key, s):
        out, i = [], 0
        for c in s:
            if c in LETTERS:
                out.append(_shift_letter(c, key[i % len(key)]))
                i += 1
            else:
                out.append(c)
        return bytes(out)

    def words(self, key):
        letters = "".join(chr(ord("a") + k) for k in key)
        return (f"shift the letters by the repeating key {', '.join(map(str, key))} (Vigenère with key "
                f"\"{letters}\"; the key advances on letters only), other characters unchanged")

    def extra_cost(self, key):
        return len(key)

    def infer(self, pairs):
        shifts = _letter_shifts(pairs)
        if not shifts:
            return []
        for length in range(2, self.MAX_KEY + 1):  # length 1 is a Caesar shift
            key = self._key(shifts, length)
            if key is not None and len(set(key)) > 1:
                return [key]
        return []

    @staticmethod
    def _key(shifts: list[list[int]], length: int) -> tuple | None:
        """The key of this length that gives every letter its shift, if one does. Each position of the key
        must be seen at least twice: a key the examples never repeat fits any letters (abc → cab) and
        says nothing about the next ones."""
        key: list[int | None] = [None] * length
        seen = [0] * length
        for per in shifts:
            for i, d in enumerate(per):
                if key[i % length] not in (None, d):
                    return None
                key[i % length] = d
                seen[i % length] += 1
        return tuple(key) if min(seen) >= 2 else None


class Remove(Family):
    name, cost, kind = "remove", 2, "filter"
    CLASSES = ("vowels", "digits", "spaces", "punctuation", "consonants", "uppercase", "lowercase", "letters")

    def instances(self):
        return list(self.CLASSES)

    def apply(self, cls, s):
        return bytes(c for c in s if c not in CLASSES[cls])

    def words(self, cls):
        return f"remove the {cls}"


class Replace(Family):
    name, cost = "replace", 3

    def instances(self):
        return []  # a class and any byte: inferred only

    def apply(self, param, s):
        cls, to = param
        return bytes(to if c in CLASSES[cls] else c for c in s)

    def words(self, param):
        cls, to = param
        return f"replace the {cls} with {chr(to)!r}"

    def infer(self, pairs):
        if any(len(x) != len(y) for x, y in pairs):
            return []
        found = []
        for cls in Remove.CLASSES:
            targets = {b for x, y in pairs for a, b in zip(x, y) if a in CLASSES[cls]}
            if len(targets) != 1:
                continue
            param = (cls, targets.pop())
            # a replacement inside the class itself would be a different transform (e.g. a case change)
            if param[1] not in CLASSES[cls] and all(self.apply(param, x) == y for x, y in pairs):
                found.append(param)
        return found


class Double(Family):
    name, cost, kind = "double", 2, "double"
    WHICH = ("all", "letters")

    def instances(self):
        return list(self.WHICH)

    def apply(self, which, s):
        return bytes(b for c in s for b in ((c, c) if which == "all" or c in LETTERS else (c,)))

    def words(self, which):
        return "write every character twice" if which == "all" else "write every letter twice"


class RunLength(Family):
    """Runs of one byte become the run's length in decimal and the byte ("aaab" → "3a1b"); variants:
    the byte first ("a3b1"), and lengths of 1 left out ("3ab")."""

    name, cost, kind = "rle", 3, "rle"

    def instances(self):
        return [(order, ones) for order in ("count-first", "char-first") for ones in (True, False)]

    def apply(self, param, s):
        order, ones = param
        out = bytearray()
        for c, n in _runs(s):
            count = str(n).encode() if ones or n > 1 else b""
            out += count + bytes([c]) if order == "count-first" else bytes([c]) + count
        return bytes(out)

    def words(self, param):
        order, ones = param
        example = self.apply(param, b"aaab").decode()
        return (f"run-length encode: each run as its length then the character" if order == "count-first" else
                "run-length encode: each run as the character then its length") + \
            ("" if ones else ", lengths of 1 left out") + f" (aaab → {example})"

    def extra_cost(self, param):
        return 0 if param[1] else 1


class AddBytes(Family):
    """Plain byte arithmetic, modulo 256: no notion of letters. Ranked low on purpose: where a letter
    shift fits the same examples, the letter shift is what people mean (and what generalises)."""

    name, cost = "add", 5

    def instances(self):
        return []

    def apply(self, k, s):
        return bytes((c + k) & 0xFF for c in s)

    def words(self, k):
        return f"add {k} to every byte (mod 256, letters or not)"

    def infer(self, pairs):
        found = {(b - a) & 0xFF for x, y in pairs if len(x) == len(y) for a, b in zip(x, y)}
        same = all(len(x) == len(y) for x, y in pairs)
        return [k for k in found if same and len(found) == 1 and k]


class XorBytes(Family):
    name, cost = "xor", 5

    def instances(self):
        return []

    def apply(self, k, s):
        return bytes(c ^ k for c in s)

    def words(self, k):
        return f"XOR every byte with {k}"

    def infer(self, pairs):
        found = {a ^ b for x, y in pairs if len(x) == len(y) for a, b in zip(x, y)}
        same = all(len(x) == len(y) for x, y in pairs)
        return [k for k in found if same and len(found) == 1 and k]

    def inverse(self, k):
        return Transform("xor", k)


# In order of preference: between two transforms of equal cost that fit, the earlier is reported.
FAMILIES: dict[str, Family] = {f.name: f for f in (
    Copy(), Upper(), Lower(), SwapCase(), Reverse(), Atbash(), Caesar(), Remove(), Double(), Replace(),
    RunLength(), Vigenere(), AddBytes(), XorBytes())}
PRIORITY = {name: i for i, name in enumerate(FAMILIES)}


@dataclass(frozen=True)
class Transform:
    family: str
    param: object = None

    @property
    def definition(self) -> Family:
        return FAMILIES[self.family]

    def apply(self, s: bytes) -> bytes:
        return self.definition.apply(self.param, s)

    def words(self) -> str:
        return self.definition.words(self.param)

    @property
    def cost(self) -> int:
        return self.definition.cost + self.definition.extra_cost(self.param)

    def inverse(self) -> Transform | None:
        return self.definition.inverse(self.param)

    def __str__(self) -> str:
        if self.param is None:
            return self.family
        param = ",".join(map(str, self.param)) if isinstance(self.param, tuple) else self.param
        return f"{self.family}({param})"


@dataclass(frozen=True)
class Pipeline:
    """Transforms applied in order: the first to the input, the next to its result."""

    stages: tuple[Transform, ...]

    def apply(self, s: bytes) -> bytes:
        for stage in self.stages:
            s = stage.apply(s)
        return s

    @property
    def cost(self) -> int:
        return sum(s.cost for s in self.stages) + 2 * (len(self.stages) - 1)

    @property
    def rank(self) -> tuple:
        """Sort key: cheaper first, then the families' order of preference, then the parameters."""
        return (self.cost, len(self.stages), [PRIORITY[s.family] for s in self.stages], str(self))

    def words(self) -> str:
        text = ", then ".join(s.words() for s in self.stages)
        return text[0].upper() + text[1:]

    def __str__(self) -> str:
        return " ; ".join(map(str, self.stages))
