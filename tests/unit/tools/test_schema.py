"""Tool schemas: builders, the compact JSON wire form and JSON Schema."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from fixtures_schemas import ALL_SCHEMAS, CP, GREP, HEAD, KV, SEARCH
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.kernel.tools.schema import (
    PARAM_TYPES,
    ArgBinding,
    Example,
    ParamSchema,
    ToolSchema,
    input_schema,
)

# -- builders ----------------------------------------------------------------------------


def test_builders_set_their_flag_and_leave_the_original_alone() -> None:
    s = ToolSchema("t")
    assert s.with_raw_argv().raw_argv and not s.raw_argv
    assert s.with_verbatim_argv().arg_binding is ArgBinding.VERBATIM
    assert s.with_glob_passthrough().glob_passthrough
    assert s.with_typed_substitution().typed_substitution
    assert s.with_positional_mapping().map_positionals


def test_with_operations_keeps_order_and_drops_repeats() -> None:
    s = ToolSchema("rm").with_operations("fs.remove", "fs.rename", "fs.remove")
    assert s.operations == ("fs.remove", "fs.rename")


def test_with_owned_output_marks_the_whole_tree_and_declares_json_on_each_node() -> None:
    tree = ToolSchema("a", params=[ParamSchema("json", "bool", description="mine")]).subcommand(
        ToolSchema("b").subcommand(ToolSchema("c")))
    owned = tree.with_owned_output()
    nodes = [owned, owned.subcommands[0], owned.subcommands[0].subcommands[0]]
    assert all(n.owns_output for n in nodes)
    assert all([p.name for p in n.params].count("json") == 1 for n in nodes)
    assert owned.params[0].description == "mine"  # an existing json param is kept
    assert nodes[2].params[0].param_type == "bool"


def test_subcommand_adds_or_replaces_a_child_by_name() -> None:
    s = ToolSchema("g").subcommand(ToolSchema("x", description="1"))
    s = s.subcommand(ToolSchema("y")).subcommand(ToolSchema("x", description="2"))
    assert [c.name for c in s.subcommands] == ["y", "x"]
    assert s.subcommands[1].description == "2"


def test_matches_command_by_name_or_alias() -> None:
    s = ToolSchema("list").with_command_aliases("ls", "l")
    assert s.matches_command("list") and s.matches_command("ls") and s.matches_command("l")
    assert not s.matches_command("lst")


def test_node_walks_names_and_aliases() -> None:
    assert KV.schema.node(["st", "g"]).name == "get"
    with pytest.raises(KeyError):
        KV.schema.node(["nope"])


def test_param_spellings_write_underscores_as_dashes() -> None:
    p = ParamSchema("ignore_case", "bool", aliases=("-i",))
    assert p.spellings() == ("--ignore-case", "-i")
    assert ParamSchema("f", positional=True).spellings() == ()


# -- JSON wire form -----------------------------------------------------------------------


def test_to_json_omits_defaults_but_keeps_the_listed_fields() -> None:
    s = ToolSchema("t", params=[ParamSchema("x")])
    assert s.to_json() == {
        "name": "t", "description": "", "examples": [], "map_positionals": False,
        "params": [{"name": "x", "param_type": "string", "description": ""}],
    }


def test_to_json_writes_non_default_fields_with_their_names() -> None:
    s = ToolSchema(
        "t", "d",
        params=[ParamSchema("n", "int", required=True, default=3, description="c",
                            aliases=("-n",), consumes=2, repeatable=True, positional=False,
                            choices=())],
        typed_substitution=True, examples=[Example("e", "t -n 1")],
        subcommands=[ToolSchema("c")], aliases=("tt",), owns_output=True, raw_argv=True,
        arg_binding=ArgBinding.VERBATIM, glob_passthrough=True, operations=("fs.remove",),
    )
    j = s.to_json()
    assert j["arg_binding"] == "verbatim" and j["operations"] == ["fs.remove"]
    assert j["params"][0] == {"name": "n", "param_type": "int", "description": "c",
                              "required": True, "default": 3, "aliases": ["-n"],
                              "consumes": 2, "repeatable": True}
    assert j["examples"] == [{"description": "e", "code": "t -n 1"}]
    assert j["subcommands"][0]["name"] == "c"
    for key in ("typed_substitution", "aliases", "owns_output", "raw_argv", "glob_passthrough"):
        assert key in j
    assert ToolSchema.from_json(j) == s


def test_pattern_valued_params_and_options_round_trip_and_are_reported() -> None:
    s = ToolSchema(
        "t", params=[ParamSchema("include", repeatable=True, glob_passthrough=True,
                                 aliases=("-I",)),
                     ParamSchema("regexp", aliases=("-e",))],
        passthrough_options=("-name",),
    )
    j = s.to_json()
    assert j["params"][0]["glob_passthrough"] is True and "glob_passthrough" not in j["params"][1]
    assert j["passthrough_options"] == ["-name"]
    assert ToolSchema.from_json(j) == s
    assert s.unglobbed_options() == frozenset({"--include", "-I", "-name"})


def test_to_json_is_plain_json() -> None:
    for s in ALL_SCHEMAS:
        text = json.dumps(s.to_json())
        assert ToolSchema.from_json(text) == s


def test_from_json_fills_omitted_fields_with_defaults() -> None:
    s = ToolSchema.from_json({"name": "x", "params": [{"name": "p"}]})
    assert s == ToolSchema("x", params=[ParamSchema("p")])


def test_fixture_schemas_round_trip() -> None:
    for s in ALL_SCHEMAS:
        assert ToolSchema.from_json(s.to_json()) == s


def test_false_default_is_not_confused_with_no_default() -> None:
    p = ParamSchema("x", "any", default=False)
    assert ToolSchema.from_json(ToolSchema("t", params=[p]).to_json()).params[0].default is False
    p0 = ParamSchema("x", "int", default=0)
    assert ToolSchema.from_json(ToolSchema("t", params=[p0]).to_json()).params[0].default == 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                 max_size=3),
    max_leaves=6,
)
names = st.text(min_size=1, max_size=8)
params = st.builds(
    ParamSchema,
    name=names,
    param_type=st.sampled_from(PARAM_TYPES),
    required=st.booleans(),
    default=json_values,
    description=st.text(max_size=10),
    aliases=st.lists(names, max_size=3).map(tuple),
    consumes=st.integers(min_value=1, max_value=4),
    repeatable=st.booleans(),
    positional=st.booleans(),
    choices=st.lists(names, max_size=3).map(tuple),
    glob_passthrough=st.booleans(),
)
schemas = st.recursive(
    st.builds(ToolSchema, name=names, description=st.text(max_size=10),
              params=st.lists(params, max_size=3)),
    lambda inner: st.builds(
        ToolSchema,
        name=names,
        description=st.text(max_size=10),
        params=st.lists(params, max_size=3),
        typed_substitution=st.booleans(),
        examples=st.lists(st.builds(Example, st.text(max_size=5), st.text(max_size=5)),
                          max_size=2),
        map_positionals=st.booleans(),
        subcommands=st.lists(inner, max_size=3),
        aliases=st.lists(names, max_size=2),
        owns_output=st.booleans(),
        raw_argv=st.booleans(),
        arg_binding=st.sampled_from(list(ArgBinding)),
        glob_passthrough=st.booleans(),
        operations=st.lists(st.sampled_from(["fs.create", "fs.remove", "proc.exec"]),
                            max_size=3),
        passthrough_options=st.lists(names, max_size=2),
    ),
    max_leaves=4,
)


@settings(max_examples=200, deadline=None)
@given(schemas)
def test_every_schema_round_trips_through_json(s: ToolSchema) -> None:
    assert ToolSchema.from_json(s.to_json()) == s
    assert ToolSchema.from_json(json.dumps(s.to_json())) == s


# -- JSON Schema ------------------------------------------------------------------------


def _validate(instance: Any, schema: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(instance)


def test_input_schema_is_an_open_object_with_required_in_declaration_order() -> None:
    sch = input_schema(SEARCH)
    assert sch["type"] == "object" and sch.get("additionalProperties", True) is not False
    assert sch["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert sch["required"] == ["query"]
    assert list(sch["properties"]) == ["query", "limit", "exact", "lang"]
    assert sch["properties"]["limit"] == {"type": "integer", "default": 10}
    assert sch["properties"]["exact"] == {"type": "boolean"}
    assert sch["properties"]["lang"] == {"type": "string", "enum": ["en", "de"]}


def test_input_schema_includes_positionals_and_maps_array_shapes() -> None:
    props = CP.schema.input_schema()["properties"]
    assert props["src"]["type"] == "array" and props["dest"]["type"] == "string"
    assert CP.schema.input_schema()["required"] == ["src", "dest"]
    g = GREP.schema.input_schema()["properties"]
    assert g["regexp"] == {"type": "array", "items": {"type": "string"},
                           "description": "a pattern (repeatable)"}


def test_input_schema_consumes_n_is_an_array_of_n_item_arrays_when_repeatable() -> None:
    put = KV.schema.input_schema(("store", "put"))
    tag = put["properties"]["tag"]
    assert tag["type"] == "array"
    assert tag["items"] == {"type": "array", "items": {"type": "string"},
                            "minItems": 2, "maxItems": 2}
    assert put["required"] == ["key", "value"]


def test_input_schema_validates_good_and_rejects_bad_input_with_jsonschema() -> None:
    sch = input_schema(SEARCH)
    _validate({"query": "cats", "limit": 3, "exact": True, "lang": "en", "extra": 1}, sch)
    for bad in ({}, {"query": 1}, {"query": "q", "limit": "3"}, {"query": "q", "lang": "fr"}):
        with pytest.raises(jsonschema.ValidationError):
            _validate(bad, sch)
    put = KV.schema.input_schema(["st", "p"])
    _validate({"key": "k", "value": "v", "tag": [["a", "b"]], "ttl": 3}, put)
    with pytest.raises(jsonschema.ValidationError):
        _validate({"key": "k", "value": "v", "tag": [["a"]]}, put)


def test_input_schema_of_every_fixture_is_valid_draft_2020_12() -> None:
    for s in [*ALL_SCHEMAS, HEAD.schema]:
        jsonschema.Draft202012Validator.check_schema(s.input_schema())


@settings(max_examples=100, deadline=None)
@given(schemas)
def test_input_schema_of_random_schemas_is_valid_draft_2020_12(s: ToolSchema) -> None:
    jsonschema.Draft202012Validator.check_schema(s.input_schema())
