"""fold, expand and unexpand: widths, tab stops and their errors (the GNU pins are
tests/conformance/pins/tools/{fold,expand,unexpand}.cases)."""

from __future__ import annotations

from pathlib import Path

from harness_text import run as text_run


def test_fold_width_spaces_and_bytes(tmp_path: Path) -> None:
    assert text_run(["fold", "-w", "5"], tmp_path, stdin="abcdefghij\n").text == "abcde\nfghij\n"
    assert text_run(["fold", "-s", "-w", "7"], tmp_path, stdin="aa bb cc dd\n").text == "aa bb \ncc dd\n"
    assert text_run(["fold", "-w", "4"], tmp_path, stdin="a\tb\n").text == "a\n\t\nb\n"
    assert text_run(["fold", "-b", "-w", "2"], tmp_path, stdin="a\tbc").text == "a\t\nbc"


def test_fold_obsolete_width_and_invalid_width(tmp_path: Path) -> None:
    assert text_run(["fold", "-3"], tmp_path, stdin="abcdef\n").text == "abc\ndef\n"
    r = text_run(["fold", "-w", "0"], tmp_path, stdin="x\n")
    assert (r.code, r.err) == (1, "fold: invalid number of columns: '0'\n")


def test_expand_tab_sizes_lists_and_initial(tmp_path: Path) -> None:
    assert text_run(["expand"], tmp_path, stdin="a\tb\n").text == "a       b\n"
    assert text_run(["expand", "-t", "4"], tmp_path, stdin="a\tb\n").text == "a   b\n"
    assert text_run(["expand", "-t", "2,5"], tmp_path, stdin="\ta\tb\tc\n").text == "  a  b c\n"
    assert text_run(["expand", "-i", "-t", "2"], tmp_path, stdin="\ta\tb\n").text == "  a\tb\n"


def test_unexpand_leading_only_by_default_and_all_with_t(tmp_path: Path) -> None:
    src = "        x       y\n"
    assert text_run(["unexpand"], tmp_path, stdin=src).text == "\tx       y\n"
    assert text_run(["unexpand", "-a"], tmp_path, stdin=src).text == "\tx\ty\n"
    assert text_run(["unexpand", "-t", "4"], tmp_path, stdin="    a   b\n").text == "\ta\tb\n"


def test_unexpand_keeps_a_single_blank_before_a_stop(tmp_path: Path) -> None:
    assert text_run(["unexpand", "-a"], tmp_path, stdin="abcdefg h\n").text == "abcdefg h\n"


def test_tab_stops_must_ascend(tmp_path: Path) -> None:
    r = text_run(["expand", "-t", "5,3"], tmp_path, stdin="")
    assert (r.code, r.err) == (1, "expand: tab sizes must be ascending\n")
