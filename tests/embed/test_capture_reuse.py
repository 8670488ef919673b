"""execute()'s captured stdout and stderr: a call may reuse the last call's streams, and
only when nothing else holds them, so no output ever reaches the wrong call."""

from __future__ import annotations

import time
import weakref
from typing import IO

import attrs

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.memory import MemoryFileSystem
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import tool


@attrs.frozen
class _NoArgs:
    pass


_kept: list[IO[bytes]] = []


@tool("keepout", args=_NoArgs, description="write a line and keep the stdout stream")
def _keepout(args: _NoArgs, ctx: Context) -> int:
    ctx.write("kept\n")
    _kept.append(ctx.stdout)
    return 0


def test_streams_are_reused_between_calls_nothing_else_holds() -> None:
    k = Kernel(fs=MemoryFileSystem())
    k.execute("echo one")
    spare = k._spare  # noqa: SLF001 — what the next call reuses
    assert spare is not None
    first = weakref.ref(spare[0])  # (a strong reference would stop the reuse)
    del spare
    r = k.execute("echo two; echo oops >&2")
    assert (r.out, r.err) == ("two\n", "oops\n")
    assert k._spare is not None and k._spare[0] is first()  # noqa: SLF001
    assert k.execute("echo three").out == "three\n"


def test_a_stream_a_tool_kept_is_never_written_by_a_later_call() -> None:
    k = Kernel(fs=MemoryFileSystem())
    k.register(_keepout)
    _kept.clear()
    assert k.execute("keepout").out == "kept\n"
    r = k.execute("echo later")
    assert r.out == "later\n"
    assert _kept[0].getvalue() == b"kept\n"  # type: ignore[attr-defined]


def test_a_kept_job_writing_after_its_call_never_reaches_the_next_call() -> None:
    k = Kernel(fs=MemoryFileSystem(), jobs="keep")
    first = k.execute("{ sleep 0.3; echo late; } &")
    assert first.code == 0
    outs = [k.execute("echo now").out for _ in range(3)]
    time.sleep(0.6)
    outs.append(k.execute("echo after").out)
    assert outs == ["now\n", "now\n", "now\n", "after\n"]


def test_a_call_over_the_output_limit_leaves_no_stream_to_reuse() -> None:
    from tysh.kernel.base.limits import Limits

    k = Kernel(fs=MemoryFileSystem(), limits=Limits(max_output_bytes=100))
    r = k.execute("for i in $(seq 1 100); do echo line$i; done")
    assert r.truncated
    assert k.execute("echo short").out == "short\n"
    assert not k.execute("echo short").truncated


def test_typed_value_of_the_last_command_survives_the_next_call() -> None:
    k = Kernel(fs=MemoryFileSystem())
    r = k.execute("printf 'a\\nb\\n' | cat")
    k.execute("echo other")
    assert r.out == "a\nb\n"
    assert r.data == ["a", "b"]


@tool("manylines", args=_NoArgs, description="write lines with writelines")
def _manylines(args: _NoArgs, ctx: Context) -> int:
    ctx.stdout.writelines(b"x" * 1000 + b"\n" for _ in range(500))
    return 0


def test_writelines_passes_through_the_output_limit() -> None:
    from tysh.kernel.base.limits import Limits

    k = Kernel(fs=MemoryFileSystem(), limits=Limits(max_output_bytes=4000))
    k.register(_manylines)
    r = k.execute("manylines")
    assert r.truncated and len(r.out) < 6000
    r = k.execute("x=$(manylines); echo ${#x}")
    assert r.out == str(500 * 1001 - 1) + "\n"
