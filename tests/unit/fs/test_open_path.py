"""The open path's remembered answers are the answers it would work out: the flags of
a mode, a tool's absolute path for an operand, and a regular file opened for reading
(the short way) behaves as any other host file."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from harness import FakeShell
from hypothesis import given
from hypothesis import strategies as st

from tysh.kernel.base.paths import abspath
from tysh.kernel.fs import hostio
from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.tools.context import Context


@pytest.mark.parametrize("mode", ["rb", "wb", "ab", "xb", "r+b", "w+b", "a+b", "x+b"])
def test_the_flags_of_a_mode_are_the_same_asked_again(mode: str) -> None:
    want = hostio._mode_flags(mode)
    assert hostio.mode_flags(mode) == want
    assert hostio.mode_flags(mode) == want


def test_an_unknown_mode_is_refused_every_time() -> None:
    for _ in range(2):
        with pytest.raises(ValueError):
            hostio.mode_flags("qb")


def _path(p: str, cwd: str) -> str:
    out = abspath(p, cwd)
    if len(p) > 1 and p.endswith("/") and out != "/" and p.strip("/"):
        return out + "/"
    return out


@given(st.text(alphabet="a./", max_size=8), st.sampled_from(["/", "/w", "/w/x", "/a."]))
def test_a_tools_path_for_an_operand_is_worked_out_once_and_the_same(p: str, cwd: str) -> None:
    ctx = Context("t", io.BytesIO(), io.BytesIO(), io.BytesIO(), LocalFileSystem(),
                  FakeShell(cwd))
    assert ctx.path(p) == _path(p, cwd)
    assert ctx.path(p) == _path(p, cwd)


@pytest.mark.parametrize("kind", ["local", "confined"])
def test_a_regular_file_opened_for_reading_reads_seeks_and_names_itself(
        tmp_path: Path, kind: str) -> None:
    (tmp_path / "f").write_bytes(b"one\ntwo\n")
    (tmp_path / "d").mkdir()
    fs = LocalFileSystem() if kind == "local" else ConfinedFileSystem(str(tmp_path))
    path = str(tmp_path / "f")
    with fs.open(path, "rb") as f:
        assert (f.name, f.tysh_path) == (path, path)  # type: ignore[attr-defined]
        assert f.readline() == b"one\n"
        assert f.read() == b"two\n"
        f.seek(0)
        assert f.read1(3) == b"one" and f.tell() == 3
        fd = f.fileno()
        assert os.get_blocking(fd) is False  # as any host file: non-blocking, never waits
    with pytest.raises(ValueError):
        f.fileno()
    with pytest.raises(FsError) as e:
        fs.open(str(tmp_path / "d"), "rb")
    assert e.value.reason == "Is a directory"
