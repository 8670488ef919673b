"""`tail -f` / `tail -F`: appended data, truncation, rotation, headers, cancel and time
limits, on the host and the in-memory filesystem, through the kernel and the CLI."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import Kernel

TYSH = str(Path(sys.executable).with_name("tysh"))


def later(delay: float, *steps: Callable[[], object], gap: float = 0.15) -> threading.Thread:
    """Run `steps` in a thread, the first after `delay` seconds, then `gap` apart."""

    def body() -> None:
        time.sleep(delay)
        for i, step in enumerate(steps):
            if i:
                time.sleep(gap)
            step()

    t = threading.Thread(target=body, daemon=True)
    t.start()
    return t


def append(path: Path, data: bytes) -> Callable[[], None]:
    def step() -> None:
        with open(path, "ab") as f:
            f.write(data)

    return step


def out_of(r: object) -> str:
    return r.text_out()  # type: ignore[attr-defined,no-any-return]


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    return Kernel(str(tmp_path))


def test_appended_lines_appear_after_the_last_lines(kernel: Kernel, tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"1\n2\n3\n")
    t = later(0.15, append(f, b"4\n"), append(f, b"5\n"))
    r = kernel.execute("tail -n 2 -f -s 0.05 f", timeout=0.6)
    t.join()
    assert r.code == 124
    assert out_of(r) == "2\n3\n4\n5\n"


def test_zero_lines_then_follow_prints_only_new_data(kernel: Kernel, tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"old\n")
    t = later(0.15, append(f, b"new\n"))
    r = kernel.execute("tail -n 0 -f -s 0.05 f", timeout=0.5)
    t.join()
    assert out_of(r) == "new\n"


def test_truncation_is_reported_and_new_data_printed(kernel: Kernel, tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"a\nb\n")
    t = later(0.15, lambda: f.write_bytes(b""), append(f, b"c\n"))
    r = kernel.execute("tail -f -s 0.05 f", timeout=0.6)
    t.join()
    assert out_of(r) == "a\nb\nc\n"
    assert "tail: f: file truncated\n" in r.err


def test_follow_name_retry_picks_up_a_replaced_file(kernel: Kernel, tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"one\n")

    def rotate() -> None:
        (tmp_path / "f.new").write_bytes(b"two\n")
        os.replace(tmp_path / "f.new", f)

    t = later(0.15, append(f, b"more\n"), rotate, append(f, b"three\n"))
    r = kernel.execute("tail -F -s 0.05 f", timeout=0.75)
    t.join()
    assert out_of(r) == "one\nmore\ntwo\nthree\n"
    assert "tail: 'f' has been replaced;  following new file\n" in r.err


def test_follow_name_reports_a_missing_file_and_its_return(
    kernel: Kernel, tmp_path: Path
) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"x\n")
    t = later(0.15, f.unlink, lambda: f.write_bytes(b"back\n"), gap=0.25)
    r = kernel.execute("tail --follow=name --retry -s 0.05 f", timeout=0.7)
    t.join()
    assert out_of(r) == "x\nback\n"
    assert "'f' has become inaccessible: No such file or directory" in r.err
    assert "'f' has appeared;  following new file" in r.err


def test_follow_by_descriptor_keeps_reading_a_renamed_file(
    kernel: Kernel, tmp_path: Path
) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"a\n")
    t = later(0.15, lambda: f.rename(tmp_path / "g"), append(tmp_path / "g", b"b\n"))
    r = kernel.execute("tail -f -s 0.05 f", timeout=0.7)
    t.join()
    assert out_of(r) == "a\nb\n"


def test_several_files_get_a_header_when_output_switches(
    kernel: Kernel, tmp_path: Path
) -> None:
    (tmp_path / "a").write_bytes(b"a1\n")
    (tmp_path / "b").write_bytes(b"b1\n")
    t = later(0.15, append(tmp_path / "a", b"a2\n"), append(tmp_path / "a", b"a3\n"),
              append(tmp_path / "b", b"b2\n"))
    r = kernel.execute("tail -f -s 0.05 a b", timeout=0.7)
    t.join()
    assert out_of(r) == (
        "==> a <==\na1\n\n==> b <==\nb1\n\n==> a <==\na2\na3\n\n==> b <==\nb2\n"
    )


def test_cancel_ends_follow_quickly_with_130(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x\n")
    stamp: list[float] = []

    def cancel() -> None:
        stamp.append(time.monotonic())
        kernel.cancel()

    t = later(0.2, cancel)
    r = kernel.execute("tail -f -s 10 f")
    ended = time.monotonic()
    t.join()
    assert r.code == 130
    assert out_of(r) == "x\n"
    assert ended - stamp[0] < 2  # not the 10 s poll interval


def test_time_limit_ends_follow_with_124(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x\n")
    start = time.monotonic()
    r = kernel.execute("tail -f f", timeout=0.3)
    assert r.code == 124
    assert time.monotonic() - start < 2  # the limit, not the next 1 s poll or later
    assert "time limit" in r.err


def test_follow_works_on_the_in_memory_filesystem() -> None:
    k = Kernel.isolated(files={"log": b"first\n"})
    path = k.cwd + "/log"
    t = later(0.15, lambda: k.fs.write_bytes(path, b"second\n", append=True),
              lambda: k.fs.write_bytes(path, b"\xff\xfe raw\n", append=True))
    r = k.execute("tail -f -s 0.05 log", timeout=0.6, binary=True)
    t.join()
    assert r.out == b"first\nsecond\n\xff\xfe raw\n"


def test_follow_name_sees_a_replaced_in_memory_file() -> None:
    k = Kernel.isolated(files={"log": b"one\n"})
    path = k.cwd + "/log"

    def rotate() -> None:
        k.fs.rename(path, path + ".1")
        k.fs.write_bytes(path, b"two\n")

    t = later(0.15, rotate)
    r = k.execute("tail -F -s 0.05 log", timeout=0.5)
    t.join()
    assert out_of(r) == "one\ntwo\n"
    assert "has been replaced" in r.err or "has appeared" in r.err


def test_following_a_pipe_is_ignored(kernel: Kernel) -> None:
    r = kernel.execute("echo hi | tail -f", timeout=2)
    assert (r.code, out_of(r), r.err) == (0, "hi\n", "")


def test_follow_name_refuses_standard_input(kernel: Kernel) -> None:
    r = kernel.execute("tail -F", timeout=2)
    assert r.code == 1
    assert r.err == "tail: cannot follow '-' by name\n"


def test_a_missing_file_without_retry_leaves_no_files(kernel: Kernel) -> None:
    r = kernel.execute("tail -f nope", timeout=2)
    assert r.code == 1
    assert r.err.endswith("tail: no files remaining\n")


def test_retry_and_pid_without_follow_only_warn(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x\n")
    r = kernel.execute("tail --retry --pid=1 f")
    assert (r.code, out_of(r)) == (0, "x\n")
    assert "--retry ignored" in r.err and "PID ignored" in r.err


def test_follow_stops_after_the_pid_writer_is_gone(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x\n")
    child = subprocess.Popen(["sleep", "0.2"])
    reaper = threading.Thread(target=child.wait, daemon=True)  # a zombie still exists
    reaper.start()
    r = kernel.execute(f"tail -f -s 0.05 --pid={child.pid} f", timeout=3)
    reaper.join()
    assert (r.code, out_of(r)) == (0, "x\n")


def test_bad_follow_word_and_negative_sleep_are_refused(kernel: Kernel) -> None:
    r = kernel.execute("tail --follow=sideways f")
    assert r.code == 2 and "expected one of descriptor, name" in r.err
    r = kernel.execute("tail -f -s -1 f")
    assert r.code == 1 and "invalid number of seconds" in r.err


def test_cli_streams_appended_lines_to_a_pipe(tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"a\n")
    proc = subprocess.Popen(
        [TYSH, "-c", "tail -f -s 0.05 f"], cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"a\n"
        append(f, b"b\n")()
        assert proc.stdout.readline() == b"b\n"  # flushed at once, not at exit
    finally:
        proc.terminate()
        proc.wait(timeout=5)


def test_interrupt_stops_follow_in_the_cli_with_130(tmp_path: Path) -> None:
    """Ctrl-C reaches the kernel as KeyboardInterrupt, as in the REPL."""
    (tmp_path / "f").write_bytes(b"a\n")
    proc = subprocess.Popen(
        [TYSH, "-c", "tail -f f"], cwd=tmp_path, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"a\n"
    proc.send_signal(signal.SIGINT)
    try:
        assert proc.wait(timeout=2) == 130
    finally:
        proc.kill()
        proc.communicate()


def test_follow_ends_when_the_pipe_reader_has_gone(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"a\nb\n")
    start = time.monotonic()
    r = kernel.execute("tail -f -s 0.05 f | head -n 1; echo ${PIPESTATUS[@]}", timeout=3)
    assert (r.code, out_of(r)) == (0, "a\n141 0\n")
    assert time.monotonic() - start < 2.5  # not the 3 s time limit


def test_bytes_given_as_stdin_are_not_followed() -> None:
    r = Kernel.isolated().execute("tail -f", stdin=b"x\n", timeout=2)
    assert (r.code, out_of(r)) == (0, "x\n")


def test_a_file_on_stdin_is_followed(kernel: Kernel, tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"a\n")
    t = later(0.15, append(f, b"b\n"))
    r = kernel.execute("tail -f -s 0.05 < f", timeout=0.5)
    t.join()
    assert out_of(r) == "a\nb\n"


def test_bare_long_follow_is_by_descriptor_and_schema_allows_both_forms(
    kernel: Kernel, tmp_path: Path
) -> None:
    from tysh.builtins import get_builtin
    from tysh.kernel.tools.schema import param_json_schema

    f = tmp_path / "f"
    f.write_bytes(b"a\n")
    t = later(0.15, lambda: f.rename(tmp_path / "g"), append(tmp_path / "g", b"b\n"))
    r = kernel.execute("tail --follow -s 0.05 f", timeout=0.6)
    t.join()
    assert out_of(r) == "a\nb\n"
    tail = get_builtin("tail")
    assert tail is not None
    follow = next(p for p in tail.schema.params if p.name == "follow")
    assert param_json_schema(follow)["oneOf"] == [
        {"type": "boolean"}, {"type": "string", "enum": ["descriptor", "name"]}]
