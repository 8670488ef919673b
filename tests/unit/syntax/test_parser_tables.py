"""The parser's LALR tables ship with the package as generated code (`lalr_tables.py`):
the shell never analyses its grammar, imports Lark or writes a table cache at run time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tysh.kernel.syntax import parser, tablegen

CHECK = (
    "import sys; from tysh.kernel.syntax.parser import parse; "
    "s = parse('if true; then echo \"$x\" | cat; fi; f() { return 1; }'); "
    "print('lark' in sys.modules, type(s).__name__)"
)


def test_the_shipped_tables_are_those_of_the_grammar() -> None:
    with open(tablegen.TABLES_PATH, encoding="utf-8") as f:
        shipped = f.read()
    assert shipped == tablegen.generate(), \
        "grammar/tysh.lark changed: run python -m tysh.kernel.syntax.tablegen"


def test_generated_tables_do_not_depend_on_string_hashing() -> None:
    code = ("import hashlib; from tysh.kernel.syntax import tablegen; "
            "print(hashlib.sha256(tablegen.generate().encode()).hexdigest())")
    outs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=120)
        assert p.returncode == 0, p.stderr
        outs.add(p.stdout)
    assert len(outs) == 1


def test_parsing_imports_no_lark_and_writes_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "HOME": str(tmp_path / "home"),
           "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    env.pop("TYSH_CACHE_DIR", None)
    (tmp_path / "tmp").mkdir()
    work = tmp_path / "work"
    work.mkdir()
    p = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, env=env,
                       cwd=work, timeout=120, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False Script"
    assert not any((tmp_path / "tmp").iterdir())
    assert not any(work.iterdir())


def test_the_driver_over_the_shipped_tables_parses_like_lark_built_ones() -> None:
    grammar = tablegen.grammar_text()
    spec = tablegen.spec_from_lark(tablegen.build_lark(grammar), grammar)
    src = "for i in 1 2; do echo $i >out; done && x=$((1+2)) || { echo no; }\n"
    expected = parser.parse_uncached(src)
    fresh = parser._Tables(spec)
    saved = parser._tables
    parser._tables = fresh
    try:
        assert parser.parse_uncached(src) == expected
    finally:
        parser._tables = saved
