"""Typed args: the schema reflected from an attrs class, and ToolArgs converted back into
an instance of it with every violation collected (DESIGN §4.1, §4.2 rule 8)."""

from __future__ import annotations

from typing import Any, Literal

import attrs
import pytest
from fixtures_schemas import CP, GREP, HEAD, KV, TEST, HeadArgs

from tysh.kernel.bind.binder import BindError, ToolArgs, bind, classify
from tysh.kernel.bind.convert import convert
from tysh.kernel.bind.fast import bind_and_convert
from tysh.kernel.tools.params import param, reflect_params
from tysh.kernel.tools.schema import ParamSchema, ToolSchema
from tysh.kernel.tools.tool import Tool, tool, tool_group


def _noop(args: Any, ctx: Any) -> int:
    return 0


# -- reflection ----------------------------------------------------------------------


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


# -- conversion ----------------------------------------------------------------------


def test_convert_applies_class_defaults_for_params_not_given() -> None:
    x = convert(bind(HEAD.schema, classify(["f"])), HeadArgs)
    assert x == HeadArgs(files=("f",))


def test_convert_makes_tuples_for_tuple_annotations() -> None:
    x = bind_and_convert(GREP, classify(["-e", "a", "p", "f1", "f2"]))[2]
    assert x.regexp == ("a",) and x.files == ("f1", "f2")


def test_convert_of_a_hand_built_tool_args_distributes_positionals() -> None:
    ta = ToolArgs(CP.schema, ["a", "b", "c"], {}, {"force"})
    x = convert(ta, CP.args_class)  # type: ignore[arg-type]
    assert x.src == ("a", "b") and x.dest == "c" and x.force


def test_convert_reports_every_violation_of_a_hand_built_tool_args() -> None:
    ta = ToolArgs(CP.schema, [], {}, set(), prog="cp")
    with pytest.raises(BindError) as ei:
        convert(ta, CP.args_class)  # type: ignore[arg-type]
    assert ei.value.violations == ["cp: missing required argument 'SRC'",
                                   "cp: missing required argument 'DEST'"]


def test_class_validator_errors_become_bind_errors() -> None:
    def positive(inst: Any, a: Any, v: int) -> None:
        if v <= 0:
            raise ValueError("'--n' must be positive")

    @attrs.frozen
    class A:
        n: int = attrs.field(default=1, validator=positive, metadata={})

    t = tool("pos", args=A)(_noop)
    with pytest.raises(BindError) as ei:
        bind_and_convert(t, classify(["--n", "0"]))
    assert ei.value.violations == ["pos: '--n' must be positive"]


def test_binding_and_conversion_violations_are_reported_together() -> None:
    @attrs.frozen
    class A:
        nums: tuple[int, ...] = param(positional=True, default=())
        k: int = 0

    t = tool("t", args=A)(_noop)
    with pytest.raises(BindError) as ei:
        bind_and_convert(t, classify(["--k", "x", "1", "y"]))
    assert ei.value.violations == ["t: invalid value 'x' for '--k': expected an integer",
                                   "t: invalid value 'y' for 'NUMS': expected an integer"]


def test_bind_and_convert_returns_tool_args_for_raw_tools() -> None:
    ta, leaf, obj = bind_and_convert(TEST, classify(["-n", "x"]))
    assert obj is ta and leaf is TEST and ta.positional == ["-n", "x"]


def test_bind_and_convert_gives_the_leaf_tool_of_a_subcommand() -> None:
    ta, leaf, obj = bind_and_convert(KV, classify(["st", "ls", "-l", "2"]))
    assert leaf.name == "list" and obj.limit == 2 and ta.path == ["store", "list"]


def test_choice_values_reach_the_instance() -> None:
    assert bind_and_convert(GREP, classify(["--color", "never", "x"]))[2].color == "never"


def test_float_conversion_accepts_numbers_and_rejects_words() -> None:
    s = ToolSchema("f", params=[ParamSchema("x", "float")])
    assert bind(s, classify(["--x", "-1.5e3"])).named["x"] == -1500.0
    for bad in ["nan", "inf", "1_0", " 1", "x"]:
        with pytest.raises(BindError):
            bind(s, classify(["--x", bad]))


def test_int_conversion_rejects_underscores_spaces_and_unicode_digits() -> None:
    for bad in ["1_0", " 1", "²", "1.5", ""]:
        with pytest.raises(BindError):
            bind(HEAD.schema, classify(["-n", bad]))
    assert bind(HEAD.schema, classify(["-n", "+3"])).named["lines"] == 3


# -- tool groups ---------------------------------------------------------------------


def test_tool_group_builds_the_tree_with_aliases_and_leaves() -> None:
    s = KV.schema
    assert [c.name for c in s.subcommands] == ["store"]
    assert s.subcommands[0].aliases == ("st",)
    assert [(c.name, c.aliases) for c in s.subcommands[0].subcommands] == [
        ("get", ("g",)), ("put", ("p",)), ("list", ("ls",))]
    assert KV.leaf(["store", "put"]).schema.operations == ("fs.overwrite",)
    assert s.operations == ("fs.overwrite",)  # the root lists every effect below it


def test_tool_group_is_usable_as_a_tool_and_rebuilds_after_changes() -> None:
    g = tool_group("g", description="d")
    assert isinstance(g.tool, Tool) and g.schema.subcommands == ()

    @g.command("run")
    def run(args: Any, ctx: Any) -> int:
        return 0

    assert [c.name for c in g.schema.subcommands] == ["run"]
    assert g.leaf(["run"]).func is run and g.children["run"].args_class is None


def test_owned_tool_group_marks_every_node() -> None:
    g = tool_group("o", owns_output=True)
    g.command("x")(_noop)
    assert g.schema.owns_output and g.schema.subcommands[0].owns_output
    assert any(p.name == "json" for p in g.schema.subcommands[0].params)


def test_tool_decorator_applies_schema_flags() -> None:
    t = tool("v", verbatim=True, glob_passthrough=True, typed_substitution=True,
             operations=["proc.exec"], owns_output=True)(_noop)
    s = t.schema
    assert s.arg_binding.value == "verbatim" and s.glob_passthrough and s.typed_substitution
    assert s.operations == ("proc.exec",) and s.owns_output


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
