"""The words a command receives after expansion, classified for the binder (DESIGN §4.2).

A Flag is a word spelled like an option that did not come from glob expansion; `--`
is a DoubleDash; everything else is an Operand that remembers whether its text was
written literally in the source (select_leaf refuses computed subcommand names)."""

from __future__ import annotations

from typing import Any

import attrs


# Treated as immutable but not attrs-frozen: a frozen init costs twice as much, and the
# expander builds one of these per word on the hot path. Hashable all the same.
@attrs.define(slots=True, unsafe_hash=True)
class Flag:
    """`-n5`, `--lines=5`, `--lines`; `value` carries a typed value from `--name=$x`."""

    text: str
    value: Any = None


@attrs.define(slots=True, unsafe_hash=True)
class Operand:
    """Any other word; `literal` is true when its text was fixed in the source."""

    value: Any
    literal: bool = False


@attrs.frozen(slots=True)
class DoubleDash:
    """A literal `--`: the end of options."""

    pass


Arg = Flag | Operand | DoubleDash

DOUBLE_DASH = DoubleDash()


_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def looks_like_flag(text: str) -> bool:
    """`-` + ASCII letter, or `--` + ASCII letter."""
    if text[:1] != "-" or len(text) < 2:
        return False
    c = text[1]
    if c == "-":
        return len(text) > 2 and text[2] in _LETTERS
    return c in _LETTERS


def classify(argv: list[str]) -> list[Arg]:
    """Classify plain strings (for `execute_argv` and tests): every word is literal."""
    out: list[Arg] = []
    append = out.append
    for w in argv:
        if w[:1] != "-" or len(w) < 2:
            append(Operand(w, True))
        elif w[1] in _LETTERS:
            append(Flag(w))
        elif w == "--":
            append(DOUBLE_DASH)
        elif w[1] == "-" and w[2] in _LETTERS:
            append(Flag(w))
        else:
            append(Operand(w, True))
    return out
