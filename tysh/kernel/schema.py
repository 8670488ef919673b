"""Tool schemas (DESIGN §4.1): the one declaration a tool makes of its arguments.

A schema drives the argv binder, the help text, the JSON wire form (`tools --json`),
the JSON Schema of a tool's input and validation. Classes are frozen; list fields are
held as tuples so schemas can be shared between threads and cached by identity.
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

PARAM_TYPES = ("string", "int", "float", "bool", "array", "path", "choice", "any")


class ArgBinding(enum.Enum):
    TYPED = "typed"
    VERBATIM = "verbatim"


def _tuple(v: Any) -> tuple[Any, ...]:
    return tuple(v) if v is not None else ()


@attrs.frozen
class Example:
    description: str
    code: str


@attrs.frozen
class ParamSchema:
    """One parameter. Non-positional params are spelled `--name` (`_` as `-`) plus `aliases`."""

    name: str
    param_type: str = "string"
    required: bool = False
    default: Any = None
    description: str = ""
    aliases: tuple[str, ...] = attrs.field(default=(), converter=_tuple)
    consumes: int = 1
    repeatable: bool = False
    positional: bool = False
    choices: tuple[str, ...] = attrs.field(default=(), converter=_tuple)

    @property
    def long_spelling(self) -> str:
        return "--" + self.name.replace("_", "-")

    def spellings(self) -> tuple[str, ...]:
        """Every option spelling of the param; none for positionals."""
        if self.positional:
            return ()
        return (self.long_spelling, *self.aliases)

    @property
    def takes_value(self) -> bool:
        return self.param_type != "bool"


@attrs.frozen
class ToolSchema:
    name: str
    description: str = ""
    params: tuple[ParamSchema, ...] = attrs.field(default=(), converter=_tuple)
    typed_substitution: bool = False
    examples: tuple[Example, ...] = attrs.field(default=(), converter=_tuple)
    map_positionals: bool = False
    subcommands: tuple[ToolSchema, ...] = attrs.field(default=(), converter=_tuple)
    aliases: tuple[str, ...] = attrs.field(default=(), converter=_tuple)
    owns_output: bool = False
    raw_argv: bool = False
    arg_binding: ArgBinding = ArgBinding.TYPED
    glob_passthrough: bool = False
    operations: tuple[str, ...] = attrs.field(default=(), converter=_tuple)
