"""What every execute() does around its script: a warm kernel (streams reused, the
script's problems remembered, the stop check made once) gives each call exactly what a
new kernel gives it; per-call cwd/env, time limits, refusals, the recursion limit and
the thread's stop check behave the same with the output limit and without."""

from __future__ import annotations

import copy
import math
import pickle
import sys
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.kernel.base import stop, threads
from tysh.kernel.base.limits import CHECK_BYTES, CappedOutput, Limits
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import ExecResult
from tysh.kernel.tools.tool import tool

# scripts that leave nothing behind that another script reads: a warm kernel that ran
# any of them gives the next one what a new kernel gives it
SCRIPTS = [
    "echo hi",
    ":",
    "true",
    "false",
    "exit 3",
    "echo oops >&2; echo out",
    "printf '%s\\n' a b c",
    "x=1; echo $x",
    "g() { echo in-g; return 4; }; g",
    "nosuch_command",
    "head --bogus-flag",
    "seq 1 40",
    "seq 1 40 >&2",
    "yes | head -n 3",
    "cat",
    "echo $((1/0)); echo next",
    "printf 'a\\nb\\n' | cat",
    "{ echo a; echo b >&2; } | cat",
    "echo é; printf '\\377'",
]

LIMITS = {
    "default": Limits(),
    "small": Limits(max_output_bytes=64),
    "none": Limits(max_output_bytes=None),
}


def _seen(r: ExecResult) -> tuple[Any, ...]:
    return (r.code, r.out, r.err, r.truncated, r.data)


@pytest.mark.parametrize("which", sorted(LIMITS))
@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SCRIPTS), st.sampled_from(["", "in\n"]),
                          st.booleans()), min_size=1, max_size=6))
def test_a_warm_kernel_gives_each_call_what_a_new_kernel_gives_it(
        which: str, calls: list[tuple[str, str, bool]]) -> None:
    limits = LIMITS[which]
    warm = Kernel.isolated(limits=limits)
    for src, stdin, binary in calls:
        got = warm.execute(src, stdin, binary=binary)
        want = Kernel.isolated(limits=limits).execute(src, stdin, binary=binary)
        assert _seen(got) == _seen(want), src


@pytest.mark.parametrize("which", sorted(LIMITS))
def test_per_call_cwd_and_env_hold_for_that_call_only(which: str) -> None:
    k = Kernel.isolated(limits=LIMITS[which])
    k.execute("mkdir -p sub; X=session")
    r = k.execute("pwd; echo $X $Y", cwd="sub", env={"X": "call", "Y": "y"})
    assert (r.code, r.out) == (0, "/home/user/sub\ncall y\n")
    r = k.execute("pwd; echo $X ${Y-unset}")
    assert r.out == "/home/user\nsession unset\n"


@pytest.mark.parametrize("which", sorted(LIMITS))
def test_a_per_call_cwd_that_is_no_directory_runs_nothing(which: str) -> None:
    k = Kernel.isolated(limits=LIMITS[which])
    k.execute("false")
    r = k.execute("echo ran", cwd="missing")
    assert (r.code, r.out) == (2, "")
    assert r.err == "tysh: execute: cwd missing: No such directory in the sandbox\n"
    assert k.execute("echo $?").out == "1\n"  # the session's status is the last run's


@pytest.mark.parametrize("timeout", [5, 5.0, math.inf, None, 10**9])
@pytest.mark.parametrize("where", ["call", "limits"])
def test_every_form_of_an_unexpired_time_limit_lets_the_script_run(
        timeout: float | None, where: str) -> None:
    if where == "call":
        r = Kernel.isolated().execute("echo hi", timeout=timeout)
    else:
        r = Kernel.isolated(limits=Limits(timeout=timeout)).execute("echo hi")
    assert (r.code, r.out, r.err) == (0, "hi\n", "")


@pytest.mark.parametrize("timeout", [0, 0.0])
@pytest.mark.parametrize("where", ["call", "limits"])
def test_a_time_limit_of_zero_stops_the_script_before_its_first_command(
        timeout: float, where: str) -> None:
    if where == "call":
        r = Kernel.isolated().execute("echo hi", timeout=timeout)
    else:
        r = Kernel.isolated(limits=Limits(timeout=timeout)).execute("echo hi")
    assert (r.code, r.out, r.err) == (124, "", "tysh: time limit of 0s exceeded\n")


@pytest.mark.parametrize("timeout", [-1, math.nan, "5", True])
def test_a_time_limit_that_is_no_duration_is_refused_before_anything_runs(
        timeout: Any) -> None:
    k = Kernel.isolated()
    with pytest.raises(ValueError):
        k.execute("touch made", timeout=timeout)
    assert k.execute("ls").out == ""


def test_a_refusal_is_the_same_when_the_script_is_checked_again() -> None:
    k = Kernel.isolated()
    first = k.execute("nosuch_command")
    again = k.execute("nosuch_command")
    assert first.code == 127 and _seen(first) == _seen(again)
    k.execute("nosuch_command() { echo now defined; }")
    assert k.execute("nosuch_command").out == "now defined\n"
    k.execute("unset -f nosuch_command")
    assert _seen(k.execute("nosuch_command")) == _seen(first)


def test_a_refusal_follows_the_builtins_the_session_turned_off() -> None:
    k = Kernel(allow_external=False)
    assert k.execute("cat /dev/null; echo ran").out == "ran\n"
    k.execute("enable -n cat")
    off = k.execute("cat /dev/null; echo ran")
    assert (off.code, off.out) == (127, "") and "cat: command not found" in off.err
    k.execute("enable cat")
    assert k.execute("cat /dev/null; echo ran").out == "ran\n"


@attrs.frozen
class _NoArgs:
    pass


_checks: list[Any] = []


@tool("seecheck", args=_NoArgs, description="record the thread's stop check")
def _seecheck(args: _NoArgs, ctx: Context) -> int:
    _checks.append(stop.current.check)
    return 0


def test_the_thread_stop_check_is_the_kernels_during_a_call_and_put_back_after() -> None:
    k = Kernel.isolated()
    k.register(_seecheck)
    _checks.clear()
    stop.install(None)
    assert k.execute("seecheck").code == 0
    assert _checks == [k.interp.check_boundary]
    assert stop.current.check is None
    outer = stop.install(print)
    try:
        k.execute("seecheck")
        assert stop.current.check is print
    finally:
        stop.install(outer)


def test_the_recursion_limit_is_the_hosts_again_after_every_call() -> None:
    before = sys.getrecursionlimit()
    k = Kernel.isolated()
    assert k.execute("f() { [ $1 -gt 0 ] && f $(($1-1)); }; f 900; echo $?").out == "1\n"
    assert sys.getrecursionlimit() == before
    assert k.execute("echo hi").out == "hi\n"
    assert sys.getrecursionlimit() == before


@settings(max_examples=100, deadline=None)
@given(st.integers(100, 2 * threads.DEEP_RECURSION), st.lists(st.booleans(), max_size=12))
def test_recursion_limit_holds_nest_and_the_last_release_restores_the_host(
        host: int, steps: list[bool]) -> None:
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(host)
    held = 0
    try:
        for hold in steps:
            if hold:
                threads.hold_deep()
                held += 1
            elif held:
                threads.release_deep()
                held -= 1
            want = max(host, threads.DEEP_RECURSION) if held else host
            assert sys.getrecursionlimit() == want
    finally:
        for _ in range(held):
            threads.release_deep()
        assert sys.getrecursionlimit() == host
        sys.setrecursionlimit(saved)


def test_a_limit_the_host_changed_during_a_hold_is_left_alone() -> None:
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        threads.hold_deep()
        sys.setrecursionlimit(5000)
        threads.release_deep()
        assert sys.getrecursionlimit() == 5000
        threads.hold_deep()
        threads.release_deep()
        assert sys.getrecursionlimit() == 5000
    finally:
        sys.setrecursionlimit(saved)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3 * CHECK_BYTES), max_size=8), st.booleans())
def test_a_capped_stream_calls_its_check_once_per_check_bytes_written(
        sizes: list[int], checked: bool) -> None:
    calls: list[int] = []
    c = CappedOutput(1 << 30)
    if checked:
        c.check = lambda: calls.append(c.total)
    want: list[int] = []
    total, at = 0, CHECK_BYTES
    for n in sizes:
        if checked and total >= at:
            want.append(total)
            at = total + CHECK_BYTES
        assert c.write(b"x" * n) == n
        total += n
    assert (calls, c.total, c.over) == (want, total, False)
    assert c.getvalue() == b"x" * total


def test_a_result_reads_its_typed_value_once_and_copies_without_reading_it() -> None:
    r = Kernel.isolated().execute("printf 'a\\nb\\n' | cat")
    copied = copy.copy(r)
    assert r.data == ["a", "b"] and r.data is r.data
    assert copied == r and copied.data == ["a", "b"]
    assert r.evolve(code=1).data == ["a", "b"]
    plain = Kernel.isolated().execute("echo hi")
    assert pickle.loads(pickle.dumps(plain)) == plain
    assert ExecResult().data is None


@tool("closeout", args=_NoArgs, description="close the stdout stream it was given")
def _closeout(args: _NoArgs, ctx: Context) -> int:
    ctx.write("gone\n")
    ctx.stdout.close()
    return 0


@tool("closeerr", args=_NoArgs, description="close the stderr stream it was given")
def _closeerr(args: _NoArgs, ctx: Context) -> int:
    ctx.stderr.close()
    return 0


@pytest.mark.parametrize("which", sorted(LIMITS))
@pytest.mark.parametrize(("name", "stream"), [("closeout", "stdout"), ("closeerr", "stderr")])
def test_a_command_that_closes_the_calls_stream_fails_the_call_without_raising(
        which: str, name: str, stream: str) -> None:
    k = Kernel.isolated(limits=LIMITS[which])
    k.register(_closeout)
    k.register(_closeerr)
    r = k.execute(f"echo before >&2; {name}")
    assert (r.code, r.out) == (70, "")
    assert r.err.endswith(f"tysh: internal error: a command closed the call's {stream}; "
                          "what it held is lost\n")
    assert k.execute("echo $?").out == "70\n"
    assert _seen(k.execute("echo after")) == (0, "after\n", "", False, None)


NAMES = ["f", "g", "head", "nosuch_command"]
STEPS = st.one_of(
    st.sampled_from(NAMES).map(lambda n: f"{n}() {{ echo fn-{n}; }}"),
    st.sampled_from(NAMES).map(lambda n: f"unset -f {n}"),
    st.sampled_from(NAMES).map(lambda n: f"{n} --bogus-flag"),
    st.sampled_from(NAMES),
    st.sampled_from(["f; g", "g || nosuch_command", "h() { f; }; h", "echo plain"]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(STEPS, min_size=1, max_size=12), st.integers(0, 30))
def test_remembered_problems_follow_the_session_functions_the_script_names(
        steps: list[str], others: int) -> None:
    """However many other functions the session has, a script is refused (or not)
    exactly as when its problems are found afresh."""
    remembering, fresh = Kernel.isolated(), Kernel.isolated()
    filler = "".join(f"other{i}() {{ :; }}\n" for i in range(others))
    for k in (remembering, fresh):
        k.execute(filler)
    for src in steps:
        fresh._checked.clear()  # noqa: SLF001 — every script checked anew
        assert _seen(remembering.execute(src)) == _seen(fresh.execute(src)), src
