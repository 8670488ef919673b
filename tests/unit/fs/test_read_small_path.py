"""`FileSystem.read_small(path, limit)`: a small regular file's whole content, anything
else the file `open(path, "rb")` gives, and `open`'s errors — on a confined filesystem
(a first read and a read of a path it kept), its scratch variant and in memory."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest

from tysh.kernel.fs.api import FileSystem, FsError
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.memory import MemoryFileSystem
from tysh.kernel.fs.scratch import ScratchFileSystem


def _by_open(fs: FileSystem, path: str) -> tuple[str, Any]:
    try:
        with fs.open(path, "rb") as f:
            return "bytes", f.read()
    except FsError as e:
        return "error", e.reason


def _by_read_small(fs: FileSystem, path: str, limit: int) -> tuple[str, Any, bool]:
    try:
        got = fs.read_small(path, limit)
    except FsError as e:
        return "error", e.reason, False
    if isinstance(got, bytes):
        return "bytes", got, True
    with got:
        return "bytes", got.read(), False


def _tree(root: Path, out: Path) -> None:
    root.mkdir()
    out.mkdir()
    (root / "small").write_bytes(b"pear\napple\n")
    (root / "empty").write_bytes(b"")
    (root / "big").write_bytes(b"x" * 5000)
    (root / "d").mkdir()
    (root / "d" / "inner").write_bytes(b"inner\n")
    (root / "link").symlink_to("small")
    (root / "outside").symlink_to(out / "secret")
    (out / "secret").write_bytes(b"SECRET")
    (root / "loop").symlink_to("loop")
    os.mkfifo(root / "fifo")


NAMES = ["small", "empty", "big", "d", "d/inner", "link", "outside", "loop", "fifo", "gone",
         "small/"]


@pytest.mark.parametrize("kind", ["confined", "scratch"])
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("again", [False, True])
def test_read_small_gives_what_open_gives(tmp_path: Path, kind: str, name: str,
                                          again: bool) -> None:
    root, out = tmp_path / "root", tmp_path / "out"
    _tree(root, out)
    make = ConfinedFileSystem if kind == "confined" else ScratchFileSystem
    fs = make(str(root))
    path = str(root) + "/" + name
    if name == "fifo":  # (open and read_small alike: a stream, never read whole)
        got = fs.read_small(path, 4096)
        assert not isinstance(got, bytes)
        got.close()
        return
    if again:  # a path read before: the filesystem keeps how it reached it
        _by_open(fs, path)
    want = _by_open(fs, path)
    got = _by_read_small(fs, path, 4096)
    assert got[:2] == want
    assert got[1] != b"SECRET"
    if got[2]:  # read whole: only a regular file within the limit
        assert name in ("small", "empty", "link")
    if again and name in ("small", "empty") and fs._read_at is not None:
        assert got[2]  # a kept file in the root: one open and one read


@pytest.mark.parametrize("kind", ["confined", "scratch"])
def test_a_kept_file_that_changes_is_read_as_it_is_now(tmp_path: Path, kind: str) -> None:
    root, out = tmp_path / "root", tmp_path / "out"
    _tree(root, out)
    make = ConfinedFileSystem if kind == "confined" else ScratchFileSystem
    fs = make(str(root))
    path = str(root / "small")
    assert _by_read_small(fs, path, 4096)[:2] == ("bytes", b"pear\napple\n")
    (root / "small").write_bytes(b"y" * 10)
    assert _by_read_small(fs, path, 4096)[:2] == ("bytes", b"y" * 10)
    (root / "small").write_bytes(b"z" * 5000)  # past the limit: a stream
    assert _by_read_small(fs, path, 4096) == ("bytes", b"z" * 5000, False)
    (root / "small").unlink()
    (root / "small").symlink_to(out / "secret")
    assert _by_read_small(fs, path, 4096)[0] == "error"
    (root / "small").unlink()
    assert _by_read_small(fs, path, 4096) == _by_open(fs, path) + (False,)


def test_memory_read_small_gives_a_stream_of_the_file() -> None:
    fs = MemoryFileSystem()
    fs.write_bytes("/f", b"abc")
    got = fs.read_small("/f", 10)
    assert isinstance(got, (bytes, io.IOBase)) or hasattr(got, "read")
    data = got if isinstance(got, bytes) else got.read()
    assert data == b"abc"
    with pytest.raises(FsError):
        fs.read_small("/nope", 10)


@pytest.mark.parametrize("name", NAMES)
def test_the_hosts_read_small_gives_what_its_open_gives(tmp_path: Path, name: str) -> None:
    from tysh.kernel.fs.local import LocalFileSystem

    root, out = tmp_path / "root", tmp_path / "out"
    _tree(root, out)
    fs = LocalFileSystem()
    path = str(root) + "/" + name
    if name == "fifo":
        got = fs.read_small(path, 4096)
        assert not isinstance(got, bytes)
        got.close()
        return
    got = _by_read_small(fs, path, 4096)
    assert got[:2] == _by_open(fs, path)
    assert got[2] == (name in ("small", "empty", "link", "outside", "d/inner"))
