"""Pipelines of builtin filters over in-memory input run their stages in turn on the
calling thread, and switch to concurrent streaming stages as soon as a stage writes more
than a pipe holds; everything else runs concurrently as before."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tysh.kernel.base.limits import Limits
from tysh.kernel.base.threads import NoThread
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.run import pipeline


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the stage threads each pipeline starts."""
    names: list[str] = []
    real = pipeline.start_deep

    def spy(t: threading.Thread) -> None:
        names.append(t.name)
        real(t)

    monkeypatch.setattr(pipeline, "start_deep", spy)
    return names


def test_a_builtin_pipeline_over_small_input_starts_no_thread(
        kernel: Kernel, tmp_path: Path, started: list[str]) -> None:
    (tmp_path / "in.txt").write_text("pear\napple\nfig\napple\nkiwi\n")
    r = kernel.execute("cat in.txt | sort | uniq | tr a-z A-Z | head -n 2; "
                       "echo ${PIPESTATUS[@]}")
    assert (r.code, r.out, r.err) == (0, "APPLE\nFIG\n0 0 0 0 0\n", "")
    assert started == []


def test_a_stage_that_writes_more_than_a_pipe_holds_streams_into_the_rest(
        kernel: Kernel, started: list[str]) -> None:
    r = kernel.execute("yes | head -n 2; echo ${PIPESTATUS[@]}")
    assert (r.code, r.out) == (0, "y\ny\n141 0\n")
    assert started  # the rest of the pipeline ran concurrently once yes passed the bound
    r = kernel.execute("seq 1 200000 | sort -n | tail -n 1; echo ${PIPESTATUS[@]}")
    assert (r.code, r.out) == (0, "200000\n0 0 0\n")
    r = kernel.execute("yes | head -c 20 | wc -c; echo ${PIPESTATUS[@]}")
    assert (r.code, r.out) == (0, "20\n141 0 0\n")


def test_a_writer_that_finishes_into_a_pipe_nobody_reads_ends_with_0(kernel: Kernel) -> None:
    r = kernel.execute("printf 'a\\nb\\nc\\n' | head -n 1; echo ${PIPESTATUS[@]}")
    assert r.out == "a\n0 0\n"
    r = kernel.execute("set -o pipefail; false | true; echo $?; true | false; echo $?")
    assert r.out == "1\n1\n"


def test_a_stage_run_in_turn_is_still_a_subshell(kernel: Kernel) -> None:
    r = kernel.execute('x=1; printf -v x %s 2 | cat; echo "$x"; echo hi | read y; echo "[$y]"')
    assert r.out == "1\n[]\n"


@pytest.mark.parametrize("script", [
    "sleep 0 | cat",  # waits on a clock
    "f() { cat; }; echo x | f",  # a function
    "echo x | { cat; }",  # a compound command
    "echo $(echo x) | cat",  # a command substitution
    "echo x | tail -f /dev/null -n 1 --pid=1 | head -c 0",  # tail may follow
    "echo x | cat > out.txt",  # a redirection to a file
])
def test_stages_that_could_wait_on_something_else_run_concurrently(
        kernel: Kernel, started: list[str], script: str) -> None:
    kernel.execute(script, timeout=10)
    assert started


def test_cancel_stops_a_pipeline_running_in_turn(kernel: Kernel) -> None:
    timer = threading.Timer(0.3, kernel.cancel)
    timer.start()
    t0 = time.monotonic()
    try:
        r = kernel.execute("yes | grep -v y | wc -l")
    finally:
        timer.cancel()
    assert r.code == 130
    assert time.monotonic() - t0 < 10


def test_time_limit_and_output_limit_hold_in_turn(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_output_bytes=1000))
    r = k.execute("yes | grep -v y | head -n 1", timeout=0.5)
    assert r.code == 124
    r = k.execute("yes | tr y z | cat")
    assert r.code == 3 and r.truncated and r.out.startswith("z\nz\n")
    r = k.execute("seq 1 1000 | tr 1 x | head -c 5000")
    assert r.code == 3 and r.truncated


def test_events_see_every_stage_of_a_pipeline_run_in_turn(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    k = Kernel(cwd=str(tmp_path), on_event=seen.append)
    r = k.execute("echo b a | tr ' ' '\\n' | sort | head -n 1")
    assert (r.code, r.out) == (0, "a\n")
    names = [e.get("title") or e.get("name") for e in seen if e.get("status") == "completed"]
    assert len(names) == 4, seen


def test_no_thread_for_the_rest_of_the_pipeline_ends_the_script(
        kernel: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_t: threading.Thread) -> None:
        raise NoThread()

    monkeypatch.setattr(pipeline, "start_deep", refuse)
    r = kernel.execute("yes | head -n 1; echo after")
    assert r.code == 1
    assert "cannot start a thread" in r.err
    assert "after" not in r.out
    r = kernel.execute("echo small | cat")
    assert (r.code, r.out) == (0, "small\n")


def test_a_stage_reads_held_input_as_a_pipe(kernel: Kernel, started: list[str]) -> None:
    # GNU wc gives a pipe 7-wide columns; a file, columns as wide as its size
    r = kernel.execute("printf 'one two\\nthree\\n' | wc")
    assert r.out == "      2       3      14\n"
    assert started == []
