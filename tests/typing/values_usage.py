"""The JSON-value DSL's class form, checked by mypy --strict (tests/embed/test_values_typing.py):
each property reads as the type its required/optional/default/enum shape gives it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, assert_type

from tysh import Args, Context, JsonTool, define_tool
from tysh import values as s

Mode = Literal["fast", "deep"]
MODES: tuple[Mode, ...] = ("fast", "deep")


class Filter(Args, additional_properties=False):
    kind = s.string(required=True)
    depth = s.integer()


class SearchArgs(Args):
    query = s.string(required=True)
    limit = s.integer(minimum=1)
    page = s.integer(default=1)
    ratio = s.number(default=0.5)
    exact = s.boolean()
    mode = s.string(enum=MODES, default="fast")
    maybe_mode = s.string(enum=MODES)
    tags = s.array(s.string())
    ids = s.array(s.integer(), required=True)
    filter = s.object(Filter, required=True)
    opt_filter = s.object(Filter)
    meta = s.object({"a": s.string()}, additional_properties=True)
    target = s.one_of(s.string(), s.array(s.string()), required=True)
    maybe_target = s.one_of(s.integer(), s.string())
    anything = s.json()


def run(args: SearchArgs, ctx: Context) -> int:
    assert_type(args.query, str)
    assert_type(args.limit, int | None)
    assert_type(args.page, int)
    assert_type(args.ratio, float)
    assert_type(args.exact, bool | None)
    assert_type(args.mode, Literal["fast", "deep"])
    assert_type(args.maybe_mode, Literal["fast", "deep"] | None)
    assert_type(args.tags, tuple[str, ...] | None)
    assert_type(args.ids, tuple[int, ...])
    assert_type(args.filter, Filter)
    assert_type(args.filter.kind, str)
    assert_type(args.filter.depth, int | None)
    assert_type(args.opt_filter, Filter | None)
    assert_type(args.meta, Mapping[str, Any] | None)
    assert_type(args.target, str | tuple[str, ...])
    assert_type(args.maybe_target, int | str | None)
    ctx.write(args.query + str(args.page + 1) + args.filter.kind + "\n")
    return 0


search: JsonTool = define_tool("search", "find things", parameters=SearchArgs, execute=run)


def run_map(args: Mapping[str, Any], ctx: Context) -> int:
    return 0


mapped: JsonTool = define_tool("m", parameters={"q": s.string(required=True)},
                               execute=run_map)
