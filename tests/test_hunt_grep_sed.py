"""grep and sed against GNU grep 3.8 / sed 4.9: the differences a differential hunt found.

Each test asserts the literal GNU output, and also runs the real tool when it is on PATH
(and is GNU's) to check that the literal is still what GNU prints."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from harness import FakeShell, invoke

from tysh.builtins.search.grep import grep as grep_tool
from tysh.builtins.sed.tool import sed as sed_tool
from tysh.kernel.base.argv import classify

TOOLS = {"grep": grep_tool, "sed": sed_tool}


@functools.cache
def _gnu(name: str) -> str | None:
    path = shutil.which(name)
    if path is None:
        return None
    try:
        version = subprocess.run([path, "--version"], capture_output=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return path if b"GNU" in version else None


def check(
    tmp: Path, argv: list[str], out: bytes, code: int = 0, err: str | None = None,
    stdin: bytes = b"",
) -> None:
    """tysh gives `out`/`code` (and `err` in its stderr); so does GNU's tool when present."""
    r = invoke(TOOLS[argv[0]], argv[0], classify(argv[1:]), FakeShell(str(tmp)), stdin)
    assert (r.out, r.code) == (out, code), r.err
    if err is not None:
        assert err in r.err.decode()
    gnu = _gnu(argv[0])
    if gnu is not None:
        env = dict(os.environ, LC_ALL="C.UTF-8")
        g = subprocess.run([gnu, *argv[1:]], cwd=tmp, input=stdin, capture_output=True,
                           env=env, timeout=30)
        assert (g.stdout, g.returncode) == (out, code)
        if err is not None:
            assert err in g.stderr.decode()


@pytest.fixture
def d(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_bytes(b"apple pie\nBanana\nabc abc\napple\n")
    (tmp_path / "b.txt").write_bytes(b"one\ntwo\nthree\nfour\nfive\n")
    (tmp_path / "w.txt").write_bytes(b"foobar foo\n")
    (tmp_path / "bin.dat").write_bytes(b"text\x00binary\nmatch here\n")
    (tmp_path / "z.dat").write_bytes(b"one\x00two apple\x00three")
    return tmp_path


# -- grep: options ------------------------------------------------------------------------


def test_grep_invert_on_binary_file_reports_instead_of_printing(d: Path) -> None:
    check(d, ["grep", "-v", "zzz", "bin.dat"], b"", 0, "bin.dat: binary file matches")


def test_grep_conflicting_matchers_is_an_error(d: Path) -> None:
    check(d, ["grep", "-E", "-F", "a", "a.txt"], b"", 2, "conflicting matchers specified")


# -- grep: patterns -----------------------------------------------------------------------


def test_grep_class_syntax_without_outer_brackets_is_an_error(d: Path) -> None:
    check(d, ["grep", "[:alpha:]", "a.txt"], b"", 2,
          "character class syntax is [[:space:]], not [:space:]")


def test_grep_bracket_at_end_is_invalid_regex(d: Path) -> None:
    check(d, ["grep", "a[", "a.txt"], b"", 2, "grep: Invalid regular expression")


def test_grep_ere_repetition_at_start_warns(d: Path) -> None:
    check(d, ["grep", "-E", "*pie", "a.txt"], b"apple pie\n", 0,
          "grep: warning: * at start of expression")


def test_grep_interval_errors(d: Path) -> None:
    check(d, ["grep", "-E", "a{1,2,3}", "a.txt"], b"", 2, "Invalid content of \\{\\}")
    check(d, ["grep", "a\\{70000\\}", "a.txt"], b"", 2, "Regular expression too big")
    check(d, ["grep", "[[:alpha:]-z]", "a.txt"], b"", 2, "Invalid range end")


# -- sed ----------------------------------------------------------------------------------


def test_sed_unclosed_bracket_is_an_unterminated_command(d: Path) -> None:
    check(d, ["sed", "-n", "/[/p", "a.txt"], b"", 1, "char 4: unterminated address regex")
    check(d, ["sed", "s/a[/x/", "a.txt"], b"", 1, "char 7: unterminated `s' command")


def test_sed_class_syntax_error_has_no_position_and_status_4(d: Path) -> None:
    check(d, ["sed", "s/[:alpha:]/x/", "a.txt"], b"", 4,
          "sed: character class syntax is [[:space:]], not [:space:]")


def test_sed_ere_repetition_at_start_is_an_error(d: Path) -> None:
    check(d, ["sed", "-E", "s/*a/X/", "a.txt"], b"", 1, "Invalid preceding regular expression")
    check(d, ["sed", "s/\\{1\\}a/X/", "a.txt"], b"", 1, "Invalid preceding regular expression")


def test_sed_s_flags_blanks_and_duplicates(d: Path) -> None:
    check(d, ["sed", "s/o/0/ g", "w.txt"], b"f00bar f00\n")
    check(d, ["sed", "s/o/0/gg", "w.txt"], b"", 1, "char 8: multiple `g' options to `s' command")
    check(d, ["sed", "s/o/0/pp", "w.txt"], b"", 1, "char 8: multiple `p' options to `s' command")
    check(d, ["sed", "s/o/0/2 3", "w.txt"], b"", 1, "multiple number options to `s' command")
    check(d, ["sed", "s/o/0/w", "w.txt"], b"", 1, "char 7: missing filename in r/R/w/W commands")


def test_sed_fatal_file_errors_exit_4(d: Path) -> None:
    (d / "sub").mkdir()
    check(d, ["sed", "-f", "nosuch", "b.txt"], b"", 4, "couldn't open file nosuch")
    check(d, ["sed", "-i", "1d"], b"", 4, "no input files")
    check(d, ["sed", "-i", "1d", "sub"], b"", 4, "couldn't edit sub: not a regular file")
    check(d, ["sed", "-n", "1p", "w.txt", "sub", "b.txt"], b"foobar foo\n", 4,
          "read error on sub: Is a directory")


def test_sed_brace_errors_follow_glibc(d: Path) -> None:
    check(d, ["sed", "-E", "s/{/X/", "b.txt"], b"", 1, "Invalid preceding regular expression")
    check(d, ["sed", "-E", "s/a{/X/", "b.txt"], b"", 1, "Unmatched \\{")
    check(d, ["sed", "-E", "s/a{1,x}/X/", "b.txt"], b"", 1, "Invalid content of \\{\\}")
    check(d, ["sed", "s/\\{/X/", "b.txt"], b"", 1, "Invalid preceding regular expression")


def test_grep_perl_errors_in_pcre_words(d: Path) -> None:
    check(d, ["grep", "-P", "(", "a.txt"], b"", 2, "grep: missing closing parenthesis")
    check(d, ["grep", "-P", "[[:foo:]]", "a.txt"], b"", 2, "grep: unknown POSIX class name")
