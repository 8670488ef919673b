"""Value semantics for frozen attrs classes, written once instead of generated per class.

attrs compiles `__eq__`, `__hash__` and `__repr__` for every class it decorates, at import:
most of the cost of defining a class, and tysh defines a hundred of them on the way to
its first prompt (syntax nodes, schemas, every builtin's args class).
A class declared `@attrs.frozen(repr=False, eq=False)` over `Record` gets the same three
methods with attrs' meaning from here: equal when of the same class with equal fields,
hashed by its fields, shown as `Name(field=value, …)`. Fields declared `eq=False`,
`hash=False` or `repr=False` are left out as attrs would leave them out."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

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
    key = _getter([a.name for a in cls.__attrs_attrs__ if a.eq])  # type: ignore[attr-defined]
    _EQ[cls] = key
    return key


def _hash_key(cls: type) -> Any:
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
        fields = ", ".join(f"{a.name}={getattr(self, a.name)!r}"
                           for a in self.__attrs_attrs__  # type: ignore[attr-defined]
                           if a.repr)
        return f"{self.__class__.__qualname__.rsplit('>.', 1)[-1]}({fields})"


class MutableRecord(Record):
    """Record for a mutable attrs class: equal by fields but, as attrs makes it, unhashable."""

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]
