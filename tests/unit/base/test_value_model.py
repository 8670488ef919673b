"""The value model: text rendering, truthiness, JSON conversion."""

from __future__ import annotations

import pytest

from tysh.kernel.base.values import (
    format_float,
    to_json_text,
    to_json_value,
    to_text,
    truthy,
    type_name,
)


@pytest.mark.parametrize(("value", "text"), [
    ("s", "s"), (3, "3"), (-2, "-2"), (2.5, "2.5"), (2.0, "2"), (True, "true"),
    (False, "false"), (None, ""), ([1, "a"], '[1,"a"]'), ({"k": [None]}, '{"k":[null]}'),
    (b"b\xff", "b\udcff"), ({"é": "ü"}, '{"é":"ü"}'),
])
def test_to_text_renders_each_kind(value: object, text: str) -> None:
    assert to_text(value) == text


def test_format_float_handles_non_finite_and_large() -> None:
    assert format_float(float("inf")) == "Infinity"
    assert format_float(1e20) == "1e+20"


@pytest.mark.parametrize("value", ["", None, False, 0, 0.0, [], {}, b""])
def test_empty_and_zero_values_are_falsy(value: object) -> None:
    assert not truthy(value)


@pytest.mark.parametrize("value", ["0", "false", True, 1, -1, [0], {"a": 0}, b"0"])
def test_other_values_are_truthy(value: object) -> None:
    assert truthy(value)


def test_to_json_value_turns_bytes_into_the_envelope_and_tuples_into_lists() -> None:
    assert to_json_value((b"a", 1.0)) == [
        {"_type": "bytes", "encoding": "base64", "data": "YQ==", "len": 1}, 1]


def test_to_json_text_is_compact_unless_indented() -> None:
    assert to_json_text({"a": [1, 2]}) == '{"a":[1,2]}'
    assert to_json_text({"a": 1}, indent=2) == '{\n  "a": 1\n}'


def test_type_name_is_jq_style() -> None:
    assert [type_name(v) for v in [None, True, 1, 1.5, "s", [], {}, b""]] == [
        "null", "boolean", "number", "number", "string", "array", "object", "bytes"]
