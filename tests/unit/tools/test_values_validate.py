"""The JSON-value schema DSL: compile (golden schemas, the 2020-12 meta-schema), validate
(every node kind, constraint and message form, in document order), definition checks,
and property tests: a value generated from a schema validates, a mutated one reports
the mutated path."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh import ToolDefinitionError, define_tool
from tysh import values as s
from tysh.kernel.tools.values.check import check_root
from tysh.kernel.tools.values.compile import node_schema, root_schema
from tysh.kernel.tools.values.validate import validate


def _noop(args: Any, ctx: Any) -> int:
    return 0


def msgs(node: s.Node[Any, Any], value: Any) -> list[str]:
    return [v.message for v in validate(node, value)]


def root(**props: s.Node[Any, Any]) -> s.Node[Any, Any]:
    return check_root("t", props)


# -- every node kind, constraint and message form ----------------------------------------

CASES: list[tuple[s.Node[Any, Any], Any, list[str]]] = [
    (s.string(), "x", []),
    (s.string(), 1, ['"v" must be a string']),
    (s.integer(), 3, []),
    (s.integer(), 3.0, []),
    (s.integer(), 3.5, ['"v" must be an integer']),
    (s.integer(), True, ['"v" must be an integer']),
    (s.number(), 2.5, []),
    (s.number(), "2", ['"v" must be a number']),
    (s.boolean(), False, []),
    (s.boolean(), 0, ['"v" must be a boolean']),
    (s.null(), None, []),
    (s.null(), 0, ['"v" must be null']),
    (s.json(), {"any": [1, None]}, []),
    (s.string(enum=["fast", "deep"]), "slow", ['"v" must be one of "fast", "deep"']),
    (s.integer(enum=[1, 2]), 1.0, []),
    (s.boolean(enum=[True]), 1, ['"v" must be a boolean']),
    (s.json(enum=[1, "a"]), True, ['"v" must be one of 1, "a"']),
    (s.string(const="x"), "y", ['"v" must be "x"']),
    (s.json(const=[1]), [1.0], []),
    (s.string(min_length=2), "a", ['"v" must be at least 2 characters long']),
    (s.string(max_length=1), "ab", ['"v" must be at most 1 character long']),
    (s.string(pattern="^a"), "ba", ['"v" must match the pattern "^a"']),
    (s.integer(minimum=1), 0, ['"v" must be at least 1']),
    (s.integer(maximum=1), 2, ['"v" must be at most 1']),
    (s.number(exclusive_minimum=0), 0, ['"v" must be greater than 0']),
    (s.number(exclusive_maximum=1.5), 1.5, ['"v" must be less than 1.5']),
    (s.integer(multiple_of=5), 12, ['"v" must be a multiple of 5']),
    (s.number(multiple_of=0.5), 1.5, []),
    (s.array(s.string()), "a", ['"v" must be an array']),
    (s.array(s.string(), min_items=1), [], ['"v" must have at least 1 item']),
    (s.array(s.string(), max_items=1), ["a", "b"], ['"v" must have at most 1 item']),
    (s.array(s.json(), unique_items=True), [1, 1.0], ['"v" must not contain duplicate items']),
    (s.array(s.json(), unique_items=True), [1, True], []),
    (s.array(s.object({"name": s.string()}, additional_properties=True)),
     [{}, {}, {"name": 3}], ['"v[2].name" must be a string']),
    (s.object({"kind": s.string(required=True)}, additional_properties=False),
     {"extra": 1}, ['missing required property "v.kind"', '"v.extra" is not a declared property']),
    (s.object({}, additional_properties=s.integer()), {"a": 1, "b": "x"},
     ['"v.b" must be an integer']),
    (s.object({}, additional_properties=True), [], ['"v" must be an object']),
    (s.one_of(s.string(), s.integer()), 3, []),
    (s.one_of(s.number(), s.integer()), 3, ['"v" matches 2 branches of one_of, expected exactly one']),
    (s.one_of(s.string(), s.integer()), None,
     ['"v" matches no branch of one_of, expected exactly one']),
    (s.object({"a.b": s.integer()}, additional_properties=True), {"a.b": "x"},
     ['"v["a.b"]" must be an integer']),
]


@pytest.mark.parametrize(("node", "value", "expected"), CASES)
def test_each_node_kind_constraint_and_message(node: Any, value: Any, expected: Any) -> None:
    wrapper = s.Node("object", properties=(("v", node),), additional_properties=True)
    assert msgs(wrapper, {"v": value}) == expected


def test_the_issue_s_message_forms_word_for_word() -> None:
    r = root(
        filter=s.object({"kind": s.string(required=True)}, additional_properties=False,
                        required=True),
        limit=s.integer(),
        items=s.array(s.object({"name": s.string()}, additional_properties=True)),
        mode=s.string(enum=["fast", "deep"]),
        x=s.one_of(s.number(), s.integer()),
    )
    got = msgs(r, {"filter": {"extra": 1}, "limit": "3", "items": [{}, {}, {"name": 1}],
                   "mode": "slow", "x": 1})
    assert got == [
        'missing required property "filter.kind"',
        '"filter.extra" is not a declared property',
        '"limit" must be an integer',
        '"items[2].name" must be a string',
        '"mode" must be one of "fast", "deep"',
        '"x" matches 2 branches of one_of, expected exactly one',
    ]


def test_violations_come_in_document_order_not_declaration_order() -> None:
    r = root(a=s.integer(), b=s.integer(), c=s.integer(required=True))
    assert msgs(r, {"b": "x", "a": "y"}) == [
        'missing required property "c"', '"b" must be an integer', '"a" must be an integer']


def test_the_root_is_open_and_a_type_error_on_it_names_the_arguments() -> None:
    r = root(a=s.integer())
    assert msgs(r, {"zzz": 1}) == []
    assert msgs(r, [1]) == ["the arguments must be an object"]


def test_a_failed_type_check_reports_only_the_type() -> None:
    r = root(a=s.string(min_length=3, pattern="x", enum=["xyz"]))
    assert msgs(r, {"a": 1}) == ['"a" must be a string']


# -- definition-time checks --------------------------------------------------------------


def test_every_problem_of_a_definition_is_reported_at_once() -> None:
    with pytest.raises(ToolDefinitionError) as e:
        define_tool("bad", parameters={
            "nested": s.object({"k": s.string()}),
            "mode": s.string(enum=["a", "b"], const="c"),
            "limit": s.integer(minimum=1, default=0),
            "raw": {"type": "string"},  # type: ignore[dict-item]
            "items": s.array(s.string(required=True)),
            "n": s.integer(minimum=5, maximum=1),
            "p": s.string(pattern="("),
        }, execute=_noop)
    problems = e.value.problems
    assert problems == (
        '"nested": a nested object must state its openness '
        "(additional_properties=True, False or a node)",
        '"mode": const "c" is outside its enum',
        '"limit": default 0 does not validate: the value must be at least 1',
        '"raw": unsupported construct dict (use string(), integer(), object(...), ...)',
        '"items[]": required=True has no meaning here (only a property is required)',
        '"n": minimum 5 is greater than maximum 1',
        "\"p\": pattern '(' does not compile: missing ), unterminated subpattern at position 0",
    )
    assert str(e.value).count("\n") == len(problems)


def test_definition_checks_catch_enum_values_of_the_wrong_kind_and_bad_names() -> None:
    with pytest.raises(ToolDefinitionError) as e:
        define_tool("bad", parameters={"m": s.integer(enum=["a"]), "my name": s.string(),
                                       "u": s.one_of(s.string())}, execute=_noop)
    assert e.value.problems[0].startswith('"m": enum value "a" is not an integer')
    assert any("'my name' is not a word" in p for p in e.value.problems)
    assert any("one_of needs at least two branches" in p for p in e.value.problems)


def test_an_option_spelling_taken_by_the_kernel_is_a_definition_error() -> None:
    with pytest.raises(ToolDefinitionError, match="--json is taken"):
        define_tool("bad", parameters={"json": s.boolean()}, execute=_noop)


# -- golden JSON Schema ------------------------------------------------------------------

D = "https://json-schema.org/draft/2020-12/schema"
GOLDEN: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({}, {"$schema": D, "type": "object", "properties": {}, "required": []}),
    ({"q": s.string(required=True, min_length=1, description="text")},
     {"$schema": D, "type": "object",
      "properties": {"q": {"type": "string", "minLength": 1, "description": "text"}},
      "required": ["q"]}),
    ({"n": s.integer(minimum=1, maximum=9, default=3, title="N", examples=[4])},
     {"$schema": D, "type": "object", "properties": {"n": {
         "type": "integer", "minimum": 1, "maximum": 9, "title": "N", "default": 3,
         "examples": [4]}}, "required": []}),
    ({"x": s.number(exclusive_minimum=0, exclusive_maximum=1, multiple_of=0.25)},
     {"$schema": D, "type": "object", "properties": {"x": {
         "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1,
         "multipleOf": 0.25}}, "required": []}),
    ({"m": s.string(enum=["a", "b"], default="a")},
     {"$schema": D, "type": "object", "properties": {"m": {
         "type": "string", "enum": ["a", "b"], "default": "a"}}, "required": []}),
    ({"b": s.boolean(const=True), "z": s.null()},
     {"$schema": D, "type": "object", "properties": {
         "b": {"type": "boolean", "const": True}, "z": {"type": "null"}}, "required": []}),
    ({"t": s.array(s.string(pattern="^[a-z]+$"), min_items=1, max_items=3, unique_items=True)},
     {"$schema": D, "type": "object", "properties": {"t": {
         "type": "array", "minItems": 1, "maxItems": 3, "uniqueItems": True,
         "items": {"type": "string", "pattern": "^[a-z]+$"}}}, "required": []}),
    ({"f": s.object({"k": s.string(required=True)}, additional_properties=False,
                    required=True)},
     {"$schema": D, "type": "object", "properties": {"f": {
         "type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"],
         "additionalProperties": False}}, "required": ["f"]}),
    ({"m": s.object({}, additional_properties=s.integer())},
     {"$schema": D, "type": "object", "properties": {"m": {
         "type": "object", "properties": {}, "required": [],
         "additionalProperties": {"type": "integer"}}}, "required": []}),
    ({"v": s.json(description="anything")},
     {"$schema": D, "type": "object", "properties": {"v": {"description": "anything"}},
      "required": []}),
    ({"u": s.one_of(s.string(), s.array(s.string()), required=True)},
     {"$schema": D, "type": "object", "properties": {"u": {"oneOf": [
         {"type": "string"}, {"type": "array", "items": {"type": "string"}}]}},
      "required": ["u"]}),
    ({"a": s.string(required=True), "b": s.integer(), "c": s.boolean(required=True)},
     {"$schema": D, "type": "object", "properties": {
         "a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "boolean"}},
      "required": ["a", "c"]}),
]


@pytest.mark.parametrize(("params", "expected"), GOLDEN)
def test_golden_schema(params: dict[str, Any], expected: dict[str, Any]) -> None:
    sch = root_schema(check_root("t", params))
    assert sch == expected
    assert list(sch) == list(expected)  # stable key order
    jsonschema.Draft202012Validator.check_schema(sch)


# -- property tests ----------------------------------------------------------------------

SCALAR_NODES = [s.string(), s.integer(), s.number(), s.boolean(), s.null(),
                s.string(enum=["a", "b"]), s.integer(minimum=0, maximum=5)]


def node_trees() -> st.SearchStrategy[s.Node[Any, Any]]:
    leaves = st.sampled_from(SCALAR_NODES)

    def extend(inner: st.SearchStrategy[s.Node[Any, Any]]) -> st.SearchStrategy[Any]:
        names = st.sampled_from(["a", "b", "c", "d"])
        return st.one_of(
            st.builds(lambda i: s.array(i), inner),
            st.builds(lambda props, closed: s.object(dict(props),
                                                     additional_properties=not closed),
                      st.lists(st.tuples(names, inner), max_size=3,
                               unique_by=lambda t: t[0]), st.booleans()),
        )

    return st.recursive(leaves, extend, max_leaves=6)


def value_for(node: s.Node[Any, Any]) -> st.SearchStrategy[Any]:
    k = node.kind
    if node.enum is not None:
        return st.sampled_from(node.enum)
    if k == "string":
        return st.text(max_size=5)
    if k == "integer":
        return st.integers(min_value=int(node.minimum if node.minimum is not None else -99),
                           max_value=int(node.maximum if node.maximum is not None else 99))
    if k == "number":
        return st.floats(allow_nan=False, allow_infinity=False, width=32)
    if k == "boolean":
        return st.booleans()
    if k == "null":
        return st.none()
    if k == "array":
        assert node.items is not None
        return st.lists(value_for(node.items), max_size=3)
    assert k == "object"
    return st.fixed_dictionaries({n: value_for(c) for n, c in node.properties})


@st.composite
def tree_and_value(draw: st.DrawFn) -> tuple[s.Node[Any, Any], Any]:
    node = draw(node_trees())
    wrapper = s.Node("object", properties=(("v", node),), additional_properties=False)
    return wrapper, {"v": draw(value_for(node))}


def _paths(node: s.Node[Any, Any], value: Any, path: tuple[Any, ...]) -> list[Any]:
    """Every (path, node) inside a generated value."""
    out = [(path, node)]
    if node.kind == "array" and node.items is not None:
        for i, x in enumerate(value):
            out += _paths(node.items, x, (*path, i))
    if node.kind == "object":
        props = dict(node.properties)
        for k, x in value.items():
            out += _paths(props[k], x, (*path, k))
    return out


class _Alien:
    """A value no node accepts (not JSON at all)."""


@settings(max_examples=150, deadline=None)
@given(tree_and_value(), st.data())
def test_a_generated_value_validates_and_a_mutated_one_reports_the_mutated_path(
        tv: tuple[s.Node[Any, Any], Any], data: st.DataObject) -> None:
    node, value = tv
    assert validate(node, value) == []
    sch = root_schema(node)
    jsonschema.Draft202012Validator.check_schema(sch)
    assert jsonschema.Draft202012Validator(sch).is_valid(value)
    # mutate one place: put a value of the wrong kind there
    places = [p for p in _paths(node.properties[0][1], value["v"], ("v",))]
    path, target = data.draw(st.sampled_from(places))
    wrong = {"string": 1, "integer": "x", "number": "x", "boolean": "x", "null": "x",
             "array": "x", "object": "x"}[target.kind]
    mutated = _set(value, path, wrong)
    viol = validate(node, mutated)
    assert [v.path for v in viol] == [path]
    assert not jsonschema.Draft202012Validator(sch).is_valid(mutated)


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, list):
        out = list(value)
        out[head] = _set(value[head], rest, new)
        return out
    return {**value, head: _set(value[head], rest, new)}


def test_node_schema_of_a_class_form_object_is_its_properties() -> None:
    class Filter(s.Args, additional_properties=False):
        kind = s.string(required=True)

    assert node_schema(s.object(Filter)) == {
        "type": "object", "properties": {"kind": {"type": "string"}}, "required": ["kind"],
        "additionalProperties": False}
