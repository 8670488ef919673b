"""Reads `### script` bodies out of the conformance corpus (FORMAT.md) for parser tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

CORPUS_DIRS = [
    Path(__file__).parent / "conformance" / "lang",
    Path(os.environ.get("TYSH_CONFORMANCE", "/work/shared/conformance")) / "lang",
]


def corpus_dir() -> Path | None:
    for d in CORPUS_DIRS:
        if d.is_dir():
            return d
    return None


def iter_scripts() -> Iterator[tuple[str, str, int]]:
    """(case name, script, expected exit) for every case of every lang/*.cases file."""
    d = corpus_dir()
    if d is None:
        return
    for path in sorted(d.glob("*.cases")):
        name = ""
        section = ""
        script: list[str] = []
        exit_code = 0
        for line in path.read_text(encoding="utf-8").split("\n"):
            if line.startswith("### "):
                head = line[4:]
                if head.startswith("case "):
                    name, script, exit_code = head[5:].strip(), [], 0
                elif head.startswith("exit "):
                    exit_code = int(head[5:].strip())
                elif head.strip() == "end":
                    yield name, "\n".join(script) + "\n", exit_code
                    name = ""
                section = head.split(" ", 1)[0]
                continue
            if section == "script" and name:
                script.append(line)
