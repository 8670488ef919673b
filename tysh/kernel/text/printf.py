"""The printf format engine (bash's builtin semantics), shared by printf, echo -e and others.

`format_printf(fmt, args)` gives the output text, the error messages to report and the
status, so the caller decides where they go. Formats are parsed once and cached: scripts
call printf with the same literal format in loops. Bytes written by `\\xHH`/`\\NNN`
escapes are kept as surrogate-escaped characters so encoding the text with
`surrogateescape` gives back the exact byte, as bash does.
"""

from __future__ import annotations

import math
import time

from tysh.kernel.base.lazyre import DOTALL, IGNORECASE, LazyRegex
from tysh.kernel.base.memo import bounded_memo
from tysh.kernel.base.record import Record, frozen
from tysh.kernel.base.values import byte_view, from_byte_view, to_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

_INT_MIN = -(1 << 63)
_INT_MAX = (1 << 63) - 1
_UINT_MAX = (1 << 64) - 1
# Wider fields than this are refused (bash would try to write gigabytes).
MAX_WIDTH = 1 << 20
_INF = float("inf")


# -- backslash escapes ------------------------------------------------------------------

_SIMPLE = {
    "\\": "\\", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f",
    "n": "\n", "r": "\r", "t": "\t", "v": "\v",
}

# One alternation per mode; group 1 is the escape body after the backslash.
_ESC_FORMAT = LazyRegex(r"\\([0-7]{1,3}|x[0-9A-Fa-f]{0,2}|u[0-9A-Fa-f]{0,4}|U[0-9A-Fa-f]{0,8}|.?)", DOTALL)
_ESC_B = LazyRegex(
    r"\\(0[0-7]{0,3}|[1-7][0-7]{0,2}|x[0-9A-Fa-f]{0,2}|u[0-9A-Fa-f]{0,4}|U[0-9A-Fa-f]{0,8}|.?)", DOTALL
)
_ESC_ECHO = LazyRegex(r"\\(0[0-7]{0,3}|x[0-9A-Fa-f]{0,2}|u[0-9A-Fa-f]{0,4}|U[0-9A-Fa-f]{0,8}|.?)", DOTALL)


def _byte(n: int) -> str:
    """A raw byte as text: ASCII as itself, higher bytes surrogate-escaped."""
    n &= 0xFF
    return chr(n) if n < 0x80 else chr(0xDC00 + n)


def _codepoint(n: int) -> str:
    try:
        return chr(n) if n < 0xD800 or 0xDFFF < n <= 0x10FFFF else "?"
    except ValueError:
        return "?"


def _expand(s: str, rx: LazyRegex, mode: str) -> tuple[str, bool]:
    """Expand escapes; returns (text, stopped) where stopped means `\\c` was met."""
    if "\\" not in s:
        return s, False
    out: list[str] = []
    pos = 0
    for m in rx.finditer(s):
        out.append(s[pos:m.start()])
        pos = m.end()
        body = m.group(1)
        if not body:
            out.append("\\")
            continue
        c = body[0]
        simple = _SIMPLE.get(body)
        if simple is not None:
            out.append(simple)
        elif c in "01234567" and (c == "0" or mode != "echo"):
            out.append(_byte(int(body, 8)))
        elif c == "x":
            out.append(_byte(int(body[1:], 16)) if len(body) > 1 else "\\x")
        elif c in "uU":
            out.append(_codepoint(int(body[1:], 16)) if len(body) > 1 else "\\" + c)
        elif c == "c" and mode != "format":
            return "".join(out), True
        elif c in "\"'?" and mode == "format":
            out.append(c)
        else:
            out.append("\\" + body)
    out.append(s[pos:])
    return "".join(out), False


def expand_format_escapes(s: str) -> str:
    """Escapes in a printf format: `\\NNN` octal, `\\c` stays literal (as bash)."""
    return _expand(s, _ESC_FORMAT, "format")[0]


def expand_b_escapes(s: str) -> tuple[str, bool]:
    """Escapes in a `%b` argument; stopped is True after `\\c` (no further output)."""
    return _expand(s, _ESC_B, "b")


def expand_echo_escapes(s: str) -> tuple[str, bool]:
    """Escapes of `echo -e`: octal only as `\\0NNN`; stopped is True after `\\c`."""
    return _expand(s, _ESC_ECHO, "echo")


# -- %q quoting -------------------------------------------------------------------------

_Q_SPECIAL = LazyRegex(r"""([ \t\n'"\\|&;()<>!{}*\[?\]^$`,])""")
_Q_NEEDS_ANSI = LazyRegex(r"[\x00-\x1f\x7f\udc80-\udcff]")
_ANSI_NAMES = {"\a": "\\a", "\b": "\\b", "\x1b": "\\E", "\f": "\\f", "\n": "\\n",
               "\r": "\\r", "\t": "\\t", "\v": "\\v", "\\": "\\\\", "'": "\\'"}


def shell_quote(s: str) -> str:
    """Quote like bash's `printf %q`: backslashes, or `$'…'` when there are control chars."""
    if not s:
        return "''"
    if _Q_NEEDS_ANSI.search(s):
        parts = []
        for ch in s:
            if ch in _ANSI_NAMES:
                parts.append(_ANSI_NAMES[ch])
            else:
                o = ord(ch)
                if 0xDC80 <= o <= 0xDCFF:
                    parts.append(f"\\{o - 0xDC00:03o}")
                elif o < 0x20 or o == 0x7F:
                    parts.append(f"\\{o:03o}")
                else:
                    parts.append(ch)
        return "$'" + "".join(parts) + "'"
    out = _Q_SPECIAL.sub(r"\\\1", s)
    if out[0] in "#~":
        out = "\\" + out
    return out


# -- number parsing -----------------------------------------------------------------------

_INT_RE = LazyRegex(r"\s*([+-]?)(0[xX][0-9A-Fa-f]+|0[0-7]*|[1-9][0-9]*)")
_FLOAT_RE = LazyRegex(
    r"\s*[+-]?(?:0[xX](?:[0-9A-Fa-f]+\.?[0-9A-Fa-f]*|\.[0-9A-Fa-f]+)(?:[pP][+-]?\d+)?"
    r"|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)",
    IGNORECASE,
)


class _State:
    """The argument cursor and the errors met so far, for one printf call."""

    __slots__ = ("args", "errors", "index", "status", "octets")

    def __init__(self, args: Sequence[Any]) -> None:
        self.args = args
        self.octets = False  # the C locale: count bytes
        self.index = 0
        self.errors: list[str] = []
        self.status = 0

    def next(self) -> Any:
        if self.index < len(self.args):
            v = self.args[self.index]
            self.index += 1
            return v
        return None

    def error(self, msg: str) -> None:
        self.errors.append(msg)
        self.status = 1


def _char_code(s: str) -> int | None:
    """The value of a `'c` argument: the character's code point; a byte that is no
    UTF-8 (held surrogate-escaped) gives that byte, as bash."""
    if s[:1] in ("'", '"'):
        if len(s) < 2:
            return 0
        c = ord(s[1])
        return c - 0xDC00 if 0xDC80 <= c <= 0xDCFF else c
    return None


def parse_int(s: str, st: _State, unsigned: bool = False) -> int:
    """strtoimax(s, 0) as bash uses it: hex, octal, `'c` char codes; junk is an error."""
    code = _char_code(s)
    if code is not None:
        return code
    m = _INT_RE.match(s)
    if m is None:
        if s:
            st.error(f"{s}: invalid number")
        return 0
    digits = m.group(2)
    if len(digits) > 1 and digits[1] in "xX":
        v = int(digits, 16)
    elif len(digits) > 1 and digits[0] == "0":
        v = int(digits, 8)
    else:
        v = int(digits)
    if m.group(1) == "-":
        v = -v
    if m.end() != len(s):
        rest = s[m.end():]
        if digits == "0" and rest[:1] in ("x", "X"):
            st.error(f"{s}: invalid hex number")
        else:
            st.error(f"{s}: invalid number")
    if unsigned:
        if v < 0:
            v = v + (1 << 64) if v >= _INT_MIN else _UINT_MAX
        if v > _UINT_MAX:
            st.errors.append(f"warning: {s}: Numerical result out of range")
            v = _UINT_MAX
    elif not _INT_MIN <= v <= _INT_MAX:
        st.errors.append(f"warning: {s}: Numerical result out of range")
        v = _INT_MAX if v > 0 else _INT_MIN
    return v


def parse_float(s: str, st: _State) -> float:
    """strtold as bash uses it: decimal, hex floats, inf/nan, `'c` char codes."""
    code = _char_code(s)
    if code is not None:
        return float(code)
    m = _FLOAT_RE.match(s)
    if m is None:
        if s:
            st.error(f"{s}: invalid number")
        return 0.0
    text = m.group(0).strip()
    body = text.lstrip("+-")
    if body[:2] in ("0x", "0X"):
        mant = body if "p" in body.lower() else body + "p0"
        if mant[2:3] == ".":
            mant = mant[:2] + "0" + mant[2:]
        v = float.fromhex(mant)
        if text.startswith("-"):
            v = -v
    else:
        v = float(text)
    if m.end() != len(s):
        st.error(f"{s}: invalid number")
    return v


# -- the format ---------------------------------------------------------------------------

@frozen
class Spec(Record):
    """One `%` conversion: flags, width and precision (`*` = from an argument)."""

    flags: str
    width: str
    precision: str | None
    conv: str
    time_format: str = ""

    @property
    def plain_s(self) -> bool:
        """A bare `%s`: the argument is copied as is (the common case, kept fast)."""
        return self.conv == "s" and not (self.flags or self.width) and self.precision is None


@frozen
class FormatError(Record):
    """A conversion bash rejects; output stops there with status 1."""

    message: str


class _PlainS:
    """The marker item for a bare `%s`."""


_PLAIN_S = _PlainS()

Item = str | Spec | FormatError | _PlainS

_SPEC_RE = LazyRegex(
    r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(?:\(([^)]*)\))?[hlLjzt]*(.?)", DOTALL
)
_CONVS = frozenset("sdiuoxXfFeEgGaAcbqT")


@bounded_memo(256)
def parse_format(fmt: str) -> tuple[tuple[Item, ...], bool]:
    """Split a format into literal text and conversions; also whether any conversion
    takes an argument (the format is reused only then)."""
    items: list[Item] = []
    consumes = False
    pos = 0
    n = len(fmt)
    while pos < n:
        i = fmt.find("%", pos)
        if i < 0:
            items.append(expand_format_escapes(fmt[pos:]))
            break
        if i > pos:
            items.append(expand_format_escapes(fmt[pos:i]))
        if fmt.startswith("%%", i):
            items.append("%")
            pos = i + 2
            continue
        m = _SPEC_RE.match(fmt, i)
        assert m is not None  # the pattern matches any `%`
        flags, width, prec, tfmt, conv = m.groups()
        pos = m.end()
        if not conv:
            items.append(FormatError(f"`{fmt[i:pos]}': missing format character"))
            break
        if conv not in _CONVS or (conv == "T") != (tfmt is not None):
            items.append(FormatError(f"`{conv}': invalid format character"))
            break
        spec = Spec(flags, width or "", prec, conv, tfmt or "")
        items.append(_PLAIN_S if spec.plain_s else spec)
        consumes = True
    return tuple(items), consumes


def _pad(s: str, spec_flags: str, width: int) -> str:
    if width and len(s) < width:
        return s.ljust(width) if "-" in spec_flags else s.rjust(width)
    return s


def _cut(arg: str, conv: str, flags: str, width: int, prec: int | None) -> str:
    """A string conversion's text: `%c`'s first character, the precision's prefix,
    padded to the width."""
    if conv == "c":
        arg = arg[:1] or "\0"  # bash writes a NUL for an empty or missing argument
    elif prec is not None:
        arg = arg[:prec]
    return _pad(arg, flags, width)


def _arg_text(v: Any) -> str:
    return v if type(v) is str else to_text(v)


def _convert(spec: Spec, st: _State) -> tuple[str, bool]:
    """Render one conversion, consuming its arguments; returns (text, stop)."""
    flags = spec.flags
    width = 0
    if spec.width == "*":
        width = parse_int(_arg_text(st.next()), st)
        if width < 0:
            flags += "-"
            width = -width
    elif spec.width:
        width = int(spec.width)
    prec: int | None = None
    if spec.precision is not None:
        if spec.precision == "*":
            p = parse_int(_arg_text(st.next()), st)
            prec = p if p >= 0 else None
        else:
            prec = int(spec.precision or "0")
    if width > MAX_WIDTH or (prec is not None and prec > MAX_WIDTH):
        st.error(f"{max(width, prec or 0)}: field width or precision too large")
        width, prec = 0, None if prec is None else min(prec, MAX_WIDTH)
    conv = spec.conv
    arg = _arg_text(st.next())
    if conv in "sbqc":
        stop = False
        if conv == "b":
            arg, stop = expand_b_escapes(arg)
        elif conv == "q":  # the C locale quotes every byte past ASCII
            arg = shell_quote(byte_view(arg) if st.octets else arg)
        if st.octets and not arg.isascii():  # the C locale: one byte is one character
            return from_byte_view(_cut(byte_view(arg), conv, flags, width, prec)), stop
        return _cut(arg, conv, flags, width, prec), stop
    if st.octets and arg[:1] in "'\"" and not arg.isascii():
        arg = byte_view(arg)  # `'é`: the value of its first byte
    if conv in "diuoxX":
        unsigned = conv not in "di"
        v = parse_int(arg, st, unsigned)
        return _format_int(v, conv, flags, width, prec), False
    if conv == "T":
        t = parse_int(arg, st) if arg else -1
        when = time.time() if t < 0 else t
        s = time.strftime(spec.time_format or "%X", time.localtime(when))
        if prec is not None:
            s = s[:prec]
        return _pad(s, flags, width), False
    f = parse_float(arg, st)
    if conv in "aA":
        s = _hex_float(f, prec)
        if conv == "A":
            s = s.upper()
        return _pad(s, flags, width), False
    if f != f or f in (_INF, -_INF):
        flags = flags.replace("0", "")  # C pads inf and nan with spaces
    pyfmt = "%" + flags + (str(width) if width else "") + (
        f".{prec}" if prec is not None else "") + conv
    return pyfmt % f, False


def _format_int(v: int, conv: str, flags: str, width: int, prec: int | None) -> str:
    if conv in "uoxX":
        flags = flags.replace("+", "").replace(" ", "")
    if prec is not None:
        flags = flags.replace("0", "")
    alt = "#" in flags
    if alt:
        flags = flags.replace("#", "")
    if conv == "u":
        conv = "d"
    if prec == 0 and v == 0:
        body = "0" if alt and conv == "o" else ""
    else:
        body = ("%" + (f".{prec}" if prec is not None else "") + ("d" if conv == "i" else conv)) % v
    if alt and v != 0:
        if conv == "o" and not body.startswith("0"):
            body = "0" + body
        elif conv in "xX":
            body = ("0x" if conv == "x" else "0X") + body
    if conv in "di" and v >= 0:
        if "+" in flags:
            body = "+" + body
        elif " " in flags:
            body = " " + body
    if width and len(body) < width:
        if "-" in flags:
            return body.ljust(width)
        if "0" in flags:
            sign = body[0] if body[0] in "+- " else ""
            rest = body[len(sign):]
            prefix = ""
            if rest[:2] in ("0x", "0X"):
                prefix, rest = rest[:2], rest[2:]
            return sign + prefix + rest.rjust(width - len(sign) - len(prefix), "0")
        return body.rjust(width)
    return body


def _hex_float(f: float, prec: int | None) -> str:
    """`%a` as glibc prints a long double: a leading hex digit 8-f, then the fraction."""
    if f != f or f in (float("inf"), float("-inf")):
        return format(f, "f")
    sign = "-" if math.copysign(1.0, f) < 0 else ""
    f = abs(f)
    if f == 0:
        lead, frac_bits, exp = 0, 0, 0
    else:
        m, e = math.frexp(f)
        scaled = int(m * (1 << 64))  # exact: a double has 53 bits of mantissa
        lead, frac_bits, exp = scaled >> 60, scaled & ((1 << 60) - 1), e - 4
    frac = f"{frac_bits:015x}"
    frac = frac.rstrip("0") if prec is None else (frac + "0" * prec)[:prec]
    return f"{sign}0x{lead:x}{'.' + frac if frac else ''}p{exp:+d}"


@frozen
class PrintfResult(Record):
    text: str
    errors: tuple[str, ...]
    status: int


def format_printf(fmt: str, args: Sequence[Any], octets: bool = False) -> PrintfResult:
    """Apply a format to arguments as bash's printf does: reuse the format while
    arguments remain, missing ones read as empty/zero, bad numbers report and go on.
    `octets` (the C locale): widths, precisions, `%c` and a `'c` number count bytes."""
    items, consumes = parse_format(fmt)
    st = _State(args)
    st.octets = octets
    out: list[str] = []
    append = out.append
    nargs = len(args)
    while True:
        for item in items:
            if item.__class__ is str:
                append(item)
            elif item.__class__ is _PlainS:
                i = st.index
                if i < nargs:
                    v = args[i]
                    st.index = i + 1
                    append(v if v.__class__ is str else to_text(v))
            elif isinstance(item, Spec):
                text, stop = _convert(item, st)
                append(text)
                if stop:
                    return PrintfResult("".join(out), tuple(st.errors), st.status)
            else:
                assert isinstance(item, FormatError)
                st.error(item.message)
                return PrintfResult("".join(out), tuple(st.errors), st.status)
        if not consumes or st.index >= nargs:
            break
    return PrintfResult("".join(out), tuple(st.errors), st.status)
