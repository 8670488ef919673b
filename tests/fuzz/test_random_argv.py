"""Property tests: random argv over the fixture schemas binds or fails cleanly, and the
same words always bind the same way."""

from __future__ import annotations

from typing import Any

from fixtures_schemas import ALL_SCHEMAS, ALL_TOOLS
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.kernel.bind.binder import BindError, Operand, ToolArgs, bind, classify
from tysh.kernel.bind.fast import bind_and_convert

# Words drawn from every spelling, subcommand name and alias the fixtures know, plus
# near misses, numbers, dashes and free text, so random lines hit the interesting paths.
_KNOWN: list[str] = []
for _s in ALL_SCHEMAS:
    stack = [_s]
    while stack:
        node = stack.pop()
        _KNOWN += [node.name, *node.aliases]
        for p in node.params:
            _KNOWN += list(p.spellings())
            _KNOWN += [sp + "=1" for sp in p.spellings() if sp.startswith("--")]
        stack.extend(node.subcommands)
_KNOWN += ["--", "-", "-5", "--json", "--json=no", "--json=maybe", "--help", "-h", "-qn5",
           "-n5", "-nx", "x", "a=b", "", "--x=", "-", "---", "10", "-1", "auto", "f"]

words = st.one_of(st.sampled_from(sorted(set(_KNOWN))), st.text(max_size=6))
argvs = st.lists(words, max_size=8)


def _outcome(schema: Any, argv: list[str]) -> Any:
    try:
        ta = bind(schema, classify(argv))
    except BindError as e:
        return ("err", tuple(e.violations))
    return ("ok", ta.path, ta.positional, ta.named, ta.flags, ta.json, ta.help, ta.words)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ALL_SCHEMAS), argvs)
def test_bind_returns_tool_args_or_raises_bind_error_only(schema: Any, argv: list[str]) -> None:
    try:
        ta = bind(schema, classify(argv))
    except BindError as e:
        assert e.violations and all(v.startswith(schema.name) for v in e.violations)
    else:
        assert isinstance(ta, ToolArgs)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ALL_TOOLS), argvs)
def test_bind_and_convert_fails_only_with_bind_error(tool: Any, argv: list[str]) -> None:
    try:
        bind_and_convert(tool, classify(argv))
    except BindError as e:
        assert str(e).startswith(tool.name)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ALL_SCHEMAS), argvs)
def test_classify_then_bind_is_deterministic(schema: Any, argv: list[str]) -> None:
    assert _outcome(schema, argv) == _outcome(schema, argv)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ALL_SCHEMAS),
       st.lists(st.one_of(st.integers(), st.lists(st.integers(), max_size=2),
                          st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
                          st.text(max_size=4)), max_size=5),
       st.booleans())
def test_typed_operands_never_crash_the_binder(schema: Any, values: list[Any], lit: bool) -> None:
    try:
        bind(schema, [Operand(v, lit) for v in values])
    except BindError:
        pass
