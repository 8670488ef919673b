"""Reflection of a tool's attrs class into its parameter schema: types from annotations,
declaration order, aliases, help, and the canonical name."""

from __future__ import annotations

from typing import Any, Literal

import attrs
from fixtures_schemas import HeadArgs

from tysh.kernel.bind.binder import classify
from tysh.kernel.bind.fast import bind_and_convert
from tysh.kernel.tools.params import param, reflect_params
from tysh.kernel.tools.tool import tool


def _noop(args: Any, ctx: Any) -> int:
    return 0


def test_reflection_maps_annotations_to_param_types() -> None:
    @attrs.frozen(kw_only=True)
    class A:
        s: str
        i: int = 1
        f: float = 1.5
        b: bool = False
        c: Literal["x", "y"] = "x"
        o: int | None = None
        files: tuple[str, ...] = param(positional=True, default=())
        tags: list[str] = param(factory=list)
        p: str = param(default=".", param_type="path")

    ps = {p.name: p for p in reflect_params(A)}
    assert [ps[n].param_type for n in "sifbco"] == ["string", "int", "float", "bool",
                                                    "choice", "int"]
    assert ps["c"].choices == ("x", "y")
    assert ps["s"].required and not ps["i"].required and ps["i"].default == 1
    assert ps["files"].param_type == "array" and ps["files"].positional
    assert ps["tags"].param_type == "string" and ps["tags"].repeatable
    assert ps["p"].param_type == "path"
    assert ps["b"].default is None  # a false bool is the default state, not a default value


def test_reflection_keeps_declaration_order_aliases_and_help() -> None:
    ps = reflect_params(HeadArgs)
    assert [p.name for p in ps] == ["files", "lines", "bytes", "quiet", "verbose"]
    assert ps[1].aliases == ("-n",) and ps[1].description == "print the first N lines"


def test_param_name_override_is_the_canonical_name() -> None:
    @attrs.frozen
    class A:
        max_: int = param(default=0, name="max")

    t = tool("t", args=A)(_noop)
    assert t.schema.params[0].name == "max"
    assert bind_and_convert(t, classify(["--max", "4"]))[2].max_ == 4


def test_type_hints_agree_with_typing_for_every_builtin_args_class() -> None:
    import typing

    from tysh.builtins import all_builtins
    from tysh.kernel.tools.params import type_hints

    seen = 0
    todo = list(all_builtins())
    while todo:
        t = todo.pop()
        todo.extend(t.children.values())
        cls = t.args_class
        if cls is None or not attrs.has(cls):
            continue
        assert type_hints(cls) == typing.get_type_hints(cls), t.name
        seen += 1
    assert seen > 40
