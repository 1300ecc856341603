"""Checks of the machine protocol's arguments, shared by every engine: a wrong type is a TypeError and
a value out of range a ValueError, each naming the argument, before the engine acts on it."""
from __future__ import annotations

import numbers


def count(value, name: str) -> int:
    """A number of steps: an integer (not a bool), zero or more."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} is a number of steps (an integer), not {value!r}")
    if value < 0:
        raise ValueError(f"{name} is a number of steps, zero or more, not {value}")
    return int(value)


def optional_count(value, name: str) -> int | None:
    """A step budget: None (the engine's default or no limit) or a `count`."""
    return None if value is None else count(value, name)


def register_name(name) -> str:
    if not isinstance(name, str):
        raise TypeError(f"a register is named by a string (e.g. 'R0', 'x0'), not {name!r}")
    return name


def register_bits(name: str, value, bits: int) -> int:
    """`value` as a `bits`-wide register's bits: an integer from -2**(bits-1) (two's complement) to
    2**bits - 1; anything wider would be cut silently."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} holds a {bits}-bit integer, not {value!r}")
    if not -(1 << (bits - 1)) <= value < 1 << bits:
        raise ValueError(f"{name} holds a {bits}-bit integer: {value} does not fit "
                         f"(from -2**{bits - 1} to 2**{bits} - 1)")
    return int(value) & ((1 << bits) - 1)


def register_number(name: str, value) -> float:
    """A soft register's value: a real number (a bool is no number here)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} holds a number, not {value!r}")
    return float(value)


def location(value, bits: int, name: str = "pc") -> int:
    """A code location (`pc = …`): an integer from 0 to 2**bits - 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} is a code location (an integer), not {value!r}")
    if not 0 <= value < 1 << bits:
        raise ValueError(f"{name} is a code location from 0 to 2**{bits} - 1, not {value}")
    return int(value)

