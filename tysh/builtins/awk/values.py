"""awk values: numbers are Python floats, strings are str, and a "numeric string" (a field,
getline input, a split() element, ARGV, ENVIRON, a -v value that looks like a number) is
a `StrNum`, a str subclass. The uninitialised value is `UNINIT`, an empty StrNum: it is
"" as a string, 0 as a number, and compares numerically with numbers (POSIX).

Comparison is numeric when both sides are numbers or StrNums, else string comparison of
their string values (numbers converted with CONVFMT, integers as integers)."""

from __future__ import annotations

import math

from tysh.kernel.base.hints import Any
from tysh.kernel.base.lazyre import ASCII, compile_pattern


class StrNum(str):
    """A string that came from input and looks like a number."""

    __slots__ = ()


UNINIT = StrNum("")

# (compiled at import, from the regex cache when it holds them: every program uses them)
_NUMERIC = compile_pattern(r"[ \t\n\r\f\v]*[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
                           r"[ \t\n\r\f\v]*\Z", ASCII)  # ASCII: \d is not other scripts' digits
_PREFIX = compile_pattern(
    r"[ \t\n\r\f\v]*([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?))", ASCII)
_numeric_match = NUMERIC_MATCH = _NUMERIC.match
_prefix_match = _PREFIX.match


class Arr(dict[str, Any]):
    """An awk array: referencing a missing element creates it, uninitialised."""

    __slots__ = ()

    def __missing__(self, key: str) -> Any:
        self[key] = UNINIT
        return UNINIT


def str2num(s: str) -> float:
    """awk's string → number: the longest leading decimal number, else 0 (strtod-like;
    no hex, no inf/nan words)."""
    try:
        f = float(s)
    except ValueError:
        m = _prefix_match(s)
        return float(m.group(1)) if m else 0.0
    if f - f == 0.0 and "_" not in s and s.isascii():  # float() takes other digits
        return f
    m = _prefix_match(s)
    if m:
        return float(m.group(1))
    t = s.strip(" \t\n\r\f\v")[:4].lower()
    if t in ("+inf", "-inf", "+nan", "-nan"):  # gawk: only with an explicit sign
        return float(t)
    return 0.0


def tonum(v: Any) -> float:
    return v if v.__class__ is float else str2num(v)


_NUM_START = NUM_START = frozenset(" \t\n\r\f\v+-.0123456789")


def strnum(s: str) -> str:
    """An input string, as a StrNum when it looks numeric (the first character rules out
    most words before the regex runs)."""
    if s[:1] in _NUM_START and _numeric_match(s):
        return StrNum(s)
    return s


def truth(v: Any) -> bool:
    c = v.__class__
    if c is float:
        return bool(v != 0.0)
    if c is StrNum:
        return str2num(v) != 0.0
    return bool(v != "")


def fmt_int(f: float) -> str:
    return str(int(f))


def fmt_special(f: float) -> str:
    """inf and nan as gawk prints them: always signed."""
    neg = math.copysign(1.0, f) < 0
    if f != f:
        return "-nan" if neg else "+nan"
    return "-inf" if neg else "+inf"
