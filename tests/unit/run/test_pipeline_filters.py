"""A stage of a pipeline run in turn whose input is held in memory, a constant command
bound before, runs as its tool's filter (ToolFilter): the bytes in, the bytes out, no
Context. What the pipeline answers is what the tool run in full answers; a filter that
declines, or whose output would not be held, hands the stage to the tool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import events_run

from tysh.kernel.base.limits import Limits
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.run import pipeline
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, tool


@value_record
class _RevArgs(Record):
    grow: int = param(default=0, aliases=["-g"], help="bytes to add to the output")


def _rev_tool(calls: list[bytes], answer: str = "reversed") -> Tool:
    """`flip`: each line reversed. Its filter does the same, counting its calls; `answer`
    "decline" makes it decline."""

    def rev_filter(args: _RevArgs, data: bytes) -> bytes | None:
        calls.append(data)
        if answer == "decline":
            return None
        if answer == "raise":
            raise ValueError("a filter's fault")
        lines = data.split(b"\n")
        return b"\n".join(ln[::-1] for ln in lines) + b"x" * args.grow

    @tool("flip", args=_RevArgs, description="reverse each line", kind="read",
          filter=rev_filter)
    def flip(args: _RevArgs, ctx: Context) -> int:
        data = ctx.stdin.read()
        lines = data.split(b"\n")
        ctx.stdout.write(b"\n".join(ln[::-1] for ln in lines) + b"x" * args.grow)
        return 0

    return flip


@pytest.fixture
def no_host_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test process's own threads are not a host's (see test_pipeline_in_turn.py)."""
    monkeypatch.setattr(pipeline, "_host_threads", lambda: False)


def _kernel(tmp_path: Path, tool: Tool, limits: Limits | None = None) -> Kernel:
    """A kernel where `tool` is a builtin: only builtins run in turn (a registered
    tool of the embedder's could wait on anything)."""
    k = Kernel(cwd=str(tmp_path), limits=limits)
    k.interp.registry._builtins[tool.name] = tool
    return k


def test_a_held_stage_runs_as_its_filter_once_its_command_is_bound(
        tmp_path: Path, no_host_threads: None) -> None:
    calls: list[bytes] = []
    k = _kernel(tmp_path, _rev_tool(calls))
    src = "printf 'abc\\nde\\n' | flip | cat"
    first = k.execute(src)
    assert calls == []  # (the first run binds the command)
    again = k.execute(src)
    assert calls == [b"abc\nde\n"]
    assert (first.code, first.out, first.err) == (again.code, again.out, again.err) == (
        0, "cba\ned\n", "")
    assert k.execute(src + "; echo ${PIPESTATUS[@]}").out == "cba\ned\n0 0 0\n"


def test_the_first_and_the_last_stage_run_as_their_tools(
        tmp_path: Path, no_host_threads: None) -> None:
    calls: list[bytes] = []
    k = _kernel(tmp_path, _rev_tool(calls))
    for src in ("flip < /dev/null | cat", "echo abc | flip"):
        for _ in range(3):
            k.execute(src)
    assert calls == []


@pytest.mark.parametrize("answer", ["decline", "raise"])
def test_a_filter_that_declines_or_fails_hands_the_stage_to_its_tool(
        tmp_path: Path, no_host_threads: None, answer: str) -> None:
    calls: list[bytes] = []
    k = _kernel(tmp_path, _rev_tool(calls, answer))
    got = {(r.code, r.out, r.err) for r in (k.execute("echo abc | flip | cat")
                                            for _ in range(3))}
    assert got == {(0, "cba\n", "")} and len(calls) == 2


def test_output_the_pipeline_would_not_hold_is_written_by_the_tool(
        tmp_path: Path, no_host_threads: None) -> None:
    calls: list[bytes] = []
    k = _kernel(tmp_path, _rev_tool(calls))
    src = f"echo abc | flip -g {pipeline.HELD_BYTES} | wc -c"
    outs = {k.execute(src).out for _ in range(3)}
    assert outs == {f"{pipeline.HELD_BYTES + 4}\n"} and len(calls) == 2


def test_a_budget_without_room_for_what_a_tool_holds_runs_the_tools(
        tmp_path: Path, no_host_threads: None) -> None:
    calls: list[bytes] = []
    k = _kernel(tmp_path, _rev_tool(calls), Limits(max_memory=pipeline.FILTER_ROOM))
    outs = {k.execute("echo abc | flip | cat").out for _ in range(3)}
    assert outs == {"cba\n"} and calls == []
    calls.clear()
    k = _kernel(tmp_path, _rev_tool(calls), Limits(max_memory=4 * pipeline.FILTER_ROOM))
    outs = {k.execute("echo abc | flip | cat").out for _ in range(3)}
    assert outs == {"cba\n"} and len(calls) == 2


def test_a_shell_that_reports_events_or_traces_runs_every_stage_as_its_tool(
        tmp_path: Path, no_host_threads: None) -> None:
    calls: list[bytes] = []
    k = _kernel(tmp_path, _rev_tool(calls))
    for _ in range(3):
        r = k.execute("set -x; echo abc | flip | cat; set +x")
        assert r.out == "cba\n" and "+ flip" in r.err
    assert calls == []
    src = "echo abc | sort | cat"
    assert events_run(tmp_path, src) == events_run(tmp_path, src)
    tools = [e for e in events_run(tmp_path, src) if "sort" in repr(e)]
    assert tools  # (the stage is reported as a tool call each time)


def test_a_deadline_that_passes_in_a_filter_stops_the_pipeline(
        tmp_path: Path, no_host_threads: None, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    calls: list[bytes] = []

    def slow(args: Any, data: bytes) -> bytes | None:
        calls.append(data)
        time.sleep(0.3)
        return data

    @tool("slow", args=_RevArgs, description="waits", kind="read", filter=slow)
    def slow_tool(args: _RevArgs, ctx: Context) -> int:
        ctx.stdout.write(ctx.stdin.read())
        return 0

    k = _kernel(tmp_path, slow_tool)
    src = "echo a | slow | cat"
    assert k.execute(src).out == "a\n"  # (binds the command: no filter yet)
    r = k.execute(src, timeout=0.2)
    assert (r.code, r.out, len(calls)) == (124, "", 1)  # (the last stage never ran)


@pytest.mark.parametrize("src", [
    "cat in.txt | sort | uniq | tr a-z A-Z | head -n 2",
    "cat in.txt | sort | uniq -c | sort -rn | head -n 3",
    "cat in.txt | tail -n +2 | head -n 3 | sort -r | cat",
    "cat in.txt | sort -u | tr -s p | cat -n",
])
def test_builtin_filters_answer_as_their_tools(
        tmp_path: Path, no_host_threads: None, monkeypatch: pytest.MonkeyPatch,
        src: str) -> None:
    (tmp_path / "in.txt").write_text("pear\napple\nfig\napple\nkiwi\napple\n")
    k = Kernel(cwd=str(tmp_path))
    got = [k.execute(src + "; echo ${PIPESTATUS[@]}") for _ in range(3)]
    monkeypatch.setattr(pipeline, "RUN_FILTERS", False)
    want = Kernel(cwd=str(tmp_path)).execute(src + "; echo ${PIPESTATUS[@]}")
    for r in got:
        assert (r.code, r.out, r.err, r.data) == (want.code, want.out, want.err, want.data)


@pytest.mark.parametrize("stage", [
    "sort", "sort -rn", "sort -u -k2", "uniq", "uniq -c", "tr a-z A-Z", "tr -s p",
    "head -n 2", "head -c 5", "tail -n 2", "tail -n +3", "cat", "cut -c1-3", "cut -d' ' -f1",
])
def test_each_builtin_filter_runs_as_the_middle_stage_and_answers_as_its_tool(
        tmp_path: Path, no_host_threads: None, monkeypatch: pytest.MonkeyPatch,
        stage: str) -> None:
    (tmp_path / "in.txt").write_text("pear 3\napple 10\nfig 2\napple 10\nkiwi 1\n")
    src = f"cat in.txt | {stage} | cat -A; echo ${{PIPESTATUS[@]}}"
    k = Kernel(cwd=str(tmp_path))
    name = stage.split()[0]
    real = k.interp.registry.builtin(name)
    assert real is not None and real.filter is not None
    calls: list[bytes] = []

    def spy(args: Any, data: bytes) -> bytes | None:
        calls.append(data)
        return real.filter(args, data)  # type: ignore[misc]

    k.interp.registry._builtins[name] = real.evolve(filter=spy)
    got = [k.execute(src) for _ in range(3)]
    assert len(calls) == 2  # (every run after the first, which binds)
    monkeypatch.setattr(pipeline, "RUN_FILTERS", False)
    want = Kernel(cwd=str(tmp_path)).execute(src)
    for r in got:
        assert (r.code, r.out, r.err, r.data) == (want.code, want.out, want.err, want.data)
