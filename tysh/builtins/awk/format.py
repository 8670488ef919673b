"""awk's printf/sprintf formats.

Not shared with the shell's printf (kernel.text.printf): awk's arguments are awk values, not
words, and its rules differ — `%c` of a number is that character, `%d` of a string takes
its numeric prefix, missing arguments are a fatal error (gawk), `%i` is `%d`. A format
is parsed once into literal text and conversion specs, then applied with Python's `%`
operator, whose flags, widths and precisions for these conversions match C's."""

from __future__ import annotations

import math

from tysh.builtins.awk.values import StrNum, tonum
from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.lazyre import LazyRegex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any


class AwkFormatError(TyshError):
    status = 2


# One C length modifier (`%ld`, `%hu`, `%zd`) is accepted and ignored, as gawk does; a
# doubled one (`%lld`) leaves the spec printed as itself.
_SPEC = LazyRegex(r"%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d*))?[hlLjzt]?([cdiouxXeEfFgGsaA%])?")
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
            elif conv in "di" and prec is None:  # C's precision rules are _c_int's
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
            ch = _char(tonum(v))
        else:
            ch = tostr(v)[:1] or "\0"  # gawk writes the empty string's terminating NUL
        return _spec(flags.replace("0", ""), width, None, "s") % ch
    f = tonum(v)
    if conv in "diouxX":
        if not math.isfinite(f):
            return _spec(flags.replace("0", ""), width, None, "s") % _naninf(f, flags)
        i = int(f)
        if conv not in "di":
            if not -_UMAX // 2 <= i < _UMAX:
                # gawk: out of range of C's integers, the value is printed with %g instead
                return _spec(flags, width, prec, "g") % f
            if i < 0:
                i += _UMAX
        return _c_int(flags, int(width or 0), prec, conv, i)
    if conv in "aA":
        conv = "e" if conv == "a" else "E"
    if not math.isfinite(f):
        return _spec(flags.replace("0", "").replace("#", ""), width, None, "s") % _naninf(f, flags)
    return _spec(flags, width, prec, conv) % f


_BASES = {"d": "d", "i": "d", "u": "d", "o": "o", "x": "x", "X": "X"}


def _c_int(flags: str, width: int, prec: str | None, conv: str, i: int) -> str:
    """C's rules for the integer conversions, where Python's `%` differs: `+` and space
    mean nothing to the unsigned ones, a precision turns off the `0` flag, and a zero
    precision prints the value 0 as no digits at all."""
    sign = ""
    if conv in "di":
        sign = "-" if i < 0 else "+" if "+" in flags else " " if " " in flags else ""
        i = abs(i)
    digits = format(i, _BASES[conv])
    if prec is not None:
        p = int(prec or 0)
        if p == 0 and i == 0:
            digits = sign = ""  # gawk drops the sign too
        else:
            digits = digits.rjust(p, "0")
    if "#" in flags:
        if conv in "xX" and i != 0:
            sign = "0" + conv
        elif conv == "o" and not digits.startswith("0"):
            digits = "0" + digits
    if "-" in flags:
        return (sign + digits).ljust(width)
    if "0" in flags and prec is None:
        return sign + digits.rjust(width - len(sign), "0")
    return (sign + digits).rjust(width)


def _char(f: float) -> str:
    """gawk's `%c` of a number: the code point of its low 32 bits (C's int), or when that
    is negative the low byte; raw bytes and code points past Unicode come out as the
    bytes C's wcrtomb writes (surrogate-escaped, so the output encoder restores them)."""
    if not math.isfinite(f):
        return "\0"
    code = int(f) & 0xFFFFFFFF
    if code >= 0x80000000:
        b = code & 0xFF
        return chr(b) if b < 0x80 else chr(0xDC00 + b)
    if code < 0xD800 or 0xDFFF < code < 0x110000:
        return chr(code)
    if code < 0xE000:  # a UTF-16 surrogate: wcrtomb fails and gawk writes a NUL
        return "\0"
    raw = _utf8_long(code)
    return raw.decode("utf-8", "surrogateescape")


def _utf8_long(code: int) -> bytes:
    """The original (up to 6-byte) UTF-8 form glibc still writes for any 31-bit value."""
    if code < 0x10000:
        n = 3
    elif code < 0x200000:
        n = 4
    elif code < 0x4000000:
        n = 5
    else:
        n = 6
    tail = [0x80 | ((code >> (6 * k)) & 0x3F) for k in range(n - 1)][::-1]
    lead = ((0xFF << (8 - n)) & 0xFF) | (code >> (6 * (n - 1)))
    return bytes([lead, *tail])


def _naninf(f: float, flags: str) -> str:
    neg = math.copysign(1.0, f) < 0
    if f != f:
        return "-nan" if neg else "+nan"
    return "-inf" if neg else "+inf"
