"""One tool, three routes: argv, `Kernel.execute_json` and the raw JSON Schema route
give the same result and the same violation messages; every builtin's input_schema()
is valid 2020-12 and round-trips through the raw route; output nodes publish an output
schema that a tool's `--json` is checked against."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import jsonschema
import pytest

from tysh import Context, Kernel, ToolDefinitionError, define_tool
from tysh import values as s
from tysh.builtins import all_builtins
from tysh.kernel.tools.tool import Outcome


def _echo_args(args: Mapping[str, Any], ctx: Context) -> Outcome:
    plain = json.loads(json.dumps(dict(args), default=lambda o: dict(o) if
                                  isinstance(o, Mapping) else list(o)))
    ctx.write(json.dumps(plain, sort_keys=True) + "\n")
    return Outcome(0, data=plain)


PARAMS = {
    "query": s.string(required=True, description="what to find"),
    "limit": s.integer(minimum=1, default=10),
    "mode": s.string(enum=["fast", "deep"]),
    "tags": s.array(s.string()),
    "exact": s.boolean(),
    "filter": s.object({"kind": s.string(required=True), "depth": s.integer()},
                       additional_properties=False),
    "extra": s.json(),
}
SEARCH = define_tool("search", "find things", parameters=PARAMS, execute=_echo_args,
                     output=s.object({"query": s.string(required=True)},
                                     additional_properties=True))


@pytest.fixture
def k() -> Kernel:
    kern = Kernel.isolated()
    kern.register(SEARCH)
    kern.register({"name": "rsearch", "description": "find things",
                   "inputSchema": SEARCH.input_schema()}, _echo_args)
    return kern


def _err(r: Any, name: str) -> list[str]:
    return [line.removeprefix(f"{name}: ") for line in r.err.splitlines()]


def test_argv_json_and_raw_routes_give_the_same_result(k: Kernel) -> None:
    argv = k.execute("search --limit 3 --tags a --tags b --exact --filter.kind py "
                     "--filter.depth 2 --extra '{\"z\":[1]}' cats")
    via_json = k.execute_json("search", {"query": "cats", "limit": 3, "tags": ["a", "b"],
                                         "exact": True, "filter": {"kind": "py", "depth": 2},
                                         "extra": {"z": [1]}})
    raw_argv = k.execute("rsearch --limit 3 --tags a --tags b --exact "
                         "--filter '{\"kind\":\"py\",\"depth\":2}' --extra '{\"z\":[1]}' cats")
    raw_json = k.execute_json("rsearch", {"query": "cats", "limit": 3, "tags": ["a", "b"],
                                          "exact": True,
                                          "filter": {"kind": "py", "depth": 2},
                                          "extra": {"z": [1]}})
    assert argv.code == via_json.code == raw_argv.code == raw_json.code == 0
    assert argv.out == via_json.out
    # the raw route applies no defaults and no typed arguments: it hands over what it got
    assert json.loads(argv.out) == {**json.loads(raw_argv.out), "mode": None}
    assert raw_argv.out == raw_json.out


def test_argv_json_and_raw_routes_give_the_same_violations(k: Kernel) -> None:
    expected = ['"limit" must be an integer', '"mode" must be one of "fast", "deep"',
                '"filter.kind" must be a string', '"filter.extra" is not a declared property']
    bad = {"query": "q", "limit": "x", "mode": "slow", "filter": {"kind": 1, "extra": 1}}
    src = "--limit x --mode slow --filter '{\"kind\":1,\"extra\":1}' q"
    for name in ("search", "rsearch"):
        r1 = k.execute(f"{name} {src}")
        r2 = k.execute_json(name, bad)
        assert r1.code == r2.code == 2
        assert _err(r1, name) == _err(r2, name) == expected, name


def test_a_missing_required_property_reads_the_same_from_every_route(k: Kernel) -> None:
    for name in ("search", "rsearch"):
        assert _err(k.execute(name), name) == ['missing required property "query"']
        assert _err(k.execute_json(name, {}), name) == ['missing required property "query"']


def test_execute_json_lists_every_violation_with_status_2_and_runs_nothing(k: Kernel) -> None:
    r = k.execute_json("search", {"limit": 0, "tags": [1, "a", 2]})
    assert r.code == 2 and r.out == ""
    assert _err(r, "search") == ['missing required property "query"',
                                 '"limit" must be at least 1', '"tags[0]" must be a string',
                                 '"tags[2]" must be a string']


def test_execute_json_hands_values_over_whole_even_when_they_look_like_options(
        k: Kernel) -> None:
    r = k.execute_json("search", {"query": "--help", "extra": "-x", "open": {"k": 1}})
    assert r.code == 0
    assert json.loads(r.out)["query"] == "--help"
    assert json.loads(r.out)["open"] == {"k": 1}  # the root is open


def test_text_that_is_not_json_for_an_object_option_is_reported_once(k: Kernel) -> None:
    r = k.execute("search --filter '{oops' q")
    assert r.code == 2
    assert _err(r, "search") == [
        '"filter" is not JSON text: Expecting property name enclosed in double quotes: '
        'line 1 column 2 (char 1)']


def test_a_surplus_operand_is_an_unexpected_argument(k: Kernel) -> None:
    r = k.execute("search q extra1")
    # operands fill the properties in order: query, then the next non-flag one
    assert r.code == 2 and "limit" in r.err


def test_help_shows_the_structure(k: Kernel) -> None:
    out = k.execute("search --help").out
    assert "--query TEXT" in out and "what to find (string; required)" in out
    assert '(one of "fast", "deep")' in out and "(repeatable string)" in out
    assert "--filter.kind TEXT" in out and "(JSON object)" in out


def test_execute_json_on_a_builtin_binds_through_its_params() -> None:
    k = Kernel.isolated(files={"a.txt": "1\n2\n3\n", "-n": "dash\n"})
    r = k.execute_json("head", {"lines": "2", "files": ["a.txt"]})
    assert (r.code, r.out) == (0, "1\n2\n")
    r = k.execute_json("head", {"files": ["-n"]})  # a file named like an option
    assert (r.code, r.out) == (0, "dash\n")
    r = k.execute_json("head", {"lines": 2, "files": "a.txt"})
    assert r.code == 2
    assert _err(r, "head") == ['"lines" must be a string', '"files" must be an array']


def test_execute_json_on_an_unknown_tool_is_127() -> None:
    assert Kernel.isolated().execute_json("nope", {}).code == 127


def test_output_nodes_publish_an_output_schema_and_check_json_output(k: Kernel) -> None:
    out_schema = SEARCH.output_schema()
    assert out_schema is not None
    jsonschema.Draft202012Validator.check_schema(out_schema)
    r = k.execute("search --json q")
    assert SEARCH.validate_output(json.loads(r.out)) == []
    assert [v.message for v in SEARCH.validate_output({"x": 1})] == [
        'missing required property "query"']


# -- builtins ----------------------------------------------------------------------------

BUILTINS = sorted(all_builtins(), key=lambda t: t.name)


def _leaf_paths(schema: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = [prefix]
    for c in schema.subcommands:
        out += _leaf_paths(c, (*prefix, c.name))
    return out


@pytest.mark.parametrize("t", BUILTINS, ids=lambda t: t.name)
def test_every_builtin_input_schema_is_valid_and_round_trips_through_the_raw_route(
        t: Any) -> None:
    for path in _leaf_paths(t.schema):
        sch = t.input_schema(path)
        jsonschema.Draft202012Validator.check_schema(sch)
        if path:
            continue
        k = Kernel.isolated()
        k.register({"name": "rt_" + t.name.replace("[", "lb"),
                    "description": t.schema.description, "inputSchema": sch},
                   lambda a, c: 0)
        raw = k.schema("rt_" + t.name.replace("[", "lb"))
        back = k.registry.registered["rt_" + t.name.replace("[", "lb")]
        assert back.input_schema() == sch
        assert [p.name for p in raw.params][: len(sch["properties"])] == [
            n for n in sch["properties"] if _word(n)]


def _word(n: str) -> bool:
    import re

    return re.match(r"[A-Za-z_][A-Za-z0-9_-]*\Z", n) is not None


def test_a_raw_definition_with_a_broken_schema_lists_every_problem() -> None:
    with pytest.raises(ToolDefinitionError) as e:
        Kernel.isolated().register({"name": "bad", "inputSchema": {
            "type": "object", "properties": {"a": {"type": "strin"}}, "required": 3}},
            lambda a, c: 0)
    assert len(e.value.problems) >= 2


def test_json_text_nested_too_deeply_is_a_usage_error_not_a_fault(k: Kernel) -> None:
    r = k.execute_argv("search", ["--extra", "[" * 100000 + "]" * 100000, "q"])
    assert r.code == 2 and '"extra" nests too deeply' in r.err


def test_a_closed_root_is_a_definition_error() -> None:
    class Closed(s.Args, additional_properties=False):
        q = s.string()

    with pytest.raises(ToolDefinitionError, match="open object"):
        define_tool("c", parameters=Closed, execute=lambda a, c: 0)


def test_a_raw_tool_whose_callable_cannot_take_args_and_ctx_is_refused_when_registered() -> None:
    import pytest

    from tysh import Kernel, ToolDefinitionError

    k = Kernel.isolated()
    definition = {"name": "greet", "description": "say hi",
                  "inputSchema": {"type": "object", "properties": {}}}
    with pytest.raises(ToolDefinitionError, match=r"must take \(args, ctx\)"):
        k.register(definition, lambda args: 0)
    assert k.execute("greet").code == 127
