"""The words a command receives after expansion, classified for the binder (DESIGN §4.2).

A Flag is a word spelled like an option that did not come from glob expansion; `--`
is a DoubleDash; everything else is an Operand that remembers whether its text was
written literally in the source (select_leaf refuses computed subcommand names)."""

from __future__ import annotations

from typing import Any, Union

import attrs


@attrs.frozen(slots=True)
class Flag:
    """`-n5`, `--lines=5`, `--lines`; `value` carries a typed value from `--name=$x`."""

    text: str
    value: Any = None


@attrs.frozen(slots=True)
class Operand:
    value: Any
    literal: bool = False


@attrs.frozen(slots=True)
class DoubleDash:
    pass


Arg = Union[Flag, Operand, DoubleDash]

DOUBLE_DASH = DoubleDash()


def looks_like_flag(text: str) -> bool:
    """`-` + ASCII letter, or `--` + ASCII letter."""
    n = len(text)
    if n < 2 or text[0] != "-":
        return False
    c = text[1]
    if c == "-":
        return n > 2 and text[2].isascii() and text[2].isalpha()
    return c.isascii() and c.isalpha()


def classify(argv: list[str]) -> list[Arg]:
    """Classify plain strings (for `execute_argv` and tests): every word is literal."""
    out: list[Arg] = []
    for w in argv:
        if w == "--":
            out.append(DOUBLE_DASH)
        elif looks_like_flag(w):
            out.append(Flag(w))
        else:
            out.append(Operand(w, True))
    return out
