"""A bounded memo for the modules every start loads, in place of `functools.lru_cache`:
importing functools loads `collections` with it, a twentieth of a `tysh -c 'echo hi'`.

The oldest entry leaves when the memo is full (insertion order, not recency): these memos
hold parsed scripts and derived tables whose working set is far below their bound, so the
order of eviction only matters for a workload that would thrash an LRU cache as well."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])


def bounded_memo(maxsize: int) -> Callable[[F], F]:
    """Remember up to `maxsize` results of a function of hashable positional arguments.
    An exception is not remembered. The wrapper's `cache_clear()` forgets them all."""

    def wrap(fn: Any) -> Any:
        table: dict[tuple[Any, ...], Any] = {}
        get = table.get
        missing = table  # (a value no call returns)

        def memoized(*args: Any) -> Any:
            value = get(args, missing)
            if value is missing:
                value = fn(*args)
                if len(table) >= maxsize:
                    try:
                        del table[next(iter(table))]
                    except (KeyError, RuntimeError, StopIteration):
                        pass  # another thread changed the table: it only stays larger
                table[args] = value
            return value

        memoized.cache_clear = table.clear  # type: ignore[attr-defined]
        memoized.__wrapped__ = fn  # type: ignore[attr-defined]
        memoized.__doc__ = fn.__doc__
        memoized.__name__ = fn.__name__
        memoized.__qualname__ = fn.__qualname__
        return memoized

    return wrap
