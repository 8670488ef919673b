"""A set that holds its members weakly, made on `_weakref` alone.

`weakref.WeakSet` is the obvious tool, but the `weakref` module is milliseconds of every
start, and the kernel keeps two such sets from its first moment (the sessions a memory
census walks, the pipes abandoned by their readers). These need only add, membership and
iteration over the members still alive."""

from __future__ import annotations

from _weakref import ref

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any


class WeakMembers:
    """Objects held weakly: a member leaves the set when it is collected."""

    __slots__ = ("_refs",)

    def __init__(self) -> None:
        self._refs: dict[int, Any] = {}

    def add(self, obj: object) -> None:
        refs = self._refs
        key = id(obj)
        old = refs.get(key)
        if old is not None and old() is obj:
            return

        def gone(r: Any, key: int = key) -> None:
            if refs.get(key) is r:  # not a newer member that took the same id
                del refs[key]

        refs[key] = ref(obj, gone)

    def discard(self, obj: object) -> None:
        r = self._refs.get(id(obj))
        if r is not None and r() is obj:
            del self._refs[id(obj)]

    def __contains__(self, obj: object) -> bool:
        r = self._refs.get(id(obj))
        return r is not None and r() is obj

    def __iter__(self) -> Iterator[Any]:
        for r in list(self._refs.values()):
            obj = r()
            if obj is not None:
                yield obj

    def __len__(self) -> int:
        return sum(1 for r in list(self._refs.values()) if r() is not None)
