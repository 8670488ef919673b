"""Rules every filesystem kind follows (local, confined, memory, overlay): a trailing `/`
names a directory, a NUL byte is an invalid name, `replace()` swaps in a whole new
content or leaves the old one, `make_dirs()` walks any depth, and the confined kind
resolves beneath its root on file descriptors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from deeptree import remove_tree
from fskinds import KINDS, make

from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.confined import ConfinedFileSystem


def _reason(fn: Any) -> str:
    with pytest.raises(FsError) as e:
        fn()
    return e.value.reason


@pytest.mark.parametrize("kind", KINDS)
def test_a_trailing_slash_on_a_file_is_not_a_directory(kind: str, tmp_path: Path) -> None:
    fs, r = make(kind, tmp_path)
    fs.write_bytes(r + "/f", b"F")
    fs.mkdir(r + "/d")
    nd = "Not a directory"
    assert _reason(lambda: fs.stat(r + "/f/")) == nd
    assert _reason(lambda: fs.stat(r + "/f/", follow=False)) == nd
    assert _reason(lambda: fs.open(r + "/f/")) == nd
    assert _reason(lambda: fs.open(r + "/f/", "wb")) == "Is a directory"  # as Linux says
    assert _reason(lambda: fs.remove(r + "/f/")) == nd
    assert _reason(lambda: fs.rmdir(r + "/f/")) == nd
    assert _reason(lambda: fs.rename(r + "/f/", r + "/g")) == nd
    assert _reason(lambda: fs.rename(r + "/f", r + "/g/")) == nd
    assert not fs.exists(r + "/f/") and not fs.is_file(r + "/f/")
    assert fs.read_bytes(r + "/f") == b"F"  # nothing was removed, renamed or truncated
    assert fs.stat(r + "/d/").kind == "directory"
    assert _reason(lambda: fs.remove(r + "/d/")) == "Is a directory"
    assert _reason(lambda: fs.open(r + "/new/", "wb")) == "Is a directory"
    assert not fs.exists(r + "/new")
    fs.rmdir(r + "/d/")
    assert not fs.exists(r + "/d")


@pytest.mark.parametrize("kind", KINDS)
def test_a_nul_in_a_path_is_an_error_value(kind: str, tmp_path: Path) -> None:
    fs, r = make(kind, tmp_path)
    bad = r + "/a\0b"
    for op in (lambda: fs.open(bad), lambda: fs.open(bad, "wb"), lambda: fs.stat(bad),
               lambda: fs.listdir(bad), lambda: fs.mkdir(bad), lambda: fs.remove(bad),
               lambda: fs.rename(r, bad), lambda: fs.symlink("x", bad),
               lambda: fs.touch(bad), lambda: fs.chmod(bad, 0o644)):
        assert "NUL" in _reason(op)
    assert not fs.exists(bad) and not fs.is_dir(bad) and not fs.is_file(bad)


@pytest.mark.parametrize("kind", KINDS)
def test_replace_swaps_in_the_whole_content_keeping_the_mode(kind: str,
                                                             tmp_path: Path) -> None:
    fs, r = make(kind, tmp_path)
    fs.write_bytes(r + "/f", b"old")
    fs.chmod(r + "/f", 0o640)
    with fs.replace(r + "/f") as f:
        f.write(b"new ")
        f.write(b"content")
    assert fs.read_bytes(r + "/f") == b"new content"
    assert fs.stat(r + "/f").mode & 0o777 == 0o640
    assert sorted(fs.listdir(r)) == ["f"]


@pytest.mark.parametrize("kind", KINDS)
def test_replace_that_fails_leaves_the_original(kind: str, tmp_path: Path) -> None:
    fs, r = make(kind, tmp_path)
    fs.write_bytes(r + "/f", b"original")
    with pytest.raises(RuntimeError), fs.replace(r + "/f") as f:
        f.write(b"half")
        raise RuntimeError("the writer failed")
    assert fs.read_bytes(r + "/f") == b"original"
    assert sorted(fs.listdir(r)) == ["f"]
    assert _reason(lambda: fs.replace(r + "/f/").__enter__()) == "Not a directory"


@pytest.mark.parametrize("kind", KINDS)
def test_make_dirs_reports_what_it_made_and_goes_through_links(kind: str,
                                                                tmp_path: Path) -> None:
    fs, r = make(kind, tmp_path)
    fs.mkdir(r + "/a")
    fs.symlink("a", r + "/l")
    assert fs.make_dirs(r + "/l/b/c") == 2
    assert fs.is_dir(r + "/a/b/c")
    assert fs.make_dirs(r + "/a/b/c") == 0
    fs.write_bytes(r + "/f", b"")
    assert _reason(lambda: fs.make_dirs(r + "/f/x")) == "Not a directory"
    assert _reason(lambda: fs.make_dirs(r + "/f")) == "File exists"


@pytest.mark.parametrize("kind", ["local", "confined", "memory"])
def test_make_dirs_goes_deeper_than_a_path_can_be_long(kind: str, tmp_path: Path) -> None:
    """No `File name too long`: the host kinds walk from a directory fd, a level at a
    time (3000 levels: 6000 characters, past PATH_MAX). The confined kind resolves
    such paths component by component too; the unconfined one hands them to the host
    kernel, which refuses them as GNU's stat does."""
    fs, r = make(kind, tmp_path)
    deep = r + "/d" * 3000
    try:
        assert fs.make_dirs(deep) == 3000
        if kind != "local":
            assert fs.is_dir(deep)
            fs.write_bytes(deep + "/f", b"bottom")
            assert fs.read_bytes(deep + "/f") == b"bottom"
    finally:
        remove_tree(r + "/d")


def test_confined_walk_follows_links_beneath_the_root_only(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f").write_text("f")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "s").write_text("S")
    (root / "rel").symlink_to("a/b")
    (root / "abs").symlink_to(root / "a" / "b")
    (root / "up").symlink_to("a/b/../../..")
    (root / "loop").symlink_to("loop")
    (root / "x").symlink_to("loop/../up")
    fs = ConfinedFileSystem(str(root))
    r = str(root)
    assert fs.read_bytes(r + "/rel/f") == b"f"
    assert fs.read_bytes(r + "/abs/f") == b"f"
    assert fs.realpath(r + "/abs/f") == r + "/a/b/f"
    assert fs.realpath(r + "/rel/missing/more") == r + "/a/b/missing/more"
    denied = "Permission denied (outside the sandbox)"
    assert _reason(lambda: fs.read_bytes(r + "/up/out/s")) == denied
    assert _reason(lambda: fs.realpath(r + "/up")) == denied
    assert _reason(lambda: fs.read_bytes(r + "/x/out/s")) == "Too many levels of symbolic links"
    assert _reason(lambda: fs.stat(r + "/../out/s")) == denied
    assert _reason(lambda: fs.stat(str(tmp_path / "out" / "s"))) == denied
    assert fs.stat(r + "/up", follow=False).kind == "symlink"  # the link itself is inside


def test_confined_operations_on_a_link_never_touch_its_target(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "s").write_text("S")
    (root / "l").symlink_to(out / "s")
    fs = ConfinedFileSystem(str(root))
    r = str(root)
    denied = "Permission denied (outside the sandbox)"
    assert _reason(lambda: fs.chmod(r + "/l", 0o600)) == denied
    assert _reason(lambda: fs.touch(r + "/l", 1.0)) == denied
    assert _reason(lambda: fs.link(r + "/l", r + "/hard")) == denied
    assert _reason(lambda: fs.open(r + "/l", "ab")) == denied
    assert fs.readlink(r + "/l") == str(out / "s")
    fs.rename(r + "/l", r + "/l2")
    fs.remove(r + "/l2")
    assert (out / "s").read_text() == "S" and (out / "s").stat().st_mode & 0o777 != 0o600


@pytest.mark.parametrize("kind", KINDS)
def test_opening_a_directory_to_read_is_refused_as_a_directory(kind: str,
                                                               tmp_path: Path) -> None:
    # tools open an operand without asking first whether it is a directory
    fs, r = make(kind, tmp_path)
    fs.mkdir(r + "/d")
    for p in (r + "/d", r + "/d/", r):
        assert _reason(lambda p=p: fs.open(p, "rb")) == "Is a directory", p


@pytest.mark.parametrize("kind", KINDS)
def test_reading_a_directory_s_files_in_one_batch_gives_each_as_read_small_does(
        kind: str, tmp_path: Path) -> None:
    """DirHandle.read_files (grep -r's batch): each name in the order given, a file's
    content (whole, or an open file to read it from: a larger one always is), and a
    failure as its FsError value in its place, the names after it still read."""
    fs, r = make(kind, tmp_path)
    fs.write_bytes(r + "/small", b"one\n")
    fs.write_bytes(r + "/big", b"x\n" * 100)
    fs.write_bytes(r + "/empty", b"")
    fs.mkdir(r + "/sub")
    with fs.open_dir(r) as d:
        got = list(d.read_files(["small", "none", "big", "sub", "empty"], 64))
    assert [name for name, _ in got] == ["small", "none", "big", "sub", "empty"]
    missing, big, sub = got[1][1], got[2][1], got[3][1]
    assert isinstance(missing, FsError) and missing.reason == "No such file or directory"
    assert missing.path == r + "/none"
    assert isinstance(sub, FsError) and sub.reason == "Is a directory"
    assert not isinstance(big, (bytes, FsError))
    contents = []
    for _name, value in (got[0], got[2], got[4]):
        assert not isinstance(value, FsError)
        if isinstance(value, bytes):
            contents.append(value)
        else:
            with value:
                contents.append(value.read())
    assert contents == [b"one\n", b"x\n" * 100, b""]


@pytest.mark.parametrize("kind", KINDS)
def test_a_batch_read_without_bytes_leaves_out_whole_files_lacking_them(
        kind: str, tmp_path: Path) -> None:
    """read_files(..., without): a file read whole that does not hold the bytes is left
    out; one that holds them, one given as an open file and a failure stay in."""
    fs, r = make(kind, tmp_path)
    fs.write_bytes(r + "/has", b"a needle\n")
    fs.write_bytes(r + "/lacks", b"a pin\n")
    fs.write_bytes(r + "/big", b"x\n" * 100)
    names = ["lacks", "has", "none", "big"]

    def read(without: bytes | None) -> list[tuple[str, object]]:
        out: list[tuple[str, object]] = []
        with fs.open_dir(r) as d:
            for name, got in d.read_files(names, 64, without):
                if isinstance(got, FsError):
                    out.append((name, got.reason))
                elif isinstance(got, bytes):
                    out.append((name, got))
                else:
                    with got:
                        out.append((name, ("stream", got.read())))
        return out

    every, kept = read(None), read(b"needle")
    assert kept == [(n, v) for n, v in every if not isinstance(v, bytes) or b"needle" in v]
    assert [n for n, _ in kept][-3:] == ["has", "none", "big"]
