"""Decimal text of integers of any size, and the size past which bc, expr and factor
stop.

Python refuses int/str conversions past 4,300 digits (a guard against quadratic-time
parsing of untrusted text); bc and expr compute with exact big numbers and must read
and print them all, as GNU's do (`echo '2^100000' | bc`). Past the guard the conversion
goes through `decimal`, which has no such limit.

Conversion, division and square root of Python ints take time quadratic in their
length, in one C call that holds the interpreter lock: at 100,000 digits each takes
0.1–0.3 s, at 500,000 digits several seconds, and no time limit or `cancel()` can stop
it. So numbers are capped at MAX_BITS (about 39,000 decimal digits, where each such
step takes 10–40 ms); a result past the cap is an error, checked before the work where
its size is known in advance (powers of ten, `a^b`). GNU bc and expr go further, slowly."""

from __future__ import annotations

MAX_BITS = 1 << 17
MAX_DIGITS = 39_456  # decimal digits of the largest number under MAX_BITS


class TooLarge(ValueError):
    """A number past the cap."""

    def __init__(self) -> None:
        super().__init__(f"number too large: tysh keeps numbers under {MAX_DIGITS} digits")


def check(n: int) -> int:
    """`n` when it is within the cap."""
    if n.bit_length() > MAX_BITS:
        raise TooLarge()
    return n


def pow10(k: int) -> int:
    """10**k for a k that keeps it within the cap."""
    if k > MAX_DIGITS:
        raise TooLarge()
    return int(10**k)


def itos(n: int) -> str:
    """`str(n)` for an int of any size within the cap."""
    try:
        return str(n)
    except ValueError:
        from decimal import Decimal

        return str(Decimal(check(n)))


def stoi(text: str) -> int:
    """`int(text)` for decimal text of any length within the cap; ValueError for text
    that is not a number, TooLarge for one past the cap."""
    try:
        return int(text)
    except ValueError:
        t = text.strip().replace("_", "x")  # int() takes 1_000; Decimal would too
        if t.lstrip("+-").isdigit() and t[:2].lstrip("+-")[:1].isdigit():
            if len(t.lstrip("+-0")) > MAX_DIGITS:
                raise TooLarge() from None
            from decimal import Decimal

            return int(Decimal(t))
        raise
