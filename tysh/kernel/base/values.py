"""The value model: JSON values plus bytes.

Words from the source are strings; typed values come from typed substitution, arrays
and JSON tools. These helpers give every value one text form and one truthiness so
builtins, the expander and external commands agree on them.
"""

from __future__ import annotations

from typing import Any

Value = str | int | float | bool | None | list[Any] | dict[str, Any] | bytes


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
