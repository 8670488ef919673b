"""The in-memory filesystem holds a file's content once (not three copies: stored,
read, rewritten) and its size budget counts what open writers buffer, so writers side
by side cannot each fill it; the sandboxed presets bound it by default."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tysh import Kernel
from tysh.kernel.base.limits import DEFAULT_MAX_FS_BYTES
from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.memory import MemoryFileSystem


def test_sandboxed_presets_bound_the_memory_filesystem_by_default(tmp_path: object) -> None:
    assert Kernel.isolated().fs.max_bytes == DEFAULT_MAX_FS_BYTES  # type: ignore[attr-defined]
    overlay = Kernel.overlay(str(tmp_path))
    assert overlay.fs.upper.max_bytes == DEFAULT_MAX_FS_BYTES  # type: ignore[attr-defined]


def test_writing_past_the_default_bound_fails_as_a_full_disk() -> None:
    r = Kernel.isolated().execute("yes | head -c 300000000 > big; echo $?; wc -c < big")
    assert r.err.strip() == "head: /home/user/big: No space left on device"
    assert r.out.split()[0] == "1"
    assert int(r.out.split()[1]) <= DEFAULT_MAX_FS_BYTES


def test_writers_open_side_by_side_share_the_budget() -> None:
    fs = MemoryFileSystem(max_bytes=1000)
    a = fs.open("/a", "wb")
    b = fs.open("/b", "wb")
    a.write(b"x" * 800)
    with pytest.raises(FsError) as e:
        b.write(b"y" * 800)  # fails while writing, before the buffer grows
    assert "No space left" in str(e.value)
    a.close()
    b.close()
    assert fs.used_bytes == 800


def test_a_file_removed_while_open_gives_its_bytes_back() -> None:
    fs = MemoryFileSystem(max_bytes=1000)
    f = fs.open("/a", "wb")
    f.write(b"x" * 600)
    fs.remove("/a")
    f.write(b"x" * 300)
    f.close()
    assert fs.used_bytes == 0
    g = fs.open("/b", "wb")
    g.write(b"z" * 1000)  # the whole budget is free again
    g.close()
    assert fs.used_bytes == 1000


def test_rename_onto_itself_keeps_the_file_and_its_count() -> None:
    fs = MemoryFileSystem(max_bytes=1000)
    with fs.open("/a", "wb") as f:
        f.write(b"abc")
    fs.rename("/a", "/a")
    assert fs.open("/a").read() == b"abc"
    assert fs.used_bytes == 3


_CHILD = textwrap.dedent("""
    import resource, sys
    from tysh import Kernel
    k = Kernel.isolated(max_fs_bytes=None)
    k.execute("echo warm | cat > w; cat w")
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    n = int(sys.argv[1])
    r = k.execute(f"yes abcdefghi | head -c {n} > big; cat big | wc -c; cp big copy; wc -c < copy")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base
    print(r.code, r.out.split(), peak * 1024)
""")


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux")
def test_a_file_in_the_memory_filesystem_is_held_once() -> None:
    n = 96 << 20
    p = subprocess.run([sys.executable, "-c", _CHILD, str(n)], capture_output=True,
                       text=True, timeout=120)
    line = p.stdout.strip()
    assert line.startswith("0 "), p.stdout + p.stderr[-2000:]
    assert line.count(f"'{n}'") == 2
    peak = int(line.rsplit(" ", 1)[1])
    # the file and its copy: 2n (a copy per reader and writer, as before, is 4-6n)
    assert peak < 2.5 * n, f"peak RSS grew {peak >> 20} MiB for two {n >> 20} MiB files"


def test_a_truncate_through_an_open_file_is_stored() -> None:
    fs = MemoryFileSystem(max_bytes=1000)
    with fs.open("/a", "wb") as f:
        f.write(b"abcdef")
    with fs.open("/a", "r+b") as f:
        f.truncate(2)
    assert fs.open("/a").read() == b"ab" and fs.used_bytes == 2
