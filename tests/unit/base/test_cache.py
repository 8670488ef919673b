"""The per-user cache directory and the compile cache kept in it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tysh.kernel.base.cache import cache_dir, compile_cached


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_cache_directory_others_can_write_is_not_trusted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TYSH_CACHE_DIR", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    shared = tmp_path / f"tysh-{os.getuid()}"
    shared.mkdir()
    shared.chmod(0o777)
    assert cache_dir() is None
    shared.chmod(0o700)
    assert cache_dir() == str(shared)


def _run(code: object) -> object:
    env: dict[str, object] = {}
    exec(code, env)  # type: ignore[call-overload]
    return env["f"]


def test_compiled_code_is_reused_for_the_same_source_and_replaced_for_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSH_CACHE_DIR", str(tmp_path))
    first = compile_cached("def f():\n    return 1\n", "<unit>")
    assert _run(first)() == 1  # type: ignore[operator]
    assert len(list(tmp_path.iterdir())) == 1
    again = compile_cached("def f():\n    return 1\n", "<unit>")
    assert again is not first and again == first  # read back from the cache file
    other = compile_cached("def f():\n    return 2\n", "<unit>")
    assert _run(other)() == 2  # type: ignore[operator]


def test_a_corrupt_cache_entry_is_ignored(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSH_CACHE_DIR", str(tmp_path))
    compile_cached("def f():\n    return 3\n", "<unit>")
    for entry in tmp_path.iterdir():
        entry.write_bytes(b"\x00garbage")
    assert _run(compile_cached("def f():\n    return 3\n", "<unit>"))() == 3  # type: ignore[operator]
