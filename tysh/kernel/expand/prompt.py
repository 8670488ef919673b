"""`${x@P}`: a value expanded as bash expands a prompt string (the expansion stage
runs the two steps: `decode_escapes`, then the word of `prompt_word`).

Two steps, as in bash: the backslash escapes (`\\u \\h \\w \\t \\$ \\nnn` …) are replaced
first, then the result is expanded like the inside of double quotes (`$x`, `$(…)`,
`$((…))`). Text that an escape inserts (a directory name, a host name) is quoted for
the second step, so a `$` in a directory name stays a `$`.
"""

from __future__ import annotations

import os
import time

from tysh.kernel.base.values import to_text
from tysh.kernel.syntax import ast

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from tysh.kernel.expand.words import ExpandHost

__all__ = ["decode_escapes", "prompt_word"]

_ESCAPES = {"a": "\a", "e": "\x1b", "n": "\n", "r": "\r", "\\": "\\"}
_OCTAL = frozenset("01234567")


def _var(host: ExpandHost, name: str) -> str | None:
    v = host.lookup(name)
    return None if v is None else to_text(v)


def _fact(host: ExpandHost, key: str, default: str) -> str:
    """What only the interpreter knows (user and host names, job and command counts)."""
    get: Any = getattr(host, "prompt_fact", None)
    if get is None:
        return default
    got = get(key)
    return default if got is None else str(got)


def _home_short(path: str, host: ExpandHost) -> str:
    home = _var(host, "HOME")
    if home and home != "/" and (path == home or path.startswith(home.rstrip("/") + "/")):
        return "~" + path[len(home.rstrip("/")):]
    return path


def _quote(text: str) -> str:
    """Text an escape inserted, protected from the expansion step."""
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("`", "\\`")


def decode_escapes(text: str, host: ExpandHost) -> str:
    """The first step: every backslash escape replaced (inserted text quoted for the
    second step)."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    n = len(text)
    now: time.struct_time | None = None
    while i < n:
        c = text[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        e = text[i + 1]
        i += 2
        if e in _ESCAPES:
            out.append(_quote(_ESCAPES[e]))
        elif e in _OCTAL:
            j = i
            while j < n and j < i + 2 and text[j] in _OCTAL:
                j += 1
            out.append(_quote(chr(int(text[i - 1 : j], 8) & 0xFF)))
            i = j
        elif e in "[]":
            pass  # non-printing markers only matter to a line editor
        elif e == "$":
            out.append("#" if _fact(host, "uid", "1") == "0" else "$")
        elif e in "wW":
            cwd = _var(host, "PWD") or host.cwd
            if e == "W":
                home = _var(host, "HOME")
                shown = "~" if home and cwd == home else (
                    cwd if cwd == "/" else os.path.basename(cwd.rstrip("/")))
            else:
                shown = _home_short(cwd, host)
            out.append(_quote(shown))
        elif e in "uhHjs!#l":
            if e == "s":
                v = os.path.basename(host.special("0")) or "tysh"
            elif e == "h":
                v = _fact(host, "host", "localhost").split(".")[0]
            elif e == "H":
                v = _fact(host, "host", "localhost")
            elif e == "u":
                v = _fact(host, "user", "user")
            elif e == "l":
                v = _fact(host, "tty", "tty")
            else:
                v = _fact(host, e, "0")
            out.append(_quote(v))
        elif e in "dtT@AD":
            if now is None:
                now = time.localtime()
            if e == "D" and i < n and text[i] == "{":
                close = text.find("}", i)
                if close < 0:
                    out.append("\\D")
                    continue
                fmt = text[i + 1 : close] or "%X"
                i = close + 1
            else:
                fmt = {"d": "%a %b %d", "t": "%H:%M:%S", "T": "%I:%M:%S", "@": "%I:%M %p",
                       "A": "%H:%M"}.get(e, "")
                if e == "D":
                    out.append("\\D")
                    continue
            out.append(_quote(time.strftime(fmt, now)))
        elif e in "vV":
            full = _version()
            out.append(full if e == "V" else ".".join(full.split(".")[:2]))
        else:
            out.append("\\" + e)
    return "".join(out)


def _version() -> str:
    """tysh's version (a prompt's `\\v` and `\\V`), from the installed package."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tysh")
    except PackageNotFoundError:
        return "0.0.0"


def prompt_word(decoded: str) -> ast.HereDoc | None:
    """The second step's word: the decoded text read as the inside of double quotes
    (None when there is nothing to expand, or it does not parse: bash then shows the
    text as it is)."""
    if "$" not in decoded and "`" not in decoded and "\\" not in decoded:
        return None
    from tysh.kernel.base.errors import TyshSyntaxError
    from tysh.kernel.syntax.lexer import Scanner, Source
    from tysh.kernel.syntax.parser import parse_scanner

    try:
        parts = Scanner(Source(decoded, parse_scanner)).scan_dq_body(0, heredoc=True)
    except TyshSyntaxError:
        return None
    return ast.HereDoc(ast.Word(parts), False, False)
