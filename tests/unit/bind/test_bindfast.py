"""The specialised per-tool binder must agree with the general binder wherever it answers,
and must hand every error case back to it."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from fixtures_schemas import ALL_TOOLS, HEAD
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.builtins import BUILTINS, get_builtin
from tysh.kernel.base.argv import DOUBLE_DASH, Flag, Operand, classify
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.bind.binder import BindError, ToolArgs
from tysh.kernel.bind.convert import bind_and_convert_general
from tysh.kernel.bind.fast import bind_and_convert, make_fast
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, tool

BUILTINS: list[Tool] = [t for t in (get_builtin(n) for n in sorted(BUILTINS)) if t is not None]
TOOLS: list[Any] = [*ALL_TOOLS, *BUILTINS]

_WORDS: list[str] = ["--", "-", "-5", "--json", "--json=no", "--help", "-h", "-qn5", "-n5",
                     "-nx", "x", "a=b", "", "--x=", "---", "10", "-1", "3", "f", "-e", "-v"]
for _t in TOOLS:
    for _p in _t.schema.params:
        _WORDS += list(_p.spellings())
        _WORDS += [sp + "=2" for sp in _p.spellings() if sp.startswith("--")]
        _WORDS += [sp + "7" for sp in _p.spellings() if len(sp) == 2]
_WORDS = sorted(set(_WORDS))

typed = st.one_of(st.integers(-3, 3), st.lists(st.integers(0, 2), max_size=2),
                  st.dictionaries(st.sampled_from("ab"), st.integers(0, 2), max_size=1))
arg = st.one_of(
    st.sampled_from(_WORDS).map(lambda w: classify([w])[0]),
    st.sampled_from(_WORDS).map(lambda w: Operand(w, False)),  # a word from an expansion
    st.builds(Operand, typed, st.booleans()),
    st.builds(Flag, st.sampled_from(["--lines", "--regexp", "--name"]), typed),
    st.just(DOUBLE_DASH),
)


def _snapshot(ta: ToolArgs) -> tuple[Any, ...]:
    return tuple(getattr(ta, name) for name in ToolArgs.__slots__)


def _general(t: Any, args: list[Any]) -> Any:
    try:
        ta, leaf, inst = bind_and_convert_general(t, args)
    except BindError as e:
        return ("error", e.violations)
    return ("ok", _snapshot(ta), leaf, _snapshot(inst) if inst is ta else inst)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(TOOLS), st.lists(arg, max_size=7))
def test_fast_binder_agrees_with_the_general_binder_or_declines(t: Any, args: list[Any]) -> None:
    fast = make_fast(t)
    if fast is None:
        return
    got = fast(args)
    want = _general(t, args)
    if got is None:
        return  # declined: the general path answers (and reports errors)
    assert want[0] == "ok", f"fast path accepted what the binder rejects: {want}"
    ta, leaf, inst = got
    assert (_snapshot(ta), leaf, _snapshot(inst) if inst is ta else inst) == want[1:]
    assert type(inst) is type(want[3]) or inst is ta


@pytest.mark.parametrize("line", ["-n 5 a.txt b.txt", "-qn5 x", "--lines=3 f", "a -c 10 b",
                                  "f -- -n", "", "-qv"])
def test_fast_binder_answers_the_common_head_lines_exactly(line: str) -> None:
    fast = make_fast(HEAD)
    assert fast is not None
    args = classify(line.split())
    got = fast(args)
    assert got is not None
    ta, _, inst = got
    want_ta, _, want_inst = bind_and_convert_general(HEAD, args)
    assert inst == want_inst and _snapshot(ta) == _snapshot(want_ta)


@pytest.mark.parametrize("line", ["--lnes 3", "-n", "-n x", "--json", "--help", "-h",
                                  "--quiet=no", "-z"])
def test_fast_binder_hands_errors_help_and_json_to_the_general_binder(line: str) -> None:
    fast = make_fast(HEAD)
    assert fast is not None
    assert fast(classify(line.split())) is None


def test_bind_and_convert_reports_errors_the_fast_path_declines() -> None:
    with pytest.raises(BindError) as e:
        bind_and_convert(HEAD, classify(["-n", "x", "--lnes=2"]))
    assert e.value.violations == [
        "head: invalid value 'x' for '-n': expected an integer",
        "head: unknown option '--lnes' (did you mean '--lines'?)",
    ]


@attrs.frozen
class _Checked:
    count: int = param(default=1, aliases=["-c"])

    @count.validator
    def _positive(self, _attr: Any, value: int) -> None:
        if value < 1:
            raise ValueError("count must be positive")


def test_fast_binder_runs_the_args_class_validators() -> None:
    t = tool("checked", args=_Checked)(lambda a, c: 0)
    assert bind_and_convert(t, classify(["-c", "2"]))[2] == _Checked(2)
    with pytest.raises(BindError) as e:
        bind_and_convert(t, classify(["-c", "0"]))
    assert "count must be positive" in str(e.value)


def test_classify_shares_one_arg_per_word_and_classifies_alike() -> None:
    a = classify(["-n", "5", "--", "-5", "--x", "-"])
    b = classify(["-n", "5", "--", "-5", "--x", "-"])
    assert a == b == [Flag("-n"), Operand("5", True), DOUBLE_DASH, Operand("-5", True),
                      Flag("--x"), Operand("-", True)]
    assert all(x is y for x, y in zip(a, b, strict=True))


def test_fast_binder_reuses_a_converted_value_only_as_the_general_binder_would_give_it() -> None:
    # the same words again and again (a value converted once, then remembered), mixed
    # with ones that must fail, in every spelling of the value
    fast = make_fast(HEAD)
    assert fast is not None
    lines = ["-n 5 a", "-n5 a", "--lines=5 a", "-n x", "-n5x", "-n 7", "-n -3", "-n 5",
             "--lines=x", "-qn 5", "-n 99999999999999999999999999"]
    for _ in range(3):
        for line in lines:
            args = classify(line.split())
            got = fast(args)
            want = _general(HEAD, args)
            if got is None:
                continue
            assert want[0] == "ok", line
            ta, leaf, inst = got
            assert (_snapshot(ta), leaf, inst) == want[1:], line


def test_fast_binder_never_shares_a_mutable_value_between_calls() -> None:
    @attrs.frozen
    class _Listy:
        name: list[str] = param(default=[], aliases=["-x"], repeatable=True)

    t = tool("listy", args=_Listy)(lambda a, c: 0)
    a = bind_and_convert(t, classify(["-x", "a"]))[2]
    b = bind_and_convert(t, classify(["-x", "a"]))[2]
    assert a == b and a.name is not b.name


@pytest.mark.parametrize("line", ["a b", "", "-n 3", "-- -x y"])
def test_fast_bound_operands_are_the_general_binders_when_read_and_stay_assignable(
        line: str) -> None:
    # a variadic-only tool's `bound` is made on first read: the same dict of the same
    # operands, not shared with the operand list, and replaceable like any slot
    args = classify(line.split())
    ta = bind_and_convert(HEAD, args)[0]
    want = bind_and_convert_general(HEAD, args)[0]
    assert ta.bound == want.bound
    assert ta.bound is ta.bound
    for v in ta.bound.values():
        assert v is not ta.positional
    ta.bound = {"files": ["z"]}
    assert ta.bound == {"files": ["z"]} and ta.value_of("files") == ["z"]


@given(st.lists(st.sampled_from(["a", "-", "--", "-n", "5", "--x", "-q", "b c", "-1"]),
                max_size=6))
def test_classify_gives_what_classifying_each_word_alone_gives(words: list[str]) -> None:
    got = classify(words)
    assert got == [classify([w])[0] for w in words]
    assert classify(words) == got


@pytest.mark.parametrize("t", TOOLS, ids=lambda t: t.schema.name)
def test_fast_binder_answers_a_line_without_options_as_the_general_binder(t: Any) -> None:
    # no option given: every field is its default (the branch that skips the spellings)
    fast = make_fast(t)
    if fast is None:
        return
    for words in ([], ["f"], ["a", "-"], ["--", "-x"]):
        args = classify(words)
        got = fast(args)
        want = _general(t, args)
        if got is None:
            continue
        assert want[0] == "ok", words
        ta, leaf, inst = got
        assert (_snapshot(ta), leaf, _snapshot(inst) if inst is ta else inst) == want[1:]
        assert type(inst) is type(want[3]) or inst is ta


@pytest.mark.parametrize("t", TOOLS, ids=lambda t: t.schema.name)
def test_fast_binder_hands_out_again_only_what_the_general_binder_would_build(t: Any) -> None:
    # a line without options may get an instance made for the same operands before
    # (immutable values only): equal to a fresh general binding every time
    fast = make_fast(t)
    if fast is None:
        return
    for words in ([], ["f"], ["g"], [], ["f"]):
        args = classify(words)
        got = fast(args)
        if got is None:
            continue
        want = _general(t, args)
        assert want[0] == "ok", words
        ta, leaf, inst = got
        assert (_snapshot(ta), leaf, _snapshot(inst) if inst is ta else inst) == want[1:]


def test_a_shared_instance_holds_only_immutable_values() -> None:
    from tysh.builtins import get_builtin

    sort = get_builtin("sort")
    assert sort is not None
    a = bind_and_convert(sort, classify(["f"]))[2]
    b = bind_and_convert(sort, classify(["f"]))[2]
    c = bind_and_convert(sort, classify(["g"]))[2]
    assert a == b and a != c and c.files == ("g",)
    for name in type(a).__record_fields__:
        value = getattr(a, name)
        assert value is None or isinstance(value, (bool, int, float, str, bytes, tuple))


@pytest.mark.parametrize("line", [
    "-q a", "-qv", "-n5 a", "--lines=3 a", "-n 5 a", "-qn 5", "-qn5", "-x a -x=b",
    "-qx a", "--name a --name=b", "-p 1 2", "-n 5 -q -x a -p 3 4 f", "--pair=1 2",
])
def test_fast_binder_answers_each_kind_of_option_word_as_the_general_binder(line: str) -> None:
    # bools only, an inline value, a value in the next word, a repeatable param and a
    # two-word param: each answered on the fast path (not declined) and exactly equal
    @attrs.frozen
    class _Mixed:
        files: tuple[str, ...] = param(positional=True, default=())
        lines: int = param(default=10, aliases=["-n"])
        quiet: bool = param(default=False, aliases=["-q"])
        verbose: bool = param(default=False, aliases=["-v"])
        name: list[str] = param(default=[], aliases=["-x"], repeatable=True)
        pair: list[int] = param(default=[], aliases=["-p"], consumes=2)

    t = tool("mixed", args=_Mixed)(lambda a, c: 0)
    fast = make_fast(t)
    assert fast is not None
    for _ in range(2):  # decoded, then from the memo
        args = classify(line.split())
        got = fast(args)
        assert got is not None, line
        ta, leaf, inst = got
        assert ("ok", _snapshot(ta), leaf, inst) == _general(t, args), line


@value_record
class _Strs(Record):
    files: tuple[str, ...] = param(positional=True, default=())
    quiet: bool = param(default=False, aliases=["-q"])
    lines: int = param(default=10, aliases=["-n"])


@value_record
class _Ints(Record):
    nums: tuple[int, ...] = param(positional=True, default=())
    quiet: bool = param(default=False, aliases=["-q"])


@value_record
class _List(Record):
    items: list[str] = param(positional=True, factory=list)
    quiet: bool = param(default=False, aliases=["-q"])


_OPERAND_TOOLS = [tool(f"ops{k}", args=cls)(lambda a, c: 0)
                  for k, cls in enumerate((_Strs, _Ints, _List))]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_OPERAND_TOOLS),
       st.lists(st.one_of(st.sampled_from(["a", "1", "-q", "-n", "3", "-n3", "--", "-x"])
                          .map(lambda w: classify([w])[0]),
                          st.builds(Operand, st.one_of(st.integers(0, 2), st.text(max_size=2),
                                                       st.lists(st.integers(0, 1), max_size=1)),
                                    st.booleans())),
                max_size=5))
def test_fast_binder_fills_an_operand_field_of_any_shape_as_the_general_binder(
        t: Any, args: list[Any]) -> None:
    # the operand list becomes a tuple of str (checked element by element), a tuple of
    # converted values or a list, with options or without: as the general binder does
    fast = make_fast(t)
    assert fast is not None
    got = fast(args)
    if got is None:
        return  # declined: the general binder answers
    want = _general(t, args)
    assert want[0] == "ok", f"fast path accepted what the binder rejects: {want}"
    ta, leaf, inst = got
    assert (_snapshot(ta), leaf, inst) == want[1:]
    assert type(inst) is type(want[3]) and repr(inst) == repr(want[3])  # element types too


@pytest.mark.parametrize(("line", "named", "flags"), [
    ("f", {}, set()), ("-q f", {}, {"quiet"}), ("-n 3 f", {"lines": 3}, set()),
    ("-qn3 f", {"lines": 3}, {"quiet"}), ("-v -c 2", {"bytes": 2}, {"verbose"}),
])
def test_fast_binder_makes_an_absent_named_or_flags_when_read(
        line: str, named: dict[str, Any], flags: set[str]) -> None:
    # a line without values or without bools gets the missing one, empty, when first
    # read: equal to the general binder's, fresh per binding, kept, assignable
    args = classify(line.split())
    want = bind_and_convert_general(HEAD, args)[0]
    ta, tb = bind_and_convert(HEAD, args)[0], bind_and_convert(HEAD, args)[0]
    assert _snapshot(ta) == _snapshot(want)
    assert (ta.named, ta.flags, ta.json) == (named, flags, False)
    assert ta.named is ta.named and ta.flags is ta.flags
    assert ta.named is not tb.named and ta.flags is not tb.flags
    ta.named["x"] = 1
    ta.flags.add("y")
    assert ta.value_of("x") == 1 and ta.value_of("y") is True and tb.named == named
    tb.named, tb.flags = {"z": 2}, {"w"}
    assert tb.value_of("z") == 2 and tb.value_of("w") is True
