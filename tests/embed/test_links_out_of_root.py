"""A confined root holding links that point out of it (every virtualenv has them):
walkers treat them as links and go on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tysh import Kernel


@pytest.fixture
def venv_root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / ".venv" / "bin").mkdir(parents=True)
    (root / ".venv" / "bin" / "python").symlink_to("/usr/bin/python3")
    (root / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    return root


def test_du_counts_a_link_out_of_the_root_as_a_link(venv_root: Path) -> None:
    r = Kernel(str(venv_root)).execute("du -sh .venv; du -a .venv | wc -l")
    assert r.code == 0, r.err
    assert r.out.splitlines()[0].endswith("\t.venv")
    assert r.out.splitlines()[1] == "4"


@pytest.mark.parametrize("src, needle", [
    ("find .venv", ".venv/bin/python"),
    ("ls -R .venv", "python"),
    ("grep -r home .venv", ".venv/pyvenv.cfg:home = /usr/bin"),
])
def test_walkers_go_on_past_a_link_out_of_the_root(venv_root: Path, src: str,
                                                    needle: str) -> None:
    r = Kernel(str(venv_root)).execute(src)
    assert r.code == 0 and needle in r.out, r.err


def test_ls_la_at_the_root_shows_dotdot_as_a_directory(venv_root: Path) -> None:
    r = Kernel(str(venv_root)).execute("ls -la")
    dotdot = [line for line in r.out.splitlines() if line.endswith(" ..")]
    assert dotdot and dotdot[0].startswith("d?????????")


def test_overlay_diff_names_paths_relative_to_the_root(tmp_path: Path) -> None:
    (tmp_path / "config.ini").write_text("debug = false\n")
    k = Kernel.overlay(str(tmp_path))
    k.execute("sed -i 's/false/true/' config.ini; mkdir d; echo n > d/new.txt")
    diff = k.fs.diff()
    assert "--- a/config.ini\n+++ b/config.ini\n" in diff
    assert "+++ b/d/new.txt\n" in diff
    assert os.fspath(tmp_path) not in diff
