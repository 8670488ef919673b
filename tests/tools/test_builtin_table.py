"""The builtin table must agree with the modules, or a builtin would be silently missing
(or shadowed by an external command) on a fresh install."""

from __future__ import annotations

import importlib
import pkgutil

import tysh.builtins
from tysh import builtins
from tysh.kernel.tools.tool import Tool


def _defined_tools() -> dict[str, str]:
    """Every module-level Tool defined under tysh.builtins: name -> module (relative)."""
    found: dict[str, str] = {}
    for info in pkgutil.walk_packages(tysh.builtins.__path__, "tysh.builtins."):
        mod = importlib.import_module(info.name)
        for v in vars(mod).values():
            if isinstance(v, Tool) and v.func is not None or isinstance(v, Tool):
                if getattr(_func_module(v), "__name__", None) == info.name:
                    found[v.name] = info.name.removeprefix("tysh.builtins.")
    return found


def _func_module(t: Tool) -> object:
    node = t
    while node.func is None and node.children:
        node = next(iter(node.children.values()))
    return importlib.import_module(node.func.__module__) if node.func else None


def test_every_listed_builtin_name_resolves_to_a_tool() -> None:
    missing = [n for n in builtins.BUILTINS if builtins.get_builtin(n) is None]
    assert missing == []


def test_every_tool_a_builtin_module_defines_is_in_the_table_under_its_module() -> None:
    defined = _defined_tools()
    assert {n: m for n, m in defined.items() if builtins.BUILTINS.get(n) != m} == {}
    assert sorted(defined) == sorted(builtins.BUILTINS)


def test_loading_one_tool_gives_the_same_tool_as_all_builtins() -> None:
    every = {t.name: t for t in builtins.all_builtins()}
    for name in ("wc", "sort", "head"):
        assert builtins.get_builtin(name) is every[name]
