"""The @tool decorator and tool groups: schema flags, the subcommand tree with aliases and
leaves, and owned output marked on every node."""

from __future__ import annotations

from typing import Any

from fixtures_schemas import KV

from tysh.kernel.tools.tool import Tool, tool, tool_group


def _noop(args: Any, ctx: Any) -> int:
    return 0


def test_tool_group_builds_the_tree_with_aliases_and_leaves() -> None:
    s = KV.schema
    assert [c.name for c in s.subcommands] == ["store"]
    assert s.subcommands[0].aliases == ("st",)
    assert [(c.name, c.aliases) for c in s.subcommands[0].subcommands] == [
        ("get", ("g",)), ("put", ("p",)), ("list", ("ls",))]
    assert KV.leaf(["store", "put"]).schema.operations == ("fs.overwrite",)
    assert s.operations == ("fs.overwrite",)  # the root lists every effect below it


def test_tool_group_is_usable_as_a_tool_and_rebuilds_after_changes() -> None:
    g = tool_group("g", description="d")
    assert isinstance(g.tool, Tool) and g.schema.subcommands == ()

    @g.command("run")
    def run(args: Any, ctx: Any) -> int:
        return 0

    assert [c.name for c in g.schema.subcommands] == ["run"]
    assert g.leaf(["run"]).func is run and g.children["run"].args_class is None


def test_owned_tool_group_marks_every_node() -> None:
    g = tool_group("o", owns_output=True)
    g.command("x")(_noop)
    assert g.schema.owns_output and g.schema.subcommands[0].owns_output
    assert any(p.name == "json" for p in g.schema.subcommands[0].params)


def test_tool_decorator_applies_schema_flags() -> None:
    t = tool("v", verbatim=True, glob_passthrough=True, typed_substitution=True,
             operations=["proc.exec"], owns_output=True)(_noop)
    s = t.schema
    assert s.arg_binding.value == "verbatim" and s.glob_passthrough and s.typed_substitution
    assert s.operations == ("proc.exec",) and s.owns_output
