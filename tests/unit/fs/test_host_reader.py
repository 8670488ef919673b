"""A regular file opened for reading (`HostReader`, the short way) answers every call as
`io.BufferedReader` over the file's FileIO answers it, whatever the order of the calls:
the same bytes, positions, errors and closed state; and its descriptor is closed
however it is let go of."""

from __future__ import annotations

import gc
import io
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.kernel.fs import hostio
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.local import LocalFileSystem

_SIZES = st.one_of(st.none(), st.integers(-2, 40))
_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("read1"), _SIZES),
        st.tuples(st.just("read"), _SIZES),
        st.tuples(st.just("readline"), st.one_of(st.none(), st.integers(-1, 12))),
        st.tuples(st.just("seek"), st.integers(0, 40)),
        st.tuples(st.just("tell"), st.none()),
        st.tuples(st.just("next"), st.none()),
        st.tuples(st.just("readinto"), st.integers(0, 12)),
        st.tuples(st.just("peek"), st.integers(0, 4)),
        st.tuples(st.just("close"), st.none()),
        st.tuples(st.just("closed"), st.none()),
        st.tuples(st.just("name"), st.none()),
    ),
    max_size=12,
)


def _do(f: Any, op: str, arg: Any) -> tuple[str, Any]:
    try:
        if op in ("read1", "read"):
            return "ok", getattr(f, op)() if arg is None else getattr(f, op)(arg)
        if op == "readline":
            return "ok", f.readline() if arg is None else f.readline(arg)
        if op == "seek":
            return "ok", f.seek(arg)
        if op == "tell":
            return "ok", f.tell()
        if op == "next":
            return "ok", next(f)
        if op == "readinto":
            buf = bytearray(arg)
            n = f.readinto(buf)
            return "ok", (n, bytes(buf))
        if op == "peek":
            f.peek(arg)  # (how much a peek shows is the buffer's business, not the file's)
            return "ok", f.tell()
        if op == "close":
            return "ok", f.close()
        if op == "closed":
            return "ok", f.closed
        return "ok", f.name
    except StopIteration:
        return "stop", None
    except (ValueError, OSError) as e:
        return type(e).__name__, str(e)


def _reference(path: str) -> io.BufferedReader:
    raw = hostio.HostFile(os.open(path, os.O_RDONLY | os.O_CLOEXEC), "r", closefd=True)
    raw.name = path
    return io.BufferedReader(raw)


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=60).map(lambda b: b.replace(b"\0", b"\n")), ops=_OPS)
def test_a_host_reader_answers_every_call_as_a_buffered_reader_does(
        tmp_path_factory: pytest.TempPathFactory, data: bytes,
        ops: list[tuple[str, Any]]) -> None:
    path = str(tmp_path_factory.mktemp("r") / "f")
    Path(path).write_bytes(data)
    ours = hostio.wrap_fd(os.open(path, hostio.mode_flags("rb")), "rb", path, lambda: None)
    want = _reference(path)
    assert type(ours) is hostio.HostReader
    try:
        for op, arg in ops:
            assert _do(ours, op, arg) == _do(want, op, arg), (op, arg)
    finally:
        ours.close()
        want.close()


@pytest.mark.parametrize("kind", ["local", "confined"])
def test_a_file_read_to_its_end_by_read1_asks_for_no_seek_and_one_stat(
        tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "f").write_bytes(b"pear\napple\n")
    fs = LocalFileSystem() if kind == "local" else ConfinedFileSystem(str(tmp_path))
    calls: list[str] = []
    real_fstat, real_lseek = os.fstat, os.lseek
    monkeypatch.setattr(os, "fstat", lambda fd: calls.append("fstat") or real_fstat(fd))
    monkeypatch.setattr(os, "lseek", lambda *a: calls.append("lseek") or real_lseek(*a))
    with fs.open(str(tmp_path / "f"), "rb") as f:
        got = b"".join(iter(lambda: f.read1(1 << 18), b""))
    assert got == b"pear\napple\n"
    assert calls == ["fstat"]


def test_a_host_reader_let_go_of_unclosed_closes_its_descriptor(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x\n")
    for lines in (False, True):
        fd = os.open(tmp_path / "f", hostio.mode_flags("rb"))
        f = hostio.wrap_fd(fd, "rb", str(tmp_path / "f"), lambda: None)
        if lines:
            assert f.readline() == b"x\n"  # its BufferedReader now owns the descriptor
        del f
        gc.collect()
        with pytest.raises(OSError):
            os.fstat(fd)


def test_a_host_reader_is_a_context_manager_and_refuses_reads_once_closed(
        tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"abc")
    path = str(tmp_path / "f")
    with hostio.wrap_fd(os.open(path, hostio.mode_flags("rb")), "rb", path,
                        lambda: None) as f:
        assert f.read() == b"abc"
    for call in (lambda: f.read1(1), lambda: f.read(), f.fileno, lambda: f.__enter__()):
        with pytest.raises(ValueError):
            call()


def _open(path: str) -> Any:
    return hostio.wrap_fd(os.open(path, hostio.mode_flags("rb")), "rb", path, lambda: None)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=80), size=st.integers(1, 100),
       change=st.one_of(st.none(), st.binary(min_size=1, max_size=40), st.integers(0, 80)),
       first=st.integers(0, 3))
def test_copy_to_writes_what_a_read1_loop_writes_for_a_file_that_grows_or_shrinks(
        tmp_path_factory: pytest.TempPathFactory, data: bytes, size: int,
        change: bytes | int | None, first: int) -> None:
    path = str(tmp_path_factory.mktemp("c") / "f")
    Path(path).write_bytes(data)
    ours, want = _open(path), _reference(path)
    try:
        if first:  # a file partly read already is copied from where it is
            assert ours.read1(first) == want.read1(first)
        if isinstance(change, bytes):  # grown since the open
            with open(path, "ab") as f:
                f.write(change)
        elif change is not None:  # cut short since the open
            os.truncate(path, min(change, len(data)))
        got = io.BytesIO()
        ours.copy_to(got, size)
        assert got.getvalue() == b"".join(iter(lambda: want.read1(size), b""))
    finally:
        ours.close()
        want.close()


def test_a_small_file_is_copied_by_one_read_a_grown_one_to_its_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(tmp_path / "f")
    Path(path).write_bytes(b"pear\napple\n")
    reads: list[int] = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    f = _open(path)
    got = io.BytesIO()
    f.copy_to(got, 1 << 18)
    f.close()
    assert (got.getvalue(), reads) == (b"pear\napple\n", [12])
    reads.clear()
    f = _open(path)
    with open(path, "ab") as g:
        g.write(b"fig\n")
    got = io.BytesIO()
    f.copy_to(got, 1 << 18)
    f.close()
    assert (got.getvalue(), len(reads)) == (b"pear\napple\nfig\n", 3)


def test_a_file_whose_reported_size_is_zero_is_copied_until_a_read_gives_nothing() -> None:
    path = "/proc/self/status"
    if not os.path.exists(path):
        pytest.skip("no /proc here")
    f = _open(path)
    got = io.BytesIO()
    f.copy_to(got, 1 << 18)
    f.close()
    assert got.getvalue().startswith(b"Name:") and got.getvalue().endswith(b"\n")


def _read_until_closed(f: Any, got: list[bytes], errors: list[str]) -> None:
    try:
        while chunk := f.read1(7):
            got.append(chunk)
    except ValueError as e:  # read of closed file
        errors.append(str(e))


def test_a_file_closed_while_another_thread_reads_it_is_never_read_after(
        tmp_path: Path) -> None:
    import threading

    (tmp_path / "a").write_bytes(b"a" * 200_000)
    (tmp_path / "b").write_bytes(b"b" * 1000)
    for _ in range(20):
        f = _open(str(tmp_path / "a"))
        got: list[bytes] = []
        errors: list[str] = []
        t = threading.Thread(target=_read_until_closed, args=(f, got, errors))
        t.start()
        f.close()
        others = [os.open(tmp_path / "b", os.O_RDONLY) for _ in range(8)]  # reuse fds
        t.join()
        for fd in others:
            os.close(fd)
        assert b"b" not in b"".join(got)
        assert set(errors) <= {"read of closed file"}
