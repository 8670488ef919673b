"""mktemp: the session's TMPDIR, templates, --dry-run and GNU's errors."""

from __future__ import annotations

import os
from pathlib import Path

from harness import FakeShell, invoke
from harness_text import run as text_run

from tysh.builtins import get_builtin
from tysh.kernel.base.argv import classify


def _shell(tmp: Path, **vars: str) -> FakeShell:
    from harness_text import _child

    return FakeShell(str(tmp), vars=dict(vars), child=_child)


def test_mktemp_creates_a_private_file_in_the_session_tmpdir(tmp_path: Path) -> None:


    tool = get_builtin("mktemp")
    r = invoke(tool, "mktemp", classify([]), _shell(tmp_path, TMPDIR=str(tmp_path)))
    name = r.out.decode().strip()
    assert name.startswith(str(tmp_path) + "/tmp.") and len(name.rsplit(".", 1)[1]) == 10
    assert (os.stat(name).st_mode & 0o777) == 0o600


def test_mktemp_template_directory_and_suffix(tmp_path: Path) -> None:
    d = text_run(["mktemp", "-d", "work.XXXX"], tmp_path).text.strip()
    assert (tmp_path / d).is_dir() and d.startswith("work.")
    f = text_run(["mktemp", "--suffix=.csv", "r.XXX"], tmp_path).text.strip()
    assert f.endswith(".csv") and (tmp_path / f).is_file()


def test_mktemp_dry_run_creates_nothing(tmp_path: Path) -> None:
    name = text_run(["mktemp", "-u", "-p", str(tmp_path)], tmp_path).text.strip()
    assert name.startswith(str(tmp_path)) and not os.path.exists(name)


def test_mktemp_rejects_too_few_xs(tmp_path: Path) -> None:
    r = text_run(["mktemp", "fooXX"], tmp_path)
    assert (r.code, r.err) == (1, "mktemp: too few X's in template 'fooXX'\n")


def test_mktemp_missing_directory_fails_with_gnu_wording(tmp_path: Path) -> None:
    r = text_run(["mktemp", "-p", str(tmp_path / "no")], tmp_path)
    assert r.code == 1 and "failed to create file via template" in r.err


def test_the_random_characters_are_letters_and_digits_drawn_evenly() -> None:
    import string

    from tysh.builtins.files.mktemp import random_chars

    assert [len(random_chars(n)) for n in (0, 1, 3, 10, 300)] == [0, 1, 3, 10, 300]
    draws = random_chars(62 * 2000)
    counts = {c: draws.count(c) for c in string.ascii_letters + string.digits}
    assert sum(counts.values()) == len(draws)  # nothing outside [A-Za-z0-9]
    # 2000 expected per character, standard deviation about 44: a skewed draw (the
    # modulo bias of taking every byte would give about 2420 for the first 8) falls out
    assert all(1750 < n < 2250 for n in counts.values()), counts
