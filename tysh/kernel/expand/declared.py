"""Variables as `declare -p`, `set` and `${x@A}` show them: quoted so the text reads
back as the same value, with the attribute letters in bash's order."""

from __future__ import annotations

from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.values import array_items, assoc_items, to_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["attr_letters", "declare_value", "dq"]

_CONTROL = LazyRegex(r"[\x00-\x1f\x7f]")
_ANSI_CHARS = LazyRegex(r"[\x00-\x1f\x7f\\']")
# (a table, not a regex substitution: `_sre` hands a replacement template to `re`)
_DQ_ESCAPES = str.maketrans({c: "\\" + c for c in '"\\$`'})
_BARE_KEY = LazyRegex(r"[A-Za-z0-9_.@%+=:,/-]+")
_ANSI_OUT = {"\a": "\\a", "\b": "\\b", "\x1b": "\\E", "\f": "\\f", "\n": "\\n", "\r": "\\r",
             "\t": "\\t", "\v": "\\v", "\\": "\\\\", "'": "\\'"}


def dq(s: str) -> str:
    """A value quoted as bash's `declare -p` does: "…", or $'…' when it holds control
    characters (so the output can be read back)."""
    if _CONTROL.search(s):
        return "$'" + _ANSI_CHARS.sub(
            lambda m: _ANSI_OUT.get(m.group(), f"\\{ord(m.group()):03o}"), s) + "'"
    return '"' + s.translate(_DQ_ESCAPES) + '"'


def _dq_key(k: str) -> str:
    """An associative array key as `declare -p` shows it: bare when safe, else quoted."""
    return k if _BARE_KEY.fullmatch(k) else dq(k)


def declare_value(v: Any) -> str:
    """A value as `declare -p` and `set` print it, quoted so it reads back."""
    if isinstance(v, list):
        inner = " ".join(f"[{i}]={dq(to_text(x))}" for i, x in array_items(v))
        return f"({inner})"
    if isinstance(v, dict):
        inner = "".join(f"[{_dq_key(str(k))}]={dq(to_text(x))} " for k, x in assoc_items(v))
        return f"({inner})"
    return dq(to_text(v))


def attr_letters(value: Any, *, integer: bool = False, case: str = "", readonly: bool = False,
                 exported: bool = False, nameref: bool = False) -> str:
    """The attribute letters of a variable in bash's order (`declare -irx`, `${x@a}`)."""
    f = ""
    if isinstance(value, list):
        f += "a"
    elif isinstance(value, dict):
        f += "A"
    if integer:
        f += "i"
    if nameref:
        f += "n"
    if readonly:
        f += "r"
    if exported:
        f += "x"
    if case:
        f += case
    return f
