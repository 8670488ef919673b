"""Conversion of bound ToolArgs into an instance of the tool's attrs class: class defaults,
tuples, choices, numbers, class validators, and every violation collected with the binding
ones."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from fixtures_schemas import CP, GREP, HEAD, KV, TEST, HeadArgs

from tysh.kernel.bind.binder import BindError, ToolArgs, bind, classify
from tysh.kernel.bind.convert import convert
from tysh.kernel.bind.fast import bind_and_convert
from tysh.kernel.tools.params import param
from tysh.kernel.tools.schema import ParamSchema, ToolSchema
from tysh.kernel.tools.tool import tool


def _noop(args: Any, ctx: Any) -> int:
    return 0


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
