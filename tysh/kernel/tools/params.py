"""Typed tool arguments: a tool declares an attrs class, and its schema is reflected from it.

One declaration gives the binder its spellings, `help` its text, the JSON wire form and
JSON Schema, and validation; the tool body receives an instance of the class. This module
is the reflection (`param`, `reflect_params`); filling an instance from bound words is
the binder's (`bind.convert`)."""

from __future__ import annotations

import builtins
import sys

from tysh.kernel.base.record import (
    FIELD_KEY,
    NO_DEFAULT,
    Record,
    field,
    field_default,
    field_metadata,
    frozen,
)
from tysh.kernel.base.record import is_record as is_record_class
from tysh.kernel.tools.schema import ParamSchema

TYPE_CHECKING = False
if TYPE_CHECKING:
    import typing
    from typing import Any

META_KEY = "tysh"
# `param()` without a default: a required field
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

    def __init__(self, aliases: tuple[str, ...] = (), help: str = "",  # noqa: A002
                 positional: bool = False, repeatable: bool = False, consumes: int = 1,
                 choices: tuple[str, ...] = (), param_type: str | None = None,
                 name: str | None = None, optional_value: bool = False,
                 minimum: int | float | None = None, maximum: int | float | None = None,
                 range_error: str | None = None, glob_passthrough: bool = False) -> None:
        # written out rather than compiled from the fields (record._compile_init): a
        # tool module declares dozens of params at import, and a compile there would be
        # the first of the process, the dearest
        put = object.__setattr__
        put(self, "aliases", aliases)
        put(self, "help", help)
        put(self, "positional", positional)
        put(self, "repeatable", repeatable)
        put(self, "consumes", consumes)
        put(self, "choices", choices)
        put(self, "param_type", param_type)
        put(self, "name", name)
        put(self, "optional_value", optional_value)
        put(self, "minimum", minimum)
        put(self, "maximum", maximum)
        put(self, "range_error", range_error)
        put(self, "glob_passthrough", glob_passthrough)


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
    """A field of an args class carrying the param's spellings and help: a record field
    (`@frozen` over `Record`), or an attrs field in an attrs class.

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
    spec = field(default=NO_DEFAULT if default is REQUIRED else default, factory=factory,
                 metadata={META_KEY: meta})
    if "attrs" in sys.modules:
        # attrs is loaded wherever an attrs class is being declared (its decorator is
        # evaluated before the class body): give attrs its own field, carrying the record
        # field too, so the same declaration also serves a record
        import attrs

        metadata = {META_KEY: meta, FIELD_KEY: spec}
        if factory is not None:
            return attrs.field(factory=factory, metadata=metadata)
        if default is REQUIRED:
            return attrs.field(metadata=metadata)
        return attrs.field(default=default, metadata=metadata)
    return spec


class ArgField:
    """One field of an args class as the binder reads it, whether the class is a tysh
    record or an attrs class."""

    __slots__ = ("name", "meta", "required", "default", "factory", "init_name", "plain")

    def __init__(self, name: str, meta: ParamMeta, required: bool, default: Any,
                 factory: Any, init_name: str, plain: bool) -> None:
        self.name = name
        self.meta = meta
        self.required = required
        self.default = default  # REQUIRED when required or made by factory
        self.factory = factory
        self.init_name = init_name  # the __init__ parameter that fills it
        self.plain = plain  # the __init__ stores the argument as it is, nothing else


_FIELDS: dict[type, tuple[ArgField, ...] | None] = {}


def args_fields(cls: type) -> tuple[ArgField, ...] | None:
    """The fields of an args class in declaration order, or None when cls is neither a
    tysh record nor an attrs class. A record is read without attrs, which stays unloaded
    for a run that uses only tysh's own tools."""
    if cls in _FIELDS:
        return _FIELDS[cls]
    out: tuple[ArgField, ...] | None
    if is_record_class(cls):
        metas = field_metadata(cls)
        checks = getattr(cls, "__post_init__", None) is None \
            and not cls.__record_own_init__  # type: ignore[attr-defined]
        fields = []
        for n in cls.__record_fields__:  # type: ignore[attr-defined]
            required, default, factory = field_default(cls, n)
            fields.append(ArgField(
                n, metas.get(n, {}).get(META_KEY) or ParamMeta(), required,
                REQUIRED if default is NO_DEFAULT else default, factory, n, checks))
        out = tuple(fields)
    elif "attrs" in sys.modules and sys.modules["attrs"].has(cls):
        out = _attrs_fields(cls)
    else:
        out = None
    _FIELDS[cls] = out
    return out


def _attrs_fields(cls: type) -> tuple[ArgField, ...]:
    import attrs

    hooks = hasattr(cls, "__attrs_post_init__") or hasattr(cls, "__attrs_pre_init__")
    out = []
    for f in attrs.fields(cls):
        d = f.default
        factory = None
        if isinstance(d, attrs.Factory):  # type: ignore[arg-type]
            factory = (lambda d=d: d.factory(None)) if d.takes_self else d.factory
            d = REQUIRED
        required = d is attrs.NOTHING
        plain = (not hooks and f.init and f.validator is None and f.converter is None
                 and f.alias == f.name)
        out.append(ArgField(
            f.name, f.metadata.get(META_KEY, ParamMeta()), required,
            REQUIRED if required else d, factory, f.alias if f.init else "", plain))
    return tuple(out)


class LiteralOf:
    """`Literal["a", "b"]` as read from a tysh args class's annotation, without typing
    (see `type_hints`)."""

    __slots__ = ("__args__",)

    def __init__(self, values: tuple[Any, ...]) -> None:
        self.__args__ = values

    def __eq__(self, other: object) -> bool:
        return type(other) is LiteralOf and other.__args__ == self.__args__

    def __hash__(self) -> int:
        return hash(self.__args__)


class _LiteralForm:
    """What `Literal` names when an annotation of a tysh args class is evaluated in a
    module that imports it only for the type checker."""

    __slots__ = ()

    def __getitem__(self, values: Any) -> LiteralOf:
        return LiteralOf(values if type(values) is tuple else (values,))


# the type of `X | None` (types.UnionType, named without loading `types`)
UnionType = type(int | None)

# names an args class's annotations may use that its module imports from typing only
# for the type checker: evaluated without loading typing (`Any` reads as no constraint)
_ANNOTATION_NAMES: dict[str, Any] = {"Literal": _LiteralForm(), "Any": object}


def type_origin(tp: Any) -> Any:
    """typing.get_origin for the annotations args classes use, without typing: the
    container of a generic alias (`tuple` of `tuple[str, ...]`), UnionType for
    `X | None`, typing's own form for typing's objects (Literal, Union, Sequence)."""
    if type(tp) is LiteralOf:
        return LiteralOf
    if type(tp) is UnionType:
        return UnionType
    return getattr(tp, "__origin__", None)


def type_args(tp: Any) -> tuple[Any, ...]:
    """typing.get_args for the same annotations."""
    args: tuple[Any, ...] = getattr(tp, "__args__", ())
    return args if type(args) is tuple else ()


# A module in sys.modules may be one another thread is still importing (a background
# job's first external command imports subprocess, and with it typing's and
# collections.abc's users): its names are read with a default, never assumed.


def _is_union(origin: Any) -> bool:
    if origin is UnionType:
        return True
    # typing.Union only exists where typing is loaded
    return origin is getattr(sys.modules.get("typing"), "Union", UnionType)


def _is_literal(origin: Any) -> bool:
    if origin is LiteralOf:
        return True
    return origin is getattr(sys.modules.get("typing"), "Literal", LiteralOf)


def is_sequence_origin(origin: Any) -> bool:
    """Whether a generic alias's origin is a list, tuple or Sequence (collections.abc's
    Sequence is _collections_abc's, which the interpreter loads at start-up)."""
    if origin in (list, tuple):
        return True
    return origin is getattr(sys.modules.get("_collections_abc"), "Sequence", list)


def strip_optional(tp: Any) -> tuple[Any, bool]:
    """`X | None` → (X, True); any other annotation → (it, False)."""
    if _is_union(type_origin(tp)):
        args = [a for a in type_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return tp, False


def annotation_type(tp: Any) -> tuple[str, tuple[str, ...]]:
    """The schema's (param_type, choices) for a field's annotation."""
    tp, _ = strip_optional(tp)
    if tp is bool:
        return "bool", ()
    if tp is int:
        return "int", ()
    if tp is float:
        return "float", ()
    if tp is str:
        return "string", ()
    origin = type_origin(tp)
    if _is_literal(origin):
        return "choice", tuple(str(a) for a in type_args(tp))
    if is_sequence_origin(origin) or tp in (list, tuple):
        return "array", ()
    return "any", ()


def element_type(tp: Any) -> Any:
    """The element annotation of a sequence annotation (`tuple[int, ...]` → int)."""
    tp, _ = strip_optional(tp)
    args = [a for a in type_args(tp) if a is not Ellipsis]
    return args[0] if args else str


_HINTS: dict[type, dict[str, Any]] = {}
_EVALUATED: dict[tuple[str, str], Any] = {}
_SPACES: dict[str, dict[str, Any]] = {}  # a module's names for its annotations, once


_UNREAD: Any = object()
_PUNCT = frozenset("[],|")


def _annotation_tokens(text: str) -> list[str] | None:
    """Names, quoted strings, `...` and the punctuation `[],|` of an annotation; None
    for anything else."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == " ":
            i += 1
        elif c in _PUNCT:
            out.append(c)
            i += 1
        elif text.startswith("...", i):
            out.append("...")
            i += 3
        elif c in "'\"":
            end = text.find(c, i + 1)
            if end < 0 or "\\" in text[i:end]:
                return None
            out.append(text[i:end + 1])
            i = end + 1
        else:
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_."):
                j += 1
            if j == i or not text[i:j].replace(".", "_").isidentifier():
                return None
            out.append(text[i:j])
            i = j
    return out


def read_annotation(text: str, space: dict[str, Any], local: dict[str, Any]) -> Any:
    """What `eval(text, space, local)` gives for an annotation made of (dotted) names,
    string literals, `...`, subscripts and `|` unions — every args class's kind —
    without compiling it (a process's first compile costs more than a small tool's
    whole run); _UNREAD for any other text, which is then evaluated."""
    toks = _annotation_tokens(text)
    if not toks:
        return _UNREAD
    pos = 0

    def union() -> Any:
        nonlocal pos
        value = primary()
        while pos < len(toks) and toks[pos] == "|":
            pos += 1
            value = value | primary()
        return value

    def primary() -> Any:
        nonlocal pos
        if pos >= len(toks):
            raise ValueError(text)
        tok = toks[pos]
        pos += 1
        if tok == "...":
            return ...
        if tok[0] in "'\"":
            return tok[1:-1]
        if tok in _PUNCT:
            raise ValueError(text)
        head, *attrs = tok.split(".")
        if head in local:
            value = local[head]
        elif head in space:
            value = space[head]
        elif head == "None":
            value = None
        else:
            value = vars(builtins)[head]
        for a in attrs:
            value = getattr(value, a)
        if pos < len(toks) and toks[pos] == "[":
            pos += 1
            items = [union()]
            while pos < len(toks) and toks[pos] == ",":
                pos += 1
                items.append(union())
            if pos >= len(toks) or toks[pos] != "]":
                raise ValueError(text)
            pos += 1
            value = value[items[0] if len(items) == 1 else tuple(items)]
        return value

    try:
        value = union()
    except Exception:  # noqa: BLE001 - eval then gives the answer, or Python's error
        return _UNREAD
    return value if pos == len(toks) else _UNREAD


def type_hints(cls: type) -> dict[str, Any]:
    """`typing.get_type_hints` for an args class, once per class. For tysh's own classes
    each distinct annotation string is evaluated once per module, in the module's
    namespace with `Literal` and `Any` supplied when the module imports them only for
    the type checker, so reflecting a tool's args never loads typing (a tenth of a
    cold start); another class is left to typing's own rules."""
    hints = _HINTS.get(cls)
    if hints is None and not cls.__module__.startswith("tysh."):
        # A user's class may live in an exec'd namespace or refer to local names
        import typing

        hints = _HINTS[cls] = typing.get_type_hints(cls)
    if hints is None:
        hints = {}
        for klass in reversed(cls.__mro__):
            module = klass.__module__
            for name, ann in klass.__dict__.get("__annotations__", {}).items():
                if isinstance(ann, str):
                    key = (module, ann)
                    if key not in _EVALUATED:
                        space = _SPACES.get(module)
                        if space is None:
                            space = _SPACES[module] = {**_ANNOTATION_NAMES,
                                                       **vars(sys.modules[module])}
                        local = dict(vars(klass))
                        got = read_annotation(ann, space, local)
                        _EVALUATED[key] = eval(ann, space, local) if got is _UNREAD else got
                    ann = _EVALUATED[key]
                hints[name] = ann
        _HINTS[cls] = hints
    return hints


def reflect_params(cls: type) -> tuple[ParamSchema, ...]:
    """The ParamSchemas of an args class, in declaration order."""
    hints = type_hints(cls)
    out: list[ParamSchema] = []
    for f in args_fields(cls) or ():
        meta = f.meta
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
        required = f.required
        default: Any = None
        if not required:
            d = f.factory() if f.factory is not None else f.default
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
