"""Typed tool arguments: a tool declares an attrs class, and its schema is reflected from it.

One declaration gives the binder its spellings, `help` its text, the JSON wire form and
JSON Schema, and validation; the tool body receives an instance of the class. This module
is the reflection (`param`, `reflect_params`); filling an instance from bound words is
the binder's (`bind.convert`)."""

from __future__ import annotations

import sys

from tysh.kernel.base.record import Record, frozen
from tysh.kernel.tools.schema import ParamSchema

TYPE_CHECKING = False
if TYPE_CHECKING:
    import typing
    from typing import Any

META_KEY = "tysh"
# `param()` without a default: a required field (attrs.NOTHING, without importing attrs
# until a tool declares its args)
REQUIRED: Any = type("Required", (), {"__repr__": lambda self: "REQUIRED"})()


@frozen
class ParamMeta(Record):
    aliases: tuple[str, ...] = ()
    help: str = ""
    positional: bool = False
    repeatable: bool = False
    consumes: int = 1
    choices: tuple[str, ...] = ()
    param_type: str | None = None
    name: str | None = None
    optional_value: bool = False
    minimum: int | float | None = None
    maximum: int | float | None = None
    range_error: str | None = None
    glob_passthrough: bool = False


def param(
    default: Any = REQUIRED,
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
    optional_value: bool = False,
    min: int | float | None = None,  # noqa: A002 — the schema's word for it
    max: int | float | None = None,  # noqa: A002
    range_error: str | None = None,
    glob_passthrough: bool = False,
) -> Any:
    """An attrs field carrying the param's spellings and help.

    `aliases` are extra spellings (`-n`, `--count`); `param_type` overrides the type read
    from the annotation (e.g. "path"); `name` overrides the canonical name;
    `optional_value` makes a flag that may carry a value attached to it (`-i.bak`,
    `--in-place=.bak`) but never takes the next word (GNU's `-i[SUFFIX]`). `min`/`max`
    bound a number (both included; the binder refuses a value outside them, with
    `range_error` — `{value}`, `{option}` filled in — as the tool's own message, and the
    JSON Schema shows them as minimum/maximum). `glob_passthrough` marks a pattern-valued
    param (`--include=GLOB`): a glob given as its value reaches the tool unexpanded."""
    meta = ParamMeta(
        aliases=tuple(aliases),
        help=help,
        positional=positional,
        repeatable=repeatable,
        consumes=consumes,
        choices=tuple(choices),
        param_type=param_type,
        name=name,
        optional_value=optional_value,
        minimum=min,
        maximum=max,
        range_error=range_error,
        glob_passthrough=glob_passthrough,
    )
    import attrs

    if default is REQUIRED:
        default = attrs.NOTHING
    if factory is not None:
        return attrs.field(factory=factory, metadata={META_KEY: meta})
    return attrs.field(default=default, metadata={META_KEY: meta})


def strip_optional(tp: Any) -> tuple[Any, bool]:
    """`X | None` → (X, True); any other annotation → (it, False)."""
    import types
    import typing  # loaded only when a tool's args class is reflected
    from typing import Union

    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return tp, False


def annotation_type(tp: Any) -> tuple[str, tuple[str, ...]]:
    """The schema's (param_type, choices) for a field's annotation."""
    import typing
    from typing import Literal

    tp, _ = strip_optional(tp)
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
    import typing

    tp, _ = strip_optional(tp)
    args = [a for a in typing.get_args(tp) if a is not Ellipsis]
    return args[0] if args else str


_HINTS: dict[type, dict[str, Any]] = {}
_EVALUATED: dict[tuple[str, str], Any] = {}


def type_hints(cls: type) -> dict[str, Any]:
    """`typing.get_type_hints` for an args class, once per class, each distinct annotation
    string evaluated once per tysh module: get_type_hints compiles every string afresh,
    and the args classes repeat a handful of types over and over (grep's 30 fields)."""
    import typing

    hints = _HINTS.get(cls)
    if hints is None and not cls.__module__.startswith("tysh."):
        # A user's class may live in an exec'd namespace or refer to local names: leave
        # those to typing's own rules.
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    if hints is None:
        hints = {}
        for klass in reversed(cls.__mro__):
            module = klass.__module__
            for name, ann in klass.__dict__.get("__annotations__", {}).items():
                if isinstance(ann, str):
                    key = (module, ann)
                    if key not in _EVALUATED:
                        _EVALUATED[key] = eval(ann, vars(sys.modules[module]), dict(vars(klass)))
                    ann = _EVALUATED[key]
                hints[name] = ann
        _HINTS[cls] = hints
    return hints


def reflect_params(cls: type) -> tuple[ParamSchema, ...]:
    """The ParamSchemas of an attrs args class, in declaration order."""
    import attrs

    hints = type_hints(cls)
    out: list[ParamSchema] = []
    for f in attrs.fields(cls):
        meta: ParamMeta = f.metadata.get(META_KEY, ParamMeta())
        tp = hints.get(f.name, str)
        ptype, choices = annotation_type(tp)
        repeatable = meta.repeatable
        if ptype == "array" and not meta.positional and meta.param_type is None:
            # an array option is repeatable: each occurrence adds an element
            inner, _ = annotation_type(element_type(tp))
            ptype = inner if inner != "array" else "string"
            repeatable = True
        if meta.param_type is not None:
            ptype = meta.param_type
        if meta.choices:
            choices = meta.choices
            if meta.param_type != "bool":  # a bool with choices: a flag with optional `=WORD`
                ptype = "choice"
        required = f.default is attrs.NOTHING
        default: Any = None
        if not required:
            d = f.default
            factory = getattr(d, "factory", None)
            if factory is not None and type(d).__name__ == "Factory":
                d = factory()
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
                optional_value=meta.optional_value,
                minimum=meta.minimum,
                maximum=meta.maximum,
                range_error=meta.range_error,
                glob_passthrough=meta.glob_passthrough,
            )
        )
    return tuple(out)
