"""bc -l's math library (s c a l e j), computed in Decimal with guard digits and then
truncated to bc's scale, the way GNU's libmath.b answers to the last digit for
ordinary arguments. Loaded only when a script calls one of them."""

from __future__ import annotations

import decimal
from decimal import Decimal

from tysh.builtins.calc.bcnum import BcRuntime, Num


def _dec(a: Num) -> Decimal:
    return Decimal(a.n).scaleb(-a.s)


def _to_num(d: Decimal, scale: int) -> Num:
    q = d.scaleb(scale).to_integral_value(rounding=decimal.ROUND_DOWN)
    return Num(int(q), scale)


def _pi() -> Decimal:
    """Machin's formula at the context's precision."""
    return 4 * (4 * _atan_small(Decimal(1) / 5) - _atan_small(Decimal(1) / 239))


def _atan_small(x: Decimal) -> Decimal:
    total, term, k, x2 = Decimal(0), x, 1, x * x
    while term:
        total += term / k if (k // 2) % 2 == 0 else -term / k
        term *= x2
        k += 2
        if abs(term / k) < Decimal(10) ** (-decimal.getcontext().prec - 5):
            break
    return total


def _atan(x: Decimal) -> Decimal:
    if x < 0:
        return -_atan(-x)
    if x > 1:
        return _pi() / 2 - _atan(1 / x)
    if x > Decimal("0.2"):  # halve the argument: atan x = 2 atan(x / (1 + sqrt(1 + x²)))
        return 2 * _atan(x / (1 + (1 + x * x).sqrt()))
    return _atan_small(x)


def _sin(x: Decimal) -> Decimal:
    two_pi = 2 * _pi()
    x = x % two_pi
    total, term, k = Decimal(0), x, 1
    eps = Decimal(10) ** (-decimal.getcontext().prec - 2)
    while abs(term) > eps:
        total += term
        term = -term * x * x / ((k + 1) * (k + 2))
        k += 2
    return total


def _bessel(n: int, x: Decimal) -> Decimal:
    if n < 0:
        n = -n
        sign = -1 if n % 2 else 1
    else:
        sign = 1
    half = x / 2
    fact_n = 1
    for i in range(2, n + 1):
        fact_n *= i
    term = half ** n / fact_n
    total, k = Decimal(0), 0
    eps = Decimal(10) ** (-decimal.getcontext().prec - 2)
    while True:
        total += term
        k += 1
        term = -term * half * half / (k * (k + n))
        if abs(term) < eps and k > abs(x):
            break
    return sign * total


def mathlib_call(name: str, args: list[Num], scale: int) -> Num:
    """One of s c a l e j at `scale` digits, truncated as bc does."""
    x = _dec(args[-1])
    digits = len(str(abs(int(x)))) if x else 1
    with decimal.localcontext() as c:
        c.prec = scale + digits * 2 + 30
        c.Emax, c.Emin = 10 ** 9, -(10 ** 9)
        if name == "s":
            r = _sin(x)
        elif name == "c":
            r = _sin(x + _pi() / 2)
        elif name == "a":
            r = _atan(x)
        elif name == "l":
            if x <= 0:
                raise BcRuntime("l(x) of a non-positive number")
            r = x.ln()
        elif name == "e":
            r = x.exp()
        else:
            r = _bessel(args[0].trunc_int(), x)
        return _to_num(r, scale)
