"""help, tools and type — called through the binder against a fake session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from harness import invoke

from tysh.builtins import get_builtin
from tysh.builtins._common.names import describe
from tysh.builtins.meta import TOOLS
from tysh.kernel.base.argv import classify
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import ExecResult, OutputData, apply_output_format
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, ToolGroup


@attrs.frozen
class GetArgs:
    key: str = param(positional=True)


def _kv() -> Tool:
    g = ToolGroup("kv", description="a key-value store")
    store = g.group("store", description="the store", aliases=["st"])

    @store.command("get", args=GetArgs, description="read a key", aliases=["g"])
    def get(args: GetArgs, ctx: Context) -> int:
        return 0

    return g.tool


class FakeShell:
    def __init__(self, cwd: str, tools: list[Tool]) -> None:
        self._cwd = cwd
        self.tools = tools
        self.table = {
            "echo": ("builtin", ""),
            "if": ("keyword", ""),
            "ll": ("alias", "ls -l"),
            "greet": ("function", "greet () \n{ \n    echo hi\n}"),
            "ls": ("file", "/usr/bin/ls"),
            "kv": ("tool", ""),
        }

    @property
    def cwd(self) -> str:
        return self._cwd

    def all_tools(self) -> list[Tool]:
        return self.tools

    def resolve(self, name: str) -> tuple[str, str]:
        return self.table.get(name, ("", ""))

    def resolve_all(self, name: str, *, functions: bool = True, path: str | None = None,
                    every: bool = False) -> list[tuple[str, str]]:
        got = self.table.get(name)
        if got is None or (got[0] == "function" and not functions):
            return []
        return [got]


@attrs.frozen
class Result:
    code: int
    out: str
    err: str
    output: OutputData | None
    json: bool

    def final_text(self) -> str:
        """What the kernel would print: the tool's writes, else its output rendered."""
        res = ExecResult(code=self.code, out=self.out, err=self.err, output=self.output)
        return apply_output_format(res, self.json).text_out()


def run(name: str, argv: list[str], shell: FakeShell) -> Result:
    tool = get_builtin(name)
    assert tool is not None
    r = invoke(tool, name, classify(argv), shell)
    return Result(r.code, r.out.decode(), r.err.decode(), r.output, r.json)


@pytest.fixture
def sh(tmp_path: Path) -> FakeShell:
    tools: list[Any] = [get_builtin(n) for n in ("echo", "printf", "test", "help", "tools")]
    return FakeShell(str(tmp_path), [*tools, _kv()])


def test_meta_tools_are_found_by_the_lazy_registry() -> None:
    for t in TOOLS:
        assert get_builtin(t.name) is t


# -- type ------------------------------------------------------------------------------------

def test_type_uses_bash_wording_for_each_kind(sh: FakeShell) -> None:
    r = run("type", ["echo", "if", "ll", "ls", "kv"], sh)
    assert r.code == 0
    assert r.out == (
        "echo is a shell builtin\n"
        "if is a shell keyword\n"
        "ll is aliased to `ls -l'\n"
        "ls is /usr/bin/ls\n"
        "kv is a tysh tool\n"
    )


def test_type_shows_a_function_with_its_body(sh: FakeShell) -> None:
    assert run("type", ["greet"], sh).out == "greet is a function\ngreet () \n{ \n    echo hi\n}\n"


def test_type_not_found_is_status_1_and_continues(sh: FakeShell) -> None:
    r = run("type", ["nosuch", "echo"], sh)
    assert r.code == 1
    assert r.err == "tysh: type: nosuch: not found\n"
    assert r.out == "echo is a shell builtin\n"


def test_type_t_prints_only_the_kind(sh: FakeShell) -> None:
    r = run("type", ["-t", "echo", "greet", "ls", "ll", "nosuch"], sh)
    assert (r.code, r.out, r.err) == (1, "builtin\nfunction\nfile\nalias\n", "")


def test_type_p_prints_paths_of_files_only(sh: FakeShell) -> None:
    r = run("type", ["-p", "ls", "echo"], sh)
    assert (r.code, r.out) == (0, "/usr/bin/ls\n")
    assert run("type", ["-P", "echo"], sh).code == 1


def test_describe_unknown_kind_reads_naturally() -> None:
    assert describe("x", "widget", "") == "x is a widget"


# -- tools -----------------------------------------------------------------------------------

def test_tools_lists_names_and_descriptions_as_a_table(sh: FakeShell) -> None:
    r = run("tools", [], sh)
    assert r.output is not None and r.output.headers == ("name", "description")
    text = r.output.to_text()
    names = [line.split("\t")[0] for line in text.splitlines()]
    assert names == sorted(names) and "echo" in names and "kv" in names
    assert "echo\tprint the arguments" in text


def test_tools_json_prints_every_schema_wire_form(sh: FakeShell) -> None:
    r = run("tools", ["--json"], sh)
    data = json.loads(r.final_text())
    by_name = {d["name"]: d for d in data}
    assert set(by_name) == {"echo", "printf", "test", "help", "tools", "kv"}
    assert by_name["echo"]["arg_binding"] == "verbatim"
    assert by_name["test"]["raw_argv"] is True
    assert by_name["kv"]["subcommands"][0]["name"] == "store"


def test_tools_filters_by_name_and_reports_unknown(sh: FakeShell) -> None:
    r = run("tools", ["echo", "nope"], sh)
    assert r.code == 1 and "tools: nope: no such tool" in r.err
    assert r.output is not None and r.output.to_text() == "echo\t" + (
        get_builtin("echo").schema.description + "\n"  # type: ignore[union-attr]
    )


# -- help ------------------------------------------------------------------------------------

def test_help_without_arguments_lists_every_tool(sh: FakeShell) -> None:
    r = run("help", [], sh)
    assert r.code == 0
    for name in ("echo", "printf", "test", "kv"):
        assert f"\n  {name} " in r.out
    assert "help NAME" in r.out


def test_help_of_a_tool_mentions_its_description(sh: FakeShell) -> None:
    r = run("help", ["printf"], sh)
    assert r.code == 0 and "format and print arguments" in r.out


def test_help_of_a_subcommand_through_aliases(sh: FakeShell) -> None:
    r = run("help", ["kv", "st", "g"], sh)
    assert r.code == 0 and "read a key" in r.out


def test_help_unknown_topic_is_status_1(sh: FakeShell) -> None:
    r = run("help", ["nosuch"], sh)
    assert r.code == 1 and "no help topics match `nosuch'" in r.err


def test_help_unknown_subcommand_is_status_1(sh: FakeShell) -> None:
    r = run("help", ["kv", "store", "zap"], sh)
    assert r.code == 1 and "kv store: no subcommand `zap'" in r.err


def test_type_json_gives_one_record_per_name(sh: FakeShell) -> None:
    r = run("type", ["--json", "ls", "nosuch"], sh)
    assert r.code == 1
    assert json.loads(r.final_text()) == [
        {"name": "ls", "kind": "file", "detail": "/usr/bin/ls"},
        {"name": "nosuch", "kind": None, "detail": None},
    ]


def test_help_json_lists_tools_or_gives_a_schema(sh: FakeShell) -> None:
    listing = json.loads(run("help", ["--json"], sh).final_text())
    assert {"name": "echo", "description": get_builtin("echo").schema.description} in listing  # type: ignore[union-attr]
    one = json.loads(run("help", ["kv", "store", "--json"], sh).final_text())
    assert one["name"] == "store"
