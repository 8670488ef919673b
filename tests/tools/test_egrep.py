"""egrep and fgrep: grep -E and grep -F with GNU grep 3.8's warning on stderr."""

from __future__ import annotations

from pathlib import Path

from tysh import Kernel


def test_egrep_is_grep_E_with_the_gnu_warning(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f").write_text("abc\nxyz\na+b\n")
    r = kernel.execute("egrep -n 'a|z' f")
    assert (r.code, r.out) == (0, "1:abc\n2:xyz\n3:a+b\n")
    assert r.err == "egrep: warning: egrep is obsolescent; using grep -E\n"


def test_fgrep_is_grep_F_with_the_gnu_warning(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f").write_text("abc\na+b\na.c\n")
    r = kernel.execute("fgrep -c 'a+b' f; fgrep a.c f")
    assert r.out == "1\na.c\n"
    assert r.err.count("fgrep: warning: fgrep is obsolescent; using grep -F\n") == 2


def test_later_messages_are_greps(cli_kernel: Kernel) -> None:
    r = cli_kernel.execute("egrep -F x /dev/null; echo $?; egrep '(' /dev/null; echo $?")
    assert r.out == "2\n2\n"
    assert "grep: conflicting matchers specified" in r.err
    assert "grep: Unmatched ( or \\(" in r.err
