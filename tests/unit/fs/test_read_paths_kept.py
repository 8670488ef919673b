"""A confined filesystem (and `Kernel(cwd)`'s, with its private /tmp) remembers the path
below the root of a file it opened for reading; a later read of that path gives what the
whole resolution would give, whatever changed on disk in between: the same bytes, the
same refusal (outside the sandbox, a loop, a directory, a file gone), on openat2's path
and on the walk's."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tysh.kernel.fs.confined as confined_mod
from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.scratch import ScratchFileSystem


def _answer(fs: ConfinedFileSystem, path: str) -> tuple[str, Any]:
    try:
        with fs.open(path, "rb") as f:
            return "bytes", f.read()
    except FsError as e:
        return "error", e.reason


def _replace(p: Path, make: Callable[[Path], None]) -> None:
    if p.is_symlink() or p.is_file():
        p.unlink()
    elif p.is_dir():
        p.rmdir()
    make(p)


CHANGES: dict[str, Callable[[Path, Path], None]] = {
    "unchanged": lambda root, out: None,
    "rewritten": lambda root, out: (root / "a" / "f").write_bytes(b"new\n"),
    "gone": lambda root, out: (root / "a" / "f").unlink(),
    "a directory": lambda root, out: _replace(root / "a" / "f", lambda p: p.mkdir()),
    "a link inside": lambda root, out: _replace(
        root / "a" / "f", lambda p: p.symlink_to(root / "g")),
    "a relative link": lambda root, out: _replace(
        root / "a" / "f", lambda p: p.symlink_to("../g")),
    "a link outside": lambda root, out: _replace(
        root / "a" / "f", lambda p: p.symlink_to(out / "s")),
    "a loop": lambda root, out: _replace(root / "a" / "f", lambda p: p.symlink_to("f")),
    "its folder a link outside": lambda root, out: (
        (root / "a" / "f").unlink(), (root / "a").rmdir(), (root / "a").symlink_to(out)),
    "its folder a file": lambda root, out: (
        (root / "a" / "f").unlink(), (root / "a").rmdir(), (root / "a").write_bytes(b"")),
}


@pytest.mark.parametrize("kind", ["confined", "scratch"])
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_path_read_again_gives_what_a_fresh_resolution_gives(
        tmp_path: Path, how: str, kind: str, change: str) -> None:
    root, out = tmp_path / "root", tmp_path / "out"
    (root / "a").mkdir(parents=True)
    (root / "a" / "f").write_bytes(b"old\n")
    (root / "g").write_bytes(b"g\n")
    out.mkdir()
    (out / "s").write_bytes(b"SECRET")
    make = ConfinedFileSystem if kind == "confined" else ScratchFileSystem
    kept = make(str(root))
    path = str(root / "a" / "f")
    assert _answer(kept, path) == ("bytes", b"old\n")
    assert (path in kept._reads) == (how == "openat2")
    CHANGES[change](root, out)
    assert _answer(kept, path) == _answer(make(str(root)), path)
    assert _answer(kept, path) != ("bytes", b"SECRET")


def test_the_paths_kept_are_bounded(tmp_path: Path) -> None:
    fs = ConfinedFileSystem(str(tmp_path))
    for i in range(confined_mod._READS_KEPT + 10):
        (tmp_path / f"f{i}").write_bytes(b"x")
        assert _answer(fs, str(tmp_path / f"f{i}")) == ("bytes", b"x")
        assert len(fs._reads) <= confined_mod._READS_KEPT


@pytest.mark.parametrize("path", ["/dev/null", "/tmp/x", "ROOT/", "ROOT/d/", "ROOT"])
def test_paths_read_another_way_are_not_kept(tmp_path: Path, path: str) -> None:
    (tmp_path / "d").mkdir()
    fs = ScratchFileSystem(str(tmp_path))
    path = path.replace("ROOT", str(tmp_path))
    if path == "/tmp/x":  # (the private /tmp, in memory)
        fs.scratch.write_bytes(path, b"")
    _answer(fs, path)
    assert path not in fs._reads


# a file in the root itself, which a kept read opens by its one name (no link followed)
ROOT_CHANGES: dict[str, Callable[[Path, Path], None]] = {
    "unchanged": lambda root, out: None,
    "rewritten": lambda root, out: (root / "f").write_bytes(b"new\n"),
    "gone": lambda root, out: (root / "f").unlink(),
    "a directory": lambda root, out: _replace(root / "f", lambda p: p.mkdir()),
    "a link inside": lambda root, out: _replace(root / "f", lambda p: p.symlink_to(root / "g")),
    "a relative link": lambda root, out: _replace(root / "f", lambda p: p.symlink_to("g")),
    "a link to a link": lambda root, out: (
        (root / "h").symlink_to("g"), _replace(root / "f", lambda p: p.symlink_to("h"))),
    "a link outside": lambda root, out: _replace(root / "f", lambda p: p.symlink_to(out / "s")),
    "a relative link outside": lambda root, out: _replace(
        root / "f", lambda p: p.symlink_to("../out/s")),
    "a loop": lambda root, out: _replace(root / "f", lambda p: p.symlink_to("f")),
    "a link to /proc": lambda root, out: _replace(
        root / "f", lambda p: p.symlink_to("/proc/self/root/etc/hostname")),
}


@pytest.mark.parametrize("kind", ["confined", "scratch"])
@pytest.mark.parametrize("change", sorted(ROOT_CHANGES))
def test_a_file_in_the_root_read_again_gives_what_a_fresh_resolution_gives(
        tmp_path: Path, how: str, kind: str, change: str) -> None:
    root, out = tmp_path / "root", tmp_path / "out"
    root.mkdir()
    (root / "f").write_bytes(b"old\n")
    (root / "g").write_bytes(b"g\n")
    out.mkdir()
    (out / "s").write_bytes(b"SECRET")
    make = ConfinedFileSystem if kind == "confined" else ScratchFileSystem
    kept = make(str(root))
    path = str(root / "f")
    assert _answer(kept, path) == ("bytes", b"old\n")
    assert (path in kept._reads) == (how == "openat2")
    ROOT_CHANGES[change](root, out)
    got = _answer(kept, path)
    assert got == _answer(make(str(root)), path)
    assert got != ("bytes", b"SECRET")
    if change in ("a link inside", "a relative link", "a link to a link"):
        assert got == ("bytes", b"g\n")


@pytest.mark.parametrize("kind", ["confined", "scratch"])
@pytest.mark.parametrize("follow", [True, False])
def test_a_name_in_the_root_stats_as_the_same_name_deeper_down(
        tmp_path: Path, kind: str, follow: bool) -> None:
    """One name in the root is looked at without resolving a directory on the way; what
    it answers is what the general resolution answers for the same entry in a
    subdirectory: a link followed beneath the root, refused outside it, never followed
    when `follow` is off."""
    root, out = tmp_path / "root", tmp_path / "out"
    out.mkdir()
    (out / "s").write_bytes(b"SECRET")
    for d in (root, root / "sub"):
        d.mkdir()
        (d / "f").write_bytes(b"12345")
        (d / "g").write_bytes(b"g")
        (d / "dir").mkdir()
        (d / "in").symlink_to("g")
        (d / "out").symlink_to(out / "s")
        (d / "rel_out").symlink_to("../" * (len(d.relative_to(tmp_path).parts)) + "out/s")
        (d / "dangling").symlink_to("nope")
        (d / "loop").symlink_to("loop")
        os.mkfifo(d / "fifo")
    make = ConfinedFileSystem if kind == "confined" else ScratchFileSystem
    fs = make(str(root))

    def answer(path: str) -> tuple[str, Any]:
        try:
            st = fs.stat(path, follow)
        except FsError as e:
            return "error", e.reason
        # (a link's own size is its target's length, which the depth changes)
        return "stat", (st.kind, None if st.kind == "symlink" else st.size, st.mode)

    for name in ("f", "g", "dir", "in", "out", "rel_out", "dangling", "loop", "fifo", "none"):
        top, deep = answer(f"{root}/{name}"), answer(f"{root}/sub/{name}")
        assert top == deep, name
        if not follow and name in ("in", "out", "rel_out", "dangling", "loop"):
            assert top[1][0] == "symlink", name
        assert top != ("stat", ("file", 6, (out / "s").stat().st_mode)), name
