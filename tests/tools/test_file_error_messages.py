"""A missing file is reported as GNU reports it — `TOOL: NAME: reason` on stderr (in
GNU's own wording where a tool has one), status 1 (grep, sed, sort: 2) — and the
tool goes on with the next file. The expectations were recorded from GNU coreutils 9,
grep 3, sed 4 and util-linux rev."""

from __future__ import annotations

from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import Kernel

# tool -> (script, stderr line, status, stdout: what the next file gives)
CASES: dict[str, tuple[str, str, int, str]] = {
    "cat": ("cat missing.txt b.txt", "cat: missing.txt: No such file or directory", 1,
            "x\ny\n"),
    "tac": ("tac missing.txt b.txt",
            "tac: failed to open 'missing.txt' for reading: No such file or directory", 1,
            "y\nx\n"),
    "head": ("head missing.txt b.txt",
             "head: cannot open 'missing.txt' for reading: No such file or directory", 1,
             "==> b.txt <==\nx\ny\n"),
    "tail": ("tail -n 1 missing.txt b.txt",
             "tail: cannot open 'missing.txt' for reading: No such file or directory", 1,
             "==> b.txt <==\ny\n"),
    "wc": ("wc -l missing.txt b.txt", "wc: missing.txt: No such file or directory", 1,
           "2 b.txt\n2 total\n"),
    "cut": ("cut -c1 missing.txt b.txt", "cut: missing.txt: No such file or directory", 1,
            "x\ny\n"),
    "nl": ("nl -ba missing.txt b.txt", "nl: missing.txt: No such file or directory", 1,
           "     1\tx\n     2\ty\n"),
    "rev": ("rev missing.txt b.txt", "rev: cannot open missing.txt: No such file or directory",
            1, "x\ny\n"),
    "grep": ("grep x missing.txt b.txt", "grep: missing.txt: No such file or directory", 2,
             "b.txt:x\n"),
    "sed": ("sed -n p missing.txt b.txt",
            "sed: can't read missing.txt: No such file or directory", 2, "x\ny\n"),
    # GNU sort reads every input before printing: a missing one fails the whole sort
    "sort": ("sort missing.txt b.txt", "sort: cannot read: missing.txt: No such file or directory",
             2, ""),
    "uniq": ("uniq missing.txt", "uniq: missing.txt: No such file or directory", 1, ""),
    "paste": ("paste missing.txt b.txt", "paste: missing.txt: No such file or directory", 1, ""),
}


@pytest.mark.parametrize("tool", sorted(CASES))
def test_missing_file_is_reported_like_gnu_and_the_next_file_still_read(
    tmp_path: Path, tool: str
) -> None:
    script, message, status, out = CASES[tool]
    (tmp_path / "b.txt").write_text("x\ny\n")
    res = Kernel(cwd=str(tmp_path)).execute(script)
    wc_aligned = tool == "wc"  # wc pads its columns; compare the words
    got = " ".join(res.out.split()) if wc_aligned else res.out
    want = " ".join(out.split()) if wc_aligned else out
    assert res.err == message + "\n"
    assert res.code == status
    assert got == want


def test_grep_no_messages_still_fails_with_status_2(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("x\n")
    res = Kernel(cwd=str(tmp_path)).execute("grep -s x missing.txt b.txt")
    assert (res.code, res.err, res.out) == (2, "", "b.txt:x\n")


def test_a_directory_operand_is_reported_and_skipped(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "b.txt").write_text("x\n")
    res = Kernel(cwd=str(tmp_path)).execute("cat d b.txt")
    assert (res.code, res.err, res.out) == (1, "cat: d: Is a directory\n", "x\n")


def test_wc_writes_each_file_line_before_an_error_about_a_later_file(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x\n")
    res = Kernel(cwd=str(tmp_path)).execute("wc -l a.txt missing.txt a.txt 2>&1")
    assert res.out == ("1 a.txt\nwc: missing.txt: No such file or directory\n"
                       "1 a.txt\n2 total\n")
