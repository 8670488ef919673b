"""jobs, wait, kill and disown beyond what bash's output pins (tests/conformance/pins/
lang/jobs.cases): the sandbox's reach, job pids, cancellation and job specs."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

from tysh import Kernel, Limits
from tysh.kernel.run.jobs import PID_BASE, JobTable


def test_a_job_pid_is_above_every_possible_host_pid(kernel: Kernel) -> None:
    r = kernel.execute("sleep 1 & echo $!; kill $!")
    assert int(r.out) >= PID_BASE > 1 << 22


def test_a_sandboxed_kill_never_reaches_a_host_process(kernel: Kernel) -> None:
    victim = subprocess.Popen(["sleep", "30"])
    try:
        r = kernel.execute(f"kill -KILL {victim.pid}; echo $?; kill -0 {victim.pid}; echo $?")
        assert r.out == "1\n1\n"
        assert f"({victim.pid}) - No such process" in r.err
        time.sleep(0.1)
        assert victim.poll() is None  # still alive
    finally:
        victim.kill()
        victim.wait()


def test_a_host_session_kills_a_host_process(tmp_path: Path) -> None:
    victim = subprocess.Popen(["sleep", "30"])
    try:
        k = Kernel.repl(cwd=str(tmp_path))
        r = k.execute(f"kill -TERM {victim.pid}; echo $?")
        assert r.out == "0\n"
        assert victim.wait(5) == -15
    finally:
        victim.kill()
        victim.wait()


def test_kill_reaches_an_in_process_job_and_an_external_one(tmp_path: Path) -> None:
    k = Kernel.repl(cwd=str(tmp_path))
    t0 = time.monotonic()
    r = k.execute("sleep 30 & kill $!; wait $!; echo $?; /bin/sleep 30 & kill -HUP %1; "
                  "wait %1; echo $?")
    assert r.out == "143\n129\n"
    assert time.monotonic() - t0 < 10


def test_kill_from_a_pipeline_stage_reaches_the_shells_job(kernel: Kernel) -> None:
    r = kernel.execute("sleep 30 & echo | kill %1; wait %1; echo $?")
    assert r.out == "143\n"


def test_a_subshell_cannot_wait_for_its_parents_job(kernel: Kernel) -> None:
    r = kernel.execute("sleep 0.2 & ( wait $!; echo $? ); wait $!; echo $?")
    assert r.out == "127\n0\n"
    assert "is not a child of this shell" in r.err


def test_cancel_ends_a_wait_and_the_jobs(tmp_path: Path) -> None:
    kernel = Kernel(cwd=str(tmp_path), jobs="keep")
    kernel.execute("sleep 30 &")
    timer = threading.Timer(0.3, kernel.cancel)
    timer.start()
    t0 = time.monotonic()
    r = kernel.execute("wait")
    timer.join()
    assert r.code == 130
    assert time.monotonic() - t0 < 10


def test_stopping_a_job_is_refused_with_a_reason(kernel: Kernel) -> None:
    r = kernel.execute("sleep 30 & kill -STOP %1; echo $?; kill %1")
    assert r.out == "1\n"
    assert "cannot be stopped" in r.err


def test_kill_dollar_dollar_ends_the_shell_with_128_plus_the_signal(kernel: Kernel) -> None:
    r = kernel.execute("echo before; kill $$; echo after")
    assert (r.out, r.code) == ("before\n", 143)
    r = kernel.execute("kill -0 $$; echo $?; kill -CHLD $$; echo $?")
    assert r.out == "0\n0\n"


def test_jobs_x_runs_the_command_with_pids(kernel: Kernel) -> None:
    r = kernel.execute("sleep 30 & p=$!; jobs -x echo %1 x; echo $p; kill %1")
    first, second = r.out.splitlines()
    assert first == f"{second} x"


def test_job_specs_by_prefix_and_by_substring() -> None:
    from tysh.kernel.base.limits import RunControl

    table = JobTable()
    gate = threading.Event()
    started: list[threading.Thread] = []

    def body(control: object) -> int:
        gate.wait(5)
        return 0

    def launch(t: threading.Thread) -> None:
        started.append(t)
        t.start()

    a = table.start("sleep 10", RunControl(), body, launch)
    b = table.start("grep -r needle .", RunControl(), body, launch)
    c = table.start("sleep 20", RunControl(), body, launch)
    try:
        assert table.find("%grep") is b
        assert table.find("%?needle") is b
        assert table.find("%sleep") == "sleep: ambiguous job spec"
        assert table.find("%?zzz") == "%?zzz: no such job"
        assert table.find("%%") is c and table.find("%+") is c and table.find("%-") is b
        assert table.find("%1") is a
        assert (table.marker(a), table.marker(b), table.marker(c)) == (" ", "-", "+")
    finally:
        gate.set()
        for t in started:
            t.join()
    assert table.wait(a, lambda: None) == 0
    assert table.known_status(a.pid) == 0


def test_no_pid_form_reaches_a_host_process_group(kernel: Kernel) -> None:
    # negative pids name process groups, -1 every process, 0 the shell's own group:
    # a sandbox signals none of them, and may not wait for a host process either
    victim = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        p = victim.pid
        r = kernel.execute(f"kill -- -{p}; echo $?; kill -s KILL -{p}; echo $?; "
                           f"kill -0 -1; echo $?; kill -TERM 0; echo $?; kill -0 1; echo $?; "
                           f"wait {p}; echo $?; disown {p}; echo $?")
        assert r.out == "1\n1\n1\n1\n1\n127\n1\n"
        time.sleep(0.1)
        assert victim.poll() is None
    finally:
        victim.kill()
        victim.wait()


def test_a_job_whose_thread_cannot_start_is_not_listed() -> None:
    from tysh.kernel.base.limits import RunControl

    table = JobTable()

    def refuse(t: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    try:
        table.start("sleep 10", RunControl(), lambda control: 0, refuse)
    except RuntimeError:
        pass
    assert table.find("%%") == "%%: no such job"
    assert table.find("%1") == "%1: no such job"


def test_a_job_past_max_jobs_fails_with_status_1_and_says_why(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_jobs=2))
    r = k.execute("sleep 5 & sleep 5 & sleep 5 & echo $?")
    assert r.out == "1\n"
    assert "cannot start a background job: 2 jobs are already running (Limits.max_jobs)" \
        in r.err


def test_a_reaped_job_ends_quietly_when_the_call_returns(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    t0 = time.monotonic()
    r = k.execute("sleep 30 & echo started")
    assert (r.code, r.out) == (0, "started\n")
    assert time.monotonic() - t0 < 5
    assert k.execute("jobs").out == ""


def test_a_kept_job_stops_at_the_time_limit_of_its_call(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), jobs="keep")
    base = threading.active_count()
    assert k.execute("while :; do :; done &", timeout=0.5).code == 0
    time.sleep(1.5)
    assert threading.active_count() == base


def test_a_kernel_refuses_an_unknown_job_policy(tmp_path: Path) -> None:
    import pytest

    with pytest.raises(ValueError, match="jobs must be 'reap' or 'keep'"):
        Kernel(cwd=str(tmp_path), jobs="never")
