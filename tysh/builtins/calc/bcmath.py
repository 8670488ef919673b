"""bc -l's math library (s c a l e j), computed in Decimal with guard digits and then
truncated to bc's scale, the way GNU's libmath.b answers to the last digit for
ordinary arguments. Loaded only when a script calls one of them.

Decimal's exp and ln hold the interpreter lock for one long C call that grows fast
with the precision (about 50 ms at 2,000 digits, 2 s at 10,000): past LOCAL_PREC the
call runs in a worker process (kernel.base.worker), which a time limit or `cancel()`
kills."""

from __future__ import annotations

import decimal
from decimal import Decimal

from tysh.builtins.calc.bcnum import BcRuntime, Num
from tysh.kernel.base import stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LOCAL_PREC = 1000  # digits of precision computed in this process

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
        if not k & 2047:
            stop.check()
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
        if not i & 1023:
            stop.check()
    term = half ** n / fact_n
    total, k = Decimal(0), 0
    eps = Decimal(10) ** (-decimal.getcontext().prec - 2)
    while True:
        total += term
        k += 1
        term = -term * half * half / (k * (k + n))
        if abs(term) < eps and k > abs(x):
            break
        if not k & 1023:
            stop.check()
    return sign * total


def _digits(x: Decimal) -> int:
    """Digits of x's integer part (1 for a fraction)."""
    return max(x.adjusted() + 1, 1) if x else 1


def mathlib_call(name: str, args: list[Num], scale: int) -> Num:
    """One of s c a l e j at `scale` digits, truncated as bc does."""
    x = _dec(args[-1])
    prec = scale + _digits(x) * 2 + 30
    if prec > LOCAL_PREC:
        return _in_worker(name, args, scale)
    return _compute(name, args, scale, x, prec)


def _in_worker(name: str, args: list[Num], scale: int) -> Num:
    from tysh.kernel.base import worker

    payload = {"name": name, "args": [[hex(a.n), a.s] for a in args], "scale": scale}
    try:
        n, s = worker.call("tysh.builtins.calc.bcmath", "remote", payload)
    except worker.WorkerError as e:
        raise BcRuntime(e.message) from None
    except worker.WorkerDied as e:
        raise BcRuntime(f"math library {e.reason}") from None
    return Num(int(n, 16), s)


def remote(payload: dict[str, Any]) -> list[Any]:
    """mathlib_call in a worker process: numbers travel as hexadecimal text (linear to
    convert, where decimal is quadratic)."""
    args = [Num(int(n, 16), s) for n, s in payload["args"]]
    x = _dec(args[-1])
    scale = payload["scale"]
    r = _compute(payload["name"], args, scale, x, scale + _digits(x) * 2 + 30)
    return [hex(r.n), r.s]


def _compute(name: str, args: list[Num], scale: int, x: Decimal, prec: int) -> Num:
    try:
        return _series(name, args, scale, x, prec)
    except (decimal.Overflow, decimal.InvalidOperation):
        raise BcRuntime(f"{name}(): result out of range") from None


def _series(name: str, args: list[Num], scale: int, x: Decimal, prec: int) -> Num:
    with decimal.localcontext() as c:
        c.prec = prec
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
