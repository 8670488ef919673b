"""Fixtures shared by the filesystem tests."""

from __future__ import annotations

from typing import Any

import pytest

import tysh.kernel.fs.confined as confined_mod


@pytest.fixture(params=["openat2", "walk"])
def how(request: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """How the confined filesystem resolves a path: by openat2 (skipped where the host
    kernel has none) or by its own walk."""
    if request.param == "openat2":
        from tysh.kernel.fs.openat2 import resolver

        if resolver() is None:
            pytest.skip("the host kernel has no openat2")
    else:
        # the filesystem asks for openat2 at its first path below the root: say there is none
        monkeypatch.setattr(confined_mod, "resolver", lambda: None, raising=False)
    return str(request.param)
