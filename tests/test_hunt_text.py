"""Differential fixes for the text tools: behaviour that must match GNU coreutils 9.1.

Each test asserts the literal expected output and, when the real GNU tool is installed,
also that GNU prints exactly that (so a test never pins a tysh-only belief)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from harness_text import Result, run


def _gnu(argv: list[str], cwd: Path, stdin: bytes) -> tuple[int, bytes] | None:
    """Run the host's GNU tool, or None when it is not installed."""
    exe = shutil.which(argv[0])
    if exe is None:
        return None
    env = dict(os.environ, LC_ALL="C.UTF-8")
    p = subprocess.run([exe, *argv[1:]], cwd=cwd, input=stdin, capture_output=True,
                       env=env, check=False)
    return p.returncode, p.stdout


def same(tmp: Path, argv: list[str], stdin: bytes | str, expected: bytes | str,
         code: int = 0) -> Result:
    """Run tysh's tool, assert its output (and status), and GNU's when present."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    want = expected.encode() if isinstance(expected, str) else expected
    r = run(argv, tmp, data)
    assert (r.code, r.out) == (code, want), r.err
    gnu = _gnu(argv, tmp, data)
    if gnu is not None:
        assert gnu == (code, want)
    return r


# ---------------------------------------------------------------------------- sort


def test_sort_random_groups_equal_lines_and_keeps_every_line(tmp_path: Path) -> None:
    data = "a\nb\na\nc\nb\na\n"
    r = run(["sort", "-R"], tmp_path, data)
    assert r.code == 0
    lines = r.text.splitlines()
    assert sorted(lines) == sorted(data.splitlines())
    runs = [k for i, k in enumerate(lines) if i == 0 or lines[i - 1] != k]
    assert sorted(runs) == ["a", "b", "c"]  # each value forms one run


def test_sort_random_is_incompatible_with_numeric(tmp_path: Path) -> None:
    r = run(["sort", "-Rn"], tmp_path, "1\n")
    assert (r.code, r.err) == (2, "sort: options '-nR' are incompatible\n")


def test_sort_dictionary_with_numeric_is_incompatible(tmp_path: Path) -> None:
    r = same(tmp_path, ["sort", "-k1bd,1n"], "1\n", "", code=2)
    assert r.err == "sort: options '-dn' are incompatible\n"
    r = same(tmp_path, ["sort", "-hdr"], "1\n", "", code=2)
    assert r.err == "sort: options '-dh' are incompatible\n"


def test_sort_version_and_random_may_be_combined(tmp_path: Path) -> None:
    r = run(["sort", "-RV"], tmp_path, "a\nb\n")
    assert r.code == 0 and sorted(r.text.splitlines()) == ["a", "b"]


def test_sort_incompatible_letters_in_gnu_order(tmp_path: Path) -> None:
    r = same(tmp_path, ["sort", "-n", "-g"], "1\n", "", code=2)
    assert r.err == "sort: options '-gn' are incompatible\n"
    r = same(tmp_path, ["sort", "-hM"], "1\n", "", code=2)
    assert r.err == "sort: options '-hM' are incompatible\n"


# ---------------------------------------------------------------------------- uniq

DUP = "a\na\nA\nb\nb\nb\nc\n"


def test_uniq_group_rejects_counting_options(tmp_path: Path) -> None:
    r = run(["uniq", "--group", "-c"], tmp_path, DUP)
    assert (r.code, r.err) == (1, "uniq: --group is mutually exclusive with -c/-d/-D/-u\n")


# ---------------------------------------------------------------------------- head/tail


def test_head_count_rejects_unknown_suffixes(tmp_path: Path) -> None:
    for bad in ("1g", "1B", "1bB", "1Q"):
        r = run(["head", "-c", bad], tmp_path, b"x")
        assert (r.code, r.err) == (1, f"head: invalid number of bytes: '{bad}'\n")


# ---------------------------------------------------------------------------- nl


# ---------------------------------------------------------------------------- tac


# ---------------------------------------------------------------------------- wc, tee, seq


# ---------------------------------------------------------------------------- xargs


def test_xargs_trace_quotes_words_like_gnu() -> None:
    from tysh.builtins.process.xargs import shell_quote

    cases = {
        "a": "a", "": "''", "b c": "'b c'", "it's": '"it\'s"', "it's $x": "'it'\\''s $x'",
        "a=b": "'a=b'", "#x": "'#x'", "x#": "x#", "~x": "'~x'", "x~": "x~", "{}": "{}",
        "é": "é", "a\tb": "'a'$'\\t''b'", "\t\t": "''$'\\t\\t'", "\x01": "''$'\\001'",
        "a\\b": "'a\\b'", "a]b": "a]b", "\udcff": "''$'\\377'",
    }
    for word, want in cases.items():
        assert shell_quote(word) == want, word


def test_xargs_trace_line_on_stderr(tmp_path: Path) -> None:
    r = run(["xargs", "-t", "echo"], tmp_path, 'a "b c"\n')
    assert (r.code, r.out, r.err) == (0, b"a b c\n", "echo a 'b c'\n")
    gnu = _gnu(["xargs", "-t", "echo"], tmp_path, b'a "b c"\n')
    if gnu is not None:
        assert gnu == (0, b"a b c\n")


# ---------------------------------------------------------------------------- tr, cut


def test_tr_case_classes_must_line_up(tmp_path: Path) -> None:
    misaligned = "tr: misaligned [:upper:] and/or [:lower:] construct\n"
    for sets in (["a[:lower:]", "[:upper:]"], ["-s", "[:alnum:]", "[:upper:]"],
                 ["a", "b[:upper:]"], ["-t", "[:lower:]xyz", "a[:upper:]"]):
        r = same(tmp_path, ["tr", *sets], "aB1\n", "", code=1)
        assert r.err == misaligned, sets
    same(tmp_path, ["tr", "x[:lower:]", "[y*][:upper:]"], "aB1\n", "AB1\n")
    same(tmp_path, ["tr", "-ct", "a", "[:upper:]"], "aB1\n", "aB1K")


def test_tr_longer_set1_and_complement_errors_in_gnu_order(tmp_path: Path) -> None:
    longer = ("tr: when translating with string1 longer than string2,\n"
              "the latter string must not end with a character class\n")
    for sets in (["[:lower:]a", "[:upper:]"], ["-c", "a", "[:upper:]"]):
        r = same(tmp_path, ["tr", *sets], "aB1\n", "", code=1)
        assert r.err == longer, sets
    r = same(tmp_path, ["tr", "-c", "[:lower:]", "xy"], "aB1\n", "", code=1)
    assert r.err == ("tr: when translating with complemented character classes,\n"
                     "string2 must map all characters in the domain to one\n")
    same(tmp_path, ["tr", "-c", "[:lower:]", "x"], "aB1\n", "axxx")


def test_xargs_later_of_n_l_i_wins_with_gnu_warning(tmp_path: Path) -> None:
    data = "a b\nc\n"
    r = same(tmp_path, ["xargs", "-L", "1", "-n", "2", "echo"], data, "a b\nc\n")
    assert r.err == ("xargs: warning: options --max-lines and --max-args/-n are mutually "
                     "exclusive, ignoring previous --max-lines value\n")
    r = same(tmp_path, ["xargs", "-n", "1", "-L", "1", "echo"], data, "a b\nc\n")
    assert r.err == ("xargs: warning: options --max-args and -L are mutually "
                     "exclusive, ignoring previous --max-args value\n")
    r = same(tmp_path, ["xargs", "-I{}", "-L1", "echo", "{}"], data, "{} a b\n{} c\n")
    assert r.err == ("xargs: warning: options --replace and -L are mutually "
                     "exclusive, ignoring previous --replace value\n")
    r = same(tmp_path, ["xargs", "-n1", "-i", "echo", "<{}>"], data, "<a b>\n<c>\n")
    assert r.err == ("xargs: warning: options --max-args and --replace/-I/-i are mutually "
                     "exclusive, ignoring previous --max-args value\n")
    r = same(tmp_path, ["xargs", "-I{}", "-n1", "echo", "{}"], data, "a b\nc\n")
    assert r.err == ""
