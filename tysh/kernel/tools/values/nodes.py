"""The JSON-value schema vocabulary: nodes, their constructors and the class form.

A node describes one JSON value (`string`, `number`, `integer`, `boolean`, `null`,
`array`, `object`, `json`, `one_of`). The constructors are typed so that a node placed on
an `Args` subclass reads, for mypy, as the Python type its property has in the typed
arguments: `query = string(required=True)` is `str`, `limit = integer(minimum=1)` is
`int | None`, `n = integer(default=3)` is `int`. `Node[V, R]` carries V, the type of a
present value, and R, the type the attribute reads as (V, or V | None when optional).

Nothing here checks a definition: `check.py` does, reporting every problem at once."""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Literal,
    TypedDict,
    TypeVar,
    overload,
)

import attrs

from tysh.kernel.base.errors import TyshError

if TYPE_CHECKING:
    from typing import Unpack

V = TypeVar("V", covariant=True)
R = TypeVar("R", covariant=True)
S = TypeVar("S", bound=str)
I_ = TypeVar("I_", bound=int)
T = TypeVar("T")
A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")
D = TypeVar("D")
AT = TypeVar("AT", bound="Args")

KINDS = ("string", "number", "integer", "boolean", "null", "array", "object", "json",
         "one_of")


class _Unset:
    """The absence of a `default` or `const` (None is a JSON value: null)."""

    _one: ClassVar[_Unset | None] = None

    def __new__(cls) -> _Unset:
        if cls._one is None:
            cls._one = super().__new__(cls)
        return cls._one

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Any = _Unset()


class ToolDefinitionError(TyshError):
    """A tool definition with problems; `problems` lists every one, one line each."""

    status = 2

    def __init__(self, name: str, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"tool {name!r} is not a valid definition:\n{lines}", 2)


@attrs.frozen(eq=False, repr=False)
class Node(Generic[V, R]):
    """One JSON value's schema. Build nodes with the constructors below, not directly.

    `required` and `default` belong to the property the node is placed on; the other
    fields are the node's constraints and annotations. `additional_properties` of an
    object is None when the definition left it unstated (an error on a nested object)."""

    kind: str
    required: bool = False
    default: Any = UNSET
    description: str = ""
    title: str = ""
    examples: tuple[Any, ...] = ()
    enum: tuple[Any, ...] | None = None
    const: Any = UNSET
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None
    multiple_of: float | None = None
    items: Node[Any, Any] | None = None
    min_items: int | None = None
    max_items: int | None = None
    unique_items: bool = False
    properties: tuple[tuple[str, Any], ...] = ()
    additional_properties: Any = None  # None (unstated) | bool | Node
    branches: tuple[Any, ...] = ()
    args_class: type | None = None  # the Args subclass an object node was made from

    @overload
    def __get__(self, obj: None, owner: Any) -> Node[V, R]: ...
    @overload
    def __get__(self, obj: builtins.object, owner: Any) -> R: ...
    def __get__(self, obj: builtins.object, owner: Any) -> Any:
        # An Args instance keeps its values in its own __dict__, which wins over this
        # (non-data) descriptor; only class access arrives here.
        if obj is None:
            return self
        raise AttributeError("an Args value is built by its tool, not by hand")

    def __repr__(self) -> str:
        return f"<{self.kind} node>"

    @property
    def has_default(self) -> bool:
        return self.default is not UNSET

    @property
    def prop_map(self) -> dict[str, Node[Any, Any]]:
        return dict(self.properties)


def _ann(kw: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(kw)
    if "examples" in out:
        out["examples"] = tuple(out["examples"])
    if out.get("enum") is not None:
        out["enum"] = tuple(out["enum"])
    return out


class Annotations(TypedDict, total=False):
    description: str
    title: str
    examples: Sequence[Any]


class StringOpts(Annotations, total=False):
    const: str
    min_length: int
    max_length: int
    pattern: str


class NumberOpts(Annotations, total=False):
    const: float
    minimum: float
    maximum: float
    exclusive_minimum: float
    exclusive_maximum: float
    multiple_of: float


class IntegerOpts(Annotations, total=False):
    const: int
    minimum: float
    maximum: float
    exclusive_minimum: float
    exclusive_maximum: float
    multiple_of: float


class ArrayOpts(Annotations, total=False):
    min_items: int
    max_items: int
    unique_items: bool


# -- scalars ----------------------------------------------------------------------------
# Each constructor: required=True → V; a default → V; neither → V | None. An `enum`
# whose values are typed as a Literal (`MODES: tuple[Mode, ...] = ("fast", "deep")`)
# makes the property that Literal.


@overload
def string(*, enum: Sequence[S], required: Literal[True],
           **kw: Unpack[StringOpts]) -> Node[S, S]: ...
@overload
def string(*, enum: Sequence[S], default: S, required: bool = ...,
           **kw: Unpack[StringOpts]) -> Node[S, S]: ...
@overload
def string(*, enum: Sequence[S], required: Literal[False] = ...,
           **kw: Unpack[StringOpts]) -> Node[S, S | None]: ...
@overload
def string(*, required: Literal[True], **kw: Unpack[StringOpts]) -> Node[str, str]: ...
@overload
def string(*, default: str, required: bool = ...,
           **kw: Unpack[StringOpts]) -> Node[str, str]: ...
@overload
def string(*, required: Literal[False] = ...,
           **kw: Unpack[StringOpts]) -> Node[str, str | None]: ...
def string(**kw: Any) -> Node[Any, Any]:
    """A JSON string: `enum`, `const`, `min_length`, `max_length`, `pattern`."""
    return Node("string", **_ann(kw))


@overload
def integer(*, enum: Sequence[I_], required: Literal[True],
            **kw: Unpack[IntegerOpts]) -> Node[I_, I_]: ...
@overload
def integer(*, enum: Sequence[I_], default: I_, required: bool = ...,
            **kw: Unpack[IntegerOpts]) -> Node[I_, I_]: ...
@overload
def integer(*, enum: Sequence[I_], required: Literal[False] = ...,
            **kw: Unpack[IntegerOpts]) -> Node[I_, I_ | None]: ...
@overload
def integer(*, required: Literal[True], **kw: Unpack[IntegerOpts]) -> Node[int, int]: ...
@overload
def integer(*, default: int, required: bool = ...,
            **kw: Unpack[IntegerOpts]) -> Node[int, int]: ...
@overload
def integer(*, required: Literal[False] = ...,
            **kw: Unpack[IntegerOpts]) -> Node[int, int | None]: ...
def integer(**kw: Any) -> Node[Any, Any]:
    """A JSON integer (1.0 counts, as JSON Schema says; true does not)."""
    return Node("integer", **_ann(kw))


@overload
def number(*, required: Literal[True], enum: Sequence[float] | None = ...,
           **kw: Unpack[NumberOpts]) -> Node[float, float]: ...
@overload
def number(*, default: float, required: bool = ..., enum: Sequence[float] | None = ...,
           **kw: Unpack[NumberOpts]) -> Node[float, float]: ...
@overload
def number(*, required: Literal[False] = ..., enum: Sequence[float] | None = ...,
           **kw: Unpack[NumberOpts]) -> Node[float, float | None]: ...
def number(**kw: Any) -> Node[Any, Any]:
    """A JSON number (an int or a float in the typed arguments)."""
    return Node("number", **_ann(kw))


@overload
def boolean(*, required: Literal[True], enum: Sequence[bool] | None = ...,
            const: bool = ..., **kw: Unpack[Annotations]) -> Node[bool, bool]: ...
@overload
def boolean(*, default: bool, required: bool = ..., enum: Sequence[bool] | None = ...,
            const: bool = ..., **kw: Unpack[Annotations]) -> Node[bool, bool]: ...
@overload
def boolean(*, required: Literal[False] = ..., enum: Sequence[bool] | None = ...,
            const: bool = ..., **kw: Unpack[Annotations]) -> Node[bool, bool | None]: ...
def boolean(**kw: Any) -> Node[Any, Any]:
    """A JSON boolean; from argv a flag (`--exact`, `--exact=false`)."""
    return Node("boolean", **_ann(kw))


def null(*, required: bool = False, enum: Sequence[None] | None = None,
         const: None = UNSET, default: None = UNSET,
         **kw: Unpack[Annotations]) -> Node[None, None]:
    """JSON null: the property reads as None whether given or not."""
    return Node("null", required=required, enum=None if enum is None else tuple(enum),
                const=const, default=default, **_ann(kw))


@overload
def json(*, required: Literal[True], enum: Sequence[Any] | None = ..., const: Any = ...,
         **kw: Unpack[Annotations]) -> Node[Any, Any]: ...
@overload
def json(*, default: Any, required: bool = ..., enum: Sequence[Any] | None = ...,
         const: Any = ..., **kw: Unpack[Annotations]) -> Node[Any, Any]: ...
@overload
def json(*, required: Literal[False] = ..., enum: Sequence[Any] | None = ...,
         const: Any = ..., **kw: Unpack[Annotations]) -> Node[Any, Any]: ...
def json(**kw: Any) -> Node[Any, Any]:
    """Any JSON value (objects arrive as frozen mappings, arrays as tuples)."""
    return Node("json", **_ann(kw))


# -- arrays -----------------------------------------------------------------------------


@overload
def array(items: Node[T, builtins.object], *, required: Literal[True],
          **kw: Unpack[ArrayOpts]) -> Node[tuple[T, ...], tuple[T, ...]]: ...
@overload
def array(items: Node[T, builtins.object], *, default: Sequence[T], required: bool = ...,
          **kw: Unpack[ArrayOpts]) -> Node[tuple[T, ...], tuple[T, ...]]: ...
@overload
def array(items: Node[T, builtins.object], *, required: Literal[False] = ...,
          **kw: Unpack[ArrayOpts]) -> Node[tuple[T, ...], tuple[T, ...] | None]: ...
def array(items: Node[Any, Any], **kw: Any) -> Node[Any, Any]:
    """A JSON array of `items` (a tuple in the typed arguments)."""
    if "default" in kw and isinstance(kw["default"], list | tuple):
        kw["default"] = list(kw["default"])
    return Node("array", items=items, **_ann(kw))


# -- objects ----------------------------------------------------------------------------

Openness = bool | Node[Any, Any]


@overload
def object(properties: type[AT], *, required: Literal[True],
           additional_properties: Openness | None = ...,
           **kw: Unpack[Annotations]) -> Node[AT, AT]: ...
@overload
def object(properties: type[AT], *, required: Literal[False] = ...,
           additional_properties: Openness | None = ...,
           **kw: Unpack[Annotations]) -> Node[AT, AT | None]: ...
@overload
def object(properties: Mapping[str, Node[Any, Any]], *, required: Literal[True],
           additional_properties: Openness | None = ...,
           **kw: Unpack[Annotations]) -> Node[Mapping[str, Any], Mapping[str, Any]]: ...
@overload
def object(properties: Mapping[str, Node[Any, Any]], *, default: Mapping[str, Any],
           required: bool = ..., additional_properties: Openness | None = ...,
           **kw: Unpack[Annotations]) -> Node[Mapping[str, Any], Mapping[str, Any]]: ...
@overload
def object(properties: Mapping[str, Node[Any, Any]], *, required: Literal[False] = ...,
           additional_properties: Openness | None = ...,
           **kw: Unpack[Annotations]) -> Node[Mapping[str, Any], Mapping[str, Any] | None]: ...
def object(properties: Any, **kw: Any) -> Node[Any, Any]:
    """A JSON object: a map of property nodes, or an `Args` subclass (then the property
    reads as an instance of it). Its openness must be stated, here or on the class:
    `additional_properties=False` (closed), `True` (open) or a node (each extra value)."""
    if isinstance(properties, type) and issubclass(properties, Args):
        base = properties.__tysh_node__
        opened = kw.pop("additional_properties", None)
        return attrs.evolve(
            base, additional_properties=base.additional_properties if opened is None
            else opened, **_ann(kw))
    props = tuple(properties.items()) if isinstance(properties, Mapping) else properties
    return Node("object", properties=props, **_ann(kw))


# -- unions -----------------------------------------------------------------------------


@overload
def one_of(a: Node[A, builtins.object], b: Node[B, builtins.object], /, *, required: Literal[True],
           **kw: Unpack[Annotations]) -> Node[A | B, A | B]: ...
@overload
def one_of(a: Node[A, builtins.object], b: Node[B, builtins.object], /, *, required: Literal[False] = ...,
           **kw: Unpack[Annotations]) -> Node[A | B, A | B | None]: ...
@overload
def one_of(a: Node[A, builtins.object], b: Node[B, builtins.object], c: Node[C, builtins.object], /, *, required: Literal[True],
           **kw: Unpack[Annotations]) -> Node[A | B | C, A | B | C]: ...
@overload
def one_of(a: Node[A, builtins.object], b: Node[B, builtins.object], c: Node[C, builtins.object], /, *,
           required: Literal[False] = ...,
           **kw: Unpack[Annotations]) -> Node[A | B | C, A | B | C | None]: ...
@overload
def one_of(a: Node[A, builtins.object], b: Node[B, builtins.object], c: Node[C, builtins.object], d: Node[D, builtins.object], /, *,
           required: Literal[True],
           **kw: Unpack[Annotations]) -> Node[A | B | C | D, A | B | C | D]: ...
@overload
def one_of(a: Node[A, builtins.object], b: Node[B, builtins.object], c: Node[C, builtins.object], d: Node[D, builtins.object], /, *,
           required: Literal[False] = ...,
           **kw: Unpack[Annotations]) -> Node[A | B | C | D, A | B | C | D | None]: ...
@overload
def one_of(*nodes: Node[Any, Any], required: bool = ..., default: Any = ...,
           **kw: Unpack[Annotations]) -> Node[Any, Any]: ...
def one_of(*nodes: Node[Any, Any], **kw: Any) -> Node[Any, Any]:
    """Exactly one of the branches must match; a value matching two is a violation."""
    return Node("one_of", branches=tuple(nodes), **_ann(kw))


# -- the class form ---------------------------------------------------------------------


class Args:
    """Base of typed argument classes: each class attribute that is a node is a property,
    in declaration order (a base class's first). The root of a tool is an open object;
    a class used as a nested `object(...)` states its openness as a class keyword:
    `class Filter(Args, additional_properties=False)`.

    Instances are built by the tool from validated JSON, defaults applied, and are
    read-only; `to_json()` gives the value they were built from."""

    __tysh_node__: ClassVar[Node[Any, Any]]
    __tysh_json__: Mapping[str, Any]

    def __init_subclass__(cls, *, additional_properties: Openness | None = None,
                          **kw: Any) -> None:
        super().__init_subclass__(**kw)
        props: dict[str, Node[Any, Any]] = {}
        for base in reversed(cls.__mro__[1:]):
            inherited = getattr(base, "__tysh_node__", None)
            if isinstance(inherited, Node):
                props.update(inherited.properties)
        for name, value in vars(cls).items():
            if isinstance(value, Node):
                props[name] = value
        if additional_properties is None:
            parent = getattr(super(cls, cls), "__tysh_node__", None)
            if isinstance(parent, Node):
                additional_properties = parent.additional_properties
        cls.__tysh_node__ = Node(
            "object", properties=tuple(props.items()),
            additional_properties=additional_properties, args_class=cls,
            description=(cls.__doc__ or "").strip().split("\n\n")[0].strip())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __eq__(self, other: builtins.object) -> bool:
        return type(other) is type(self) and \
            dict(self.__dict__) == dict(other.__dict__)

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted(self.__dict__))))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()
                          if not k.startswith("__"))
        return f"{type(self).__name__}({shown})"

    def to_json(self) -> Mapping[str, Any]:
        """The JSON object these arguments were built from (before defaults)."""
        return self.__tysh_json__
