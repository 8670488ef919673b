"""`### script` bodies of the conformance corpus's lang cases, for parser tests; the
.cases files are read once, by corpus_scripts (the corpus's own runner)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from corpus_scripts import HERE, cases


def corpus_dir() -> Path | None:
    d = HERE / "lang"
    return d if d.is_dir() else None


def iter_scripts() -> Iterator[tuple[str, str, int]]:
    """(case name, script, expected exit) for every case of every lang/*.cases file."""
    if corpus_dir() is None:
        return
    for c in cases("lang"):
        yield c.name, c.script + "\n", c.exit
