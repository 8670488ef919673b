"""Fixtures every test folder shares: kernels over a test's own directory, and the
reference runners (tests/reference.py) for comparing with bash and the GNU tools."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import reference

from tysh import Kernel


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    """An embedded kernel confined to the test's directory, `HOME` there, validating
    scripts as an embedder's would."""
    return Kernel(cwd=str(tmp_path), env={"HOME": str(tmp_path)})


@pytest.fixture
def cli_kernel(tmp_path: Path) -> Kernel:
    """A kernel confined to the test's directory that runs like the CLI: no validation
    before running, so a script behaves as `tysh -c` (and bash) would."""
    return Kernel(cwd=str(tmp_path), env={"HOME": str(tmp_path)}, validate=False)


@pytest.fixture
def isolated() -> Kernel:
    """A kernel over an in-memory filesystem."""
    return Kernel.isolated()


@pytest.fixture
def gnu() -> Callable[..., reference.Ran | None]:
    """`gnu(argv, cwd, stdin=b"", env=None, gnu_only=False)`: the host tool's run."""
    return reference.run_tool


@pytest.fixture
def bash() -> Callable[..., reference.Ran | None]:
    """`bash(script, cwd, stdin=b"", env=None)`: bash's run of a script."""
    return reference.run_bash
