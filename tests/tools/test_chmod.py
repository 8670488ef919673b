"""chmod: octal and symbolic modes, -R, and the mode parser (its verbose output is
pinned in tests/conformance/pins/tools/chmod.cases)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from harness import make_tree
from harness_files_json import run

from tysh.builtins.files.chmod import parse_mode


def make(root: Path, *names: str) -> None:
    """Create files (`a/b.txt`) and folders (`d/`) under root."""
    make_tree(root, *names, content=lambda n: n.split("/")[-1] + "\n")


def test_chmod_octal_and_symbolic_modes(tmp_path: Path) -> None:
    make(tmp_path, "f")
    os.chmod(tmp_path / "f", 0o644)
    run(["chmod", "u+x,g-r", "f"], tmp_path)
    assert (tmp_path / "f").stat().st_mode & 0o777 == 0o704
    run(["chmod", "600", "f"], tmp_path)
    assert (tmp_path / "f").stat().st_mode & 0o777 == 0o600


def test_chmod_dash_x_is_a_mode_not_an_option(tmp_path: Path) -> None:
    make(tmp_path, "f")
    os.chmod(tmp_path / "f", 0o755)
    assert run(["chmod", "-x", "f"], tmp_path).code == 0
    assert (tmp_path / "f").stat().st_mode & 0o777 == 0o644


def test_chmod_R_recurses_and_missing_file_fails(tmp_path: Path) -> None:
    make(tmp_path, "d/x", "d/sub/y")
    run(["chmod", "-R", "go-rwx", "d"], tmp_path)
    assert (tmp_path / "d/sub/y").stat().st_mode & 0o077 == 0
    r = run(["chmod", "644", "nosuch"], tmp_path)
    assert r.code == 1 and "cannot access 'nosuch'" in r.err


@pytest.mark.parametrize(("spec", "cur", "is_dir", "want"), [
    ("+x", 0o644, False, 0o755),
    ("a=r", 0o777, False, 0o444),
    ("u=rw,go=", 0o777, False, 0o600),
    ("+X", 0o644, True, 0o755),
    ("+X", 0o644, False, 0o644),
    ("g=u", 0o750, False, 0o770),
    ("o+t", 0o777, True, 0o1777),
    ("+w", 0o444, False, 0o644),
])
def test_parse_mode_symbolic(spec: str, cur: int, is_dir: bool, want: int) -> None:
    assert parse_mode(spec, cur, is_dir) == want
