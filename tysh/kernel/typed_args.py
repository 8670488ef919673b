"""Typed tool arguments: a tool declares an attrs class, and its schema is reflected from it.

One declaration gives the binder its spellings, `help` its text, the JSON wire form and
JSON Schema, and validation; the tool body receives an instance of the class."""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, Union

import attrs

from tysh.kernel.schema import ParamSchema

META_KEY = "tysh"


@attrs.frozen
class ParamMeta:
    aliases: tuple[str, ...] = ()
    help: str = ""
    positional: bool = False
    repeatable: bool = False
    consumes: int = 1
    choices: tuple[str, ...] = ()
    param_type: str | None = None
    name: str | None = None


def param(
    default: Any = attrs.NOTHING,
    *,
    aliases: typing.Sequence[str] = (),
    help: str = "",
    positional: bool = False,
    repeatable: bool = False,
    consumes: int = 1,
    choices: typing.Sequence[str] = (),
    param_type: str | None = None,
    name: str | None = None,
    factory: Any = None,
) -> Any:
    """An attrs field carrying the param's spellings and help.

    `aliases` are extra spellings (`-n`, `--count`); `param_type` overrides the type read
    from the annotation (e.g. "path"); `name` overrides the canonical name."""
    meta = ParamMeta(
        aliases=tuple(aliases),
        help=help,
        positional=positional,
        repeatable=repeatable,
        consumes=consumes,
        choices=tuple(choices),
        param_type=param_type,
        name=name,
    )
    if factory is not None:
        return attrs.field(factory=factory, metadata={META_KEY: meta})
    return attrs.field(default=default, metadata={META_KEY: meta})


def _strip_optional(tp: Any) -> tuple[Any, bool]:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return tp, False


def _type_of(tp: Any) -> tuple[str, tuple[str, ...]]:
    """Map an annotation to (param_type, choices)."""
    tp, _ = _strip_optional(tp)
    if tp is bool:
        return "bool", ()
    if tp is int:
        return "int", ()
    if tp is float:
        return "float", ()
    if tp is str:
        return "string", ()
    origin = typing.get_origin(tp)
    if origin is Literal:
        return "choice", tuple(str(a) for a in typing.get_args(tp))
    if origin in (list, tuple, typing.Sequence) or tp in (list, tuple):
        return "array", ()
    return "any", ()


def element_type(tp: Any) -> Any:
    """The element annotation of a sequence annotation (`tuple[int, ...]` → int)."""
    tp, _ = _strip_optional(tp)
    args = [a for a in typing.get_args(tp) if a is not Ellipsis]
    return args[0] if args else str


def reflect_params(cls: type) -> tuple[ParamSchema, ...]:
    """The ParamSchemas of an attrs args class, in declaration order."""
    hints = typing.get_type_hints(cls)
    out: list[ParamSchema] = []
    for f in attrs.fields(cls):
        meta: ParamMeta = f.metadata.get(META_KEY, ParamMeta())
        tp = hints.get(f.name, str)
        ptype, choices = _type_of(tp)
        repeatable = meta.repeatable
        if ptype == "array" and not meta.positional and meta.param_type is None:
            # an array option is repeatable: each occurrence adds an element
            inner, _ = _type_of(element_type(tp))
            ptype = inner if inner != "array" else "string"
            repeatable = True
        if meta.param_type is not None:
            ptype = meta.param_type
        if meta.choices:
            choices = meta.choices
            ptype = "choice"
        required = f.default is attrs.NOTHING
        default: Any = None
        if not required:
            d = f.default
            if isinstance(d, attrs.Factory):  # type: ignore[arg-type]
                d = d.factory()  # type: ignore[attr-defined]
            default = list(d) if isinstance(d, tuple) else d
            if default == [] or (ptype == "bool" and default is False):
                default = None if default == [] else default
        out.append(
            ParamSchema(
                name=meta.name or f.name,
                param_type=ptype,
                required=required,
                default=None if ptype == "bool" and default is False else default,
                description=meta.help,
                aliases=meta.aliases,
                consumes=meta.consumes,
                repeatable=repeatable,
                positional=meta.positional,
                choices=choices,
            )
        )
    return tuple(out)
