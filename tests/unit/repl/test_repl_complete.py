"""Completion from the schemas (unit level), and the two-level `kv` tool the pty tests load
through `TYSH_PLUGINS=test_repl_complete:KV` (so this module imports nothing from pytest)."""

from __future__ import annotations

from typing import Any

import attrs

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import tool_group
from tysh.repl.complete import Engine, candidates, context_at, iter_usage


@attrs.frozen
class GetArgs:
    key: str = param(positional=True, help="the key to read")
    format: str = param("text", aliases=["-f"], choices=["text", "json", "yaml"],
                        help="how to print the value")
    verbose: bool = param(False, aliases=["-v"], help="say more")


@attrs.frozen
class PutArgs:
    key: str = param(positional=True, help="the key")
    value: str = param(positional=True, help="the value")


kv = tool_group("kv", description="a key-value store")
store = kv.group("store", description="the store itself", aliases=["st"])


@store.command("get", args=GetArgs, description="read a key", aliases=["g"])
def _get(args: GetArgs, ctx: Context) -> int:
    ctx.write(f"value of {args.key}\n")
    return 0


@store.command("put", args=PutArgs, description="write a key")
def _put(args: PutArgs, ctx: Context) -> int:
    return 0


KV = kv.tool


def _engine(tmp_path: Any) -> Engine:
    (tmp_path / "alpha.txt").write_text("a\n")
    (tmp_path / "beta.txt").write_text("b\n")
    (tmp_path / "sub dir").mkdir()
    k = Kernel(cwd=str(tmp_path), env={"HOME": str(tmp_path), "GREETING": "hi"}, tools=[KV])
    return Engine(k)


def texts(engine: Engine, before: str) -> list[str]:
    return [c.text for c in candidates(engine, before)]


def test_command_prefix_completes_builtin_names(tmp_path: Any) -> None:
    assert texts(_engine(tmp_path), "gre") == ["grep"]


def test_command_after_pipe_and_assignment_completes_names(tmp_path: Any) -> None:
    e = _engine(tmp_path)
    assert "head" in texts(e, "ls | he")
    assert texts(e, "X=1 gre") == ["grep"]


def test_long_flag_prefix_completes_with_description(tmp_path: Any) -> None:
    got = list(candidates(_engine(tmp_path), "grep --ign"))
    assert [c.text for c in got] == ["--ignore-case"]
    assert got[0].meta  # the param's description is shown as meta


def test_subcommand_and_its_alias_complete(tmp_path: Any) -> None:
    e = _engine(tmp_path)
    assert texts(e, "kv ") == ["store", "st"]
    assert texts(e, "kv store ") == ["get", "g", "put"]
    assert texts(e, "kv st p") == ["put"]


def test_flags_are_those_of_the_selected_leaf(tmp_path: Any) -> None:
    e = _engine(tmp_path)
    got = texts(e, "kv store get --")
    assert "--format" in got and "--verbose" in got
    assert texts(e, "kv store put --f") == []


def test_choice_values_complete_after_their_option(tmp_path: Any) -> None:
    e = _engine(tmp_path)
    assert texts(e, "kv st g -f ") == ["text", "json", "yaml"]
    assert texts(e, "kv st g --format j") == ["json"]
    assert texts(e, "kv st g --format=y") == ["--format=yaml"]


def test_paths_complete_through_the_kernel_filesystem(tmp_path: Any) -> None:
    e = _engine(tmp_path)
    assert texts(e, "cat al") == ["alpha.txt"]
    assert texts(e, "cat ") == ["alpha.txt", "beta.txt", "sub\\ dir/"]
    assert texts(e, "cat ./s") == ["./sub\\ dir/"]


def test_variables_complete_with_dollar_and_brace(tmp_path: Any) -> None:
    e = _engine(tmp_path)
    assert texts(e, "echo $GRE") == ["$GREETING"]
    assert texts(e, 'echo "${GRE') == ['"${GREETING}']


def test_aliases_and_functions_complete_as_commands(tmp_path: Any) -> None:
    e = _engine(tmp_path)
    e.kernel.execute("alias gg='grep -n'; greet() { echo hi; }")
    assert texts(e, "gg") == ["gg"]
    assert texts(e, "gree") == ["greet"]
    assert texts(e, "gg --ign") == ["--ignore-case"]  # an alias completes like its command


def test_help_completes_tool_names(tmp_path: Any) -> None:
    assert texts(_engine(tmp_path), "help gre") == ["grep"]


def test_context_finds_command_and_its_words() -> None:
    ctx = context_at("a | grep -e x --ign")
    assert (ctx.command, ctx.args, ctx.word) == ("grep", ("-e", "x"), "--ign")
    assert context_at("if true; then gr").command is None


def test_usage_hint_names_the_leaf_and_pending_option(tmp_path: Any) -> None:
    e = _engine(tmp_path)
    assert iter_usage(e.kernel, "kv st g ").startswith("kv store get [OPTIONS] KEY")
    assert "--format" in iter_usage(e.kernel, "kv st g -f ")
    assert iter_usage(e.kernel, "") == ""
