"""The conformance corpus's cases (tests/conformance/*/*.cases) as values, for tests that
read every corpus script without going through the CLI (validate, plan)."""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "conformance"


@functools.cache
def _runner() -> Any:
    spec = importlib.util.spec_from_file_location("tysh_corpus_cases", HERE / "run.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


@functools.cache
def cases(corpus: str) -> tuple[Any, ...]:
    """Every case of one corpus ("lang" or "tools"), in file order."""
    run = _runner()
    out: list[Any] = []
    for f in sorted((HERE / corpus).glob("*.cases")):
        out.extend(c for c in run.parse_text(f.read_text(), str(f)) if c.script is not None)
    return tuple(out)
