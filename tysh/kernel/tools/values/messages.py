"""The wording of a violation, shared by the DSL's validator and the raw route's
(`jsonschema`) so that the same problem reads the same from argv, JSON and MCP.

A path is a tuple of property names and array indices; it is shown dotted, indices in
brackets (`items[2].name`), a name that is not a plain word quoted in brackets
(`meta["a.b"]`), and the root as "the arguments"."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")

TYPE_WORDS = {
    "string": "a string", "integer": "an integer", "number": "a number",
    "boolean": "a boolean", "null": "null", "array": "an array", "object": "an object",
}


@attrs.frozen
class Violation:
    """One way a JSON value breaks its schema: where (`path`) and what (`message`)."""

    path: tuple[str | int, ...]
    message: str

    def __str__(self) -> str:
        return self.message


def show_path(path: Sequence[str | int]) -> str:
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _WORD.match(part):
            out.append(("." if out else "") + part)
        else:
            out.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(out)


def subject(path: Sequence[str | int]) -> str:
    return f'"{show_path(path)}"' if path else "the arguments"


def show_value(v: Any) -> str:
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        return str(int(v))
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"), default=list)


def plural(n: Any, word: str) -> str:
    return f"{show_value(n)} {word}" + ("" if n == 1 else "s")


def missing(path: Sequence[str | int]) -> str:
    return f'missing required property "{show_path(path)}"'


def wrong_type(path: Sequence[str | int], kinds: Iterable[str]) -> str:
    words = [TYPE_WORDS.get(k, k) for k in kinds]
    return f"{subject(path)} must be {' or '.join(words)}"


def not_in_enum(path: Sequence[str | int], values: Iterable[Any]) -> str:
    return f"{subject(path)} must be one of {', '.join(show_value(v) for v in values)}"


def not_const(path: Sequence[str | int], value: Any) -> str:
    return f"{subject(path)} must be {show_value(value)}"


def undeclared(path: Sequence[str | int]) -> str:
    return f"{subject(path)} is not a declared property"


def one_of_count(path: Sequence[str | int], n: int) -> str:
    if n == 0:
        return f"{subject(path)} matches no branch of one_of, expected exactly one"
    return f"{subject(path)} matches {n} branches of one_of, expected exactly one"


# keyword → how its failure reads, given the keyword's value
BOUNDS: dict[str, Callable[[Any], str]] = {
    "min_length": lambda n: f"must be at least {plural(n, 'character')} long",
    "max_length": lambda n: f"must be at most {plural(n, 'character')} long",
    "pattern": lambda p: f"must match the pattern {json.dumps(p, ensure_ascii=False)}",
    "minimum": lambda n: f"must be at least {show_value(n)}",
    "maximum": lambda n: f"must be at most {show_value(n)}",
    "exclusive_minimum": lambda n: f"must be greater than {show_value(n)}",
    "exclusive_maximum": lambda n: f"must be less than {show_value(n)}",
    "multiple_of": lambda n: f"must be a multiple of {show_value(n)}",
    "min_items": lambda n: f"must have at least {plural(n, 'item')}",
    "max_items": lambda n: f"must have at most {plural(n, 'item')}",
    "unique_items": lambda _: "must not contain duplicate items",
}


def bound(path: Sequence[str | int], keyword: str, limit: Any) -> str:
    word = BOUNDS[keyword]
    return f"{subject(path)} {word(limit)}"
