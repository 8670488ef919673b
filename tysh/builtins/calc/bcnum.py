"""bc's numbers: exact decimals (an int and a count of places) with bc's scale rules,
which truncate and never round; the interpreter (bc) and the math library (bcmath)
both compute with them. A number past calc.bigint's cap is a runtime error (see there:
each step on it would hold the interpreter lock too long)."""

from __future__ import annotations

from tysh.builtins.calc import bigint
from tysh.builtins.calc.bigint import itos
from tysh.kernel.base import stop
from tysh.kernel.base.record import Record, frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

DIGITS = "0123456789ABCDEF"  # a digit's value is its index, up to base 16


class BcRuntime(Exception):
    """A runtime error: the rest of the line is skipped."""


@frozen
class Num(Record):
    """n / 10**s: bc's number, exact, with its scale."""

    n: int
    s: int

    def __post_init__(self) -> None:
        if self.n.bit_length() > bigint.MAX_BITS:
            raise BcRuntime(str(bigint.TooLarge()))

    def rescale(self, s: int) -> Num:
        """Truncate (toward zero) or extend to s places."""
        if s >= self.s:
            return Num(self.n * pow10(s - self.s), s)
        q = abs(self.n) // pow10(self.s - s)
        return Num(-q if self.n < 0 else q, s)

    def trunc_int(self) -> int:
        return self.rescale(0).n


def pow10(k: int) -> int:
    """10**k, or bc's error when it would pass the cap."""
    try:
        return bigint.pow10(k)
    except bigint.TooLarge as e:
        raise BcRuntime(str(e)) from None


ZERO = Num(0, 0)
ONE = Num(1, 0)


def align(a: Num, b: Num) -> tuple[int, int, int]:
    s = max(a.s, b.s)
    return a.n * pow10(s - a.s), b.n * pow10(s - b.s), s


def divide(a: Num, b: Num, scale: int) -> Num:
    if b.n == 0:
        raise BcRuntime("Divide by zero")
    num = a.n * pow10(scale + b.s)
    den = b.n * pow10(a.s)
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
    if b.s and b.n % pow10(b.s):
        warn("non-zero scale in exponent")
    e = b.trunc_int()
    if e == 0:
        return ONE
    # the size of a**e is known before it is computed: refuse it then
    if max(abs(a.n).bit_length() - 1, 0) * abs(e) > bigint.MAX_BITS or \
            a.s * abs(e) > bigint.MAX_DIGITS:
        raise BcRuntime(str(bigint.TooLarge()))
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
    whole, frac = divmod(abs(a.n), pow10(a.s))
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
        if not len(parts) & 1023:
            stop.check()  # one digit per pass over the whole number
    text = "".join(reversed(parts)) or ("" if a.s else digit(0))
    if a.s:
        text += "."
        place, limit = 1, pow10(a.s)
        num, den = frac, limit
        k = 0
        while place < limit:
            num *= base
            d, num = divmod(num, den)
            text += digit(d)
            place *= base
            k += 1
            if not k & 1023:
                stop.check()
    return sign + text
