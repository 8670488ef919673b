"""The value model: JSON values plus bytes.

Words from the source are strings; typed values come from typed substitution, arrays
and JSON tools. These helpers give every value one text form and one truthiness so
builtins, the expander and external commands agree on them.
"""

from __future__ import annotations

from tysh.kernel.base.hints import Any

Value = str | int | float | bool | None | list[Any] | dict[str, Any] | bytes


class AssocArray(dict[str, Any]):
    """A bash associative array (`declare -A`), as distinct from a record (a JSON
    object from a tool): `$A` is `${A[0]}` as in bash, and its keys list in bash's
    order (`ordered_keys`), which scripts and their expected output depend on."""

    __slots__ = ()

    def copy(self) -> AssocArray:
        return AssocArray(self)

    def ordered_keys(self) -> list[str]:
        """The keys in the order bash lists them: bash keeps an associative array in a
        hash table of 1024 buckets (FNV-1 hash of the key's bytes), growing it four
        times when it holds twice as many entries as buckets, and lists bucket by
        bucket, newest entry first within one."""
        keys = list(self)
        n = len(keys)
        if n < 2:
            return keys
        if n <= 2048:  # the table never grew: sort by bucket, newest first
            order = sorted(range(n), key=lambda i: (_bash_hash(keys[i]) & 1023, -i))
            return [keys[i] for i in order]
        size = 1024
        buckets: list[list[str]] = [[] for _ in range(size)]
        count = 0
        for k in keys:
            if count >= size * 2:
                new_size = size * 4
                grown: list[list[str]] = [[] for _ in range(new_size)]
                for b in buckets:
                    for old in b:
                        grown[_bash_hash(old) & (new_size - 1)].insert(0, old)
                buckets, size = grown, new_size
            buckets[_bash_hash(k) & (size - 1)].insert(0, k)
            count += 1
        return [k for b in buckets for k in b]


class SparseList(list[Any]):
    """An indexed array with elements far past the end of its list (`a[2**62]=x`):
    bash's arrays are sparse, and a list cannot hold holes that wide. The list holds
    the elements from 0 (None marks a hole, as in any array); `far` holds the others
    by index, all above the list's end."""

    __slots__ = ("far",)

    def __init__(self, items: Any = (), far: dict[int, Any] | None = None) -> None:
        super().__init__(items)
        self.far: dict[int, Any] = dict(far or {})

    def copy(self) -> SparseList:
        return SparseList(self, self.far)

    def end(self) -> int:
        """One past the highest index in use (what a negative index counts back from)."""
        return max(max(self.far) + 1, len(self)) if self.far else len(self)

    def far_items(self) -> list[tuple[int, Any]]:
        return sorted(self.far.items())


# A gap of more holes than this past an array's end keeps the element in `far`.
FAR_GAP = 1 << 16


def array_end(v: list[Any]) -> int:
    """One past an indexed array's highest index."""
    return v.end() if type(v) is SparseList else len(v)


def array_get(v: list[Any], i: int) -> Any:
    """Element `i` of an indexed array (negative counts back from the end); None when
    unset."""
    if i < 0:
        i += array_end(v)
    if 0 <= i < len(v):
        return v[i]
    if type(v) is SparseList:
        return v.far.get(i)
    return None


def array_items(v: list[Any]) -> list[tuple[int, Any]]:
    """The set elements of an indexed array as (index, value), in index order."""
    out = [(i, x) for i, x in enumerate(v) if x is not None]
    if type(v) is SparseList:
        out.extend(v.far_items())
    return out


_hashes: dict[str, int] = {}


def _bash_hash(key: str) -> int:
    """bash's hash_string: 32-bit FNV-1 over the key's bytes as signed chars."""
    h = _hashes.get(key)
    if h is not None:
        return h
    h = 2166136261
    for b in key.encode("utf-8", "surrogateescape"):
        h = ((h * 16777619) & 0xFFFFFFFF) ^ (b if b < 128 else (b - 256) & 0xFFFFFFFF)
    if len(_hashes) > 65536:
        _hashes.clear()
    _hashes[key] = h
    return h


def assoc_items(d: dict[str, Any]) -> list[tuple[str, Any]]:
    """A dict's entries in listing order: bash's for an associative array, insertion
    order for a record."""
    if type(d) is AssocArray:
        return [(k, d[k]) for k in d.ordered_keys()]
    return list(d.items())


def to_text(v: Any) -> str:
    """Render a value as text: strings as is, numbers in decimal, true/false,
    null as empty, lists and records as compact JSON, bytes decoded with surrogateescape."""
    if isinstance(v, str):
        return v
    if v is None:
        return ""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return format_float(v)
    if isinstance(v, bytes):
        return v.decode("utf-8", "surrogateescape")
    import json  # here, not at the top: only structured values need it

    return json.dumps(to_json_value(v), separators=(",", ":"), ensure_ascii=False)


def format_float(f: float) -> str:
    """Floats print without a trailing `.0` when integral, as jq does."""
    if f != f or f in (float("inf"), float("-inf")):
        import json

        return json.dumps(f)
    if f.is_integer() and abs(f) < 1e17:
        return str(int(f))
    return repr(f)


def truthy(v: Any) -> bool:
    """Shell truthiness: empty string, null, false, 0, empty list/record and b"" are false."""
    if v is None or v is False:
        return False
    if isinstance(v, (str, bytes, list, dict)):
        return len(v) > 0
    if isinstance(v, (int, float)):
        return v != 0
    return True


def to_json_value(v: Any) -> Any:
    """A JSON-encodable copy of a value; bytes become a base64 envelope
    (`{"_type": "bytes", "encoding": "base64", "data": …, "len": n}`)."""
    if isinstance(v, bytes):
        return {
            "_type": "bytes",
            "encoding": "base64",
            "data": b64encode(v).decode("ascii"),
            "len": len(v),
        }
    if isinstance(v, dict):
        return {str(k): to_json_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [to_json_value(x) for x in v]
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e17:
        return int(v)
    return v


def to_json_text(v: Any, *, indent: int | None = None) -> str:
    """Serialise a value as JSON text (compact unless an indent is given)."""
    seps = (",", ":") if indent is None else (",", ": ")
    import json

    return json.dumps(to_json_value(v), separators=seps, indent=indent, ensure_ascii=False)


def type_name(v: Any) -> str:
    """The jq-style type name of a value."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, bytes):
        return "bytes"
    if isinstance(v, (list, tuple)):
        return "array"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def b64encode(raw: bytes) -> bytes:
    """base64 is imported here, not at the top: only non-UTF-8 output needs it."""
    import base64

    return base64.b64encode(raw)


def encode_text(s: str) -> bytes:
    """Text as the bytes it stands for: UTF-8, with the escapes of undecodable bytes
    (U+DC80..U+DCFF, surrogateescape) back to those bytes — and any other lone
    surrogate as its own UTF-8 form (what bash writes for `$'\\ud800'`), never an
    exception."""
    try:
        return s.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return "".join(
            c.encode("utf-8", "surrogatepass").decode("utf-8", "surrogateescape")
            if "\ud800" <= c <= "\udfff" and not "\udc80" <= c <= "\udcff" else c
            for c in s
        ).encode("utf-8", "surrogateescape")


def clean_text(s: str) -> str:
    """`s` as tysh holds text: every lone surrogate other than a byte's escape becomes
    the escapes of its UTF-8 bytes (see encode_text), so the text always encodes."""
    try:
        s.encode("utf-8", "surrogateescape")
        return s
    except UnicodeEncodeError:
        return encode_text(s).decode("utf-8", "surrogateescape")


# -- the C locale's bytes ---------------------------------------------------------------
# Under LC_ALL=C (LC_CTYPE, LANG) bash counts, slices and matches bytes, not characters.
# Text is held as str (UTF-8, undecodable bytes surrogate-escaped); an operation in the
# C locale runs on the text's byte view — one character per byte: ASCII bytes as
# themselves, every byte from 0x80 up as its surrogate escape (U+DC80..U+DCFF), which no
# class, case rule or `\w` takes for a letter, as in the C locale — and turns its result
# back into text.


def byte_view(s: str) -> str:
    """`s` with one character per byte of its UTF-8 form (see above)."""
    return encode_text(s).decode("ascii", "surrogateescape")


def from_byte_view(v: str) -> str:
    """Text from a byte view (bytes that form UTF-8 characters become those again)."""
    return v.encode("ascii", "surrogateescape").decode("utf-8", "surrogateescape")


def is_byte_locale(name: str) -> bool:
    """Whether a locale name (a value of LC_ALL, LC_CTYPE or LANG) has one byte per
    character: every name but those of a UTF-8 codeset (`C.UTF-8`, `en_US.utf8`,
    `de_DE.UTF-8@euro`); tysh knows no other multibyte encoding."""
    dot = name.find(".")
    if dot < 0:
        return True
    codeset = name[dot + 1:].partition("@")[0].lower()
    return codeset not in ("utf-8", "utf8")


def starts_mid_character(s: str) -> bool:
    """Whether `s` begins with a lone UTF-8 continuation byte (a piece of a character
    cut in the C locale, `${x:1:1}` of `μ`): joined after its lead byte, the two must
    become the character again (`mend`)."""
    return "\udc80" <= s[:1] <= "\udcbf"


def mend(s: str) -> str:
    """`s` with the bytes of whole UTF-8 characters that were held apart (escaped one by
    one) made those characters again: text is held in one form whatever its history."""
    return encode_text(s).decode("utf-8", "surrogateescape")
