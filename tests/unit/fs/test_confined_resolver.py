"""The confined filesystem's resolver, on both of its paths: openat2 beneath the root fd
(where the host kernel has it) and the O_PATH|O_NOFOLLOW walk that replaces it elsewhere
(forced here by hiding openat2). Each rule holds on both: links are followed beneath the
root only, `..` is taken physically and never above the root, a loop is ELOOP, /proc magic
links lead nowhere, the final name is operated on where it was found, and a name swapped
for a link by another thread during a call is never followed out."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from deeptree import remove_tree

from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.confined import ConfinedFileSystem

DENIED = "Permission denied (outside the sandbox)"
ELOOP = "Too many levels of symbolic links"


@pytest.fixture()
def world(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """tmp/root (the sandbox) and tmp/out (a sentinel beside it, checked untouched)."""
    root = tmp_path / "root"
    out = tmp_path / "out"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f").write_text("inside")
    (root / "a" / "g").write_text("in a")
    out.mkdir()
    (out / "s").write_text("SECRET")
    (out / "d").mkdir()
    (out / "d" / "SECRET").write_text("")
    before = sorted((p, p.stat().st_mtime_ns, p.stat().st_mode) for p in out.rglob("*"))
    yield root, out
    after = sorted((p, p.stat().st_mtime_ns, p.stat().st_mode) for p in out.rglob("*"))
    assert after == before
    assert (out / "s").read_text() == "SECRET"


def _fs(how: str, root: Path) -> ConfinedFileSystem:
    fs = ConfinedFileSystem(str(root))
    # opens the root fd, and probes openat2 (a path below a directory of the root is
    # its first use; one name in the root itself is looked at without it)
    fs.exists(str(root / "a" / "b"))
    assert (fs._openat2 is not None) == (how == "openat2")
    return fs


def _reason(fn: Callable[[], object]) -> str:
    with pytest.raises(FsError) as e:
        fn()
    return e.value.reason


def test_links_beneath_the_root_resolve_physically(how: str, world: Any) -> None:
    root, _out = world
    r = str(root)
    (root / "rel").symlink_to("a/b")
    (root / "abs").symlink_to(root / "a" / "b")
    (root / "chain").symlink_to("rel")
    (root / "a" / "b" / "up").symlink_to("..")  # b/up -> a
    fs = _fs(how, root)
    assert fs.read_bytes(r + "/rel/f") == b"inside"
    assert fs.read_bytes(r + "/abs/f") == b"inside"
    assert fs.read_bytes(r + "/chain/f") == b"inside"
    # `..` after a link is taken from where the link led (a/b/..), not textually
    assert fs.read_bytes(r + "/a/b/up/g") == b"in a"
    assert fs.realpath(r + "/chain/up") == r + "/a"
    assert sorted(fs.listdir(r + "/chain")) == ["f", "up"]


def test_links_that_leave_the_root_are_refused(how: str, world: Any) -> None:
    root, out = world
    r = str(root)
    (root / "up").symlink_to("..")
    (root / "deep").symlink_to("a/b/../../../out")
    (root / "abs").symlink_to(out)
    (root / "reenter").symlink_to(f"../{root.name}/a")  # out and back in: still out
    (root / "dangling").symlink_to(out / "new")
    fs = _fs(how, root)
    for p in ("/up/out/s", "/deep/s", "/abs/s", "/reenter/g"):
        assert _reason(lambda p=p: fs.read_bytes(r + p)) == DENIED, p
        assert _reason(lambda p=p: fs.stat(r + p)) == DENIED, p
    assert _reason(lambda: fs.listdir(r + "/abs")) == DENIED
    assert _reason(lambda: fs.write_bytes(r + "/dangling", b"x")) == DENIED
    assert _reason(lambda: fs.write_bytes(r + "/abs/new", b"x")) == DENIED
    assert _reason(lambda: fs.mkdir(r + "/abs/d2")) == DENIED
    assert _reason(lambda: fs.remove(r + "/abs/s")) == DENIED
    assert _reason(lambda: fs.rmdir(r + "/up/out/d")) == DENIED
    assert _reason(lambda: fs.rename(r + "/abs/s", r + "/stolen")) == DENIED
    assert _reason(lambda: fs.make_dirs(r + "/abs/x/y")) == DENIED
    assert not (out / "new").exists() and not (out / "d2").exists()


def test_the_loop_then_dotdot_link_is_a_loop(how: str, world: Any) -> None:
    root, out = world
    r = str(root)
    (root / "loop").symlink_to("loop")
    (root / "h").symlink_to("/")
    (root / "x").symlink_to("loop/../h")
    fs = _fs(how, root)
    target = r + "/x" + str(out / "s")
    assert _reason(lambda: fs.read_bytes(target)) == ELOOP
    assert _reason(lambda: fs.write_bytes(r + "/x" + str(out / "n"), b"x")) == ELOOP
    assert _reason(lambda: fs.remove(target)) == ELOOP
    assert _reason(lambda: fs.realpath(r + "/x")) == ELOOP
    assert not fs.is_dir(r + "/x")


def test_proc_magic_links_lead_nowhere(how: str, world: Any) -> None:
    root, out = world
    r = str(root)
    (root / "pr").symlink_to("/proc/self/root")
    (root / "pc").symlink_to("/proc/self/cwd")
    (root / "pf").symlink_to("/proc/self/fd")
    fs = _fs(how, root)
    fd = os.open(str(out / "s"), os.O_RDONLY)
    try:
        for p in (f"/pr{out}/s", "/pc/x", f"/pf/{fd}", "/pf"):
            assert _reason(lambda p=p: fs.read_bytes(r + p)) == DENIED, p
        assert _reason(lambda: fs.read_bytes(f"/proc/self/fd/{fd}")) == DENIED
        assert _reason(lambda: fs.read_bytes(f"/proc/self/root{out}/s")) == DENIED
    finally:
        os.close(fd)


def test_a_path_longer_than_one_call_takes_goes_through_the_walk(how: str,
                                                                  world: Any) -> None:
    root, out = world
    r = str(root)
    names = [f"{i:02d}" + "n" * 200 for i in range(22)]
    fd = os.open(r, os.O_RDONLY | os.O_DIRECTORY)
    try:  # built from fds: the host takes no path this long either
        for name in names:
            os.mkdir(name, dir_fd=fd)
            nfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nfd
        with open(os.open("g", os.O_WRONLY | os.O_CREAT, dir_fd=fd), "wb") as f:
            f.write(b"bottom")
        os.symlink("../" * len(names) + "a/g", "back", dir_fd=fd)
        os.symlink("../" * (len(names) + 1) + "out/s", "esc", dir_fd=fd)
    finally:
        os.close(fd)
    fs = _fs(how, root)
    long = r + "/" + "/".join(names)
    assert len(long) > 4096  # more than openat2 (or any single call) takes
    try:
        assert fs.read_bytes(long + "/g") == b"bottom"
        assert fs.read_bytes(long + "/back") == b"in a"
        assert fs.realpath(long + "/back") == r + "/a/g"
        assert _reason(lambda: fs.read_bytes(long + "/esc")) == DENIED
        assert _reason(lambda: fs.write_bytes(long + "/esc", b"x")) == DENIED
    finally:
        remove_tree(r + "/" + names[0])


def test_operations_act_on_the_link_not_its_target(how: str, world: Any) -> None:
    root, out = world
    r = str(root)
    (root / "l").symlink_to(out / "s")
    fs = _fs(how, root)
    assert fs.stat(r + "/l", follow=False).kind == "symlink"
    assert fs.readlink(r + "/l") == str(out / "s")
    assert _reason(lambda: fs.chmod(r + "/l", 0o600)) == DENIED
    assert _reason(lambda: fs.link(r + "/l", r + "/hard")) == DENIED
    fs.rename(r + "/l", r + "/l2")
    fs.remove(r + "/l2")
    assert not os.path.lexists(r + "/l2")


def _race(swap: Callable[[], None], attempt: Callable[[], None], seconds: float) -> None:
    stop = threading.Event()
    errors: list[BaseException] = []

    def swapper() -> None:
        try:
            while not stop.is_set():
                swap()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    t = threading.Thread(target=swapper, daemon=True)
    t.start()
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            attempt()
    finally:
        stop.set()
        t.join(5)
    assert not errors, errors


def _swapping(root: Path, out: Path, target: str) -> Callable[[], None]:
    """Swap root/d (a directory like out) for a link to `target` and back."""
    d, real = root / "d", root / "d.real"

    def swap() -> None:
        try:
            os.rename(d, real)
            os.symlink(target, d)
            os.unlink(d)
            os.rename(real, d)
        except OSError:
            pass

    return swap


@pytest.mark.parametrize("target", ["abs", "rel"])
def test_a_thread_swapping_a_directory_for_a_link_leads_nothing_out(
        how: str, world: Any, target: str) -> None:
    root, out = world
    r = str(root)
    (root / "d").mkdir()
    (root / "d" / "s").write_text("inside")
    (root / "d" / "d").mkdir()
    fs = _fs(how, root)
    seen: set[bytes] = set()

    def attempt() -> None:
        for op in (lambda: seen.add(fs.read_bytes(r + "/d/s")),
                   lambda: fs.write_bytes(r + "/d/n", b"pwn"),
                   lambda: fs.touch(r + "/d/s", 5.0),
                   lambda: fs.chmod(r + "/d/s", 0o640),
                   lambda: seen.update(n.encode() for n in fs.listdir(r + "/d/d")),
                   lambda: fs.make_dirs(r + "/d/d/x"),
                   lambda: fs.rmdir(r + "/d/d/x"),
                   lambda: fs.remove(r + "/d/n")):
            try:
                op()
            except FsError:
                pass

    link = str(out) if target == "abs" else "../out"
    _race(_swapping(root, out, link), attempt, 1.0)
    assert b"SECRET" not in seen
    assert not (out / "n").exists() and not (out / "d" / "x").exists()


def test_a_directory_handle_reads_small_files_whole_and_links_only_beneath_the_root(
        how: str, world: Any) -> None:
    """DirHandle.read_small (grep -r's one-read path): a small regular file comes back
    whole; a larger one, a directory, or a link comes back as `open` gives it: a link
    resolved beneath the root, so one leading out is refused."""
    root, out = world
    r = str(root)
    (root / "a" / "big").write_bytes(b"x\n" * 100)
    (root / "a" / "in").symlink_to("b/f")
    (root / "a" / "abs").symlink_to(out / "s")
    (root / "a" / "rel").symlink_to("../../out/s")
    fs = _fs(how, root)
    with fs.open_dir(r + "/a") as d:
        assert d.read_small("g", 1 << 10) == b"in a"
        big = d.read_small("big", 10)
        assert not isinstance(big, bytes)
        with big:
            assert big.read() == b"x\n" * 100
        linked = d.read_small("in", 1 << 10)
        assert not isinstance(linked, bytes)
        with linked:
            assert linked.read() == b"inside"
        for name in ("abs", "rel"):
            assert _reason(lambda name=name: d.read_small(name, 1 << 10)) == DENIED
        assert _reason(lambda: d.read_small("b", 1 << 10)) == "Is a directory"
        assert _reason(lambda: d.read_small("none", 1 << 10)) == "No such file or directory"


def test_a_directory_handle_s_batch_refuses_links_out_as_values_and_reads_on(
        how: str, world: Any) -> None:
    """DirHandle.read_files gives what read_small gives for each name: a link beneath
    the root resolved and opened, one leading out refused — as an FsError value in its
    place, the files after it still read."""
    root, out = world
    r = str(root)
    (root / "a" / "in").symlink_to("b/f")
    (root / "a" / "abs").symlink_to(out / "s")
    (root / "a" / "rel").symlink_to("../../out/s")
    fs = _fs(how, root)
    with fs.open_dir(r + "/a") as d:
        got = dict(d.read_files(["abs", "in", "rel", "g"], 1 << 10))
    assert list(got) == ["abs", "in", "rel", "g"]
    for name in ("abs", "rel"):
        refused = got[name]
        assert isinstance(refused, FsError) and refused.reason == DENIED
    linked = got["in"]
    assert not isinstance(linked, (bytes, FsError))
    with linked:
        assert linked.read() == b"inside"
    assert got["g"] == b"in a"


def test_a_file_swapped_for_a_link_out_is_never_read_through_a_directory_handle(
        how: str, world: Any) -> None:
    """A thread swaps a listed file for a link to a file outside while a handle on its
    directory reads it again and again: the read is of the file or refused, never the
    secret."""
    root, out = world
    r = str(root)
    s = root / "a" / "s"
    s.write_text("inside")
    fs = _fs(how, root)
    seen: set[bytes] = set()

    def swap() -> None:
        try:
            os.rename(s, root / "a" / "s.real")
            os.symlink(out / "s", s)
            os.unlink(s)
            os.rename(root / "a" / "s.real", s)
        except OSError:
            pass

    with fs.open_dir(r + "/a") as d:
        def attempt() -> None:
            try:
                got = d.read_small("s", 1 << 10)
            except FsError:
                return
            if isinstance(got, bytes):
                seen.add(got)
            else:
                with got:
                    seen.add(got.read())

        _race(swap, attempt, 1.0)
    assert seen <= {b"inside"}


def test_a_directory_handle_stats_entries_by_name_following_links_beneath_the_root_only(
        how: str, world: Any) -> None:
    """DirHandle.stat (find's stat predicates): the entry itself by name from the held
    directory; with `follow`, a link is resolved as any path is, so one leading out is
    refused, never stat'ed."""
    root, out = world
    r = str(root)
    (root / "a" / "in").symlink_to("b/f")
    (root / "a" / "abs").symlink_to(out / "s")
    fs = _fs(how, root)
    with fs.open_dir(r + "/a") as d:
        assert d.stat("g").size == 4 and d.stat("g").path == r + "/a/g"
        assert d.stat("b").kind == "directory"
        assert d.stat("in").kind == "symlink"
        assert d.stat("in", follow=True).size == len("inside")
        assert d.stat("abs").kind == "symlink"
        assert _reason(lambda: d.stat("abs", follow=True)) == DENIED
        assert _reason(lambda: d.stat("none")) == "No such file or directory"
