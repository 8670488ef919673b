"""Sort keys for `sort`: the -k field syntax and the comparison kinds (-n -g -h -M -V),
each turned into a Python sort key so the whole sort runs in `list.sort`.

GNU semantics kept here: fields are separated by -t's character, or else each field
starts with the blanks that precede it; `-kF.C,F.C` counts bytes; a key with no ordering
options of its own inherits the global ones; the comparison falls back to the whole line
(reversed under a global -r) unless -s or -u."""

from __future__ import annotations

import math

from tysh.kernel.base.lazyre import IGNORECASE, LazyRegex, compile_pattern
from tysh.kernel.base.memo import bounded_memo
from tysh.kernel.base.record import Record, frozen, replace
from tysh.kernel.text.literal import escape, lazy_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

if TYPE_CHECKING:
    from decimal import Decimal

ORDER_LETTERS = "bdfgiMhnrV"


class SortKeyError(Exception):
    """A bad -k or -t argument; the message is GNU's wording."""


@frozen
class KeyOpts(Record):
    kind: str = ""  # "" (text), "n", "g", "h", "M", "V"
    fold: bool = False
    dictionary: bool = False
    nonprinting: bool = False
    reverse: bool = False
    skip_start_blanks: bool = False
    skip_end_blanks: bool = False

    @property
    def is_default(self) -> bool:
        return self == KeyOpts()


@frozen
class KeySpec(Record):
    start_field: int  # 0-based fields to skip before the key
    start_char: int  # 0-based byte offset in the start field
    end_field: int | None  # fields to skip for the end; None = end of line
    end_char: int  # 0 = end of the field, else a 1-based byte count
    opts: KeyOpts


_KEY_RE = LazyRegex(
    r"(\d+)(?:\.(\d+))?([a-zA-Z]*)(?:,(\d+)(?:\.(\d+))?([a-zA-Z]*))?"
)


def check_compatible(letters: str) -> None:
    """GNU's check of one key's (or the global) ordering letters: at most one of n, g, h,
    M and the group {V, R, d, i}; the message lists the letters as GNU does (b, r
    dropped; i hidden by d)."""
    group = any(c in letters for c in "VRdi")
    if sum(c in letters for c in "nghM") + group <= 1:
        return
    shown = "".join(c for c in "dfghiMnRV" if c in letters and not (c == "i" and "d" in letters))
    raise SortKeyError(f"options '-{shown}' are incompatible")


def key_letters(spec: str) -> str:
    """The option letters of a -k spec (start and end), '' when it has none or is invalid."""
    m = _KEY_RE.fullmatch(spec.strip())
    return "" if m is None else (m.group(3) or "") + (m.group(6) or "")


def _opts_from_letters(letters: str, spec: str, at_end: bool, base: KeyOpts) -> KeyOpts:
    kinds = [c for c in letters if c in "ghMnV"]
    for c in letters:
        if c not in ORDER_LETTERS:
            raise SortKeyError(f"invalid field specification '{spec}'")
    return replace(
        base,
        kind=kinds[0] if kinds else base.kind,
        fold=base.fold or "f" in letters,
        dictionary=base.dictionary or "d" in letters,
        nonprinting=base.nonprinting or "i" in letters,
        reverse=base.reverse or "r" in letters,
        skip_start_blanks=base.skip_start_blanks or ("b" in letters and not at_end),
        skip_end_blanks=base.skip_end_blanks or ("b" in letters and at_end),
    )


def parse_key(spec: str, global_opts: KeyOpts) -> KeySpec:
    """Parse `F[.C][OPTS][,F[.C][OPTS]]`; a key without options inherits the global ones."""
    m = _KEY_RE.fullmatch(spec.strip())
    if m is None:
        raise SortKeyError(f"invalid field specification '{spec}'")
    sf, sc, sopts, ef, ec, eopts = m.groups()
    if int(sf) == 0:
        raise SortKeyError(f"field number is zero: invalid field specification '{spec}'")
    if sc is not None and int(sc) == 0:
        raise SortKeyError(f"character offset is zero: invalid field specification '{spec}'")
    if ef is not None and int(ef) == 0:
        raise SortKeyError(f"field number is zero: invalid field specification '{spec}'")
    opts = _opts_from_letters(sopts, spec, False, KeyOpts())
    if eopts:
        opts = _opts_from_letters(eopts, spec, True, opts)
    if opts.is_default:
        opts = global_opts
    end_field: int | None = None
    end_char = 0
    if ef is not None:
        end_char = int(ec) if ec else 0
        end_field = int(ef) - 1 if end_char else int(ef)
    return KeySpec(int(sf) - 1, int(sc) - 1 if sc else 0, end_field, end_char, opts)


# -------------------------------------------------------------------- extraction

_BLANKS = b" \t"


def _skip_blanks(line: bytes, pos: int) -> int:
    n = len(line)
    while pos < n and line[pos] in _BLANKS:
        pos += 1
    return pos


class _End:
    __slots__ = ("pos",)

    def __init__(self, pos: int) -> None:
        self.pos = pos

    def end(self) -> int:
        return self.pos


_ONE_FIELD = lazy_bytes(rb"[ \t]*[^ \t]*")

# a field count this large is skipped a field at a time instead of by a regex repeat,
# whose compiling and matching cost grows with the count, not with the line
_REPEAT_MAX = 256


class FieldSkip:
    """What `skip_fields_re(n, tab)` matches, for any n: `.match(line)` gives an object
    whose `.end()` is where the n fields end (None when a tab-separated line has fewer),
    found in time linear in the line, however large n is. With `rest`, the field after
    them is consumed too (`(?:[^t]*t){n}[^t]*`)."""

    def __init__(self, n: int, tab: bytes | None, rest: bool = False) -> None:
        self.n = n
        self.tab = tab
        self.rest = rest

    def match(self, line: bytes) -> _End | None:
        n, tab = self.n, self.tab
        pos = 0
        k = 0
        size = len(line)
        if tab is None:
            one = _ONE_FIELD.match
            while k < n and pos < size:
                pos = one(line, pos).end()  # type: ignore[union-attr]
                k += 1
            return _End(pos)
        while k < n:
            i = line.find(tab, pos)
            if i < 0:
                return None
            pos = i + 1
            k += 1
        if self.rest:
            i = line.find(tab, pos)
            pos = size if i < 0 else i
        return _End(pos)


def skip_fields_re(n: int, tab: bytes | None, rest: bool = False) -> Any:
    """A matcher skipping `n` fields — blank-separated (`(?:[ \t]*[^ \t]*){n}`) or
    separated by `tab` (`(?:[^t]*t){n}`, and with `rest` the next field's text too)."""
    return _field_skipper(n, tab, rest)


@bounded_memo(64)
def _field_skipper(n: int, tab: bytes | None, rest: bool) -> Any:
    # (remembered: a compiled pattern and a FieldSkip hold no state, and building the
    # pattern from the regex cache makes a new object on every call)
    if n > _REPEAT_MAX:
        return FieldSkip(n, tab, rest)
    if tab is None:
        return compile_pattern(rb"(?:[ \t]*[^ \t]*){%d}" % n)
    t = escape(tab)
    if rest:
        return compile_pattern(rb"(?:[^%s]*%s){%d}[^%s]*" % (t, t, n, t))
    return compile_pattern(rb"(?:[^%s]*%s){%d}" % (t, t, n))


def make_extractor(key: KeySpec, tab: bytes | None) -> Callable[[bytes], bytes]:
    """A function giving the key's bytes of a line (without its terminator)."""
    end_re: Any
    if tab is None:
        beg_re = skip_fields_re(key.start_field, None)
        end_re = (
            skip_fields_re(key.end_field, None)
            if key.end_field is not None else None
        )
    else:
        beg_re = skip_fields_re(key.start_field, tab)
        end_re = None
        if key.end_field is not None:
            if key.end_char:
                end_re = skip_fields_re(key.end_field, tab)
            elif key.end_field == 0:
                end_re = compile_pattern(b"")
            else:
                end_re = skip_fields_re(key.end_field - 1, tab, rest=True)
    sblank = key.opts.skip_start_blanks
    eblank = key.opts.skip_end_blanks
    schar = key.start_char
    echar = key.end_char
    if not sblank and not schar and end_re is None:
        if key.start_field == 0:
            return lambda line: line
        bmatch = beg_re.match

        def from_field(line: bytes) -> bytes:
            m = bmatch(line)
            return line[m.end():] if m is not None else b""

        return from_field

    def extract(line: bytes) -> bytes:
        n = len(line)
        m = beg_re.match(line)
        beg = m.end() if m is not None else n
        if sblank:
            beg = _skip_blanks(line, beg)
        beg = min(n, beg + schar)
        if end_re is None:
            return line[beg:]
        m2 = end_re.match(line)
        lim = m2.end() if m2 is not None else n
        if echar:
            if eblank:
                lim = _skip_blanks(line, lim)
            lim = min(n, lim + echar)
        return line[beg:lim] if lim > beg else b""

    return extract


# -------------------------------------------------------------------- comparisons

_NUM_RE = lazy_bytes(rb"[ \t]*(-?\d*(?:\.\d*)?)")


def numeric_value(s: bytes) -> float | Decimal:
    """GNU -n: optional blanks, an optional '-', digits, an optional fraction; else 0."""
    m = _NUM_RE.match(s)
    t = m.group(1) if m is not None else b""
    if not t.strip(b"-."):
        return 0.0  # no digits: "", "-", ".", "-."
    if len(t) > 15:
        from decimal import Decimal  # exact only where a float would round; rare

        return Decimal(t.decode("ascii"))
    return float(t)


# One match per line, consuming it whole (anchoring with ^ and re.M tries every byte)
_NUM_LINES = lazy_bytes(rb"[ \t]*+(-?\d*+(?:\.\d*+)?+).*+\n")


def numeric_values(lines: list[bytes]) -> list[Any]:
    """numeric_value of every line, found by one regex pass over the joined lines and
    converted by one map(float) when every key is a plain short number (the usual input
    of `sort -n`, e.g. `uniq -c` output), rather than by a Python call per line."""
    found = _NUM_LINES.findall(b"\n".join(lines) + b"\n")
    if len(found) == len(lines) and found and max(map(len, found)) <= 15:
        try:
            return list(map(float, found))
        except ValueError:
            pass  # a key without digits ("", "-", "."): the general path gives it 0
    return list(map(numeric_value, lines))


_GEN_RE = lazy_bytes(
    rb"\s*([+-]?(?:inf(?:inity)?|nan|0x[0-9a-f]*\.?[0-9a-f]*(?:p[+-]?\d+)?"
    rb"|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?))",
    IGNORECASE,
)


def general_value(s: bytes) -> tuple[int, float]:
    """GNU -g order: non-numbers, NaN, then numbers (with the infinities)."""
    m = _GEN_RE.match(s)
    if m is None:
        return (0, 0.0)
    t = m.group(1).decode("ascii")
    try:
        v = float.fromhex(t) if "x" in t.lower() else float(t)
    except ValueError:
        return (0, 0.0)
    if math.isnan(v):
        return (1, 0.0)
    return (2, v)


_HUMAN_RE = lazy_bytes(rb"[ \t]*(-?)(\d*)(?:\.(\d*))?([KMGTPEZYRQk]?)")
_UNITS = {b"": 0, b"k": 1, b"K": 1, b"M": 2, b"G": 3, b"T": 4, b"P": 5, b"E": 6,
          b"Z": 7, b"Y": 8, b"R": 9, b"Q": 10}


def human_value(s: bytes) -> tuple[int, float | Decimal]:
    """GNU -h: first the signed unit order (a suffix only counts on a non-zero number),
    then the number."""
    m = _HUMAN_RE.match(s)
    if m is None:
        return (0, 0.0)
    sign, ip, fp, unit = m.groups()
    nonzero = (ip or b"").strip(b"0") or (fp or b"").strip(b"0")
    order = _UNITS[unit] if nonzero else 0
    return (-order if sign else order, numeric_value(s))


_MONTHS = {m: i + 1 for i, m in enumerate(
    [b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN",
     b"JUL", b"AUG", b"SEP", b"OCT", b"NOV", b"DEC"])}


def month_value(s: bytes) -> int:
    return _MONTHS.get(s.lstrip(b" \t")[:3].upper(), 0)


def _ver_order() -> list[int]:
    out = []
    for b in range(256):
        if 48 <= b <= 57:
            out.append(0)
        elif 65 <= b <= 90 or 97 <= b <= 122:
            out.append(b)
        elif b == 126:
            out.append(-1)
        else:
            out.append(b + 256)
    return out


_VER_ORDER = _ver_order()
_VER_PART = lazy_bytes(rb"(\D*)(\d*)")
_VER_SUFFIX = lazy_bytes(rb"(?:\.[A-Za-z~][A-Za-z0-9~]*)*$")
_VER_END = ((0,), 0)


def _verrev_key(s: bytes) -> tuple[Any, ...]:
    """A key ordering like gnulib's verrevcmp: non-digit runs by the Debian character
    order (`~` before the end, letters before other characters), digit runs by value."""
    parts: list[Any] = []
    for m in _VER_PART.finditer(s):
        nd, dg = m.group(1), m.group(2)
        if not nd and not dg:
            continue
        parts.append((tuple(_VER_ORDER[b] for b in nd) + (0,), int(dg) if dg else 0))
    parts.append(_VER_END)
    return tuple(parts)


def version_value(s: bytes) -> tuple[Any, ...]:
    """gnulib filevercmp: `.` and `..` first, then hidden names, then the rest; the
    name without its suffixes compares first, then the whole name."""
    if not s:
        return (0,)
    if s == b".":
        return (1,)
    if s == b"..":
        return (2,)
    cls = 4
    if s[:1] == b".":
        cls = 3
        s = s[1:]
    m = _VER_SUFFIX.search(s)
    prefix = s[: m.start()] if m is not None else s
    return (cls, _verrev_key(prefix), _verrev_key(s))


_UPPER = bytes(range(256)).upper()
_NOT_DICT = bytes(b for b in range(256) if not (bytes([b]).isalnum() or b in _BLANKS))
_NOT_PRINT = bytes(b for b in range(256) if not 32 <= b < 127)


def make_converter(opts: KeyOpts) -> Callable[[bytes], Any] | None:
    """The comparable value of a key's bytes; None when the bytes compare as they are."""
    if opts.kind == "n":
        return numeric_value
    if opts.kind == "g":
        return general_value
    if opts.kind in ("h", "V") and (opts.fold or opts.dictionary or opts.nonprinting):
        # GNU folds (-f: `1e3` becomes 1 exa under -h) and filters the key, then compares
        text = make_converter(replace(opts, kind=""))
        value = human_value if opts.kind == "h" else version_value
        assert text is not None
        return lambda s: value(text(s))
    if opts.kind == "h":
        return human_value
    if opts.kind == "M":
        return month_value
    if opts.kind == "V":
        return version_value
    delete = b""
    # GNU: -d and -i both given means -d (-i never overrides it)
    if opts.dictionary:
        delete = _NOT_DICT
    elif opts.nonprinting:
        delete = _NOT_PRINT
    table = _UPPER if opts.fold else None
    if table is None and not delete:
        return None
    return lambda s: s.translate(table, delete)


class Rev:
    """Inverts the order of a value, for a key reversed against the sort's direction."""

    __slots__ = ("v",)

    def __init__(self, v: Any) -> None:
        self.v = v

    def __lt__(self, other: Rev) -> bool:
        return bool(other.v < self.v)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rev) and bool(self.v == other.v)

    __hash__ = None  # type: ignore[assignment]


def key_passes(keys: list[KeySpec], tab: bytes | None) -> list[tuple[Callable[[bytes], Any], bool]]:
    """Each key as (key function, descending), for sorting in stable passes from the last
    key to the first: the composition orders like comparing the keys in turn, and needs
    neither tuples nor reversed wrappers."""
    passes: list[tuple[Callable[[bytes], Any], bool]] = []
    for k in keys:
        extract = make_extractor(k, tab)
        conv = make_converter(k.opts)
        fn = extract if conv is None else (lambda e, c: lambda line: c(e(line)))(extract, conv)
        passes.append((fn, k.opts.reverse))
    return passes


def bytes_key(keys: list[KeySpec], tab: bytes | None, global_rev: bool) -> Callable[[bytes], bytes] | None:
    """A single bytes key (`k1 NUL k2 NUL …`) ordering like the tuple of the keys, for
    text keys in the sort's direction; None when some key is numeric or reversed against
    it. Only valid when the input holds no NUL bytes (the caller checks)."""
    parts: list[Callable[[bytes], bytes]] = []
    for k in keys:
        if k.opts.kind or k.opts.reverse != global_rev:
            return None
        extract = make_extractor(k, tab)
        conv = make_converter(k.opts)
        if conv is None:
            parts.append(extract)
        else:
            parts.append((lambda e, c: lambda line: c(e(line)))(extract, conv))
    if len(parts) == 1:
        return parts[0]
    return lambda line: b"\0".join([p(line) for p in parts])


def make_sort_key(
    keys: list[KeySpec], tab: bytes | None, global_rev: bool, last_resort: bool
) -> Callable[[bytes], Any]:
    """The key function for `list.sort(reverse=global_rev)`: each -k key's value,
    wrapped in Rev when its direction differs from the sort's, then the whole line."""
    parts: list[Callable[[bytes], Any]] = []
    for k in keys:
        extract = make_extractor(k, tab)
        conv = make_converter(k.opts)
        if conv is None:
            fn: Callable[[bytes], Any] = extract
        else:
            fn = (lambda e, c: lambda line: c(e(line)))(extract, conv)
        if k.opts.reverse != global_rev:
            fn = (lambda f: lambda line: Rev(f(line)))(fn)
        parts.append(fn)
    if len(parts) == 1:
        only = parts[0]
        if last_resort:
            return lambda line: (only(line), line)
        return only
    if last_resort:
        return lambda line: (*[p(line) for p in parts], line)
    return lambda line: tuple([p(line) for p in parts])
