"""A full disk is the tool's error (`No space left on device`, status 1 or the tool's
own code), never an internal error (status 70), and the script goes on; a file rewritten
in place (`sed -i`, `sort -o` onto its input) keeps its old content when the new one
does not fit.

Three full disks: the in-memory filesystem's `max_fs_bytes`, a host filesystem whose
writes all fail (files opened on /dev/full, which answers every write with ENOSPC), and a
real 64 KiB tmpfs where the test may mount one (root on Linux; skipped elsewhere)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.hostio import wrap_fd

NOSPC = "No space left on device"

# each writes more than fits
WRITERS = [
    "cp big.txt copy.txt",
    "gzip -k big.txt",
    "tar cf t.tar big.txt",
    "awk '{print $0 $0}' big.txt > a.txt",
    "awk '{print $0 $0 > \"b.txt\"}' big.txt",
    "truncate -s 2M big.txt",
    "seq 1 100000 > s.txt",
    "cat big.txt big.txt > c.txt",
    "sed s/1/11/ big.txt > d.txt",
]
# a host file grows sparse under truncate, as GNU's does: no data, so a full disk lets it
HOST_WRITERS = [w for w in WRITERS if not w.startswith("truncate")]


class FullDiskFileSystem(ConfinedFileSystem):
    """A confined filesystem where every write fails as on a full disk: a file opened
    for writing is created, then written through /dev/full."""

    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        f = super().open(path, mode)
        if mode[0] == "r" and "+" not in mode:
            return f
        f.close()
        fd = os.open("/dev/full", os.O_WRONLY | os.O_CLOEXEC)
        return wrap_fd(fd, "wb", path, self.checkpoint)


def _setup(k: Kernel) -> None:
    r = k.execute("seq 1 3000 > big.txt")  # 13893 bytes
    assert r.code == 0, r.err


def _check(r: Any) -> None:
    """The tool failed with the disk's reason (its own status, never 70) and the
    script went on."""
    assert NOSPC in r.err, r.err
    assert "internal error" not in r.err and "Traceback" not in r.err, r.err
    lines = r.out.splitlines()
    assert lines[-1] == "after", (r.out, r.err)
    assert lines[-2].startswith("rc=") and lines[-2] not in ("rc=0", "rc=70"), (r.out, r.err)


@pytest.mark.parametrize("script", WRITERS)
def test_a_full_memory_filesystem_is_the_tools_error(script: str) -> None:
    k = Kernel.isolated(max_fs_bytes=20_000)
    _setup(k)
    _check(k.execute(script + "; echo rc=$?; echo after"))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("script", HOST_WRITERS)
def test_a_host_disk_that_refuses_writes_is_the_tools_error(tmp_path: Path,
                                                            script: str) -> None:
    (tmp_path / "big.txt").write_text("".join(f"{i}\n" for i in range(1, 3001)))
    k = Kernel(cwd=str(tmp_path), fs=FullDiskFileSystem(str(tmp_path)))
    _check(k.execute(script + "; echo rc=$?; echo after"))


@pytest.fixture()
def tiny_tmpfs(tmp_path: Path) -> Iterator[Path]:
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                       capture_output=True)
    if r.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mnt
    finally:
        # lazily: a kernel confined there still holds its root open
        subprocess.run(["umount", "-l", str(mnt)], check=False)


@pytest.mark.parametrize("script", HOST_WRITERS)
def test_a_full_tmpfs_is_the_tools_error(tiny_tmpfs: Path, script: str) -> None:
    k = Kernel(cwd=str(tiny_tmpfs))
    _setup(k)
    r = k.execute("seq 1 12000 > fill.txt")  # fills the rest of the 64 KiB
    assert NOSPC in r.err
    _check(k.execute(script + "; echo rc=$?; echo after"))


# ------------------------------------------------------------------- in-place rewrites

IN_PLACE = [
    "sed -i s/1/XXXXXXXXXX/g big.txt",
    "sort -r -o big.txt big.txt",
    "shuf -o big.txt big.txt",
]


def _in_place(k: Kernel, script: str) -> None:
    before = k.execute("cat big.txt").out
    r = k.execute(script + "; echo rc=$?; echo after")
    _check(r)
    assert k.execute("cat big.txt").out == before
    assert k.execute("ls -A | grep -c tysh").out == "0\n"  # no temporary file left


@pytest.mark.parametrize("script", IN_PLACE)
def test_an_in_place_rewrite_that_does_not_fit_keeps_the_original_in_memory(
        script: str) -> None:
    k = Kernel.isolated(max_fs_bytes=20_000)
    _setup(k)
    _in_place(k, script)


@pytest.mark.parametrize("script", IN_PLACE)
def test_an_in_place_rewrite_that_does_not_fit_keeps_the_original_on_tmpfs(
        tiny_tmpfs: Path, script: str) -> None:
    k = Kernel(cwd=str(tiny_tmpfs))
    _setup(k)
    k.execute("seq 1 9000 > fill.txt")  # about 7 KiB left: less than big.txt again
    _in_place(k, script)


def test_sed_i_replaces_the_file_and_keeps_its_mode(tmp_path: Path) -> None:
    """Written beside and renamed over, as GNU sed -i does: the mode stays, a symlink
    becomes the edited file (its target is left alone)."""
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("printf 'a\\nb\\n' > f; chmod 640 f; echo t > target; ln -s target l; "
                  "sed -i s/a/A/ f l; cat f; stat -c %a f; cat target; test -L l || echo file")
    assert r.code == 0, r.err
    assert r.out == "A\nb\n640\nt\nfile\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f", "l", "target"]
