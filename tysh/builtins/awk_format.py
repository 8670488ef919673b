"""awk's printf/sprintf formats.

Not shared with the shell's printf (_printf.py): awk's arguments are awk values, not
words, and its rules differ — `%c` of a number is that character, `%d` of a string takes
its numeric prefix, missing arguments are a fatal error (gawk), `%i` is `%d`. A format
is parsed once into literal text and conversion specs, then applied with Python's `%`
operator, whose flags, widths and precisions for these conversions match C's."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from tysh.builtins.awk_values import StrNum, tonum
from tysh.kernel.errors import TyshError


class AwkFormatError(TyshError):
    status = 2


_SPEC = re.compile(r"%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d*))?([cdiouxXeEfFgGsaA%])?")
_UMAX = 1 << 64
MAX_WIDTH = 1 << 20

# (literal, flags, width, prec, conv, the Python spec when it needs no per-call work)
Piece = tuple[str, str, str | None, str | None, str, str | None]


def parse(fmt: str) -> list[Piece]:
    out: list[Piece] = []
    pos = 0
    lit: list[str] = []
    while True:
        j = fmt.find("%", pos)
        if j < 0:
            lit.append(fmt[pos:])
            break
        lit.append(fmt[pos:j])
        m = _SPEC.match(fmt, j)
        assert m is not None
        flags, width, prec, conv = m.groups()
        if conv is None:  # an incomplete spec prints as itself
            lit.append(fmt[j:m.end()] if m.end() > j + 1 else "%")
            pos = max(m.end(), j + 1)
            continue
        if conv == "%":
            lit.append("%")
            pos = m.end()
            continue
        flags = flags.replace("'", "")
        fast: str | None = None
        if width != "*" and prec != "*" and int(width or 0) <= MAX_WIDTH and \
                int(prec or 0) <= MAX_WIDTH:
            if conv == "s":
                fast = _spec(flags.replace("0", ""), width, prec, "s")
            elif conv in "di":
                fast = _spec(flags, width, prec, "d")
            elif conv in "eEfFgG":
                fast = _spec(flags, width, prec, conv)
        out.append(("".join(lit), flags, width, prec, conv, fast))
        lit = []
        pos = m.end()
    out.append(("".join(lit), "", None, None, "", None))
    return out


_cache: dict[str, list[Piece]] = {}


def sprintf(fmt: str, args: Sequence[Any], tostr: Callable[[Any], str]) -> str:
    pieces = _cache.get(fmt)
    if pieces is None:
        pieces = parse(fmt)
        if len(_cache) > 512:
            _cache.clear()
        _cache[fmt] = pieces
    out: list[str] = []
    ai = 0
    n = len(args)
    for lit, flags, width, prec, conv, fast in pieces:
        out.append(lit)
        if not conv:
            continue
        if fast is not None and ai < n:
            v = args[ai]
            if conv == "s":
                out.append(fast % (v if v.__class__ is not float else tostr(v)))
                ai += 1
                continue
            f = v if v.__class__ is float else tonum(v)
            if f - f == 0.0:
                out.append(fast % (int(f) if conv in "di" else f))
                ai += 1
                continue
        if width == "*":
            if ai >= n:
                raise AwkFormatError("fatal: not enough arguments to satisfy format string")
            w = int(tonum(args[ai]))
            ai += 1
            if w < 0:
                flags += "-"
                w = -w
            width = str(w)
        if prec == "*":
            if ai >= n:
                raise AwkFormatError("fatal: not enough arguments to satisfy format string")
            p = int(tonum(args[ai]))
            ai += 1
            prec = str(p) if p >= 0 else None
        if width and int(width) > MAX_WIDTH or prec and int(prec) > MAX_WIDTH:
            raise AwkFormatError("fatal: format width or precision too large")
        if ai >= n:
            raise AwkFormatError("fatal: not enough arguments to satisfy format string")
        v = args[ai]
        ai += 1
        out.append(_one(flags, width, prec, conv, v, tostr))
    return "".join(out)


def _spec(flags: str, width: str | None, prec: str | None, conv: str) -> str:
    return "%" + flags + (width or "") + ("." + prec if prec is not None else "") + conv


def _one(flags: str, width: str | None, prec: str | None, conv: str, v: Any,
         tostr: Callable[[Any], str]) -> str:
    if conv == "s":
        return _spec(flags.replace("0", ""), width, prec, "s") % tostr(v)
    if conv == "c":
        if v.__class__ is float or (v.__class__ is StrNum and v != ""):
            code = int(tonum(v)) if math.isfinite(tonum(v)) else 0
            try:
                ch = chr(code) if 0 <= code < 0x110000 else chr(code & 0xFF)
            except ValueError:
                ch = ""
        else:
            ch = tostr(v)[:1]
        return _spec(flags.replace("0", ""), width, None, "s") % ch
    f = tonum(v)
    if conv in "diouxX":
        if not math.isfinite(f):
            return _spec(flags.replace("0", ""), width, None, "s") % _naninf(f, flags)
        i = int(f)
        if conv in "di":
            return _spec(flags, width, prec, "d") % i
        if i < 0:
            i += _UMAX if i >= -_UMAX else 0
            i = max(i, 0)
        if conv == "u":
            return _spec(flags.replace("#", ""), width, prec, "d") % i
        if conv == "o":
            s = _spec(flags.replace("#", ""), width, prec, "o") % i
            if "#" in flags and not s.lstrip(" ").startswith("0"):
                s = _spec(flags.replace("#", ""), str(int(width or 0)), prec, "o") % i
                body = "0" + (format(i, "o") if prec is None else s.strip())
                return body.rjust(int(width or 0)) if "-" not in flags else body.ljust(int(width or 0))
            return s
        return _spec(flags, width, prec, conv) % i
    if conv in "aA":
        conv = "e" if conv == "a" else "E"
    if not math.isfinite(f):
        return _spec(flags.replace("0", "").replace("#", ""), width, None, "s") % _naninf(f, flags)
    return _spec(flags, width, prec, conv) % f


def _naninf(f: float, flags: str) -> str:
    neg = math.copysign(1.0, f) < 0
    if f != f:
        return "-nan" if neg else "+nan"
    return "-inf" if neg else "+inf"
