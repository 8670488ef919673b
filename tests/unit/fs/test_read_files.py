"""A directory's batch read (`read_files`, what `grep -r` reads a tree with) gives for
each name what `read_small`, the one-file path, gives: the same bytes for a small
regular file, a stream of the same content otherwise, the same error."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.local import LocalFileSystem


def _answer(got: Any) -> tuple[str, Any]:
    if isinstance(got, FsError):
        return "error", got.reason
    if isinstance(got, bytes):
        return "bytes", got
    try:
        return "stream", got.read()
    finally:
        got.close()


def _both(fs: Any, root: str, names: list[str], limit: int) -> tuple[list[Any], list[Any]]:
    with fs.open_dir(root) as d:
        batch = [(n, _answer(g)) for n, g in d.read_files(names, limit)]
        one = []
        for n in names:
            try:
                one.append((n, _answer(d.read_small(n, limit))))
            except FsError as e:
                one.append((n, ("error", e.reason)))
    return batch, one


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=6), st.integers(0, 24))
def test_a_batch_read_gives_each_file_as_reading_it_alone_does(
        tmp_path_factory: Any, sizes: list[int], limit: int) -> None:
    root = tmp_path_factory.mktemp("rf")
    names = [f"f{i}" for i in range(len(sizes))]
    for n, size in zip(names, sizes, strict=True):
        (root / n).write_bytes(b"x\n\xff" * size)
    for fs in (LocalFileSystem(), ConfinedFileSystem(str(root))):
        batch, one = _both(fs, str(root), names, limit)
        assert batch == one
        for (_, (kind, data)), size in zip(batch, sizes, strict=True):
            assert data == b"x\n\xff" * size
            assert kind == ("bytes" if 3 * size <= limit else "stream")


@pytest.mark.parametrize("size", [0, 1, (1 << 16) - 1, 1 << 16, (1 << 16) + 1, 200_000])
def test_files_of_sizes_about_an_allocation_s_own_mapping_are_read_whole_as_alone(
        tmp_path: Path, size: int) -> None:
    (tmp_path / "f").write_bytes(b"a" * size)
    batch, one = _both(LocalFileSystem(), str(tmp_path), ["f"], 1 << 18)
    assert batch == one == [("f", ("bytes", b"a" * size))]


def test_links_fifos_missing_and_unreadable_entries_read_as_alone(tmp_path: Path) -> None:
    (tmp_path / "t").write_bytes(b"target\n")
    os.symlink("t", tmp_path / "link")
    os.symlink("nowhere", tmp_path / "broken")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").mkdir()
    (tmp_path / "locked").write_bytes(b"secret\n")
    os.chmod(tmp_path / "locked", 0)
    names = ["link", "broken", "gone", "dir", "locked", "t"]
    for fs in (LocalFileSystem(), ConfinedFileSystem(str(tmp_path))):
        batch, one = _both(fs, str(tmp_path), names, 1 << 18)
        assert batch == one
        # a FIFO with no writer: read as alone (a stream, at its end at once)
        w = os.open(tmp_path / "fifo", os.O_RDWR | os.O_NONBLOCK)
        try:
            os.write(w, b"piped\n")
            with fs.open_dir(str(tmp_path)) as d:
                [(_, got)] = list(d.read_files(["fifo"], 1 << 18))
                assert not isinstance(got, (bytes, FsError))
                assert got.read(6) == b"piped\n"
                got.close()
        finally:
            os.close(w)


def test_a_file_that_reads_short_is_read_to_its_end(tmp_path: Path) -> None:
    # /proc files say size 0 and give a page or so a read: the batch reads on to the end
    proc = "/proc/self"
    if not os.path.exists(f"{proc}/maps"):
        pytest.skip("no /proc")
    fs = LocalFileSystem()
    with fs.open_dir(proc) as d:
        [(_, got)] = list(d.read_files(["maps"], 1 << 18))
        kind, data = _answer(got)
    assert data.endswith(b"\n") and b"[stack]" in data


def test_a_batch_with_a_name_that_is_no_entry_s_own_reads_each_as_alone(
        tmp_path: Path) -> None:
    # a path, "..", "." or "" in a batch is resolved as the filesystem resolves any
    # path (confined: refused outside the root), and the plain names with it as alone
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "inner").write_bytes(b"inner\n")
    (tmp_path / "top").write_bytes(b"top\n")
    root = tmp_path / "sub"
    for names in (["inner", "../top"], ["..", "inner"], ["inner", "."], ["", "inner"],
                  ["inner", "a\0b"], ["inner", "sub/../inner"]):
        for fs in (LocalFileSystem(), ConfinedFileSystem(str(root))):
            batch, one = _both(fs, str(root), names, 1 << 18)
            assert batch == one
            assert batch[names.index("inner")] == ("inner", ("bytes", b"inner\n"))


@given(st.lists(st.text(alphabet="ab/.\0", max_size=4), max_size=5))
def test_own_names_is_true_exactly_when_every_name_is_one_entry_s_own(
        names: list[str]) -> None:
    from tysh.kernel.fs.api import own_names

    each = all("/" not in n and "\0" not in n and n not in ("", ".", "..") for n in names)
    assert own_names(names) is each


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from([b"ne", b"edle", b"needle", b"x", b"\n", b"\0"]),
                         max_size=6).map(b"".join), min_size=1, max_size=5),
       st.sampled_from([b"needle", b"x\n", b"\0", b"e"]), st.integers(0, 40))
def test_a_batch_read_without_bytes_leaves_out_exactly_the_whole_files_lacking_them(
        tmp_path_factory: Any, contents: list[bytes], without: bytes, limit: int) -> None:
    # what is left out is what the caller would pass over itself: content read whole
    # that does not hold the bytes; streams (past the limit) and errors stay in
    root = tmp_path_factory.mktemp("rw")
    names = [f"f{i}" for i in range(len(contents))] + ["none"]
    for n, data in zip(names, contents, strict=False):
        (root / n).write_bytes(data)
    for fs in (LocalFileSystem(), ConfinedFileSystem(str(root))):
        with fs.open_dir(str(root)) as d:
            kept = [(n, _answer(g)) for n, g in d.read_files(names, limit, without)]
            every = [(n, _answer(g)) for n, g in d.read_files(names, limit)]
        assert kept == [(n, (kind, data)) for n, (kind, data) in every
                        if kind != "bytes" or without in data]


def test_a_batch_read_without_bytes_leaves_out_a_large_file_lacking_them(
        tmp_path: Path) -> None:
    # a file larger than a small buffer is read whole too, and left out just the same;
    # a link is opened as a stream, and stays in
    (tmp_path / "big").write_bytes(b"a" * 200_000)
    (tmp_path / "bigger").write_bytes(b"a" * 200_000 + b"needle\n")
    (tmp_path / "link").symlink_to("big")
    names = ["big", "bigger", "link"]
    for fs in (LocalFileSystem(), ConfinedFileSystem(str(tmp_path))):
        with fs.open_dir(str(tmp_path)) as d:
            got = [(n, _answer(g)) for n, g in d.read_files(names, 1 << 18, b"needle")]
        assert got == [("bigger", ("bytes", b"a" * 200_000 + b"needle\n")),
                       ("link", ("stream", b"a" * 200_000))]


@pytest.mark.parametrize("size", [0, 1, 99, 100, 101])
def test_files_about_the_limit_read_as_alone(tmp_path: Path, size: int) -> None:
    # the size a seek to the end gives decides a read of one byte more, or a stream
    (tmp_path / "f").write_bytes(b"a\n" * size)
    for fs in (LocalFileSystem(), ConfinedFileSystem(str(tmp_path))):
        batch, one = _both(fs, str(tmp_path), ["f"], 200)
        assert batch == one == [("f", ("bytes" if 2 * size <= 200 else "stream", b"a\n" * size))]


@pytest.mark.parametrize("change", ["grow", "shrink", "empty"])
def test_a_file_changed_between_the_seek_and_the_read_is_read_as_it_is_then(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    # a read of one byte more than the size that does not give the size (the file grew
    # or shrank after the seek) starts again on read_small's steps: the content then
    path = tmp_path / "f"
    path.write_bytes(b"first line\n" * 3)
    after = {"grow": b"first line\n" * 3 + b"more\n", "shrink": b"first",
             "empty": b""}[change]
    real_lseek = os.lseek
    changed = []

    def lseek(fd: int, pos: int, how: int) -> int:
        got = real_lseek(fd, pos, how)
        if how == os.SEEK_END and not changed:
            changed.append(True)
            path.write_bytes(after)
        return got

    for fs in (LocalFileSystem(), ConfinedFileSystem(str(tmp_path))):
        path.write_bytes(b"first line\n" * 3)
        changed.clear()
        with monkeypatch.context() as m:
            m.setattr(os, "lseek", lseek)
            with fs.open_dir(str(tmp_path)) as d:
                [(_, got)] = list(d.read_files(["f"], 1 << 10))
        assert changed
        assert _answer(got) == ("bytes", after)
        batch, one = _both(fs, str(tmp_path), ["f"], 1 << 10)
        assert batch == one == [("f", ("bytes", after))]


@pytest.mark.parametrize("path", ["/proc/sys/kernel/ostype", "/proc/self/status",
                                  "/sys/kernel/mm/transparent_hugepage/enabled"])
def test_files_whose_size_is_not_their_length_read_as_alone(path: str) -> None:
    # /proc/sys says size 0 and has content; /sys says a page and has less; /proc's
    # seq files refuse a seek to the end: each is read as read_small reads it
    if not os.path.exists(path):
        pytest.skip(f"no {path}")
    head, name = os.path.split(path)
    fs = LocalFileSystem()
    batch, one = _both(fs, head, [name], 1 << 18)
    [(_, (kind, data))] = batch
    assert data and data.endswith(b"\n")
    if name == "status":  # (its numbers change between two reads)
        assert [k for _, (k, _) in batch] == [k for _, (k, _) in one]
    else:
        assert batch == one


@pytest.mark.parametrize("every", [False, True])
@pytest.mark.parametrize("err", [errno.ESPIPE, errno.EINVAL, errno.EIO, errno.EOVERFLOW])
def test_a_seek_to_the_end_that_fails_is_no_error_of_the_file_s(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err: int, every: bool) -> None:
    # read_small never seeks to the end: whatever such a seek fails with, the file
    # reads on read_small's steps, from where it is (a descriptor may refuse every seek)
    (tmp_path / "small").write_bytes(b"small\n")
    (tmp_path / "big").write_bytes(b"big\n" * 100)
    real_lseek = os.lseek

    def lseek(fd: int, pos: int, how: int) -> int:
        if how == os.SEEK_END or every:
            raise OSError(err, os.strerror(err))
        return real_lseek(fd, pos, how)

    for fs in (LocalFileSystem(), ConfinedFileSystem(str(tmp_path))):
        with monkeypatch.context() as m:
            m.setattr(os, "lseek", lseek)
            batch, one = _both(fs, str(tmp_path), ["small", "big"], 64)
        assert batch == one == [("small", ("bytes", b"small\n")),
                                ("big", ("stream", b"big\n" * 100))]
