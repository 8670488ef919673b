"""JSON text exactly as jq 1.6 prints it: 2-space indent, `": "` separators, `-c` compact,
numbers as jq's doubles (`1e+23`, `12345678901234567000`), DEL escaped as `\\u007f`.

The common case (no huge integers, no DEL) goes straight to the json module; only
values that need jq's number or escape rules take the slower hand-written path."""

from __future__ import annotations

import json
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_BIG = 10**17


def jq_number(v: int | float) -> str:
    """A number as jq 1.6 prints it (shortest round-trip digits, its exponent rule)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        if -_BIG < v < _BIG:
            return str(v)
        v = float(v)
    if v != v:
        return "null"
    if v in (float("inf"), float("-inf")):
        return "1.7976931348623157e+308" if v > 0 else "-1.7976931348623157e+308"
    if v.is_integer() and abs(v) < _BIG:
        return str(int(v)) if v or str(v)[0] != "-" else "-0"
    r = repr(v)
    sign = ""
    if r[0] == "-":
        sign, r = "-", r[1:]
    mant, _, exp_s = r.partition("e")
    exp = int(exp_s) if exp_s else 0
    whole, _, frac = mant.partition(".")
    if frac == "0":
        frac = ""
    digits = (whole + frac).lstrip("0")
    lead_zeros = len(whole + frac) - len((whole + frac).lstrip("0"))
    decpt = len(whole) + exp - lead_zeros  # position of the decimal point after digits[0..]
    digits = digits.rstrip("0") or "0"
    nd = len(digits)
    if decpt <= -4 or decpt > nd + 15:
        e = decpt - 1
        m = digits[0] + ("." + digits[1:] if nd > 1 else "")
        return f"{sign}{m}e{'+' if e >= 0 else '-'}{abs(e):02d}"
    if decpt <= 0:
        return f"{sign}0.{'0' * -decpt}{digits}"
    if decpt >= nd:
        return sign + digits + "0" * (decpt - nd)
    return f"{sign}{digits[:decpt]}.{digits[decpt:]}"


# A run of 18 digits in the compact text: a number jq would print as a double (or only a
# string holding digits — then the slow path just does the same work more carefully).
_LONG_DIGITS = re.compile(r"\d{18}")


class JsonWriter:
    """Serialise values with jq's options: indent (0 = compact), tab, sort keys, ASCII."""

    def __init__(
        self, indent: int = 2, tab: bool = False, sort_keys: bool = False, ascii: bool = False
    ) -> None:
        self.indent: str | None = "\t" if tab else (" " * indent if indent > 0 else None)
        self.sort_keys = sort_keys
        self.ascii = ascii
        # built once: json.dumps would make a new encoder for every value
        self._compact = json.JSONEncoder(
            ensure_ascii=ascii, sort_keys=sort_keys, separators=(",", ":")
        ).encode
        self._encode = json.JSONEncoder(
            ensure_ascii=ascii, sort_keys=sort_keys, indent=self.indent,
            separators=(",", ":") if self.indent is None else (",", ": "),
        ).encode
        self._encode_str = (
            json.encoder.encode_basestring_ascii if ascii else json.encoder.encode_basestring
        )

    def dumps(self, v: Any) -> str:
        t = type(v)
        if t is int and -_BIG < v < _BIG:
            return str(v)
        if t is str and "\x7f" not in v:
            return self._encode_str(v)
        text = self._compact(v)  # the C encoder: cheap enough to use as the check
        if "\x7f" not in text and _LONG_DIGITS.search(text) is None:
            return text if self.indent is None else self._encode(v)
        parts: list[str] = []
        self._write(v, parts, 0)
        return "".join(parts)

    def dumps_numbers(self, v: Any) -> str:
        """As dumps, every number written by jq's rule (the json module prints `1.0`);
        for values that did not come out of libjq."""
        parts: list[str] = []
        self._write(v, parts, 0)
        return "".join(parts)

    def _str(self, s: str) -> str:
        out = json.dumps(s, ensure_ascii=self.ascii)
        return out.replace("\x7f", "\\u007f") if "\x7f" in out else out

    def _write(self, v: Any, parts: list[str], level: int) -> None:
        if isinstance(v, str):
            parts.append(self._str(v))
        elif v is None:
            parts.append("null")
        elif isinstance(v, bool):
            parts.append("true" if v else "false")
        elif isinstance(v, (int, float)):
            parts.append(jq_number(v))
        elif isinstance(v, (list, dict)):
            if not v:
                parts.append("[]" if isinstance(v, list) else "{}")
                return
            ind = self.indent
            inner = "" if ind is None else "\n" + ind * (level + 1)
            close = "" if ind is None else "\n" + ind * level
            sep = "," + inner if ind is not None else ","
            parts.append("[" if isinstance(v, list) else "{")
            parts.append(inner)
            if isinstance(v, list):
                for i, x in enumerate(v):
                    if i:
                        parts.append(sep)
                    self._write(x, parts, level + 1)
                parts.append(close + "]")
            else:
                items = sorted(v.items()) if self.sort_keys else list(v.items())
                colon = ":" if ind is None else ": "
                for i, (k, x) in enumerate(items):
                    if i:
                        parts.append(sep)
                    parts.append(self._str(str(k)) + colon)
                    self._write(x, parts, level + 1)
                parts.append(close + "}")
        else:
            parts.append(self._str(str(v)))
