"""Kernel.plan: what a script would do, read from the source alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from conformance.corpus import cases

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.embed.plan import PlannedCommand, StatementPlan
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.memory import MemoryFileSystem
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import tool

CALLS: list[str] = []


@attrs.frozen
class SpyArgs:
    words: tuple[str, ...] = param(default=(), positional=True, help="anything")


@tool("spy", args=SpyArgs, description="records each call", operations=["net.fetch"])
def spy(args: SpyArgs, ctx: Context) -> int:
    CALLS.append(" ".join(args.words))
    return 0


def _kernel() -> Kernel:
    k = Kernel.isolated(cwd="/w")
    k.register(spy)
    return k


def _plan(src: str) -> list[StatementPlan]:
    return _kernel().plan(src)


def _cmds(src: str) -> list[PlannedCommand]:
    return [c for st in _plan(src) for c in st.commands]


def test_plan_runs_nothing_and_touches_no_file(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    k = Kernel(cwd=str(tmp_path))
    assert isinstance(k.fs, ConfinedFileSystem)
    k.register(spy)
    CALLS.clear()
    plans = k.plan("rm -rf x; echo $(touch y) > z; spy now; f(){ spy later; }; f")
    assert len(plans) == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x"]
    assert CALLS == []


def test_each_statement_lists_its_commands_with_literal_args() -> None:
    plans = _plan("rm -rf x; echo $(touch y) > z")
    assert [(c.name, c.args, c.kind) for c in plans[0].commands] == [
        ("rm", ("-rf", "x"), "builtin")]
    assert [(c.name, c.args, c.in_substitution) for c in plans[1].commands] == [
        ("echo", (None,), False), ("touch", ("y",), True)]


def test_declared_operations_come_from_the_tool_schema() -> None:
    ops = {c.name: c.operations for c in _cmds("rm -f a; spy x; echo hi")}
    assert "fs.remove" in ops["rm"]
    assert ops["spy"] == ("net.fetch",)
    assert ops["echo"] == ()


def test_command_kinds() -> None:
    kinds = {c.name: c.kind for c in _cmds("f(){ :; }; f; spy; echo; nosuch; x=1")}
    assert kinds == {":": "builtin", "f": "function", "spy": "tool", "echo": "builtin",
                     "nosuch": None, None: "assignment"}


def test_computed_arguments_and_globs_are_none() -> None:
    (cmd,) = _cmds('cat "$f" *.txt ~/a "lit" x{1,2}')
    assert cmd.args == (None, None, None, "lit", None)


def test_computed_command_name_is_none() -> None:
    (cmd,) = _cmds('"$tool" arg')
    assert (cmd.name, cmd.kind, cmd.args) == (None, None, ("arg",))


def test_redirect_targets_and_heredocs() -> None:
    (st,) = _plan('sort < in.txt > "$out" 2>> err.log <<EOF\nx\nEOF')
    assert [(r.op, r.fd, r.target) for r in st.redirects] == [
        ("<", None, "in.txt"), (">", None, None), (">>", 2, "err.log"), ("<<", None, None)]


def test_function_body_commands_are_marked_with_the_function() -> None:
    (st,) = _plan("f(){ cat a >> log; }")
    assert st.commands[0].in_function == "f"
    assert st.redirects[0].in_function == "f"
    assert st.writes == ("f()",)


@pytest.mark.parametrize(
    ("src", "reads", "writes"),
    [
        ("x=$y", ("y",), ("x",)),
        ("echo ${a:-$b} ${#c} ${d[1]}", ("a", "b", "c", "d"), ()),
        ("for i in 1 2; do :; done", (), ("i",)),
        ("read -r a b", (), ("a", "b")),
        ("read -p prompt -a arr", (), ("arr",)),
        ("printf -v out '%s' x", (), ("out",)),
        ("declare -A m=([k]=v); export P=1 Q", (), ("P", "Q", "m")),
        ("unset gone", (), ("gone",)),
        ("mapfile -t lines < f", (), ("lines",)),
        ("(( n += k ))", ("k", "n"), ("n",)),
        ("echo $(( i++ ))", ("i",), ("i",)),
        (": ${D:=3}", ("D",), ("D",)),
        ("A=1 spy", (), ("A",)),
    ],
)
def test_variables_read_and_written(src: str, reads: tuple[str, ...],
                                    writes: tuple[str, ...]) -> None:
    got_reads = tuple(sorted({r for st in _plan(src) for r in st.reads}))
    got_writes = tuple(sorted({w for st in _plan(src) for w in st.writes}))
    assert (got_reads, got_writes) == (reads, writes)


def test_positions_and_background() -> None:
    plans = _plan("echo a\n  sleep 1 &")
    assert [(p.line, p.col, p.background) for p in plans] == [(1, 1, False), (2, 3, True)]


def test_plan_is_json_able() -> None:
    plans = _plan("rm -rf x; echo $(touch y) > z")
    data = json.loads(json.dumps([p.to_json() for p in plans]))
    assert data[1]["commands"][1] == {
        "name": "touch", "args": ["y"], "kind": "builtin", "operations": ["fs.create"],
        "line": 1, "col": 18, "in_function": None, "in_substitution": True}
    assert data[1]["redirects"][0]["target"] == "z"


def test_plan_of_a_syntax_error_raises_the_syntax_error() -> None:
    with pytest.raises(TyshSyntaxError):
        _plan("if true; then")


def test_functions_from_earlier_executes_are_known() -> None:
    k = _kernel()
    k.execute("helper(){ :; }")
    assert k.plan("helper")[0].commands[0].kind == "function"


def test_deep_nesting_plans_and_validates_without_recursion() -> None:
    src = "{ " * 3000 + "echo $(" * 60 + "spy" + ")" * 60 + "; " + "}; " * 3000
    k = _kernel()
    (st,) = k.plan(src)
    assert len(st.commands) == 61
    assert k.validate(src) == []


@pytest.mark.parametrize("corpus", ["lang", "tools"])
def test_plan_over_the_corpus_runs_nothing(corpus: str, monkeypatch: Any) -> None:
    """Every corpus script that parses plans without raising, and no tool, function
    or external command is invoked (the interpreter's entry points are booby-trapped)."""
    import tysh.kernel.run.interpreter as interp_mod
    import tysh.kernel.run.simple_command as simple_mod

    def boom(*a: Any, **kw: Any) -> Any:
        raise AssertionError("plan ran something")

    monkeypatch.setattr(interp_mod.Interpreter, "run_script", boom)
    monkeypatch.setattr(simple_mod, "invoke", boom)
    monkeypatch.setattr(simple_mod, "run_external_cmd", boom)
    planned = 0
    for case in cases(corpus):
        fs = MemoryFileSystem()
        fs.mkdir("/w")
        k = Kernel(cwd="/w", env={"PATH": "/usr/bin:/bin"}, fs=fs,
                   allow_external=corpus == "lang")
        try:
            plans = k.plan(case.script)
        except TyshSyntaxError:
            continue
        planned += 1
        json.dumps([p.to_json() for p in plans])
        assert k.fs.listdir("/") == ["w"] and k.fs.listdir("/w") == []
    assert planned > len(cases(corpus)) * 9 // 10
