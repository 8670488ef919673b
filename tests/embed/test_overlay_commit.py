"""`OverlayFileSystem.commit()`: exactly the reviewed changes, at the paths the review
showed, through the confined resolution of the root (a host symlink is never followed
out), all or nothing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.fs.overlay import CommitError


@pytest.fixture()
def world(tmp_path: Path) -> Any:
    """root holds `cache -> ../outside` (a host symlink out); outside holds a file."""
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "keep.txt").write_text("KEEP\n")
    (root / "cache").symlink_to(outside)
    (root / "a.txt").write_text("a\n")
    return root, outside


def _outside(outside: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in outside.iterdir()}


@pytest.mark.parametrize("target", ["local", "none", "confined"])
def test_writes_through_a_host_link_out_are_never_committed(world: Any, target: str) -> None:
    root, outside = world
    k = Kernel.overlay(str(root))
    r = k.execute("mkdir -p cache; echo X > cache/new.txt; echo b > b.txt")
    # refused as Kernel(cwd) refuses it
    assert r.err.count("outside the sandbox") == 2, r.err
    fs: Any = k.fs
    tgt = {"local": LocalFileSystem(), "none": None,
           "confined": ConfinedFileSystem(str(root))}[target]
    changes = fs.commit(tgt)
    assert [(c.kind, os.path.basename(c.path)) for c in changes] == [("added", "b.txt")]
    assert (root / "b.txt").read_text() == "b\n"
    assert _outside(outside) == {"keep.txt": "KEEP\n"}


def test_a_host_link_replaced_by_a_directory_is_committed_as_one(world: Any) -> None:
    """`rm cache; mkdir cache; echo X > cache/new.txt`: the review shows a new directory
    `cache` and a file in it; applied, the host link `cache` is replaced by a directory —
    the file lands in the root, never in the link's target."""
    root, outside = world
    k = Kernel.overlay(str(root))
    r = k.execute("rm cache; mkdir cache; echo X > cache/new.txt")
    assert r.code == 0, r.err
    fs: Any = k.fs
    kinds = {os.path.relpath(c.path, root): c.kind for c in fs.changes()}
    assert kinds == {"cache": "added", "cache/new.txt": "added"}
    fs.commit(LocalFileSystem())
    assert (root / "cache").is_dir() and not (root / "cache").is_symlink()
    assert (root / "cache" / "new.txt").read_text() == "X\n"
    assert _outside(outside) == {"keep.txt": "KEEP\n"}


def test_deleting_a_host_link_removes_the_link_not_its_target(world: Any) -> None:
    root, outside = world
    k = Kernel.overlay(str(root))
    assert k.execute("rm cache").code == 0
    fs: Any = k.fs
    assert [(c.kind, os.path.basename(c.path)) for c in fs.changes()] == [
        ("deleted", "cache")]
    fs.commit(LocalFileSystem())
    assert not os.path.lexists(root / "cache")
    assert _outside(outside) == {"keep.txt": "KEEP\n"}


def test_deleting_a_directory_never_follows_a_link_inside_it(world: Any) -> None:
    root, outside = world
    (root / "d").mkdir()
    (root / "d" / "f").write_text("f\n")
    (root / "d" / "out").symlink_to(outside)
    k = Kernel.overlay(str(root))
    assert k.execute("rm -rf d").code == 0
    fs: Any = k.fs
    fs.commit(LocalFileSystem())
    assert not (root / "d").exists()
    assert _outside(outside) == {"keep.txt": "KEEP\n"}


def test_a_link_inside_the_root_is_written_through(tmp_path: Path) -> None:
    """What the confined kernel does with `echo > link/f`, commit does too."""
    root = tmp_path
    (root / "sub").mkdir()
    (root / "link").symlink_to("sub")
    k = Kernel.overlay(str(root))
    assert k.execute("echo x > link/new.txt; ln -s sub/new.txt alias").code == 0
    fs: Any = k.fs
    fs.commit(LocalFileSystem())
    assert (root / "sub" / "new.txt").read_text() == "x\n"
    assert (root / "link").is_symlink()
    assert os.readlink(root / "alias") == "sub/new.txt"


def test_commit_is_all_or_nothing(world: Any) -> None:
    """A change that cannot be applied (the host changed under the review: a directory
    became a file) refuses the whole commit before anything is written."""
    root, outside = world
    (root / "d").mkdir()
    k = Kernel.overlay(str(root))
    assert k.execute("echo one > a.txt; echo new > n.txt; echo two > d/f.txt; rm -f cache"
                     ).code == 0
    fs: Any = k.fs
    reviewed = [(c.kind, os.path.relpath(c.path, root)) for c in fs.changes()]
    (root / "d").rmdir()
    (root / "d").write_text("now a file\n")
    with pytest.raises(CommitError) as e:
        fs.commit(LocalFileSystem())
    assert e.value.path == str(root / "d" / "f.txt")
    assert "nothing was committed" in str(e.value)
    assert (root / "a.txt").read_text() == "a\n"
    assert not (root / "n.txt").exists()
    assert (root / "cache").is_symlink()
    # the review is kept: fix the host, commit again
    assert [(c.kind, os.path.relpath(c.path, root)) for c in fs.changes()] == reviewed
    (root / "d").unlink()
    (root / "d").mkdir()
    fs.commit(LocalFileSystem())
    assert (root / "d" / "f.txt").read_text() == "two\n"
    assert (root / "a.txt").read_text() == "one\n"


def test_commit_into_a_confined_target_elsewhere_fails_before_changing_anything(
        tmp_path: Path) -> None:
    """A confined target whose root does not hold some of the paths refuses them all."""
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    k = Kernel.overlay(str(root))
    assert k.execute("echo 1 > sub/one.txt; echo 2 > two.txt").code == 0
    fs: Any = k.fs
    with pytest.raises(CommitError) as e:
        fs.commit(ConfinedFileSystem(str(root / "sub")))
    assert "outside the sandbox" in str(e.value)
    assert not (root / "sub" / "one.txt").exists() and not (root / "two.txt").exists()


def test_a_file_is_committed_whole_with_its_mode(tmp_path: Path) -> None:
    k = Kernel.overlay(str(tmp_path))
    assert k.execute("printf '#!/bin/sh\\n' > run.sh; chmod 755 run.sh").code == 0
    fs: Any = k.fs
    fs.commit(LocalFileSystem())
    assert (tmp_path / "run.sh").stat().st_mode & 0o777 == 0o755
    assert [p.name for p in tmp_path.iterdir()] == ["run.sh"]  # no temporary left
