"""A constant command (`head -n 2`, `sort`) binds its words once and hands the binding
to its later runs, and a pipeline stage that is such a command runs without the general
dispatch (simple_command.prepared): every script here gives what binding each run
gives, and a name that comes to mean something else is looked up again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from harness import events_run

from tysh import Kernel
from tysh.kernel.base.argv import classify
from tysh.kernel.base.record import Record, is_frozen_record, mutable, value_record
from tysh.kernel.bind import fast
from tysh.kernel.bind.fast import bind_and_convert, reusable
from tysh.kernel.run import simple_command
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import tool

SCRIPTS = [
    "for i in 1 2 3; do cat in.txt | sort | uniq | tr a-z A-Z | head -n 2; done",
    "for i in 1 2 3; do sort -r in.txt; head -n 1 in.txt; wc -l in.txt; done",
    "for i in 1 2; do sort in.txt | uniq -c | sort -rn | head -n 1; echo \"$? $_\"; done",
    "for i in 1 2; do cat in.txt | head -n 2; echo \"${PIPESTATUS[*]} $_\"; done",
    # words of quoted and plain pieces; filter stages
    "for i in 1 2 3; do cat in.txt | cut -d'p' -f1 | sort -r | uniq -c | cat; echo $_; done",
    "for i in 1 2; do echo 'a b' | cut -d' ' -f'2' | tr a\\ b 'X'Y; done",
    "for i in 1 2; do echo 'a b' | cut -d\" \" -f\"\"2 | tr \"\" \"\" | cat; echo \"$_\"; done",
    # a name that comes to mean a function, or is turned off, between runs
    "for i in 1 2 3; do cat in.txt | head -n 1; cat() { echo fn; }; done",
    "for i in 1 2 3; do printf 'b\\na\\n' | sort; sort() { command sort -r; echo mine; }; done",
    "for i in 1 2; do sort in.txt | head -n 1; enable -n sort 2>/dev/null; done",
    # failures: a binding refused, help, --json, a missing file
    "for i in 1 2; do head -n x in.txt; echo $?; head --bogus; echo $?; done",
    "for i in 1 2; do sort --help | head -n 1; done",
    "for i in 1 2; do wc -l --json in.txt; cat nosuch; echo $?; done",
    "for i in 1 2; do head -n 1 in.txt | sort --json; done",
    # traced and trapped runs take the general path and say so
    "set -x; for i in 1 2; do sort in.txt | head -n 1; done",
    "trap 'echo debug' DEBUG; for i in 1 2; do sort in.txt | head -n 1; done",
]


def _plain(tmp_path: Path, script: str) -> tuple[Any, ...]:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute(script, timeout=20)
    return r.code, r.out, r.err, r.data, k.execute('echo "$? $_ ${PIPESTATUS[*]}"').out


@pytest.mark.parametrize("script", SCRIPTS)
def test_constant_commands_run_as_when_bound_each_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    (tmp_path / "in.txt").write_text("pear\napple\nfig\napple\nkiwi\n")
    kept = _plain(tmp_path, script), events_run(tmp_path, script)
    monkeypatch.setattr(simple_command, "REUSE_BINDINGS", False)
    assert kept == (_plain(tmp_path, script), events_run(tmp_path, script))


@value_record
class _Words(Record):
    words: tuple[str, ...] = param(default=(), positional=True, help="words")


def _say(what: str) -> Any:
    @tool("say", args=_Words, description="says its words", kind="read")
    def say(args: _Words, ctx: Context) -> int:
        ctx.stdout.write(f"{what} {' '.join(args.words)}\n".encode())
        return 0

    return say


def test_a_tool_registered_again_runs_instead_of_the_kept_binding(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.register(_say("one"))
    for src in ("say a b", "say a b | head -n 1"):
        assert k.execute(src).out == k.execute(src).out == "one a b\n"
    k.register(_say("two"))
    for src in ("say a b", "say a b | head -n 1"):
        assert k.execute(src).out == "two a b\n"


def test_a_binding_is_kept_only_when_no_run_can_change_it() -> None:
    k = Kernel()
    head = k.interp.registry.tool("head")
    assert head is not None
    targs, _, inst = bind_and_convert(head, classify(["-n", "2", "f"]))
    assert reusable(targs, inst)

    @value_record
    class Listed(Record):
        names: list[str] = param(factory=list, help="names", aliases=("-n",))

    @mutable
    class Settable(Record):
        n: int = param(default=0, help="n", aliases=("-n",))

    @attrs.frozen
    class ByAttrs:
        n: int = param(default=0, help="n", aliases=("-n",))

    for cls in (Listed, Settable, ByAttrs):
        @tool("t", args=cls, description="t")
        def t(args: Any, ctx: Context) -> int:
            return 0

        targs, _, inst = bind_and_convert(t, classify(["-n", "1"]))
        assert not reusable(targs, inst), cls
    assert is_frozen_record(inst) is False
    # a raw leaf's instance is its ToolArgs, whose lists a tool may change
    env = k.interp.registry.tool("env")
    assert env is not None
    targs, _, inst = bind_and_convert(env, classify(["-i", "true"]))
    assert not reusable(targs, inst)


@pytest.mark.parametrize("reuse", [True, False])
def test_a_constant_command_is_bound_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reuse: bool) -> None:
    calls: list[str] = []

    def counting(t: Any, args: Any) -> Any:
        calls.append(t.name)
        return bind_and_convert(t, args)

    monkeypatch.setattr(fast, "bind_and_convert", counting)
    monkeypatch.setattr(simple_command, "REUSE_BINDINGS", reuse)
    (tmp_path / "in.txt").write_text("b\na\n")
    k = Kernel(cwd=str(tmp_path), validate=False)  # (validation binds the words too)
    r = k.execute("for i in 1 2 3; do sort in.txt | head -n 1; wc -l in.txt; done")
    assert r.out == "a\n2 in.txt\n" * 3
    assert sorted(calls) == (["head", "sort", "wc"] if reuse else
                             ["head"] * 3 + ["sort"] * 3 + ["wc"] * 3)
