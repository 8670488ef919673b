"""Value semantics written once instead of generated per class, and frozen records
made without attrs.

attrs compiles `__eq__`, `__hash__` and `__repr__` for every class it decorates, at import:
most of the cost of defining a class, and tysh defines a hundred of them on the way to
its first prompt (syntax nodes, schemas, every builtin's args class).
A class declared `@attrs.frozen(repr=False, eq=False)` over `Record` gets the same three
methods with attrs' meaning from here: equal when of the same class with equal fields,
hashed by its fields, shown as `Name(field=value, …)`. Fields declared `eq=False`,
`hash=False` or `repr=False` are left out as attrs would leave them out.

`@frozen` over `Record` goes further, for the value classes on the start-up path (the
syntax tree, Limits, schemas, results): no attrs at all, an `__init__` compiled only when
the class is first instantiated (or the class's own, for one that converts or checks its
arguments), and `obj.evolve(…)` (or `replace(obj, …)`) in place of `attrs.evolve`; `@mutable` makes the same records
with assignable fields. `field(factory=…, metadata=…)` declares a default made afresh per
instance and data for reflection (every builtin's args class is such a record, its
fields made by `param()`), and `as_plain` is `attrs.asdict`."""

from __future__ import annotations

from operator import attrgetter

from tysh.kernel.base.cache import compile_cached

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    _T = TypeVar("_T")
_EQ: dict[type, Any] = {}
_HASH: dict[type, Any] = {}


def _getter(names: list[str]) -> Any:
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return attrgetter(*names)


def _eq_key(cls: type) -> Any:
    names = getattr(cls, "__record_fields__", None)
    if names is None:
        names = [a.name for a in cls.__attrs_attrs__ if a.eq]  # type: ignore[attr-defined]
    key = _getter(list(names))
    _EQ[cls] = key
    return key


def _hash_key(cls: type) -> Any:
    names = getattr(cls, "__record_fields__", None)
    if names is None:
        names = [a.name for a in cls.__attrs_attrs__  # type: ignore[attr-defined]
                 if (a.eq if a.hash is None else a.hash)]
    key = _getter(names)
    _HASH[cls] = key
    return key


class Record:
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        cls = self.__class__
        if other.__class__ is not cls:
            return NotImplemented
        key = _EQ.get(cls) or _eq_key(cls)
        return bool(key(self) == key(other))

    def __hash__(self) -> int:
        cls = self.__class__
        key = _HASH.get(cls) or _hash_key(cls)
        return hash((cls, key(self)))

    def __repr__(self) -> str:
        names = getattr(self, "__record_fields__", None)
        if names is None:
            names = [a.name for a in self.__attrs_attrs__  # type: ignore[attr-defined]
                     if a.repr]
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{self.__class__.__qualname__.rsplit('>.', 1)[-1]}({fields})"

    def evolve(self: _T, **changes: Any) -> _T:
        """A copy with the given fields changed: `attrs.evolve(obj, …)` as a method, for
        records made by `frozen` and by attrs alike."""
        if getattr(self, "__record_fields__", None) is None:
            import attrs

            made: _T = attrs.evolve(self, **changes)  # type: ignore[misc]
            return made
        return replace(self, **changes)

    __replace__ = evolve  # copy.replace (Python 3.13)


class MutableRecord(Record):
    """Record for a mutable attrs class: equal by fields but, as attrs makes it, unhashable."""

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]


# ---------------------------------------------------------------------------
# Frozen records without attrs
# ---------------------------------------------------------------------------


class FrozenRecordError(AttributeError):
    """Raised on an attempt to set or delete a field of a frozen record."""


def _frozen_setattr(self: object, name: str, value: object) -> None:
    raise FrozenRecordError(f"cannot assign to field {name!r} of a frozen "
                            f"{type(self).__name__}")


def _frozen_delattr(self: object, name: str) -> None:
    raise FrozenRecordError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")


class Field:
    """A field declared with more than a plain default: a `factory` called afresh for each
    instance (a list, a lock), and `metadata` for whoever reflects the class (a tool's
    param spellings). Made by `field()`; the class decorator reads and removes it."""

    __slots__ = ("default", "factory", "metadata")

    def __init__(self, default: Any, factory: Any, metadata: Any) -> None:
        self.default = default
        self.factory = factory
        self.metadata = metadata


class _Factory:
    """The default of a field made by a factory: called once per instance."""

    __slots__ = ("make",)

    def __init__(self, make: Any) -> None:
        self.make = make


NO_DEFAULT: Any = type("NoDefault", (), {"__repr__": lambda self: "NO_DEFAULT"})()
# the metadata key under which an attrs field carries the record Field it stands for
FIELD_KEY = "tysh.record.field"


def field(*, default: Any = NO_DEFAULT, factory: Any = None,
          metadata: dict[str, Any] | None = None) -> Any:
    """A record field with a default made afresh per instance (`factory=list`), or with
    metadata; `field()` alone is a required field."""
    return Field(default, factory, dict(metadata or {}))


def _field_spec(value: object) -> Field | None:
    """The Field a class attribute declares, if it declares one: a `field()`, or an attrs
    field that carries one (what `param()` gives inside a class declared while attrs is
    loaded)."""
    if type(value) is Field:
        return value
    metadata = getattr(value, "metadata", None)
    if isinstance(metadata, dict) and FIELD_KEY in metadata:
        spec: Field = metadata[FIELD_KEY]
        return spec
    return None


def field_metadata(cls: type) -> dict[str, dict[str, Any]]:
    """Each field's metadata (empty for a field declared without), by name."""
    meta: dict[str, dict[str, Any]] = cls.__record_meta__  # type: ignore[attr-defined]
    return meta


def field_default(cls: type, name: str) -> tuple[bool, Any, Any]:
    """(required, default, factory) of a record field: the default is NO_DEFAULT when the
    field is required or made by its factory."""
    defaults: dict[str, Any] = cls.__record_defaults__  # type: ignore[attr-defined]
    if name not in defaults:
        return True, NO_DEFAULT, None
    d = defaults[name]
    if type(d) is _Factory:
        return False, NO_DEFAULT, d.make
    return False, d, None


def _reduce(self: Any) -> tuple[Any, tuple[Any, ...]]:
    return type(self), tuple(getattr(self, n) for n in self.__record_fields__)


# instances a record class makes through the generic __init__ before it compiles its own
_COLD_INITS = 16
_made: dict[type, int] = {}


def _first_init(self: Any, *args: Any, **kwargs: Any) -> None:
    """Every frozen record starts with this __init__. The first instances of a class are
    made by reading its fields at each call; from the `_COLD_INITS`th on it compiles its
    own (a function that sets each slot directly) and hands over to that. A short run
    (`tysh -c 'echo hi'`) makes a few instances of a dozen classes and never pays for
    the compiler (whose first use in a process is the dearest); a long one pays once
    per class it uses often."""
    cls = type(self)
    for owner in cls.__mro__:
        if owner.__dict__.get("__init__") is _first_init:
            break
    made = _made.get(owner, 0)
    if made < _COLD_INITS:
        _made[owner] = made + 1
        _generic_init(owner, self, args, kwargs)
        return
    owner.__init__ = _compile_init(owner)  # type: ignore[misc]
    owner.__init__(self, *args, **kwargs)  # type: ignore[misc]


def _generic_init(cls: Any, self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """What the compiled __init__ of cls does, with Python's errors for a wrong call."""
    names: tuple[str, ...] = cls.__record_fields__
    defaults: dict[str, Any] = cls.__record_defaults__
    where = f"{cls.__qualname__}.__init__()"
    if len(args) > len(names):
        raise TypeError(f"{where} takes {len(names) + 1} positional arguments but "
                        f"{len(args) + 1} were given")
    values = dict(zip(names, args, strict=False))
    for k, v in kwargs.items():
        if k not in names:
            raise TypeError(f"{where} got an unexpected keyword argument {k!r}")
        if k in values:
            raise TypeError(f"{where} got multiple values for argument {k!r}")
        values[k] = v
    missing = [n for n in names if n not in values and n not in defaults]
    if missing:
        raise TypeError(f"{where} missing {len(missing)} required argument"
                        f"{'s' if len(missing) > 1 else ''}: "
                        + ", ".join(repr(n) for n in missing))
    for n in names:
        if n in values:
            v = values[n]
        else:
            v = defaults[n]
            if type(v) is _Factory:
                v = v.make()
        _slot(cls, n).__set__(self, v)
    if getattr(cls, "__post_init__", None) is not None:
        self.__post_init__()


def _slot(cls: type, name: str) -> Any:
    """The descriptor of a field's slot (the class's own, or a record base's)."""
    for c in cls.__mro__:
        if name in c.__dict__:
            return c.__dict__[name]
    raise AttributeError(name)


def _compile_init(cls: Any) -> Any:
    names: tuple[str, ...] = cls.__record_fields__
    defaults: dict[str, Any] = cls.__record_defaults__
    env: dict[str, Any] = {}
    params: list[str] = ["self"]
    body: list[str] = []
    enforced = cls.__dict__.get("__setattr__") is _frozen_setattr
    for n in names:
        if n in defaults and type(defaults[n]) is _Factory:
            env["_MAKE"] = _Factory
            env[f"_f_{n}"] = defaults[n].make
            params.append(f"{n}=_MAKE")
            body.append(f"    if {n} is _MAKE:\n        {n} = _f_{n}()")
        elif n in defaults:
            env[f"_d_{n}"] = defaults[n]
            params.append(f"{n}=_d_{n}")
        else:
            params.append(n)
        if enforced:  # __setattr__ refuses: set the slot through its descriptor
            env[f"_set_{n}"] = _slot(cls, n).__set__
            body.append(f"    _set_{n}(self, {n})")
        else:
            body.append(f"    self.{n} = {n}")
    if getattr(cls, "__post_init__", None) is not None:  # the class's check of its fields
        body.append("    self.__post_init__()")
    src = (f"def __init__({', '.join(params)}):\n" + "\n".join(body or ["    pass"]) + "\n")
    # (from the per-user cache: a process's first compile() costs milliseconds)
    exec(compile_cached(src, f"<record {cls.__qualname__}>"), env)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _frozen(cls: type[_T], enforce: bool = True, fixed: bool = True) -> type[_T]:
    # fields are a record base's fields, then the class's own annotations, in order; a
    # class attribute of the same name is the field's default (immutable values only: it
    # is shared by every instance)
    inherited: tuple[str, ...] = getattr(cls, "__record_fields__", ())
    own = tuple(n for n in cls.__dict__.get("__annotations__", {}) if n not in inherited)
    if any(n.startswith("__") for n in own):
        raise TypeError(f"{cls.__name__}: a record field may not start with '__'")
    names = inherited + own
    defaults = dict(getattr(cls, "__record_defaults__", {}))
    metadata = dict(getattr(cls, "__record_meta__", {}))
    declared = [n for n in own if n in cls.__dict__]
    for n in declared:
        value = cls.__dict__[n]
        spec = _field_spec(value)
        if spec is None:
            defaults[n] = value
            continue
        if spec.metadata:
            metadata[n] = spec.metadata
        if spec.factory is not None:
            defaults[n] = _Factory(spec.factory)
        elif spec.default is not NO_DEFAULT:
            defaults[n] = spec.default
    seen_default = False
    for n in names:
        if n in defaults:
            seen_default = True
        elif seen_default:
            raise TypeError(f"{cls.__name__}: field {n!r} without a default follows one with")
    ns = {k: v for k, v in cls.__dict__.items()
          if k not in declared and k not in ("__dict__", "__weakref__")}
    ns["__slots__"] = own
    ns["__record_fields__"] = names
    ns["__record_defaults__"] = defaults
    ns["__record_meta__"] = metadata
    ns["__match_args__"] = names
    # a class may write its own __init__ (to convert its arguments): it takes the fields
    # as parameters of the same names in the same order, and sets a frozen record's
    # fields with object.__setattr__; one that only checks them defines __post_init__,
    # which the compiled __init__ and `replace` call last
    own_init = "__init__" in cls.__dict__
    ns["__record_own_init__"] = own_init
    if not own_init:
        ns["__init__"] = _first_init
    if enforce:
        ns["__setattr__"] = _frozen_setattr
        ns["__delattr__"] = _frozen_delattr
    ns["__record_fixed__"] = fixed
    ns["__reduce__"] = _reduce
    meta: Any = type(cls)
    made: type[_T] = meta(cls.__name__, cls.__bases__, ns)
    return made


if TYPE_CHECKING:
    from typing import dataclass_transform

    @dataclass_transform(frozen_default=True, eq_default=False, field_specifiers=(field,))
    def frozen(cls: type[_T]) -> type[_T]:
        """See the definition below."""
else:
    def frozen(cls):
        """A frozen record class made from a class over `Record` with annotated fields:
        slots, an __init__ taking the fields in order (defaults from the class body),
        attributes that cannot be set or deleted, `replace` and pickling. Made without
        attrs, whose import and per-class code generation are most of what a short
        `tysh -c` would otherwise spend on the syntax tree."""
        return _frozen(cls)


if TYPE_CHECKING:
    @dataclass_transform(eq_default=False, field_specifiers=(field,))
    def mutable(cls: type[_T]) -> type[_T]:
        """See the definition below."""
else:
    def mutable(cls):
        """A record whose fields may be assigned after it is made (over `MutableRecord`
        for attrs' meaning of a mutable class: equal by fields, unhashable)."""
        return _frozen(cls, enforce=False, fixed=False)


if TYPE_CHECKING:
    @dataclass_transform(frozen_default=True, eq_default=False, field_specifiers=(field,))
    def value_record(cls: type[_T]) -> type[_T]:
        """See the definition below."""
else:
    def value_record(cls):
        """A `frozen` record whose immutability is left to the type checker (which sees
        it frozen) rather than checked on every assignment: its __init__ stores each
        field as a plain attribute, the cheapest object Python builds. For the small
        values made once per word on the hot path (the binder's Flag and Operand)."""
        return _frozen(cls, enforce=False)


def is_record(cls: object) -> bool:
    """Whether cls is a class made by `frozen`."""
    return isinstance(cls, type) and "__record_fields__" in cls.__dict__


def is_frozen_record(value: object) -> bool:
    """Whether value is an instance of a `frozen` or `value_record` class: its fields are
    never set once it is made (checked at run time, or by the type checker); what they
    hold may still be mutable."""
    return type(value).__dict__.get("__record_fixed__") is True


def record_fields(cls: type) -> tuple[tuple[str, str], ...]:
    """(name, annotation text) of each field of a `frozen` record class, in order."""
    ann: dict[str, Any] = cls.__dict__.get("__annotations__", {})
    return tuple((n, str(ann[n])) for n in cls.__record_fields__)  # type: ignore[attr-defined]


def as_plain(value: Any) -> Any:
    """A record as plain data for `json.dumps`: each record a dict of its fields, each
    tuple, list or set a list, recursively (`attrs.asdict` with recurse)."""
    fields = getattr(type(value), "__record_fields__", None)
    if fields is not None:
        return {n: as_plain(getattr(value, n)) for n in fields}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [as_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: as_plain(v) for k, v in value.items()}
    return value


def replace(obj: _T, **changes: Any) -> _T:
    """A copy of the frozen record obj with the given fields changed (attrs.evolve for
    records made by `frozen`): through the class's __init__, so its conversions and
    checks apply to the new values too (one call, rather than a slot lookup per field)."""
    cls = type(obj)
    names: tuple[str, ...] = cls.__record_fields__  # type: ignore[attr-defined]
    unknown = set(changes).difference(names)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    if "__record_fields__" in cls.__dict__:
        # a record class's __init__ (its own, or the one `frozen` made, which sets each
        # slot and calls __post_init__ as the loop below does) takes the fields in order
        return cls(*[changes[n] if n in changes else getattr(obj, n) for n in names])
    # a plain subclass of a record class: its __init__ may take anything
    new: Any = object.__new__(cls)
    for n in names:
        _slot(cls, n).__set__(new, changes[n] if n in changes else getattr(obj, n))
    if getattr(cls, "__post_init__", None) is not None:
        new.__post_init__()
    made: _T = new
    return made
