"""A command loads the modules its options use and no others: `ls` with no glob option
has no use for fnmatch (nor the `re` it loads), and a regex grep none for threading
(the engine's one lock is _thread's). Each script runs in a fresh interpreter."""

from __future__ import annotations

from pathlib import Path

import pytest
from module_probe import modules_loaded


@pytest.mark.parametrize(("script", "unused"), [
    ("ls", ("fnmatch", "re")),
    ("ls -la d", ("fnmatch", "re")),
    ("du -s .", ("fnmatch",)),
    ("tree", ("fnmatch",)),
    ("grep -E 'x|y' d/f", ("threading",)),
])
def test_a_command_loads_no_module_its_options_do_not_use(
        tmp_path: Path, script: str, unused: tuple[str, ...]) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f").write_text("x\n")
    got = modules_loaded(script, tmp_path)
    assert not got.intersection(unused), sorted(got.intersection(unused))


@pytest.mark.parametrize(("script", "shown", "left_out"), [
    ("ls -I 'b*' d", "c.py f.txt", "b.txt"),
    ("ls --hide='*.txt' d", "c.py", "b.txt f.txt"),
    ("du -a --exclude='f*' .", "b.txt c.py", "f.txt"),
    ("tree -I 'f*'", "b.txt c.py", "f.txt"),
    ("tree -P 'f*'", "f.txt", "b.txt c.py"),
])
def test_a_glob_option_filters_with_the_module_loaded_on_first_use(
        tmp_path: Path, script: str, shown: str, left_out: str) -> None:
    from tysh import Kernel

    (tmp_path / "d").mkdir()
    for name in ("f.txt", "b.txt", "c.py"):
        (tmp_path / "d" / name).write_text("x\n")
    r = Kernel(cwd=str(tmp_path)).execute(script)
    assert r.code == 0, r
    assert all(name in r.out for name in shown.split()), r.out
    assert not any(name in r.out for name in left_out.split()), r.out
