"""Small typed-value tools: fromjson, tojson, keys, values, typeof, split.

Each declares typed_substitution: `$(…)` binds the value itself, so
`x=$(fromjson '[1,2]'); echo ${x[1]}` prints 2. In a pipe the next stage reads their
text: compact JSON for fromjson/tojson, one item per line for keys/values/split, the
type name for typeof (`fromjson … | jq .a` works because the text is JSON).

A value operand is either a typed value (taken as is) or text that is parsed as JSON;
with no operand the value is read from stdin as JSON."""

from __future__ import annotations

import math
import sys

from tysh.builtins._common.lines import slurp_text
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.base.values import to_json_text, to_text, type_name
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import json
    from collections.abc import Callable
    from typing import Any

_WS = LazyRegex(r"\s*")


class _BadJson(Exception):
    pass


def _finite(text: str) -> float:
    """A JSON number as jq holds it: past the double range it is the largest double, so
    a value never carries an infinity that `--json` would print as `Infinity`."""
    v = float(text)
    if v in (math.inf, -math.inf):
        return math.copysign(sys.float_info.max, v)
    return v


def _no_constant(name: str) -> Any:
    raise ValueError(f"Invalid literal {name}")  # NaN/Infinity are not JSON


_decoders: list[json.JSONDecoder] = []


def _decoder() -> json.JSONDecoder:
    """The JSON reader, made on first use: split and typeof read no JSON, and the json
    module brings `re` with it."""
    if not _decoders:
        import json

        _decoders.append(json.JSONDecoder(parse_float=_finite, parse_constant=_no_constant))
    return _decoders[0]


def parse_stream(text: str) -> list[Any]:
    """Every JSON value in a text (whitespace-separated, as jq reads them)."""
    dec = _decoder()
    out: list[Any] = []
    pos = _WS.match(text, 0).end()  # type: ignore[union-attr]
    while pos < len(text):
        try:
            v, pos = dec.raw_decode(text, pos)
        except ValueError as e:
            raise _BadJson(str(e)) from None
        out.append(v)
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
    return out


def _stdin_text(ctx: Context) -> str:
    # the parsed values take several times the text's size: charge for them too
    return slurp_text(ctx, ctx.stdin, per_line=0)


def load_value(ctx: Context, operand: Any) -> Any:
    """The value an operand (or stdin) stands for; raises _BadJson on bad text."""
    if operand is None:
        vals = parse_stream(_stdin_text(ctx))
        if len(vals) == 1:
            return vals[0]
        return vals if vals else None
    if not isinstance(operand, str):
        return operand
    try:
        return _decoder().decode(operand)
    except ValueError as e:
        raise _BadJson(str(e)) from None


def _lines(items: list[Any]) -> str:
    return "".join(to_text(x) + "\n" for x in items)


@value_record
class FromJsonArgs(Record):
    text: Any = param(default=None, positional=True, help="JSON text (stdin if omitted)")


@tool(
    "fromjson", kind="read",
    args=FromJsonArgs,
    typed_substitution=True,
    description="parse JSON text into a typed value",
    examples=[("a list you can index", "x=$(fromjson '[1,2]'); echo ${x[1]}")],
)
def fromjson(args: FromJsonArgs, ctx: Context) -> Outcome:
    try:
        if args.text is None:
            vals = parse_stream(_stdin_text(ctx))
        elif isinstance(args.text, str):
            vals = parse_stream(args.text)
        else:
            vals = [args.text]
    except _BadJson as e:
        ctx.error(f"invalid JSON: {e}")
        return Outcome(code=1)
    ctx.write("".join(to_json_text(v) + "\n" for v in vals))
    data = vals[0] if len(vals) == 1 else (vals or None)
    return Outcome(data=data)


@value_record
class ToJsonArgs(Record):
    value: Any = param(default=None, positional=True, help="a value (stdin text if omitted)")
    pretty: bool = param(default=False, aliases=["-p"], help="indent by two spaces")


@tool(
    "tojson", kind="read",
    args=ToJsonArgs,
    typed_substitution=True,
    description="encode a value as JSON text (a plain word becomes a JSON string)",
    examples=[("quote text for JSON", "tojson 'say \"hi\"'"),
              ("a file's content as a JSON string", "cat notes.txt | tojson")],
)
def tojson(args: ToJsonArgs, ctx: Context) -> Outcome:
    value = args.value if args.value is not None else _stdin_text(ctx)
    text = to_json_text(value, indent=2 if args.pretty else None)
    ctx.write(text + "\n")
    return Outcome(data=text)


@value_record
class ValueArgs(Record):
    value: Any = param(default=None, positional=True, help="a value or JSON text (stdin if omitted)")


def _members(
    args: ValueArgs, ctx: Context, what: str,
    of_record: Callable[[dict[str, Any]], list[Any]], of_list: Callable[[list[Any]], list[Any]],
) -> Outcome:
    """keys/values: one item per line, the list as data; other types have none."""
    try:
        v = load_value(ctx, args.value)
    except _BadJson as e:
        ctx.error(f"invalid JSON: {e}")
        return Outcome(code=1)
    if isinstance(v, dict):
        items = of_record(v)
    elif isinstance(v, list):
        items = of_list(v)
    else:
        ctx.error(f"{type_name(v)} has no {what}")
        return Outcome(code=1)
    ctx.write(_lines(items))
    return Outcome(data=items)


@tool(
    "keys", kind="read",
    args=ValueArgs,
    typed_substitution=True,
    description="the keys of a record (sorted) or the indices of a list",
    examples=[("keys of a record", "keys '{\"b\":1,\"a\":2}'")],
)
def keys(args: ValueArgs, ctx: Context) -> Outcome:
    return _members(args, ctx, "keys", sorted, lambda v: list(range(len(v))))


@tool(
    "values", kind="read",
    args=ValueArgs,
    typed_substitution=True,
    description="the values of a record (in key order) or the items of a list",
    examples=[("values of a record", "values '{\"a\":1,\"b\":[2]}'")],
)
def values(args: ValueArgs, ctx: Context) -> Outcome:
    return _members(args, ctx, "values", lambda v: list(v.values()), list)


@value_record
class TypeofArgs(Record):
    value: Any = param(positional=True, help="any value")
    json: bool = param(default=False, aliases=["-j"], help="parse a text operand as JSON first")


@tool(
    "typeof", kind="read",
    args=TypeofArgs,
    typed_substitution=True,
    description="the jq-style type name of a value: null boolean number string array object",
    examples=[("type of a typed value", "x=$(fromjson '{\"a\":1}'); typeof \"$x\"")],
)
def typeof(args: TypeofArgs, ctx: Context) -> Outcome:
    v = args.value
    if args.json and isinstance(v, str):
        import json

        try:
            v = json.loads(v)
        except ValueError as e:
            ctx.error(f"invalid JSON: {e}")
            return Outcome(code=1)
    name = type_name(v)
    ctx.write(name + "\n")
    return Outcome(data=name)


@value_record
class SplitArgs(Record):
    operands: tuple[str, ...] = param(default=(), positional=True, help="TEXT [SEP]; stdin if no TEXT")
    delimiter: str | None = param(default=None, aliases=["-d"], help="the separator; every operand is a TEXT")
    max: int = param(default=-1, aliases=["-n"], help="at most this many splits")


@tool(
    "split", kind="write",
    args=SplitArgs,
    typed_substitution=True,
    description="split text into a list at a separator (whitespace runs by default)",
    examples=[("split a path list", "parts=$(split \"$PATH\" :); echo ${parts[0]}"),
              ("split stdin", "echo a,b,c | split -d ,")],
)
def split(args: SplitArgs, ctx: Context) -> Outcome:
    ops = [to_text(o) for o in args.operands]
    sep = args.delimiter
    if sep is None and len(ops) == 2:
        ops, sep = ops[:1], ops[1]
    elif sep is None and len(ops) > 2:
        ctx.error(f"extra operand '{ops[2]}' (use -d SEP to split several texts)")
        return Outcome(code=2)
    if not ops:
        text = _stdin_text(ctx)
        ops = [text[:-1] if text.endswith("\n") else text]
    if sep == "":
        ctx.error("empty separator")
        return Outcome(code=1)
    parts: list[str] = []
    for t in ops:
        if sep is None:
            parts.extend(t.split(None, args.max) if args.max >= 0 else t.split())
        else:
            parts.extend(t.split(sep, args.max))
    ctx.write(_lines(list(parts)))
    return Outcome(data=parts)
