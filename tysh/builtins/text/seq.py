"""seq (GNU coreutils 9.1): print a sequence of numbers.

Integer sequences are generated with `range` and written in blocks of thousands of
numbers; a BrokenPipeError from a closed reader (`seq 1 1e9 | head -n 1`) propagates
and the kernel ends the stage. Decimal sequences use exact Decimal arithmetic
(value = first + i * step, as GNU computes it) and GNU's precision rule: the most
fractional digits among FIRST and INCREMENT. An operand written as a short integer is
held as an int, the Decimal it would be (same value and exponent), so an integer
sequence never loads `decimal`."""

from __future__ import annotations

import itertools

from tysh.builtins._common.lines import VALUE_ITEMS
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, frozen, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import decimal
    from collections.abc import Iterator
    from decimal import Decimal
else:
    decimal = LazyModule(globals(), "decimal", "decimal")

BLOCK = 4096


@value_record
class SeqArgs(Record):
    numbers: tuple[str, ...] = param(
        positional=True, default=(), help="LAST, FIRST LAST or FIRST INCREMENT LAST"
    )
    separator: str = param(default="\n", aliases=["-s"], help="separate numbers with STRING")
    equal_width: bool = param(
        default=False, aliases=["-w"], help="pad with leading zeros to equal width"
    )
    format: str | None = param(
        default=None, aliases=["-f"], help="printf-style floating-point FORMAT (%g, %.2f …)"
    )


_NUM_RE = LazyRegex(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_FMT_RE = LazyRegex(r"%[-+ #0']*\d*(?:\.\d*)?L?[aAeEfFgG]")
_HEX_RE = LazyRegex(r"[+-]?0[xX][0-9a-fA-F]+")
_INT_RE = LazyRegex(r"[+-]?\d+")
_DIGITS_RE = LazyRegex(r"\d+")


@frozen
class _Operand(Record):
    value: int | Decimal
    precision: int  # fractional digits as written
    is_int: bool
    width: int  # characters of the printed form (for -w)


def _operand(text: str) -> _Operand | None:
    t = text.strip()
    value: int | Decimal
    if _HEX_RE.fullmatch(t):
        value = int(t, 16)
        return _Operand(value, 0, True, len(str(value)))
    if not _NUM_RE.fullmatch(t):
        low = t.lower().lstrip("+-")
        if low in ("inf", "infinity"):
            return _Operand(decimal.Decimal(t.replace("infinity", "inf")), 0, False, 0)
        return None
    if len(t) < 19 and _INT_RE.fullmatch(t) and not (t[0] == "-" and int(t) == 0):
        value = int(t)  # (Decimal keeps the sign of -0: such an operand stays one)
    else:
        try:
            value = decimal.Decimal(t)
        except decimal.InvalidOperation:
            return None
    mant, _, exp = t.lower().partition("e")
    frac = len(mant.partition(".")[2])
    prec = max(frac - (int(exp) if exp else 0), 0)
    is_int = "." not in mant and not exp
    width = len(t.lstrip("+"))
    if not exp and "." in mant:  # GNU: `1.` is one column, `.5` counts its missing 0
        width += -1 if not frac else int(mant.lstrip("+-").startswith("."))
    return _Operand(value, prec, is_int, width if not exp else 0)


def _check_format(fmt: str) -> str | None:
    """An error message when FORMAT does not hold exactly one floating directive."""
    stripped = fmt.replace("%%", "")
    found = _FMT_RE.findall(stripped)
    if len(found) != 1 or stripped.count("%") != 1:
        if not found and "%" not in stripped:
            return f"format '{fmt}' has no % directive"
        return f"format '{fmt}' has too many % directives" if len(found) > 1 \
            else f"format '{fmt}' has unknown %{stripped.split('%')[1][:1]} directive"
    return None


def _finite(v: int | Decimal) -> bool:
    return isinstance(v, int) or v.is_finite()


def _adjusted(v: int | Decimal) -> int:
    """`Decimal(v).adjusted()`: the exponent of the leading digit."""
    if isinstance(v, int):
        if -_SHORT < v < _SHORT:
            return len(str(abs(v))) - 1
        v = decimal.Decimal(v)  # (a long hex operand: str() refuses past 4300 digits)
    return v.adjusted()


_SHORT = 10 ** 18


def _int_range(first: _Operand, step: _Operand, last: _Operand) -> range:
    a, s, b = int(first.value), int(step.value), int(last.value)
    return range(a, b + (1 if s > 0 else -1), s)


def _decimals(first: _Operand, step: _Operand, last: _Operand) -> Iterator[Decimal]:
    """first + i * step while within last, as GNU computes each value afresh."""
    # exact arithmetic: enough digits for the widest operand span (1 + 1e-400 != 1)
    Decimal = decimal.Decimal
    values = [Decimal(first.value), Decimal(step.value), Decimal(last.value)]
    lo, by, hi = values
    exps = [d.as_tuple().exponent for d in values]
    ints = [d.adjusted() for d in values]
    dctx = decimal.Context(prec=max(ints) - min(e for e in exps if isinstance(e, int)) + 40)
    i = 0
    while True:
        x = dctx.add(lo, dctx.multiply(Decimal(i), by))
        if (by > 0 and x > hi) or (by < 0 and x < hi):
            return
        yield x
        i += 1


@tool(
    "seq", kind="compute",
    args=SeqArgs,
    description="print a sequence of numbers; --json gives them as an array of numbers",
    examples=[
        ("1 to 10", "seq 10"),
        ("even numbers", "seq 0 2 20"),
        ("comma separated", "seq -s, 5"),
        ("zero padded", "seq -w 1 100"),
    ],
)
def seq(args: SeqArgs, ctx: Context) -> ToolReturn:
    nums = args.numbers
    if not nums:
        ctx.error("missing operand")
        return 1
    if len(nums) > 3:
        ctx.error(f"extra operand '{nums[3]}'")
        return 1
    ops: list[_Operand] = []
    for text in nums:
        op = _operand(text)
        if op is None:
            ctx.error(f"invalid floating point argument: '{text}'")
            return 1
        ops.append(op)
    one = _Operand(1, 0, True, 1)
    if len(ops) == 1:
        first, step, last = one, one, ops[0]
    elif len(ops) == 2:
        first, step, last = ops[0], one, ops[1]
    else:
        first, step, last = ops
    if step.value == 0:
        ctx.error(f"invalid Zero increment value: '{nums[1]}'")
        return 1
    if args.format is not None:
        err = _check_format(args.format)
        if err is not None:
            ctx.error(err)
            return 1
        if args.equal_width:
            ctx.error("format string may not be specified when printing equal width strings")
            return 1
    if not (_finite(first.value) and _finite(step.value)):
        ctx.error("invalid floating point argument")
        return 1
    if not _finite(last.value) and ctx.json:
        ctx.error("infinite sequences are not supported with --json")
        return 1
    all_int = first.is_int and step.is_int and last.is_int
    values: range | Iterator[Decimal] = (
        _int_range(first, step, last) if all_int else _decimals(first, step, last)
    )
    prec = max(first.precision, step.precision)
    fmt = args.format
    # a number is written out in full (`1e300000000` is that many digits) and a format
    # may ask for any width or precision: refuse one no line could be made with inside
    # the memory budget, before making it
    digits = prec + max((abs(_adjusted(op.value)) + 2 for op in ops if _finite(op.value)),
                        default=0)
    if fmt is not None:
        directive = _FMT_RE.search(fmt.replace("%%", ""))
        if directive is not None:
            digits += sum(int(d) if len(d) < 18 else 1 << 62
                          for d in _DIGITS_RE.findall(directive.group()))
    ctx.need(4 * digits)
    width = 0
    if args.equal_width:
        # GNU pads to the widest operand as written (`010` is 3 wide), with the
        # fraction digits (and point) the precision adds
        width = max(
            len(_fmt_plain(first.value, prec, all_int)),
            len(_fmt_plain(last.value, prec, all_int)) if _finite(last.value) else 0,
            *(op.width + prec - op.precision + (op.precision == 0 < prec)
              for op in (first, last) if op.width),
        )
    if ctx.json:
        data: list[int | float] = [int(v) if all_int else float(v) for v in values]
        text = args.separator.join(_render(v, prec, all_int, fmt, width) for v in data)
        return Outcome(0, OutputData.text(text + "\n" if data else "", rich_json=data))
    sep = args.separator

    def value() -> list[int | float] | None:
        # the numbers again, not a copy kept while writing: nothing is held for a run
        # whose value nobody reads, and a sequence past VALUE_ITEMS has none
        again: range | Iterator[Decimal] = (_int_range(first, step, last) if all_int
                                            else _decimals(first, step, last))
        some: list[int | Decimal] = list(itertools.islice(again, VALUE_ITEMS + 1))
        if len(some) > VALUE_ITEMS:
            return None
        return [int(v) if all_int else float(v) for v in some]

    done = Outcome(0, OutputData.value(value))
    if isinstance(values, range) and fmt is None and not width:
        _write_ints(ctx, values, sep)
        return done
    started = False
    block: list[str] = []
    for v in values:
        block.append(_render(v, prec, all_int, fmt, width))
        if len(block) >= BLOCK:
            ctx.write((sep if started else "") + sep.join(block))
            started = True
            block.clear()
    if block:
        ctx.write((sep if started else "") + sep.join(block))
        started = True
    if started:
        ctx.write("\n")
    return done


def _write_ints(ctx: Context, r: range, sep: str) -> None:
    """Blocks of integers formatted by one bytes `%` each, not a str() and join per number.
    A range may hold more numbers than `len()` can count (`seq 9223372036854775808`), so
    blocks are sliced until one comes back empty."""
    out = ctx.stdout
    bsep = sep.encode("utf-8", "surrogateescape").replace(b"%", b"%%")
    whole = (b"%d" + bsep) * BLOCK
    start = 0
    while True:
        part = r[start:start + BLOCK]
        k = len(part)
        if k == 0:
            break
        lead = bsep.replace(b"%%", b"%") if start else b""
        fmt = whole[:-len(bsep)] if k == BLOCK and bsep else (b"%d" + bsep) * (k - 1) + b"%d"
        out.write(lead + fmt % tuple(part))
        start += BLOCK
    if start:
        out.write(b"\n")


def _fmt_plain(v: Decimal | int, prec: int, all_int: bool) -> str:
    if all_int:
        return str(int(v))
    return f"{decimal.Decimal(v):.{prec}f}"


def _render(v: Decimal | int | float, prec: int, all_int: bool, fmt: str | None, width: int) -> str:
    if fmt is not None:
        return _FMT_RE.sub(lambda m: m.group().replace("'", "").replace("L", ""), fmt) % float(v)
    s = _fmt_plain(decimal.Decimal(str(v)) if isinstance(v, float) else v, prec, all_int)
    if width and len(s) < width:
        if s.startswith("-"):
            return "-" + s[1:].rjust(width - 1, "0")
        return s.rjust(width, "0")
    return s


TOOLS = [seq]
