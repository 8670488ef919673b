"""The private /tmp backed by a host directory (the kernel's /tmp when programs run under
bwrap): kernel paths, confinement, the size limit on the kernel's own writes, removal."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.scratch import ScratchFileSystem


@pytest.fixture
def fs(tmp_path: Path) -> ScratchFileSystem:
    f = ScratchFileSystem(str(tmp_path), max_bytes=1000)
    f.use_host_dir()
    return f


def test_tmp_paths_are_served_from_the_host_directory(fs: ScratchFileSystem) -> None:
    with fs.open("/tmp/a", "wb") as f:
        f.write(b"hello")
    host = fs.host_dir()
    assert host is not None and Path(host, "a").read_bytes() == b"hello"
    Path(host, "from-program").write_text("p")
    assert sorted(fs.listdir("/tmp")) == ["a", "from-program"]
    assert fs.realpath("/tmp/a") == "/tmp/a"
    assert fs.real_os_path("/tmp/a") == os.path.join(host, "a")


def test_links_resolve_within_the_tmp_and_never_out_of_it(fs: ScratchFileSystem) -> None:
    with fs.open("/tmp/a", "wb") as f:
        f.write(b"x")
    fs.symlink("/tmp/a", "/tmp/abs")
    fs.symlink("../../../../../etc/passwd", "/tmp/up")
    with fs.open("/tmp/abs") as f:
        assert f.read() == b"x"
    with pytest.raises(FsError):
        fs.open("/tmp/up").close()


def test_the_kernels_writes_stop_at_the_size_limit(fs: ScratchFileSystem) -> None:
    with fs.open("/tmp/a", "wb") as f:
        f.write(b"x" * 600)
    with pytest.raises(FsError, match="No space left on device"), fs.open("/tmp/b", "wb") as f:
        f.write(b"y" * 300)
        f.write(b"y" * 300)
    fs.remove("/tmp/b")
    fs.remove("/tmp/a")
    with fs.open("/tmp/c", "wb") as f:  # room again once files are gone
        f.write(b"z" * 900)
    with pytest.raises(FsError, match="No space"), fs.open("/tmp/c", "r+b") as f:
        f.truncate(5000)
    host = fs.host_dir()
    assert host is not None
    Path(host, "big").write_bytes(b"p" * 950)  # a program's write: counted at the next open
    with pytest.raises(FsError, match="No space"), fs.open("/tmp/d", "wb") as f:
        f.write(b"q")


def test_clear_removes_the_directory(fs: ScratchFileSystem) -> None:
    with fs.open("/tmp/a", "wb") as f:
        f.write(b"x")
    host = fs.host_dir()
    assert host is not None
    box = os.path.dirname(host)
    assert os.stat(box).st_mode & 0o777 == 0o700
    assert os.stat(host).st_mode & 0o7777 == 0o1777
    fs.clear_scratch()
    assert not os.path.exists(box)
    assert fs.listdir("/tmp") == []
