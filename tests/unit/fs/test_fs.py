"""The filesystem kinds behind `ctx.fs`: local, confined, in-memory and overlay."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fskinds import KINDS, make

from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.fs.memory import MemoryFileSystem
from tysh.kernel.fs.overlay import OverlayFileSystem


@pytest.mark.parametrize("kind", KINDS)
def test_written_file_reads_back_and_appends(kind: str, tmp_path: Path) -> None:
    fs, root = make(kind, tmp_path)
    fs.write_bytes(root + "/a.txt", b"one\n")
    fs.write_bytes(root + "/a.txt", b"two\n", append=True)
    assert fs.read_bytes(root + "/a.txt") == b"one\ntwo\n"
    assert fs.stat(root + "/a.txt").size == 8
    assert fs.is_file(root + "/a.txt") and not fs.is_dir(root + "/a.txt")


@pytest.mark.parametrize("kind", KINDS)
def test_missing_file_reports_no_such_file(kind: str, tmp_path: Path) -> None:
    fs, root = make(kind, tmp_path)
    with pytest.raises(FsError) as e:
        fs.open(root + "/missing.txt")
    assert e.value.reason == "No such file or directory"
    assert not fs.exists(root + "/missing.txt")


@pytest.mark.parametrize("kind", KINDS)
def test_mkdir_listdir_rename_remove(kind: str, tmp_path: Path) -> None:
    fs, root = make(kind, tmp_path)
    fs.mkdir(root + "/d/e", parents=True)
    fs.write_bytes(root + "/d/e/f", b"x")
    assert sorted(fs.listdir(root + "/d")) == ["e"]
    fs.rename(root + "/d/e/f", root + "/d/g")
    assert sorted(fs.listdir(root + "/d")) == ["e", "g"]
    fs.remove(root + "/d/g")
    fs.rmdir(root + "/d/e")
    assert fs.listdir(root + "/d") == []
    with pytest.raises(FsError):
        fs.mkdir(root + "/d")


@pytest.mark.parametrize("kind", KINDS)
def test_walk_lists_tree_top_down_sorted(kind: str, tmp_path: Path) -> None:
    fs, root = make(kind, tmp_path)
    fs.mkdir(root + "/b/c", parents=True)
    fs.write_bytes(root + "/a", b"")
    fs.write_bytes(root + "/b/c/d", b"")
    walked = [(top[len(root):], dirs, files) for top, dirs, files in fs.walk(root)]
    assert walked == [("", ["b"], ["a"]), ("/b", ["c"], []), ("/b/c", [], ["d"])]


@pytest.mark.parametrize("kind", ["local", "confined", "memory"])
def test_symlink_is_followed_by_stat_and_not_by_lstat(kind: str, tmp_path: Path) -> None:
    fs, root = make(kind, tmp_path)
    fs.write_bytes(root + "/t", b"data")
    fs.symlink("t", root + "/l")
    assert fs.read_bytes(root + "/l") == b"data"
    assert fs.stat(root + "/l", follow=False).kind == "symlink"
    assert fs.readlink(root + "/l") == "t"
    assert fs.realpath(root + "/l") == fs.realpath(root + "/t")


def test_confined_refuses_paths_outside_root(tmp_path: Path) -> None:
    fs, root = make("confined", tmp_path)
    (tmp_path / "secret").write_text("s")
    for p in [str(tmp_path / "secret"), root + "/../secret", "/etc/passwd"]:
        with pytest.raises(FsError) as e:
            fs.open(p)
        assert "outside the sandbox" in e.value.reason
    with pytest.raises(FsError):
        fs.open(str(tmp_path / "new"), "wb")
    assert not (tmp_path / "new").exists()


def test_confined_refuses_symlink_pointing_out(tmp_path: Path) -> None:
    fs, root = make("confined", tmp_path)
    (tmp_path / "secret").write_text("s")
    os.symlink(str(tmp_path / "secret"), root + "/link")
    with pytest.raises(FsError):
        fs.read_bytes(root + "/link")
    with pytest.raises(FsError):
        fs.write_bytes(root + "/link", b"overwrite")
    assert (tmp_path / "secret").read_text() == "s"
    # the link itself may be inspected and removed
    assert fs.stat(root + "/link", follow=False).kind == "symlink"
    fs.remove(root + "/link")


def test_confined_allows_dev_null(tmp_path: Path) -> None:
    fs, _ = make("confined", tmp_path)
    fs.write_bytes("/dev/null", b"gone")
    assert fs.read_bytes("/dev/null") == b""


def test_memory_limit_gives_no_space_left(tmp_path: Path) -> None:
    fs = MemoryFileSystem(max_bytes=10)
    fs.write_bytes("/a", b"12345")
    with pytest.raises(FsError) as e:
        fs.write_bytes("/b", b"123456789")
    assert e.value.reason == "No space left on device"
    fs.remove("/a")
    fs.write_bytes("/b", b"123456789")


def test_overlay_leaves_lower_untouched_and_lists_changes(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "keep").write_text("k\n")
    (root / "edit").write_text("old\n")
    (root / "gone").write_text("g\n")
    fs = OverlayFileSystem(ConfinedFileSystem(str(root)))
    r = str(root)
    fs.write_bytes(r + "/edit", b"new\n")
    fs.write_bytes(r + "/added", b"a\n")
    fs.remove(r + "/gone")
    assert not fs.exists(r + "/gone")
    assert sorted(fs.listdir(r)) == ["added", "edit", "keep"]
    assert (root / "edit").read_text() == "old\n" and (root / "gone").exists()
    assert [(c.kind, c.path[len(r):]) for c in fs.changes()] == [
        ("added", "/added"), ("modified", "/edit"), ("deleted", "/gone"),
    ]
    assert "-old\n+new\n" in fs.diff()
    fs.commit(LocalFileSystem())
    assert (root / "edit").read_text() == "new\n"
    assert (root / "added").read_text() == "a\n"
    assert not (root / "gone").exists()
    assert fs.changes() == []


def test_memory_touch_of_a_new_file_updates_its_directory_mtime() -> None:
    fs = MemoryFileSystem()
    fs.mkdir("/d")
    fs.touch("/d", mtime=1.0)
    fs.touch("/d/new")
    assert fs.stat("/d").mtime > 1.0
