"""The words a command receives after expansion, classified for the binder.

A Flag is a word spelled like an option that did not come from glob expansion; `--`
is a DoubleDash; everything else is an Operand that remembers whether its text was
written literally in the source (select_leaf refuses computed subcommand names)."""

from __future__ import annotations

from tysh.kernel.base.record import Record, frozen, value_record
from tysh.kernel.base.values import to_json_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


# Values that nothing mutates, checked statically (record.value_record): the expander
# builds one per word on the hot path, and a runtime-frozen init costs a third more.
@value_record
class Flag(Record):
    """`-n5`, `--lines=5`, `--lines`; `value` carries a typed value from `--name=$x`."""

    text: str
    value: Any = None


@value_record
class Operand(Record):
    """Any other word; `literal` is true when its text was fixed in the source."""

    value: Any
    literal: bool = False


@frozen
class DoubleDash(Record):
    """A literal `--`: the end of options."""

    pass


Arg = Flag | Operand | DoubleDash

DOUBLE_DASH = DoubleDash()


def word_value(a: Arg) -> Any:
    """A word as a value: an option's value, a raw_argv or verbatim word."""
    if type(a) is Operand:
        return a.value
    if type(a) is Flag:
        if a.value is not None:
            return a.text + "=" + to_json_text(a.value)
        return a.text
    return "--"


_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def looks_like_flag(text: str) -> bool:
    """`-` + ASCII letter, or `--` + ASCII letter."""
    if text[:1] != "-" or len(text) < 2:
        return False
    c = text[1]
    if c == "-":
        return len(text) > 2 and text[2] in _LETTERS
    return c in _LETTERS


def _classify_word(w: str) -> Arg:
    if w[:1] != "-" or len(w) < 2:
        return Operand(w, True)
    c = w[1]
    if c in _LETTERS:
        return Flag(w)
    if w == "--":
        return DOUBLE_DASH
    if c == "-" and w[2] in _LETTERS:
        return Flag(w)
    return Operand(w, True)


# word → its Arg. Args are values that nothing mutates, so one instance per short word
# is shared: building an instance costs more than the rest of classifying it.
_SEEN: dict[str, Arg] = {}


def classify(argv: list[str]) -> list[Arg]:
    """Classify plain strings (for `execute_argv` and tests): every word is literal."""
    seen = _SEEN
    out: list[Arg] = []
    # every word seen before is the common case: a plain loop of lookups (a
    # comprehension would be a second function call)
    for w in argv:
        a = seen.get(w)
        if a is None:
            break
        out.append(a)
    else:
        return out
    out = []
    append = out.append
    for w in argv:
        a = seen.get(w)
        if a is None:
            a = _classify_word(w)
            if len(w) <= 64:
                if len(seen) >= 4096:
                    seen.clear()
                seen[w] = a
        append(a)
    return out
