"""Decimal text of integers of any size.

Python refuses int/str conversions past 4,300 digits (a guard against quadratic-time
parsing of untrusted text); bc and expr compute with exact big numbers and must read
and print them all, as GNU's do (`echo '2^100000' | bc`). Past the guard the conversion
goes through `decimal`, which has no such limit."""

from __future__ import annotations


def itos(n: int) -> str:
    """`str(n)` for an int of any size."""
    try:
        return str(n)
    except ValueError:
        from decimal import Decimal

        return str(Decimal(n))


def stoi(text: str) -> int:
    """`int(text)` for decimal text of any length; ValueError for text that is not one."""
    try:
        return int(text)
    except ValueError:
        t = text.strip().replace("_", "x")  # int() takes 1_000; Decimal would too
        if t.lstrip("+-").isdigit() and t[:2].lstrip("+-")[:1].isdigit():
            from decimal import Decimal

            return int(Decimal(t))
        raise
