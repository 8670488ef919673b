"""The embedding API's time limits mean what an embedder expects — None and `inf` no
limit, 0 a limit already passed, anything else (negative, NaN, not a number) a
ValueError before anything runs, never a silently disabled limit — and an interrupt or
exit raised inside a pipeline stage ends that stage quietly."""

from __future__ import annotations

import math
from typing import Any

import attrs
import pytest

from tysh import Kernel, Limits
from tysh.kernel.fs.memory import MemoryFileSystem
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import tool

BAD = [-1, -0.5, math.nan, "1", True, [1]]


@pytest.mark.parametrize("value", BAD, ids=repr)
def test_execute_refuses_a_timeout_that_is_not_a_time(value: Any) -> None:
    k = Kernel.isolated()
    with pytest.raises(ValueError, match="timeout"):
        k.execute("echo ran > f", timeout=value)
    with pytest.raises(ValueError, match="timeout"):
        k.execute_argv("echo", ["x"], timeout=value)
    assert not k.fs.exists("/home/user/f")  # type: ignore[attr-defined]
    assert k.execute("echo ok").out == "ok\n"  # the kernel is not left busy


@pytest.mark.parametrize("value", BAD, ids=repr)
def test_limits_refuse_a_timeout_that_is_not_a_time(value: Any) -> None:
    with pytest.raises(ValueError, match="timeout"):
        Limits(timeout=value)


def test_an_infinite_timeout_is_no_limit() -> None:
    k = Kernel.isolated(limits=Limits(timeout=math.inf))
    r = k.execute("sleep 0.2; echo done", timeout=math.inf)
    assert (r.code, r.out) == (0, "done\n")


def test_a_zero_timeout_has_already_passed() -> None:
    k = Kernel.isolated()
    r = k.execute("echo ran > f; echo out", timeout=0)
    assert r.code == 124 and r.out == ""
    assert k.execute("cat f 2>/dev/null || echo none").out == "none\n"


@attrs.frozen
class _NoArgs:
    pass


@tool("interrupt", args=_NoArgs, description="raise KeyboardInterrupt")
def _interrupt(args: _NoArgs, ctx: Context) -> int:
    raise KeyboardInterrupt


@tool("leave", args=_NoArgs, description="raise SystemExit(3)")
def _leave(args: _NoArgs, ctx: Context) -> int:
    raise SystemExit(3)


@pytest.mark.parametrize(("name", "status"), [("interrupt", "130"), ("leave", "3")])
def test_interrupt_in_a_pipeline_stage_ends_that_stage_quietly(
        capfd: pytest.CaptureFixture[str], name: str, status: str) -> None:
    k = Kernel(fs=MemoryFileSystem())
    k.register(_interrupt)
    k.register(_leave)
    r = k.execute(f"{name} | cat; echo ${{PIPESTATUS[@]}}; {name} | {name} | cat; echo $?")
    assert r.out == f"{status} 0\n0\n"
    assert "Traceback" not in r.err and "internal error" not in r.err
    out, err = capfd.readouterr()  # nothing on the process's own streams either
    assert "Traceback" not in err and "Exception in thread" not in err, err
