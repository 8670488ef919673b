"""Trees that never end: symlink cycles under -R/-L walkers (detected by device and
inode of the directories on the current path, reported in GNU's words), FIFOs that
never get a writer (skipped by grep -r; otherwise waited for only as long as the time
limit and cancel() allow), and `mkdir -p` a hundred thousand levels deep."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from deeptree import remove_tree

from tysh.kernel.embed.kernel import Kernel

PRESETS = ["confined", "isolated", "overlay"]

CYCLE = "mkdir -p a/b; ln -s .. a/b/up; ln -s . a/self; echo needle > a/f; "


def _kernel(preset: str, root: Path) -> Kernel:
    if preset == "confined":
        return Kernel(cwd=str(root))
    if preset == "overlay":
        return Kernel.overlay(str(root))
    return Kernel.isolated()


def _timed(k: Kernel, script: str, timeout: float = 10) -> tuple[object, float]:
    t0 = time.monotonic()
    r = k.execute(script, timeout=timeout)
    return r, time.monotonic() - t0


@pytest.mark.parametrize("preset", PRESETS)
def test_grep_R_reports_a_directory_loop_and_ends(tmp_path: Path, preset: str) -> None:
    k = _kernel(preset, tmp_path)
    k.execute(CYCLE)
    r, took = _timed(k, "grep -R needle a")
    assert (r.code, r.out) == (0, "a/f:needle\n"), r.err  # type: ignore[attr-defined]
    assert r.err == ("grep: a/b/up: warning: recursive directory loop\n"  # type: ignore[attr-defined]
                     "grep: a/self: warning: recursive directory loop\n")
    assert took < 5
    r, _ = _timed(k, "grep -R nomatch a")
    assert r.code == 1  # type: ignore[attr-defined]  # a loop is a warning, not an error


@pytest.mark.parametrize("preset", PRESETS)
def test_cp_rL_refuses_a_cyclic_link_and_ends(tmp_path: Path, preset: str) -> None:
    k = _kernel(preset, tmp_path)
    k.execute(CYCLE)
    r, took = _timed(k, "cp -rL a c; echo $?; find c | sort")
    assert r.out == "1\nc\nc/b\nc/f\n"  # type: ignore[attr-defined]
    assert r.err == ("cp: cannot copy cyclic symbolic link 'a/b/up'\n"  # type: ignore[attr-defined]
                     "cp: cannot copy cyclic symbolic link 'a/self'\n")
    assert took < 5


@pytest.mark.parametrize("preset", PRESETS)
def test_other_following_walkers_end_on_a_cycle(tmp_path: Path, preset: str) -> None:
    k = _kernel(preset, tmp_path)
    k.execute(CYCLE)
    r, took = _timed(k, "ls -RL a; echo ls=$?; find -L a | sort; du -L a >/dev/null; "
                        "echo du=$?; chmod -R u+w a; echo chmod=$?")
    out = r.out  # type: ignore[attr-defined]
    assert "ls=2\n" in out and "du=0\n" in out and "chmod=0\n" in out, out
    assert "ls: a/b/up: not listing already-listed directory" in r.err  # type: ignore[attr-defined]
    assert "find: File system loop detected" in r.err  # type: ignore[attr-defined]
    assert took < 5


# ----------------------------------------------------------------------------- FIFOs

@pytest.fixture()
def fifo_root(tmp_path: Path) -> Path:
    os.mkfifo(tmp_path / "ff")
    (tmp_path / "f.txt").write_text("needle\n")
    return tmp_path


@pytest.mark.parametrize("preset", ["confined", "overlay"])
def test_grep_r_skips_a_fifo(fifo_root: Path, preset: str) -> None:
    k = _kernel(preset, fifo_root)
    for flag in ("-r", "-R"):
        r, took = _timed(k, f"grep {flag} needle .", timeout=5)
        assert (r.code, r.out) == (0, "./f.txt:needle\n"), r.err  # type: ignore[attr-defined]
        assert took < 2


@pytest.mark.parametrize("preset", ["confined", "overlay"])
@pytest.mark.parametrize("script", ["cat ff", "read x < ff", "head -n 1 ff", "wc -l < ff",
                                    "echo x > ff", "grep needle ff", "cat < ff | wc -l"])
def test_a_fifo_with_no_writer_waits_only_until_the_limit(fifo_root: Path, preset: str,
                                                          script: str) -> None:
    if preset == "overlay" and ">" in script:
        pytest.skip("an overlay writes to memory: the FIFO is shadowed, not opened")
    k = _kernel(preset, fifo_root)
    r, took = _timed(k, script, timeout=1)
    assert r.code == 124, (r.code, r.err)  # type: ignore[attr-defined]
    assert took < 2.5
    assert k.execute("echo alive").out == "alive\n"


def test_cancel_ends_a_wait_on_a_fifo(fifo_root: Path) -> None:
    k = Kernel(cwd=str(fifo_root))
    threading.Timer(0.3, k.cancel).start()
    r, took = _timed(k, "cat ff", timeout=30)
    assert r.code == 130 and took < 2  # type: ignore[attr-defined]


def test_a_fifo_with_a_writer_is_read(fifo_root: Path) -> None:
    k = Kernel(cwd=str(fifo_root))

    def write() -> None:
        time.sleep(0.2)
        with open(fifo_root / "ff", "w") as f:
            f.write("one\ntwo\n")

    t = threading.Thread(target=write)
    t.start()
    r, _ = _timed(k, "wc -l < ff", timeout=5)
    t.join()
    assert (r.code, r.out) == (0, "2\n")  # type: ignore[attr-defined]


# --------------------------------------------------------------------- deep mkdir -p

DEEP = "a/" * 100_000


@pytest.mark.parametrize("preset", PRESETS)
def test_mkdir_p_a_hundred_thousand_deep_honours_the_limit(tmp_path: Path,
                                                           preset: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    k = _kernel(preset, root)
    try:
        t0 = time.monotonic()
        r = k.execute('mkdir -p "$DEEP"; echo made', env={"DEEP": DEEP}, timeout=2)
        took = time.monotonic() - t0
        # done in time or stopped at the limit, cleanly either way
        assert r.code in (0, 124), r.err  # type: ignore[attr-defined]
        assert r.code == 124 or r.out == "made\n"  # type: ignore[attr-defined]
        assert took < 4, took  # the limit, a level's work and a loaded machine's slack
        assert k.execute("echo alive", timeout=5).out == "alive\n"
    finally:
        remove_tree(str(root))
