"""Verbatim binding keeps each word's kind: a tool that parses its own options (echo,
printf) takes only words that arrived as Flags as options, so a glob result spelled like
an option stays an operand (DESIGN §2.3, §4.4)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fixtures_schemas import WRAP, WRAP_OWN

from tysh.kernel.base.argv import DOUBLE_DASH, Flag, Operand
from tysh.kernel.bind.binder import bind


def test_verbatim_marks_the_words_that_arrived_as_flags() -> None:
    ta = bind(WRAP.schema, [Flag("-n"), Operand("-n"), Operand("x", True), DOUBLE_DASH,
                            Flag("-e")])
    assert ta.words == ["-n", "-n", "x", "--", "-e"]
    assert ta.flag_words == frozenset({0, 4})


def test_verbatim_flag_indices_follow_words_after_lifting_json() -> None:
    ta = bind(WRAP.schema, [Flag("--json"), Operand("-v"), Flag("-v")])
    assert ta.words == ["-v", "-v"] and ta.json
    assert ta.flag_words == frozenset({1})


def test_verbatim_owned_json_stays_a_flag_word() -> None:
    ta = bind(WRAP_OWN.schema, [Flag("--json"), Operand("a", True)])
    assert ta.words == ["--json", "a"] and ta.flag_words == frozenset({0})


def test_echo_prints_a_glob_result_named_like_an_option(tmp_path: Path) -> None:
    (tmp_path / "-n").touch()
    (tmp_path / "a.txt").touch()
    p = subprocess.run([sys.executable, "-m", "tysh", "-c", "echo *; echo -n lit; echo"],
                       capture_output=True, cwd=tmp_path, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout == b"-n a.txt\nlit\n"
