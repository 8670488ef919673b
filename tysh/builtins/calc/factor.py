"""factor (GNU coreutils 9.1): print the prime factors of each number.

Numbers come from the operands or, with none, from the words of stdin (read a line at
a time, so a pipe is answered as it flows). Small factors go by trial division, the
rest by Miller-Rabin (deterministic bases below 3.3e24, 24 rounds above) and Brent's
Pollard rho, so 30-digit numbers answer at once. An invalid word is reported as GNU
does and sets status 1; the others are still factored.

A number of more than MAX_DIGITS digits is refused as too large (GNU's message when it
is built without big numbers): one Miller-Rabin power of such a number is a single C
call that holds the interpreter lock for longer than a time limit can wait (70 ms at
1,000 digits, half a second at 2,000)."""

from __future__ import annotations

import math

from tysh.builtins._common.cancel import checkpoint
from tysh.builtins._common.lines import VALUE_ITEMS
from tysh.builtins._common.operands import iter_lines
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Iterable
else:  # only a number past trial division's reach draws random bases or rho's seeds
    random = LazyModule(globals(), "random", "random")

_NUMBER = LazyRegex(r"\s*\+?([0-9]+)")
MAX_DIGITS = 500
_SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47)
_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def is_prime(n: int, tick: Callable[[], None] = lambda: None) -> bool:
    """Miller-Rabin; the fixed bases are exact below 3.3e24. `tick` runs between
    bases."""
    if n < 2:
        return False
    for p in _SMALL_PRIMES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    bases: Iterable[int] = _MR_BASES
    if n >= 3_317_044_064_679_887_385_961_981:
        rng = random.Random(n)
        bases = [*_MR_BASES, *(rng.randrange(2, n - 1) for _ in range(24))]
    for a in bases:
        tick()
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _rho(n: int, tick: Callable[[], None]) -> int:
    """A non-trivial factor of the odd composite n (Brent's variant of Pollard rho);
    `tick` is called at each gcd, so a cancel or a time limit can stop a long search."""
    rng = random.Random(n)
    while True:
        y, c, m = rng.randrange(1, n), rng.randrange(1, n), 128
        g = r = q = 1
        x = ys = y
        while g == 1:
            x = y
            for _ in range(r):
                y = (y * y + c) % n
            k = 0
            while k < r and g == 1:
                ys = y
                for _ in range(min(m, r - k)):
                    y = (y * y + c) % n
                    q = q * abs(x - y) % n
                g = math.gcd(q, n)
                k += m
                tick()
            r *= 2
        if g == n:
            g = 1
            while g == 1:
                ys = (ys * ys + c) % n
                g = math.gcd(abs(x - ys), n)
        if g != n:
            return g


def factorize(n: int, tick: Callable[[], None] = lambda: None) -> list[int]:
    """The prime factors of n in ascending order, with multiplicity ([] for 0 and 1)."""
    out: list[int] = []
    if n < 2:
        return out
    for p in (2, 3, 5):
        while n % p == 0:
            out.append(p)
            n //= p
    f, step = 7, 0
    wheel = (4, 2, 4, 2, 4, 6, 2, 6)
    while f <= 10_000 and f * f <= n:
        while n % f == 0:
            out.append(f)
            n //= f
        f += wheel[step]
        step = (step + 1) % 8
    stack = [n] if n > 1 else []
    while stack:
        m = stack.pop()
        if m < f * f or is_prime(m, tick):
            out.append(m)
        else:
            d = _rho(m, tick)
            stack += [d, m // d]
    return sorted(out)


@value_record
class FactorArgs(Record):
    numbers: tuple[str, ...] = param(positional=True, default=(),
                                     help="positive integers (default: the words of stdin)")


@tool(
    "factor", kind="compute",
    args=FactorArgs,
    description="print the prime factors of each number (GNU factor)",
    examples=[("factor a number", "factor 84"), ("factor numbers from a pipe", "seq 10 15 | factor")],
)
def factor(args: FactorArgs, ctx: Context) -> ToolReturn:
    rows: list[dict[str, object]] = []
    status = 0

    def one(word: str) -> None:
        nonlocal status
        m = _NUMBER.fullmatch(word)
        if m is None:
            ctx.error(f"'{word}' is not a valid positive integer")
            status = 1
            return
        digits = m.group(1).lstrip("0")
        if len(digits) > MAX_DIGITS:
            shown = word if len(word) <= 40 else word[:40] + "..."
            ctx.error(f"'{shown}' is too large")
            status = 1
            return
        n = int(digits or "0")
        fs = factorize(n, lambda: checkpoint(ctx))
        if not ctx.json:
            ctx.stdout.write(f"{n}:{''.join(f' {p}' for p in fs)}\n".encode())
            if len(rows) > VALUE_ITEMS:
                return  # too many for a value (it is absent): none are kept
        rows.append({"number": n, "factors": fs})

    if args.numbers:
        for w in args.numbers:
            one(w)
    else:
        for raw in iter_lines(ctx.stdin, ctx):
            for word in raw.split():
                one(word.decode("utf-8", "surrogateescape"))
            ctx.stdout.flush()
    if ctx.json:
        return Outcome(status, OutputData.text("", rich_json=rows))
    if len(rows) > VALUE_ITEMS:
        return status
    return Outcome(status, OutputData.value(lambda: rows))


TOOLS = [factor]
