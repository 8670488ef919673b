"""A module imported when first used rather than when the module naming it loads.

`tysh -c 'echo hi'` runs neither arithmetic nor a pattern nor a typed tool's conversion,
and every module it loads anyway is start-up time. `LazyModule` stands in for such a
module in the global that names it; the first attribute read imports the module and puts
it in that global in its place, so later reads cost what any module global costs."""

from __future__ import annotations

import _thread

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Held while a module tysh loads on first use is imported. The stages of a pipeline run
# on threads, and each may load its tool's module (and the standard library's modules
# that module imports) at the same moment: two threads importing overlapping modules in
# different orders can each wait on a module the other is importing, and Python then
# hands one of them a partly initialised module ("has no attribute"). Loading one at a
# time rules that out. A thread waits for the lock for a bounded time only, then imports
# as Python would without it, so a thread already inside an import cannot hang on it.
_loading = _thread.RLock()
_WAIT = 10.0


def load(module: str) -> Any:
    """Import `module` (a dotted name) under the loading lock and return it."""
    held = _loading.acquire(True, _WAIT)
    try:
        return __import__(module, fromlist=["__name__"])
    finally:
        if held:
            _loading.release()


class LazyModule:
    __slots__ = ("_namespace", "_name", "_module")

    def __init__(self, namespace: dict[str, Any], name: str, module: str) -> None:
        self._namespace = namespace
        self._name = name
        self._module = module

    def __getattr__(self, attr: str) -> Any:
        module = load(self._module)
        self._namespace[self._name] = module
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<module {self._module!r}, not yet imported>"


if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from contextlib import AbstractContextManager
    from typing import ParamSpec, TypeVar

    _P = ParamSpec("_P")
    _T = TypeVar("_T")


def contextmanager(fn: Callable[_P, Iterator[_T]]) -> Callable[_P, AbstractContextManager[_T]]:
    """`contextlib.contextmanager`, with contextlib imported at the first call rather than
    where the function is defined: a module whose rarely used method is a generator
    context manager (`fs.replace`) no longer loads contextlib with it at start-up."""
    made: list[Callable[_P, AbstractContextManager[_T]]] = []

    def call(*args: _P.args, **kwargs: _P.kwargs) -> AbstractContextManager[_T]:
        if not made:
            import contextlib

            made.append(contextlib.contextmanager(fn))
        return made[0](*args, **kwargs)

    call.__name__ = fn.__name__
    call.__qualname__ = fn.__qualname__
    call.__doc__ = fn.__doc__
    call.__module__ = fn.__module__
    return call
