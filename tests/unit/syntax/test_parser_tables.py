"""The parser's LALR tables are cached on disk as plain data, so a warm start parses
without importing Lark; a stale, corrupt or untrusted cache is ignored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tysh.kernel.syntax import parser

CHECK = (
    "import sys; from tysh.kernel.syntax.parser import parse; "
    "s = parse('if true; then echo \"$x\" | cat; fi; f() { return 1; }'); "
    "print('lark' in sys.modules, type(s).__name__)"
)


def _run(cache: Path) -> str:
    env = {**os.environ, "TYSH_CACHE_DIR": str(cache)}
    p = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, env=env,
                       timeout=120, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout.strip()


def test_a_warm_start_parses_from_the_cache_without_importing_lark(tmp_path: Path) -> None:
    assert _run(tmp_path) == "True Script"  # cold: Lark builds the tables, then caches
    assert any(tmp_path.iterdir())
    assert _run(tmp_path) == "False Script"


def _grammar() -> str:
    with open(parser.GRAMMAR_PATH, encoding="utf-8") as f:
        return f.read()


def test_cached_tables_round_trip_and_parse_alike(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSH_CACHE_DIR", str(tmp_path))
    grammar = _grammar()
    spec = parser._spec_from_lark(parser.get_lark(), grammar)
    parser._save_spec(spec)
    loaded = parser._load_spec(grammar)
    assert loaded == spec
    assert loaded is not None
    src = "for i in 1 2; do echo $i >out; done && x=$((1+2)) || { echo no; }\n"
    fresh = parser._Tables(loaded)
    monkeypatch.setattr(parser, "_tables", fresh)
    assert parser.parse_uncached(src) == parser.parse(src)


def test_a_cache_built_from_another_grammar_is_ignored(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSH_CACHE_DIR", str(tmp_path))
    grammar = _grammar()
    parser._save_spec(parser._spec_from_lark(parser.get_lark(), grammar))
    assert parser._load_spec(grammar + "\n// changed\n") is None


def test_a_corrupt_cache_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSH_CACHE_DIR", str(tmp_path))
    path = parser._cache_path()
    assert path is not None
    Path(path).write_bytes(b"\x00garbage")
    assert parser._load_spec(_grammar()) is None
