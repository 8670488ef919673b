"""Limits with documented exit codes: output (3), time (124), cancel (130), function
nesting and loop iterations (1), in-memory filesystem size, the `timeout` builtin, the
busy refusal (75) — and the kernel stays usable after each."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest

from tysh.kernel.base.limits import Limits
from tysh.kernel.embed.kernel import Kernel


def _usable(k: Kernel) -> None:
    r = k.execute("echo ok")
    assert (r.code, r.out, r.err) == (0, "ok\n", "")


# ---------------------------------------------------------------- output


def test_output_limit_truncates_with_exit_3(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_output_bytes=100))
    r = k.execute("for i in $(seq 1 100); do echo line $i; done")
    assert r.code == 3 and r.truncated
    assert r.out.startswith("line 1\nline 2\n") and r.out.endswith("line 99\nline 100\n")
    assert "… [tysh: output truncated: " in r.out
    assert "tysh: output limit of 100 bytes exceeded" in r.err
    assert "status was 0" in r.err
    _usable(k)


def test_output_under_the_limit_is_untouched(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_output_bytes=100))
    r = k.execute("echo short")
    assert (r.code, r.out, r.truncated) == (0, "short\n", False)


def test_output_limit_applies_to_stderr_too(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_output_bytes=50))
    r = k.execute("for i in $(seq 1 50); do echo e$i >&2; done")
    assert r.code == 3 and r.truncated and "output truncated" in r.err


def test_default_output_limit_is_one_mebibyte(tmp_path: Path) -> None:
    r = Kernel(cwd=str(tmp_path)).execute("seq 1 400000")
    assert r.truncated and r.code == 3
    assert len(r.out) < (1 << 20) + 200


def test_output_limit_none_keeps_everything(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_output_bytes=None))
    r = k.execute("seq 1 400000")
    assert not r.truncated and r.out.endswith("\n400000\n")


# ---------------------------------------------------------------- time


@pytest.mark.parametrize(
    "src",
    [
        "while :; do :; done",
        "sleep 30",
        "sleep 30 | cat",
        "f() { while :; do :; done; }; f | cat",
        "x=$(sleep 30)",
        "(sleep 30)",
        "sleep 30 & wait",
        "for i in $(seq 1 100000000); do :; done",
    ],
)
def test_time_limit_ends_the_call_with_124(tmp_path: Path, src: str) -> None:
    k = Kernel(cwd=str(tmp_path))
    t = time.monotonic()
    r = k.execute(src, timeout=0.3)
    assert time.monotonic() - t < 5
    assert r.code == 124
    assert r.err.endswith("tysh: time limit of 0.3s exceeded\n")
    _usable(k)


def test_kernel_default_time_limit(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(timeout=0.2))
    assert k.execute("sleep 5").code == 124
    assert k.execute("sleep 5", timeout=0.1).err == "tysh: time limit of 0.1s exceeded\n"
    _usable(k)


def test_time_limit_kills_external_process_groups(tmp_path: Path) -> None:
    if not shutil.which("sh") or not shutil.which("sleep"):
        pytest.skip("needs sh and sleep")
    k = Kernel(cwd=str(tmp_path), allow_external=True)
    t = time.monotonic()
    r = k.execute("sh -c 'sleep 30; echo late'", timeout=0.3)
    assert r.code == 124 and "late" not in r.out
    assert time.monotonic() - t < 5


# ---------------------------------------------------------------- cancel


def _cancel_soon(k: Kernel, delay: float = 0.2) -> None:
    threading.Timer(delay, k.cancel).start()


@pytest.mark.parametrize(
    "src",
    ["while :; do :; done", "sleep 30", "sleep 30 | cat", "x=$(sleep 30)", "(sleep 30)",
     "f() { f2; }; f2() { sleep 30; }; f"],
)
def test_cancel_from_another_thread_ends_with_130(tmp_path: Path, src: str) -> None:
    k = Kernel(cwd=str(tmp_path))
    _cancel_soon(k)
    t = time.monotonic()
    r = k.execute(src)
    assert time.monotonic() - t < 5
    assert r.code == 130 and r.err.endswith("tysh: cancelled\n")
    _usable(k)


def test_cancel_stops_at_the_next_statement(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    _cancel_soon(k, 0.1)
    r = k.execute("echo before; sleep 0.3; echo after")
    assert r.code == 130 and r.out == "before\n"


def test_cancel_kills_a_running_external(tmp_path: Path) -> None:
    if not shutil.which("sleep"):
        pytest.skip("needs sleep")
    k = Kernel(cwd=str(tmp_path), allow_external=True)
    _cancel_soon(k)
    t = time.monotonic()
    r = k.execute(f"{shutil.which('sleep')} 30")
    assert r.code == 130 and time.monotonic() - t < 5


def test_cancel_when_idle_does_not_affect_the_next_call(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.cancel()
    _usable(k)


# ---------------------------------------------------------------- recursion and loops


def test_runaway_recursion_is_a_clean_error(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("f() { f; }; f")
    assert r.code == 1
    assert r.err == "tysh: f: maximum function nesting exceeded (1000)\n"
    _usable(k)


def test_function_depth_limit_is_configurable(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_function_depth=10))
    r = k.execute("n=0; f() { n=$((n+1)); f; }; f; echo $n")
    assert "maximum function nesting exceeded (10)" in r.err


def test_loop_iteration_cap(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_loop_iterations=100))
    r = k.execute("while :; do :; done")
    assert r.code == 1 and "loop iteration limit exceeded (100)" in r.err
    assert k.execute("for i in $(seq 1 50); do :; done; echo done").out == "done\n"


def test_subshell_nesting_limit(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("f() { ( f ); }; f")
    assert r.code != 0 and "Traceback" not in r.err
    _usable(k)


# ---------------------------------------------------------------- in-memory filesystem


def test_full_in_memory_filesystem_fails_the_command_not_the_script() -> None:
    k = Kernel.isolated(max_fs_bytes=1000)
    r = k.execute("printf %02000d 0 > big; echo status $?")
    assert r.out == "status 1\n"
    assert "No space left on device" in r.err
    r = k.execute("seq 1 100000 > c; echo $?; cp c d; echo $?")
    assert r.out.startswith("1\n") and "No space left on device" in r.err
    _usable(k)


def test_in_memory_filesystem_budget_counts_all_files() -> None:
    k = Kernel.isolated(max_fs_bytes=1000)
    assert k.execute("printf %0600d 0 > a").code == 0
    r = k.execute("printf %0600d 0 > b")
    assert r.code == 1 and "No space left on device" in r.err
    assert k.execute("rm a; printf %0600d 0 > b").code == 0


# ---------------------------------------------------------------- timeout builtin


@pytest.mark.parametrize(
    "src",
    ["timeout 0.2 sleep 5", "f() { while :; do :; done; }; timeout 0.2 f",
     "timeout 0.2 timeout 5 sleep 5",
     "timeout -k 1 0.2 sleep 5", "timeout --signal=TERM 0.2s sleep 5"],
)
def test_timeout_builtin_expires_with_124(tmp_path: Path, src: str) -> None:
    k = Kernel(cwd=str(tmp_path))
    t = time.monotonic()
    r = k.execute(src + "; echo status $?")
    assert r.out == "status 124\n" and time.monotonic() - t < 4


def test_timeout_with_the_kill_signal_reports_137_as_gnu(tmp_path: Path) -> None:
    # GNU timeout: KILL can't be caught, so the status is 128+9 rather than 124
    t = time.monotonic()
    r = Kernel(cwd=str(tmp_path)).execute("timeout -s KILL 0.2 sleep 5; echo status $?")
    assert r.out == "status 137\n" and time.monotonic() - t < 4


def test_timeout_builtin_passes_a_quick_commands_status(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    assert k.execute("timeout 5 false; echo $?").out == "1\n"
    assert k.execute("timeout 5 echo hi").out == "hi\n"


def test_timeout_builtin_on_an_external(tmp_path: Path) -> None:
    if not shutil.which("sleep"):
        pytest.skip("needs sleep")
    k = Kernel(cwd=str(tmp_path), allow_external=True)
    t = time.monotonic()
    assert k.execute(f"timeout 0.2 {shutil.which('sleep')} 5; echo $?").out == "124\n"
    assert time.monotonic() - t < 4


@pytest.mark.parametrize("src", ["timeout", "timeout 5", "timeout x sleep 1",
                                 "timeout -s NOPE 1 sleep 1", "timeout -q 1 sleep 1"])
def test_timeout_usage_errors_are_125(tmp_path: Path, src: str) -> None:
    r = Kernel(cwd=str(tmp_path)).execute(src)
    assert r.code == 125 and r.err.startswith("timeout: ")


# ---------------------------------------------------------------- busy


def test_concurrent_execute_on_one_kernel_is_refused(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    first: list[object] = []
    t = threading.Thread(target=lambda: first.append(k.execute("sleep 0.5; echo first")))
    t.start()
    time.sleep(0.15)
    r = k.execute("echo second")
    t.join()
    assert r.code == 75
    assert r.err == "tysh: kernel is busy: execute() is already running in another thread\n"
    assert getattr(first[0], "out", None) == "first\n"
    _usable(k)


def test_reentrant_execute_from_a_tool_is_refused(tmp_path: Path) -> None:
    from tysh.kernel.tools.context import Context
    from tysh.kernel.tools.tool import tool

    k = Kernel(cwd=str(tmp_path))

    @tool("inner", description="calls the kernel again")
    def inner(args: object, ctx: Context) -> int:
        r = k.execute("echo nested")
        ctx.write(f"{r.code}\n")
        return 0

    k.register(inner)
    r = k.execute("inner")
    assert r.out == "75\n"


def test_yes_at_the_default_output_limit_is_stopped_with_status_3_at_once(
        tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    t0 = time.monotonic()
    r = k.execute("yes; echo never")
    assert time.monotonic() - t0 < 1.0
    assert r.code == 3 and r.truncated
    assert r.out.startswith("y\ny\n") and "never" not in r.out
