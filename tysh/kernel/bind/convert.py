"""Bound words → an instance of the tool's args class, and `bind_and_convert_general`:
the binder and this conversion in one call, the authority on every rule and message.

How each field of an args class is filled is reflected once per class into a
`ClassPlan`, which the per-tool fast path (fast.py) compiles into its generated code.
"""

from __future__ import annotations

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
from tysh.kernel.tools.params import (
    annotation_type,
    args_fields,
    element_type,
    is_sequence_origin,
    reflect_params,
    strip_optional,
    type_args,
    type_hints,
    type_origin,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from tysh.kernel.tools.tool import Tool

__all__ = [
    "ClassPlan",
    "FieldPlan",
    "bind_and_convert_general",
    "build_instance",
    "class_plan",
    "convert",
]


class FieldPlan:
    """How one field of an args class is filled from its param's bound value."""

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
        self.shape = shape  # gives a bound list the annotation's container type
        self.elem_conv = elem_conv  # converts each element of an array param
        self.elem_expected = elem_expected
        self.label = param.upper()


class ClassPlan:
    """How an args class is filled: a FieldPlan per param, and the params that need no
    work — `plain` ones whose same-named field takes the bound value as it is, and
    `str_tuples` whose same-named `tuple[str, ...]` field takes a list of strings."""

    __slots__ = ("fields", "plain", "str_tuples")

    def __init__(self, cls: type) -> None:
        hints = type_hints(cls)
        params = {p.name: p for p in reflect_params(cls)}
        fields: dict[str, FieldPlan] = {}
        for f in args_fields(cls) or ():
            pname = f.meta.name or f.name
            tp = hints.get(f.name, str)
            ps = params.get(pname)
            elem_conv = None
            elem_expected = ""
            if ps is not None and ps.param_type == "array":
                etype, _ = annotation_type(element_type(tp))
                if etype not in ("array", "any"):
                    elem_conv = CONVERTERS[etype]
                    elem_expected = EXPECTED[etype]
            fields[pname] = FieldPlan(f.name, pname, _shaper(tp), elem_conv, elem_expected)
        self.fields: dict[str, FieldPlan] = fields
        self.plain: frozenset[str] = frozenset(
            n for n, fp in fields.items()
            if fp.field == n and fp.shape is None and fp.elem_conv is None)
        self.str_tuples: frozenset[str] = frozenset(
            n for n, fp in fields.items()
            if fp.field == n and fp.elem_conv in (None, CONVERTERS["string"])
            and type_origin(hints.get(n)) is tuple
            and type_args(hints.get(n)) == (str, Ellipsis))


def _shaper(tp: Any) -> Callable[[Any], Any] | None:
    """A function giving a bound list the container type of the annotation (tuple/list),
    recursively for `tuple[tuple[str, str], ...]`; None when nothing needs doing."""
    tp, _ = strip_optional(tp)
    origin = type_origin(tp)
    if tp is tuple or tp is list:
        origin = tp
    if not is_sequence_origin(origin):
        return None
    inner_tp = element_type(tp)
    inner = _shaper(inner_tp)
    box: Callable[[Any], Any] = list if origin is list else tuple
    if inner is None:
        return lambda v: box(v) if type(v) is list else v
    return lambda v: box(inner(e) for e in v) if isinstance(v, (list, tuple)) else v


_PLANS: dict[type, ClassPlan] = {}


def class_plan(cls: type) -> ClassPlan:
    """The plan of an args class, reflected on first use."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = ClassPlan(cls)
    return plan


def build_instance(ta: ToolArgs, cls: type, viol: list[str]) -> Any:
    """Fill an instance of `cls` from bound values, appending violations; None if any.

    The common case — every bound param has a same-named field taking the value as is, or
    a `tuple[str, ...]` taking a list of strings — is done inline; anything else goes
    through the per-field plans."""
    bound = ta.bound
    if bound is not None and not viol:
        plan = _PLANS.get(cls) or class_plan(cls)
        plain = plan.plain
        str_tuples = plan.str_tuples
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
    plans = (_PLANS.get(cls) or class_plan(cls)).fields
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


def bind_and_convert_general(tool: Tool, args: Sequence[Arg]) -> tuple[ToolArgs, Tool, Any]:
    """Bind the words, pick the leaf Tool, build its args instance, by the general rules:
    the authority on every rule and message (the fast path must agree with it wherever
    it answers). Returns what `fast.bind_and_convert` returns."""
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
