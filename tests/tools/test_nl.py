"""nl: numbering styles, widths and separators. The GNU-pinned section and blank-line
cases are in tests/conformance/pins/tools/nl.cases."""

from __future__ import annotations

from pathlib import Path

from harness_text import run


def test_nl_numbers_nonempty_lines_and_pads_blank_ones(tmp_path: Path) -> None:
    assert run(["nl"], tmp_path, stdin="a\n\nb\n").out == b"     1\ta\n       \n     2\tb\n"


def test_nl_all_lines_zero_padded_with_custom_width_and_separator(tmp_path: Path) -> None:
    r = run(["nl", "-ba", "-nrz", "-w3", "-s", ": "], tmp_path, stdin="a\n\n")
    assert r.out == b"001: a\n002: \n"


def test_nl_regex_style_numbers_matching_lines(tmp_path: Path) -> None:
    r = run(["nl", "-bp^b"], tmp_path, stdin="a\nb\n")
    assert r.out == b"       a\n     1\tb\n"
