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


def test_grep_byte_offset_prefixes_line_or_match_offsets(d: Path) -> None:
    check(d, ["grep", "-b", "apple", "a.txt"], b"0:apple pie\n25:apple\n")
    check(d, ["grep", "-obn", "abc", "a.txt"], b"3:17:abc\n3:21:abc\n")


def test_grep_null_data_splits_records_on_nul(d: Path) -> None:
    check(d, ["grep", "-z", "apple", "z.dat"], b"two apple\x00")
    check(d, ["grep", "-zc", "^t", "z.dat"], b"2\n")


def test_grep_null_ends_file_names_with_nul(d: Path) -> None:
    check(d, ["grep", "-Zl", "apple", "a.txt", "b.txt"], b"a.txt\x00")
    check(d, ["grep", "-Zc", "apple", "a.txt", "b.txt"], b"a.txt\x002\nb.txt\x000\n")


def test_grep_label_names_standard_input(d: Path) -> None:
    check(d, ["grep", "--label=in", "-H", "pie"], b"in:apple pie\n", stdin=b"apple pie\n")


def test_grep_group_separator_options(d: Path) -> None:
    argv = ["grep", "-A1", "-e", "one", "-e", "four", "b.txt"]
    check(d, [*argv[:2], "--group-separator=XX", *argv[2:]], b"one\ntwo\nXX\nfour\nfive\n")
    check(d, [*argv[:2], "--no-group-separator", *argv[2:]], b"one\ntwo\nfour\nfive\n")


def test_grep_zero_context_still_separates_groups(d: Path) -> None:
    check(d, ["grep", "-A0", "apple", "a.txt"], b"apple pie\n--\napple\n")


def test_grep_invert_on_binary_file_reports_instead_of_printing(d: Path) -> None:
    check(d, ["grep", "-v", "zzz", "bin.dat"], b"", 0, "bin.dat: binary file matches")


def test_grep_binary_without_match_skips_binary_files(d: Path) -> None:
    check(d, ["grep", "-I", "match", "bin.dat"], b"", 1)
    check(d, ["grep", "--binary-files=text", "match", "bin.dat"], b"match here\n")


def test_grep_directories_skip(d: Path) -> None:
    (d / "sub").mkdir()
    check(d, ["grep", "-d", "skip", "apple", "sub", "a.txt"], b"a.txt:apple pie\na.txt:apple\n")


def test_grep_nothing_selectable_exits_1_before_output(d: Path) -> None:
    check(d, ["grep", "-c", "-m0", "apple", "a.txt"], b"", 1)
    check(d, ["grep", "-cv", "", "a.txt"], b"", 1)
    (d / "empty").write_bytes(b"")
    check(d, ["grep", "-c", "-f", "empty", "a.txt"], b"", 1)
    check(d, ["grep", "-L", "-m0", "apple", "a.txt"], b"a.txt\n", 1)


def test_grep_conflicting_matchers_is_an_error(d: Path) -> None:
    check(d, ["grep", "-E", "-F", "a", "a.txt"], b"", 2, "conflicting matchers specified")


# -- grep: patterns -----------------------------------------------------------------------


def test_grep_only_matching_takes_longest_literal_alternative(d: Path) -> None:
    check(d, ["grep", "-oE", "foo|foobar", "w.txt"], b"foobar\nfoo\n")
    check(d, ["grep", "-o", "-e", "foo", "-e", "foobar", "w.txt"], b"foobar\nfoo\n")
    check(d, ["grep", "-oF", "-e", "foo", "-e", "foobar", "w.txt"], b"foobar\nfoo\n")


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


def test_grep_bre_interval_at_start_is_literal(d: Path) -> None:
    (d / "br").write_bytes(b"{1}\nb\n")
    check(d, ["grep", "\\{1\\}", "br"], b"{1}\n")


# -- sed ----------------------------------------------------------------------------------


def test_sed_one_liner_text_after_backslash_keeps_its_blanks(d: Path) -> None:
    check(d, ["sed", "1a\\  hi", "b.txt"], b"one\n  hi\ntwo\nthree\nfour\nfive\n")
    check(d, ["sed", "2i\\ x", "b.txt"], b"one\n x\ntwo\nthree\nfour\nfive\n")


def test_sed_text_escapes_in_append(d: Path) -> None:
    check(d, ["sed", "1a  x\\ty", "b.txt"], b"one\nx\ty\ntwo\nthree\nfour\nfive\n")


def test_sed_numeric_escapes_in_regex_replacement_and_y(d: Path) -> None:
    check(d, ["sed", "s/\\x61/Z/g", "a.txt"], b"Zpple pie\nBZnZnZ\nZbc Zbc\nZpple\n")
    check(d, ["sed", "s/\\o142/\\x41\\d66/", "a.txt"], b"apple pie\nBanana\naABc abc\napple\n")
    check(d, ["sed", "y/a\\x62/xy/", "a.txt"], b"xpple pie\nBxnxnx\nxyc xyc\nxpple\n")


def test_sed_numeric_escape_is_the_character_as_typed(d: Path) -> None:
    # GNU: `\x2e` is a `.` that matches any character
    check(d, ["sed", "s/\\x2e/X/", "b.txt"], b"Xne\nXwo\nXhree\nXour\nXive\n")


def test_sed_version_command_is_accepted(d: Path) -> None:
    check(d, ["sed", "v 4.2", "b.txt"], b"one\ntwo\nthree\nfour\nfive\n")


def test_sed_unclosed_bracket_is_an_unterminated_command(d: Path) -> None:
    check(d, ["sed", "-n", "/[/p", "a.txt"], b"", 1, "char 4: unterminated address regex")
    check(d, ["sed", "s/a[/x/", "a.txt"], b"", 1, "char 7: unterminated `s' command")


def test_sed_class_syntax_error_has_no_position_and_status_4(d: Path) -> None:
    check(d, ["sed", "s/[:alpha:]/x/", "a.txt"], b"", 4,
          "sed: character class syntax is [[:space:]], not [:space:]")


def test_sed_ere_repetition_at_start_is_an_error(d: Path) -> None:
    check(d, ["sed", "-E", "s/*a/X/", "a.txt"], b"", 1, "Invalid preceding regular expression")
    check(d, ["sed", "s/\\{1\\}a/X/", "a.txt"], b"", 1, "Invalid preceding regular expression")


def test_sed_l_wrap_width_zero_and_one(d: Path) -> None:
    (d / "long").write_bytes(b"x" * 80 + b"\n")
    check(d, ["sed", "-n", "l 0", "long"], b"x" * 80 + b"$\n")
    check(d, ["sed", "-n", "l 1", "w.txt"],
          b"".join(b"\\\n" + bytes([c]) for c in b"foobar foo") + b"$\n")


def test_sed_longest_literal_alternative(d: Path) -> None:
    check(d, ["sed", "-E", "s/foo|foobar/X/", "w.txt"], b"X foo\n")


def test_sed_hash_n_at_script_start_is_quiet_whatever_follows(d: Path) -> None:
    check(d, ["sed", "#np", "b.txt"], b"")
    check(d, ["sed", "#nothing\n2p", "b.txt"], b"two\n")


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


def test_sed_empty_append_still_ends_an_unterminated_line(d: Path) -> None:
    (d / "nonl").write_bytes(b"a\nb")
    check(d, ["sed", "a\\", "nonl"], b"a\nb\n")
    check(d, ["sed", "a\\\n", "nonl"], b"a\n\nb\n\n")


@pytest.mark.parametrize(("script", "out"), [
    ("N;s/\\x00/+/", b"a+b\x00"),
    ("G", b"a\x00\x00b\x00\x00"),
    ("H;$!d;x", b"\x00a\x00b\x00"),
    ("=", b"1\x00a\x002\x00b\x00"),
    ("i X", b"X\x00a\x00X\x00b\x00"),
    ("a X", b"a\x00X\nb\x00X\n"),
    ("N;l", b"a\\000b$\x00a\x00b\x00"),
    ("$!N;P;D", b"a\x00b\x00"),
])
def test_sed_null_data_joins_and_ends_with_nul(d: Path, script: str, out: bytes) -> None:
    (d / "zz").write_bytes(b"a\x00b\x00")
    check(d, ["sed", "-z", script, "zz"], out)


def test_sed_bracket_escapes_are_sed_escapes(d: Path) -> None:
    check(d, ["sed", "N;s/[\\n]/+/", "b.txt"], b"one+two\nthree+four\nfive\n")
    check(d, ["sed", "s/[\\n]/+/", "b.txt"], b"one\ntwo\nthree\nfour\nfive\n")
    (d / "t").write_bytes(b"a\tb\\n\n")
    check(d, ["sed", "s/[\\t]/_/;s/[\\\\n]/X/g", "t"], b"a_bXX\n")


def test_sed_case_conversion_is_one_char_for_one(d: Path) -> None:
    (d / "u").write_bytes("straße\n".encode())
    check(d, ["sed", "s/.*/\\U&/", "u"], "STRAßE\n".encode())


def test_sed_brace_errors_follow_glibc(d: Path) -> None:
    check(d, ["sed", "-E", "s/{/X/", "b.txt"], b"", 1, "Invalid preceding regular expression")
    check(d, ["sed", "-E", "s/a{/X/", "b.txt"], b"", 1, "Unmatched \\{")
    check(d, ["sed", "-E", "s/a{1,x}/X/", "b.txt"], b"", 1, "Invalid content of \\{\\}")
    check(d, ["sed", "s/\\{/X/", "b.txt"], b"", 1, "Invalid preceding regular expression")


def test_grep_bre_brace_at_start_is_literal(d: Path) -> None:
    (d / "br").write_bytes(b"a{x\n")
    check(d, ["grep", "\\{", "br"], b"a{x\n")
    check(d, ["grep", "-c", "a\\|\\{1\\}", "br"], b"1\n")


def test_grep_only_matching_with_context_prints_no_context_lines(d: Path) -> None:
    check(d, ["grep", "-A1", "-o", "e$", "b.txt"], b"e\ne\ne\n")
    check(d, ["grep", "-A1", "-o", "-e", "^o", "-e", "^fi", "b.txt"], b"o\n--\nfi\n")


def test_grep_include_exclude_apply_to_file_operands(d: Path) -> None:
    check(d, ["grep", "--include=*.txt", "apple", "a.txt", "w.txt", "bin.dat"],
          b"a.txt:apple pie\na.txt:apple\n")
    check(d, ["grep", "--exclude=a.*", "foo", "a.txt", "w.txt"], b"w.txt:foobar foo\n")


def test_grep_exclude_dir_applies_to_directory_operands(d: Path) -> None:
    (d / "sub").mkdir()
    (d / "sub" / "f").write_bytes(b"apple\n")
    check(d, ["grep", "-r", "--exclude-dir=sub", "apple", "sub"], b"", 1)
    check(d, ["grep", "-r", "--exclude-dir=sub", "apple", "sub/"], b"sub/f:apple\n")


def test_grep_perl_posix_classes_are_ascii_and_warn_nothing(d: Path) -> None:
    (d / "pc").write_bytes("ab_1\n é\n".encode())
    check(d, ["grep", "-oP", "[[:alpha:]_]+", "pc"], b"ab_\n")
    r = invoke(grep_tool, "grep", classify(["-cP", "[[x]", "pc"]), FakeShell(str(d)))
    assert (r.out, r.err) == (b"0\n", b"")


def test_grep_perl_errors_in_pcre_words(d: Path) -> None:
    check(d, ["grep", "-P", "(", "a.txt"], b"", 2, "grep: missing closing parenthesis")
    check(d, ["grep", "-P", "[[:foo:]]", "a.txt"], b"", 2, "grep: unknown POSIX class name")
