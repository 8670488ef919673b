"""Typed tool arguments: a tool declares an attrs class, and its schema is reflected from it.

One declaration gives the binder its spellings, `help` its text, the JSON wire form and
JSON Schema, and validation; the tool body receives an instance of the class."""

from __future__ import annotations

import collections.abc
import sys
import types
import typing
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, Union

import attrs

from tysh.kernel.base.record import Record
from tysh.kernel.base.values import to_text
from tysh.kernel.bind.binder import (
    CONVERTERS,
    EXPECTED,
    INVALID,
    Arg,
    BindError,
    ToolArgs,
    bind_collect,
    bind_flat,
    compiled,
    finish,
)
from tysh.kernel.tools.schema import ParamSchema

if TYPE_CHECKING:
    from tysh.kernel.tools.tool import Tool

META_KEY = "tysh"


@attrs.frozen(repr=False, eq=False)
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
    optional_value: bool = False,
) -> Any:
    """An attrs field carrying the param's spellings and help.

    `aliases` are extra spellings (`-n`, `--count`); `param_type` overrides the type read
    from the annotation (e.g. "path"); `name` overrides the canonical name;
    `optional_value` makes a flag that may carry a value attached to it (`-i.bak`,
    `--in-place=.bak`) but never takes the next word (GNU's `-i[SUFFIX]`)."""
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


_HINTS: dict[type, dict[str, Any]] = {}
_EVALUATED: dict[tuple[str, str], Any] = {}


def type_hints(cls: type) -> dict[str, Any]:
    """`typing.get_type_hints` for an args class, once per class, each distinct annotation
    string evaluated once per tysh module: get_type_hints compiles every string afresh,
    which cost a tool's first use about 3 ms (grep's 30 fields repeat a handful of types)."""
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
    hints = type_hints(cls)
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
            )
        )
    return tuple(out)


# ---------------------------------------------------------------------------------------
# ToolArgs → an instance of the args class


class _FieldPlan:
    """How one attrs field is filled from the bound values, built once per class."""

    __slots__ = ("field", "param", "shape", "elem_conv", "elem_expected", "label")

    def __init__(
        self,
        field: str,
        param: str,
        shape: Callable[[Any], Any] | None,
        elem_conv: Callable[[Any], Any] | None,
        elem_expected: str,
    ) -> None:
        self.field = field
        self.param = param
        self.shape = shape
        self.elem_conv = elem_conv
        self.elem_expected = elem_expected
        self.label = param.upper()


def _shaper(tp: Any) -> Callable[[Any], Any] | None:
    """A function giving a bound list the container type of the annotation (tuple/list),
    recursively for `tuple[tuple[str, str], ...]`; None when nothing needs doing."""
    tp, _ = _strip_optional(tp)
    origin = typing.get_origin(tp)
    if tp is tuple or tp is list:
        origin = tp
    if origin not in (tuple, list, typing.Sequence, collections.abc.Sequence):
        return None
    inner_tp = element_type(tp)
    inner = _shaper(inner_tp)
    box: Callable[[Any], Any] = list if origin is list else tuple
    if inner is None:
        return lambda v: box(v) if type(v) is list else v
    return lambda v: box(inner(e) for e in v) if isinstance(v, (list, tuple)) else v


_PLANS: dict[type, dict[str, _FieldPlan]] = {}


def _plan(cls: type) -> dict[str, _FieldPlan]:
    """param name → how to fill its field, reflected once per class."""
    hints = type_hints(cls)
    params = {p.name: p for p in reflect_params(cls)}
    plans: dict[str, _FieldPlan] = {}
    for f in attrs.fields(cls):
        meta: ParamMeta = f.metadata.get(META_KEY, ParamMeta())
        pname = meta.name or f.name
        tp = hints.get(f.name, str)
        ps = params.get(pname)
        elem_conv = None
        elem_expected = ""
        if ps is not None and ps.param_type == "array":
            etype, _ = _type_of(element_type(tp))
            if etype not in ("array", "any"):
                elem_conv = CONVERTERS[etype]
                elem_expected = EXPECTED[etype]
        plans[pname] = _FieldPlan(f.name, pname, _shaper(tp), elem_conv, elem_expected)
    _PLANS[cls] = plans
    return plans


_FAST: dict[type, tuple[frozenset[str], frozenset[str]]] = {}


def _fast_sets(cls: type) -> tuple[frozenset[str], frozenset[str]]:
    """(params whose field has the same name and takes the bound value as is,
    params whose field is a `tuple[str, ...]` of the same name)."""
    plans = _PLANS.get(cls) or _plan(cls)
    plain = frozenset(n for n, fp in plans.items()
                      if fp.field == n and fp.shape is None and fp.elem_conv is None)
    hints = type_hints(cls)
    str_tuples = frozenset(
        n for n, fp in plans.items()
        if fp.field == n and fp.elem_conv in (None, CONVERTERS["string"])
        and typing.get_origin(hints.get(n)) is tuple
        and typing.get_args(hints.get(n)) == (str, Ellipsis))
    _FAST[cls] = (plain, str_tuples)
    return plain, str_tuples


def build_instance(ta: ToolArgs, cls: type, viol: list[str]) -> Any:
    """Fill an instance of `cls` from bound values, appending violations; None if any.

    The common case — every bound param has a same-named field taking the value as is, or
    a `tuple[str, ...]` taking a list of strings — is done inline; anything else goes
    through the per-field plans."""
    bound = ta.bound
    if bound is not None and not viol:
        plain, str_tuples = _FAST.get(cls) or _fast_sets(cls)
        kw: dict[str, Any] = {}
        for k, v in ta.named.items():
            if k not in plain:
                break
            kw[k] = v
        else:
            for k in ta.flags:
                if k not in plain:
                    break
                kw[k] = True
            else:
                for k, v in bound.items():
                    if k in plain:
                        kw[k] = v
                        continue
                    if k not in str_tuples:
                        break
                    for e in v:
                        if type(e) is not str:
                            break
                    else:
                        kw[k] = tuple(v)
                        continue
                    break
                else:
                    try:
                        return cls(**kw)
                    except (TypeError, ValueError) as e:
                        viol.append(f"{ta.prog or ta.leaf.name}: {e}")
                        return None
    return _build_slow(ta, cls, viol)


def _build_slow(ta: ToolArgs, cls: type, viol: list[str]) -> Any:
    """Fill an instance of `cls` from bound values, appending violations; None if any.

    Params the class has no field for (an ancestor's option the leaf does not declare)
    are left out; fields with no bound value take the class's default."""
    bound = ta.bound
    if bound is None:
        finish(compiled(ta.leaf), ta, -1, viol)
        bound = ta.bound or {}
    plans = _PLANS.get(cls) or _plan(cls)
    kwargs: dict[str, Any] = {}
    for name in ta.flags:
        fp = plans.get(name)
        if fp is not None:
            kwargs[fp.field] = True
    items = ta.named.items()
    if bound:
        items = [*items, *bound.items()]  # type: ignore[assignment]
    for pname, v in items:
        fp = plans.get(pname)
        if fp is None:
            continue
        conv = fp.elem_conv
        if conv is not None and type(v) is list:
            out = []
            for e in v:
                c = conv(e)
                if c is INVALID:
                    viol.append(
                        f"{ta.prog or ta.leaf.name}: invalid value '{to_text(e)}' for "
                        f"'{fp.label}': {fp.elem_expected}"
                    )
                else:
                    out.append(c)
            v = out
        shape = fp.shape
        kwargs[fp.field] = v if shape is None else shape(v)
    if viol:
        return None
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as e:
        viol.append(f"{ta.prog or ta.leaf.name}: {e}")
        return None


def convert(tool_args: ToolArgs, args_class: type) -> Any:
    """An instance of `args_class` from a ToolArgs; BindError lists every violation."""
    viol: list[str] = []
    inst = build_instance(tool_args, args_class, viol)
    if viol:
        raise BindError(viol)
    return inst


# tool → its specialised binder (None: it has none), built on first use. Tools hash and
# compare by identity, and the cache holds them, so an entry can never be stale.
_FAST_FNS: dict[Any, Any] = {}


def _fast_fn(tool: Tool) -> Any:
    from tysh.kernel.bind.fast import make_fast

    if len(_FAST_FNS) > 4096:
        _FAST_FNS.clear()
    fn = make_fast(tool)
    _FAST_FNS[tool] = fn
    return fn


def bind_and_convert(tool: Tool, args: Sequence[Arg]) -> tuple[ToolArgs, Tool, Any]:
    """The kernel's one call: bind the words, pick the leaf Tool, build its args instance.

    Returns (ToolArgs, leaf Tool, instance); the instance is the ToolArgs itself for
    raw/verbatim leaves (no args class) and None when `--help` was asked for. Binding and
    conversion violations are raised together as one BindError."""
    try:
        fast = _FAST_FNS[tool]
    except KeyError:
        fast = _fast_fn(tool)
    except TypeError:  # an unhashable tool-like object: no fast path
        fast = None
    if fast is not None:
        done: tuple[ToolArgs, Tool, Any] | None = fast(args)
        if done is not None:
            return done
    return bind_and_convert_general(tool, args)


def bind_and_convert_general(tool: Tool, args: Sequence[Arg]) -> tuple[ToolArgs, Tool, Any]:
    """`bind_and_convert` without the specialised fast path: the authority on every rule
    and message (the fast path must agree with it wherever it answers)."""
    flat = bind_flat(tool.schema, args)
    if flat is not None:
        ta, viol = flat
        leaf = tool
    else:
        ta, viol = bind_collect(tool.schema, args)
        leaf = tool.leaf(ta.path) if ta.path else tool
    if ta.help:
        return ta, leaf, None
    cls = leaf.args_class
    if cls is None:
        if viol:
            raise BindError(viol)
        return ta, leaf, ta
    inst = build_instance(ta, cls, viol)
    if viol:
        raise BindError(viol)
    return ta, leaf, inst
