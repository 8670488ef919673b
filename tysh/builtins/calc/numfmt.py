"""numfmt (GNU coreutils 9.1): convert numbers to and from human-readable sizes.

Numbers are exact Decimals, so GNU's rounding steps (scale down by 1000 or 1024, keep
one decimal below 10, round with --round, carry 999.9 up to the next unit) give the
same digits as its long doubles do for everyday sizes. Whitespace-delimited fields keep
their width (`ls -l | numfmt --field=5 --to=iec` stays aligned) as GNU's auto-padding
does. Operands are converted like input lines; without operands stdin streams by line."""

from __future__ import annotations

import decimal
from decimal import Decimal

from tysh.builtins._common.fileinfo import q
from tysh.builtins._common.lines import VALUE_ITEMS
from tysh.builtins._common.operands import iter_lines
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, frozen, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

_SUFFIXES = "KMGTPEZY"
_NUMBER = LazyRegex(r"(\s*)(-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(.*)", 16)  # re.DOTALL
_FORMAT = LazyRegex(r"((?:[^%]|%%)*)%([0'\-]*)([0-9]*)(?:\.([0-9]*))?f((?:[^%]|%%)*)")
_WS_FIELD = LazyRegex(r"\s*\S+")
_ROUND = {
    "up": decimal.ROUND_CEILING, "down": decimal.ROUND_FLOOR, "from-zero": decimal.ROUND_UP,
    "towards-zero": decimal.ROUND_DOWN, "nearest": decimal.ROUND_HALF_UP,
}
_MAX_UNSCALED = Decimal(10) ** 19


class NumError(Exception):
    """An input that is not a number (subject to --invalid)."""


@value_record
class NumfmtArgs(Record):
    numbers: tuple[str, ...] = param(positional=True, default=(),
                                     help="numbers to convert (default: stdin lines)")
    to: str = param(default="none", help="output scale: none si iec iec-i")
    from_: str = param(default="none", name="from", help="input scale: none auto si iec iec-i")
    suffix: str = param(default="", help="add SUFFIX to output numbers, accept it on input")
    padding: str | None = param(default=None, help="pad the output to N characters (<0: left-align)")
    field: str = param(default="1", help="convert these fields: N, N-M, N-, -M, - or lists")
    delimiter: str | None = param(default=None, aliases=["-d"],
                                  help="field delimiter (default: runs of blanks)")
    header: bool | str = param(False, param_type="bool", optional_value=True,
                               help="--header[=N]: print the first N lines unconverted (default 1)")
    format: str | None = param(default=None, help="printf-style %[0]['][-][N][.][N]f format")
    round: str = param(default="from-zero", help="up, down, from-zero, towards-zero, nearest")
    invalid: str = param(default="abort", help="on invalid input: abort, fail, warn, ignore")
    grouping: bool = param(default=False, help="group digits (no effect in the C locale)")


@frozen
class _Spec(Record):
    to: str
    from_: str
    suffix: str
    padding: int | None
    prefix: str
    postfix: str
    zero_pad: bool
    precision: int | None
    rounding: str


def _parse(text: str, spec: _Spec) -> tuple[Decimal, int]:
    """A field's value and the decimals it was written with (0 once a suffix scaled it)."""
    m = _NUMBER.fullmatch(text)
    if m is None:
        raise NumError(f"invalid number: {q(text.lstrip())}")
    num, rest = m.group(2), m.group(3)
    val = Decimal(num)
    digits = len(num.partition(".")[2])
    if spec.suffix and rest.endswith(spec.suffix):
        rest = rest[:-len(spec.suffix)]
    if not rest:
        return val, digits
    c = rest[0]
    if c not in _SUFFIXES:
        raise NumError(f"invalid suffix in input: {q(text)}")
    if spec.from_ == "none":
        raise NumError(f"rejecting suffix in input: {q(text)} (consider using --from)")
    power = _SUFFIXES.index(c) + 1
    tail = rest[1:]
    base = 1000 if spec.from_ == "si" else 1024
    if spec.from_ == "auto":
        base = 1024 if tail[:1] == "i" else 1000
        tail = tail[1:] if tail[:1] == "i" else tail
    elif spec.from_ == "iec-i":
        if tail[:1] != "i":
            raise NumError(f"missing 'i' suffix in input: {q(text)} (e.g Ki/Mi/Gi)")
        tail = tail[1:]
    if tail:
        raise NumError(f"invalid suffix in input {q(text)}: {q(tail)}")
    return val * Decimal(base) ** power, 0


def _round(val: Decimal, places: int, mode: str) -> Decimal:
    return _quantize(val, places, _ROUND[mode])


def _quantize(val: Decimal, places: int, rounding: str) -> Decimal:
    # digits enough for the integer part and every place asked for (a precision past
    # the default 28 digits is not an error)
    with decimal.localcontext() as dc:
        dc.prec = max(dc.prec, val.adjusted() + places + 2)
        return val.quantize(Decimal(1).scaleb(-places), rounding=rounding)


def _human(val: Decimal, digits: int, spec: _Spec) -> str:
    """GNU's double_to_human: the number, scaled and rounded, with its unit."""
    if spec.to == "none":
        places = spec.precision if spec.precision is not None else digits
        val = _round(val, places, spec.rounding)
        if abs(val) >= _MAX_UNSCALED:
            raise NumError(f"value too large to be printed: '{float(val):g}' (consider using --to)")
        return f"{val:.{places}f}"
    base = 1000 if spec.to == "si" else 1024
    power = 0
    while abs(val) >= base and power < len(_SUFFIXES):
        val /= base
        power += 1
    if spec.precision is not None:
        adjust = min(power * 3, spec.precision)
    else:
        adjust = 1 if abs(val) < 10 else 0
    val = _round(val, adjust, spec.rounding)
    if abs(val) >= base and power < len(_SUFFIXES):
        val /= base
        power += 1
    show = val != 0 and abs(val) < 10 and power > 0
    places = (spec.precision if spec.precision is not None else 1) if show else 0
    if spec.precision is not None and power > 0:
        places = adjust
    text = f"{_quantize(val, places, decimal.ROUND_HALF_EVEN):.{places}f}"
    if text.startswith("-") and not text.strip("-0."):
        text = text[1:] if val == 0 else text
    unit = _SUFFIXES[power - 1] if power else ""
    if unit and spec.to == "iec-i":
        unit += "i"
    return text + unit


def _convert(field: str, spec: _Spec, auto_width: int) -> str:
    val, digits = _parse(field, spec)
    text = _human(val, digits, spec)
    width = spec.padding if spec.padding is not None else auto_width
    if spec.zero_pad and width > 0:  # %0Nf: zeros after the sign, the unit outside N
        unit = len(text) - len(text.rstrip(_SUFFIXES + "i"))
        number = text[:len(text) - unit]
        text = number.zfill(width) + text[len(number):]
        width = 0
    text += spec.suffix
    if width > 0:
        text = text.rjust(width)
    elif width < 0:
        text = text.ljust(-width)
    return spec.prefix + text + spec.postfix


def _fields(spec_text: str) -> list[tuple[int, int]] | None:
    out: list[tuple[int, int]] = []
    for part in spec_text.split(","):
        lo, dash, hi = part.partition("-")
        try:
            a = int(lo) if lo else 1
            b = (int(hi) if hi else 1 << 30) if dash else a
        except ValueError:
            return None
        if a < 1 or b < a:
            return None
        out.append((a, b))
    return out


@tool(
    "numfmt", kind="compute",
    args=NumfmtArgs,
    description="convert numbers to/from human-readable sizes: --to=si|iec|iec-i, "
                "--from=si|iec|auto, --field, --padding, --format, --round (GNU numfmt)",
    examples=[
        ("bytes to a size", "numfmt --to=iec 1048576"),
        ("a size to bytes", "numfmt --from=iec 1K"),
        ("sizes in ls -l", "ls -l | numfmt --field=5 --to=iec --header"),
    ],
)
def numfmt(args: NumfmtArgs, ctx: Context) -> ToolReturn:
    def usage(msg: str) -> int:
        ctx.error(msg)
        return 1

    for name, value, allowed in (("--to", args.to, ("none", "si", "iec", "iec-i")),
                                 ("--from", args.from_, ("none", "auto", "si", "iec", "iec-i")),
                                 ("--round", args.round, tuple(_ROUND)),
                                 ("--invalid", args.invalid, ("abort", "fail", "warn", "ignore"))):
        if value not in allowed:
            return usage(f"invalid argument {q(value)} for '{name}'")
    if args.to == "auto":
        return usage("invalid argument 'auto' for '--to'")
    padding: int | None = None
    if args.padding is not None:
        try:
            padding = int(args.padding)
        except ValueError:
            padding = 0
        if padding == 0:
            return usage(f"invalid padding value {q(args.padding)}")
    prefix = postfix = ""
    zero = False
    precision: int | None = None
    if args.format is not None:
        m = _FORMAT.fullmatch(args.format)
        if m is None:
            return usage(f"invalid format {q(args.format)}, directive must be "
                         "%[0]['][-][N][.][N]f")
        prefix, flags, width, prec, postfix = m.groups()
        prefix, postfix = prefix.replace("%%", "%"), postfix.replace("%%", "%")
        if width:
            padding = -int(width) if "-" in flags else int(width)
        zero = "0" in flags and "-" not in flags
        if prec is not None:
            precision = int(prec or "0")
    if args.delimiter is not None and len(args.delimiter) != 1:
        return usage("the delimiter must be a single character")
    fields = _fields(args.field) if args.field != "-" else [(1, 1 << 30)]
    if fields is None:
        return usage(f"invalid field value {q(args.field)}")
    header = 0
    if args.header is True:
        header = 1
    elif args.header is not False:
        try:
            header = int(args.header)
        except ValueError:
            header = 0
        if header < 1:
            return usage(f"invalid header value {q(args.header)}")
    # each output field is built as text and then bytes: a width or a precision a
    # line could not be made with inside the memory budget is refused up front
    ctx.need(4 * (abs(padding or 0) + (precision or 0)))
    spec = _Spec(args.to, args.from_, args.suffix, padding, prefix, postfix, zero, precision,
                 args.round)
    status = 0
    rows: list[object] = []

    def wanted(n: int) -> bool:
        return any(a <= n <= b for a, b in fields)

    def line_out(line: str) -> bool:
        """Convert one line; False to stop (--invalid=abort)."""
        nonlocal status
        if args.delimiter is None:
            parts = _WS_FIELD.findall(line) or [""]
            rest = line[sum(map(len, parts)):]
            sep = ""
        else:
            parts = line.split(args.delimiter)
            rest, sep = "", args.delimiter
        out: list[str] = []
        values: list[object] = []
        for i, part in enumerate(parts, 1):
            if not wanted(i):
                out.append(part)
                values.append(part)
                continue
            try:
                auto = len(part) if args.delimiter is None and part[:1].isspace() else 0
                text = _convert(part, spec, auto)
                out.append(text)
                values.append(text.strip())
            except NumError as e:
                if args.invalid == "abort":
                    lead = part[:len(part) - len(part.lstrip())] if not sep else ""
                    done = "".join(p + sep for p in out) + lead
                    ctx.stdout.write(done.encode("utf-8", "surrogateescape"))
                    ctx.error(str(e))
                    status = 2
                    return False
                if args.invalid != "ignore":
                    ctx.error(str(e))
                if args.invalid == "fail":
                    status = 2
                out.append(part)
                values.append(part)
        text = sep.join(out) + rest
        if not ctx.json:
            ctx.stdout.write(text.encode("utf-8", "surrogateescape") + b"\n")
            if len(rows) > VALUE_ITEMS:
                return True  # too many for a value (it is absent): none are kept
        rows.append(values[0] if len(values) == 1 else values)
        return True

    if args.numbers:
        for n in args.numbers:  # --header is about stdin only (GNU)
            if not line_out(n):
                break
    else:
        for k, raw in enumerate(iter_lines(ctx.stdin, ctx)):
            line = raw.decode("utf-8", "surrogateescape").removesuffix("\n")
            if k < header:
                if not ctx.json:
                    ctx.stdout.write(raw if raw.endswith(b"\n") else raw + b"\n")
                continue
            if not line_out(line):
                break
    if ctx.json:
        return Outcome(status, OutputData.text("", rich_json=rows))
    if len(rows) > VALUE_ITEMS:
        return status
    return Outcome(status, OutputData.value(lambda: rows))


TOOLS = [numfmt]
