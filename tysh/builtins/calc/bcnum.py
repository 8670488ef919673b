"""bc's numbers: exact decimals (an int and a count of places) with bc's scale rules,
which truncate and never round; the interpreter (bc) and the math library (bcmath)
both compute with them."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from tysh.builtins.calc.bigint import itos

DIGITS = "0123456789ABCDEF"  # a digit's value is its index, up to base 16


class BcRuntime(Exception):
    """A runtime error: the rest of the line is skipped."""


@attrs.frozen
class Num:
    """n / 10**s: bc's number, exact, with its scale."""

    n: int
    s: int

    def rescale(self, s: int) -> Num:
        """Truncate (toward zero) or extend to s places."""
        if s >= self.s:
            return Num(self.n * 10 ** (s - self.s), s)
        q = abs(self.n) // 10 ** (self.s - s)
        return Num(-q if self.n < 0 else q, s)

    def trunc_int(self) -> int:
        return self.rescale(0).n


ZERO = Num(0, 0)
ONE = Num(1, 0)


def align(a: Num, b: Num) -> tuple[int, int, int]:
    s = max(a.s, b.s)
    return a.n * 10 ** (s - a.s), b.n * 10 ** (s - b.s), s


def divide(a: Num, b: Num, scale: int) -> Num:
    if b.n == 0:
        raise BcRuntime("Divide by zero")
    num = a.n * 10 ** (scale + b.s)
    den = b.n * 10 ** a.s
    q = abs(num) // abs(den)
    return Num(q if (num < 0) == (den < 0) else -q, scale)


def multiply(a: Num, b: Num, scale: int) -> Num:
    return Num(a.n * b.n, a.s + b.s).rescale(min(a.s + b.s, max(scale, a.s, b.s)))


def modulo(a: Num, b: Num, scale: int) -> Num:
    if b.n == 0:
        raise BcRuntime("Modulo by zero")
    q = divide(a, b, scale)
    x, y, s = align(a, Num(q.n * b.n, q.s + b.s))
    return Num(x - y, s).rescale(max(scale + b.s, a.s))


def power(a: Num, b: Num, scale: int, warn: Callable[[str], None]) -> Num:
    if b.s and b.n % 10 ** b.s:
        warn("non-zero scale in exponent")
    e = b.trunc_int()
    if e == 0:
        return ONE
    if e < 0:
        p = Num(a.n ** -e, a.s * -e)
        return divide(ONE, p, scale)
    return Num(a.n ** e, a.s * e).rescale(min(a.s * e, max(scale, a.s)))


def square_root(a: Num, scale: int) -> Num:
    if a.n < 0:
        raise BcRuntime("Square root of a negative number")
    s = max(scale, a.s)
    from math import isqrt
    return Num(isqrt(a.rescale(2 * s).n), s)


def compare(a: Num, b: Num) -> int:
    x, y, _ = align(a, b)
    return (x > y) - (x < y)


def length(a: Num) -> int:
    if a.n == 0:
        return 1 if a.s == 0 else a.s
    digits = len(itos(abs(a.n)))
    return max(digits, a.s)


def format_num(a: Num, base: int) -> str:
    """bc's printed form: no leading 0 before the point, a zero is `0`."""
    if a.n == 0:
        return "0"
    sign = "-" if a.n < 0 else ""
    whole, frac = divmod(abs(a.n), 10 ** a.s)
    if base == 10:
        text = itos(whole) if whole else ""
        if a.s:
            text += "." + itos(frac).rjust(a.s, "0")
        return sign + text
    wide = base > 16
    width = len(str(base - 1))

    def digit(d: int) -> str:
        return f" {d:0{width}d}" if wide else DIGITS[d]

    parts: list[str] = []
    while whole:
        whole, d = divmod(whole, base)
        parts.append(digit(d))
    text = "".join(reversed(parts)) or ("" if a.s else digit(0))
    if a.s:
        text += "."
        place, limit = 1, 10 ** a.s
        num, den = frac, 10 ** a.s
        while place < limit:
            num *= base
            d, num = divmod(num, den)
            text += digit(d)
            place *= base
    return sign + text
