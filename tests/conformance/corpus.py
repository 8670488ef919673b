"""The conformance corpora as values: each corpus's .cases files, parsed by the corpus's
own runner (run.py beside this file, the one reader of the format), and runs of them
through a shell.

Four corpora: lang/ and tools/ (a copy of ../shared/conformance) and this project's own
pinned behaviours, pins/lang/ (run with `tysh -c`) and pins/tools/ (run with
`tysh --no-external -c`)."""

from __future__ import annotations

import concurrent.futures
import functools
import sys
from collections.abc import Iterator
from pathlib import Path

from conformance import run

HERE = Path(__file__).parent
CORPORA = ("lang", "tools", "pins/lang", "pins/tools")
TYSH = [sys.executable, "-m", "tysh"]
BASH = ["bash", "--norc", "--noprofile", "-c"]

Case = run.Case
Result = run.Result


def files(corpus: str) -> list[Path]:
    """The .cases files of one corpus, sorted; none when the folder does not exist."""
    return sorted((HERE / corpus).glob("*.cases"))


@functools.cache
def file_cases(path: Path) -> tuple[Case, ...]:
    """Every case of one .cases file, in file order."""
    return tuple(run.parse_file(path))


@functools.cache
def cases(corpus: str) -> tuple[Case, ...]:
    """Every case of one corpus, in file order."""
    return tuple(c for f in files(corpus) for c in file_cases(f))


def tysh_argv(corpus: str) -> list[str]:
    """How a corpus runs tysh: the tools corpora with builtins only."""
    tools = corpus.split("/")[-1] == "tools"
    return [*TYSH, *(["--no-external"] if tools else []), "-c"]


def run_cases(items: tuple[Case, ...] | list[Case], argv: list[str]) -> list[Result]:
    """Each case run through `argv + [script]` the way run.py runs it, two at a time."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda c: run.run_case(c, argv, 20.0, {}), items))


def iter_scripts() -> Iterator[tuple[str, str, int]]:
    """(case name, script, expected exit) for every case of the lang corpus, for parser
    tests."""
    for c in cases("lang"):
        assert c.script is not None
        yield c.name, c.script + "\n", c.exit
