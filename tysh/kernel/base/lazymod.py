"""A module imported when first used rather than when the module naming it loads.

`tysh -c 'echo hi'` runs neither arithmetic nor a pattern nor a typed tool's conversion,
and every module it loads anyway is start-up time. `LazyModule` stands in for such a
module in the global that names it; the first attribute read imports the module and puts
it in that global in its place, so later reads cost what any module global costs."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class LazyModule:
    __slots__ = ("_namespace", "_name", "_module")

    def __init__(self, namespace: dict[str, Any], name: str, module: str) -> None:
        self._namespace = namespace
        self._name = name
        self._module = module

    def __getattr__(self, attr: str) -> Any:
        module = __import__(self._module, fromlist=["__name__"])
        self._namespace[self._name] = module
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<module {self._module!r}, not yet imported>"
