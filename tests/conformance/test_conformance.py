"""The conformance corpora run through `python -m tysh -c`, one pytest param per .cases
file (a family), with pass-rate floors; and the differential: every bash-tagged case run
through bash too, with the disagreements (stdout or exit status) listed.

lang/ and tools/ (a copy of ../shared/conformance) have floors to raise as the
implementation catches up (targets: ≥ 97% overall, ≥ 90% per family). pins/lang/ and
pins/tools/ are this project's own pinned behaviours: every case must pass, and a pin
tagged bash is bash's (and the GNU tools') behaviour by definition, so none may disagree
with bash. The tools corpora run with builtins only (`--no-external`); their bash runs
use the host's GNU tools."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import reference
from conformance.corpus import BASH, CORPORA, HERE, cases, file_cases, files, run, run_cases
from conformance.corpus import tysh_argv as _argv

# corpus -> (overall floor, per-family floor). Raise these; never lower them.
# Measured when set: lang 271/272 (99.6%), tools 358/358 (100%).
THRESHOLDS: dict[str, tuple[float, float]] = {
    "lang": (0.97, 0.90),
    "tools": (0.97, 0.90),
    "pins/lang": (1.0, 1.0),
    "pins/tools": (1.0, 1.0),
}
# corpus -> most bash-tagged cases on which tysh may disagree with bash (+ GNU tools).
# lang and tools measured 0; the tools allowance absorbs a host whose tools differ from
# the recording (BSD userland, another jq) without hiding a regression.
MAX_BASH_DISAGREEMENTS: dict[str, int] = {
    "lang": 2,
    "tools": 3,
    "pins/lang": 0,
    "pins/tools": 0,
}
# corpus -> fewest bash-tagged cases its differential expects (a corpus that went missing
# must not pass as "no disagreement").
MIN_BASH_CASES: dict[str, int] = {"lang": 101, "tools": 350}

needs_bash = pytest.mark.skipif(reference.have("bash") is None, reason="bash is not installed")


@functools.cache
def tysh_results(path: Path) -> tuple[run.Result, ...]:
    """Every case of one .cases file run through tysh, once per session (the floors and the
    differential share them)."""
    corpus = str(path.parent.relative_to(HERE))
    return tuple(run_cases(file_cases(path), _argv(corpus)))


def family_results(path: Path) -> tuple[int, int, tuple[str, ...]]:
    """(passed, total, failure lines) for one .cases file."""
    results = tysh_results(path)
    failures = tuple(f"{r.case.name}: {'; '.join(r.reasons)}" for r in results if not r.ok)
    return len(results) - len(failures), len(results), failures


def _family_params() -> list[pytest.ParameterSet]:
    return [
        pytest.param(corpus, path, id=f"{corpus}/{path.stem}")
        for corpus in CORPORA
        for path in files(corpus)
    ]


@pytest.mark.parametrize(("corpus", "path"), _family_params())
def test_family_pass_rate_meets_floor(corpus: str, path: Path) -> None:
    passed, total, failures = family_results(path)
    rate = passed / total if total else 1.0
    floor = THRESHOLDS[corpus][1]
    assert total > 0
    assert rate >= floor, (
        f"{corpus}/{path.stem}: {passed}/{total} = {rate:.0%} < {floor:.0%}\n"
        + "\n".join(failures)
    )


@pytest.mark.parametrize("corpus", ["lang", "tools"])
def test_corpus_overall_pass_rate_meets_floor(corpus: str) -> None:
    passed = total = 0
    lines: list[str] = []
    for path in files(corpus):
        p, t, failures = family_results(path)
        passed += p
        total += t
        lines.extend(failures)
    rate = passed / total
    print(f"\n{corpus}: {passed}/{total} = {rate:.1%}")
    assert rate >= THRESHOLDS[corpus][0], "\n".join(lines)


def test_case_names_are_unique_across_all_corpora() -> None:
    every = [c for corpus in CORPORA for c in cases(corpus)]
    run.load_cases([str(HERE / corpus) for corpus in CORPORA if (HERE / corpus).is_dir()])
    assert len({c.name for c in every}) == len(every)


def test_pins_are_tagged_bash_or_tysh() -> None:
    for corpus in ("pins/lang", "pins/tools"):
        for c in cases(corpus):
            assert set(c.tags) & {"bash", "tysh"}, f"{c.where}: {c.name} has no bash/tysh tag"


def _same_stdout(case: run.Case, a: bytes, b: bytes) -> bool:
    if case.stdout_sorted:
        return sorted(a.splitlines()) == sorted(b.splitlines())
    return a == b


def disagreements(paths: list[Path]) -> tuple[int, list[str]]:
    """How many bash-tagged cases the files hold, and one line per case where tysh and
    bash differ in stdout or exit status."""
    ours = [r for path in paths for r in tysh_results(path) if "bash" in r.case.tags]
    theirs = run_cases([r.case for r in ours], BASH)
    out: list[str] = []
    for a, b in zip(ours, theirs, strict=True):
        if not _same_stdout(a.case, a.stdout, b.stdout) or a.status != b.status:
            out.append(
                f"{a.case.name}: tysh exit {a.status} {a.stdout[:60]!r} / "
                f"bash exit {b.status} {b.stdout[:60]!r}"
            )
    return len(ours), out


def _differential_params() -> list[pytest.ParameterSet]:
    """The whole of lang and tools (their allowances are corpus-wide), and each .cases
    file of the pins."""
    params = [pytest.param(corpus, None, id=corpus) for corpus in ("lang", "tools")]
    params += [
        pytest.param(corpus, path, id=f"{corpus}/{path.stem}")
        for corpus in ("pins/lang", "pins/tools")
        for path in files(corpus)
    ]
    return params


@needs_bash
@pytest.mark.parametrize(("corpus", "path"), _differential_params())
def test_bash_tagged_cases_agree_with_bash(corpus: str, path: Path | None) -> None:
    total, found = disagreements(files(corpus) if path is None else [path])
    print(f"\n{len(found)} of {total} bash-tagged {corpus} cases disagree with bash")
    for line in found:
        print("  " + line)
    if path is None:
        assert total >= MIN_BASH_CASES[corpus]
    assert len(found) <= MAX_BASH_DISAGREEMENTS[corpus], "\n".join(found)
