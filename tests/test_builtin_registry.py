"""The lazy builtin table must agree with the family modules, or a builtin would be
silently missing (or shadowed by an external command) on a fresh install."""

from __future__ import annotations

from tysh import builtins


def test_every_listed_builtin_name_resolves_to_a_tool() -> None:
    missing = [n for n in builtins.MODULE_OF if builtins.get_builtin(n) is None]
    assert missing == []


def test_every_family_tool_is_listed_under_its_family() -> None:
    for fam, names in builtins.FAMILIES.items():
        assert sorted(t.name for t in builtins.family_tools(fam)) == sorted(names), fam


def test_single_tool_loading_gives_the_same_tool_as_the_family() -> None:
    for name in ("wc", "sort", "head"):
        assert builtins.get_builtin(name) is builtins._family("text")[name]
