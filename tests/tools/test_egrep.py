"""egrep and fgrep: grep -E and grep -F under their old names, silent on stderr as the
host's GNU grep package ships them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import reference

from tysh import Kernel


def test_egrep_is_grep_E_and_quiet(kernel: Kernel, tmp_path: Path,
                                   gnu: Callable[..., reference.Ran | None]) -> None:
    (tmp_path / "f").write_text("abc\nxyz\na+b\n")
    r = kernel.execute("egrep -n 'a|z' f")
    assert (r.code, r.out, r.err) == (0, "1:abc\n2:xyz\n3:a+b\n", "")
    host = gnu(["egrep", "-n", "a|z", "f"], tmp_path)
    if host is not None:
        assert (host.code, host.text, host.err_text) == (r.code, r.out, r.err)


def test_fgrep_is_grep_F_and_quiet(kernel: Kernel, tmp_path: Path,
                                   gnu: Callable[..., reference.Ran | None]) -> None:
    (tmp_path / "f").write_text("abc\na+b\na.c\n")
    r = kernel.execute("fgrep -c 'a+b' f; fgrep a.c f")
    assert (r.out, r.err) == ("1\na.c\n", "")
    host = gnu(["fgrep", "a.c", "f"], tmp_path)
    if host is not None:
        assert (host.text, host.err_text) == ("a.c\n", "")


def test_later_messages_are_greps(cli_kernel: Kernel) -> None:
    r = cli_kernel.execute("egrep -F x /dev/null; echo $?; egrep '(' /dev/null; echo $?")
    assert r.out == "2\n2\n"
    assert "grep: conflicting matchers specified" in r.err
    assert "grep: Unmatched ( or \\(" in r.err
