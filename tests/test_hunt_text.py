"""Differential fixes for the text tools: behaviour that must match GNU coreutils 9.1.

Each test asserts the literal expected output and, when the real GNU tool is installed,
also that GNU prints exactly that (so a test never pins a tysh-only belief)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from harness_text import Result, run, write


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


def test_sort_merge_interleaves_sorted_files(tmp_path: Path) -> None:
    write(tmp_path, "s1", "a\nc\ne\n")
    write(tmp_path, "s2", "b\nd\nf\n")
    same(tmp_path, ["sort", "-m", "s1", "s2"], "", "a\nb\nc\nd\ne\nf\n")
    same(tmp_path, ["sort", "-m", "-r", "s2", "s1"], "", "b\nd\nf\na\nc\ne\n")


def test_sort_merge_does_not_sort_within_an_input(tmp_path: Path) -> None:
    write(tmp_path, "u", "b\na\n")
    write(tmp_path, "v", "c\n")
    same(tmp_path, ["sort", "-m", "u", "v"], "", "b\na\nc\n")


def test_sort_merge_with_keys_and_stdin(tmp_path: Path) -> None:
    write(tmp_path, "k", "x 1\ny 3\n")
    same(tmp_path, ["sort", "-m", "-k2,2n", "k", "-"], "z 2\nw 10\n", "x 1\nz 2\ny 3\nw 10\n")


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


def test_sort_dictionary_order_wins_over_ignore_nonprinting(tmp_path: Path) -> None:
    # -d keeps the tab (a blank); -i alone would drop it
    same(tmp_path, ["sort", "-di"], "\ty\n_ 1\n", "\ty\n_ 1\n")
    same(tmp_path, ["sort", "-i"], "\ty\n_ 1\n", "_ 1\n\ty\n")


def test_sort_dictionary_with_numeric_is_incompatible(tmp_path: Path) -> None:
    r = same(tmp_path, ["sort", "-k1bd,1n"], "1\n", "", code=2)
    assert r.err == "sort: options '-dn' are incompatible\n"
    r = same(tmp_path, ["sort", "-hdr"], "1\n", "", code=2)
    assert r.err == "sort: options '-dh' are incompatible\n"


def test_sort_global_conflict_is_ignored_when_every_key_has_options(tmp_path: Path) -> None:
    same(tmp_path, ["sort", "-k1r", "-Mn"], "a\nb\n", "b\na\n")


def test_sort_version_and_random_may_be_combined(tmp_path: Path) -> None:
    r = run(["sort", "-RV"], tmp_path, "a\nb\n")
    assert r.code == 0 and sorted(r.text.splitlines()) == ["a", "b"]


def test_sort_incompatible_letters_in_gnu_order(tmp_path: Path) -> None:
    r = same(tmp_path, ["sort", "-n", "-g"], "1\n", "", code=2)
    assert r.err == "sort: options '-gn' are incompatible\n"
    r = same(tmp_path, ["sort", "-hM"], "1\n", "", code=2)
    assert r.err == "sort: options '-hM' are incompatible\n"


def test_sort_version_applies_dictionary_filter_first(tmp_path: Path) -> None:
    data = "-3\t-3\t x\n_ 1K\n\ty 9\n"
    same(tmp_path, ["sort", "-s", "-k1dV"], data, "-3\t-3\t x\n\ty 9\n_ 1K\n")
    same(tmp_path, ["sort", "-s", "-k1V"], data, "\ty 9\n-3\t-3\t x\n_ 1K\n")


def test_sort_human_folds_case_first_under_f(tmp_path: Path) -> None:
    # -f makes `1e3` read as 1E (exa): larger than 2M
    same(tmp_path, ["sort", "-hf"], "1e3\n2M\n", "2M\n1e3\n")
    same(tmp_path, ["sort", "-h"], "1e3\n2M\n", "1e3\n2M\n")


# ---------------------------------------------------------------------------- uniq

DUP = "a\na\nA\nb\nb\nb\nc\n"


def test_uniq_all_repeated_separate_and_prepend(tmp_path: Path) -> None:
    same(tmp_path, ["uniq", "--all-repeated=separate"], DUP, "a\na\n\nb\nb\nb\n")
    same(tmp_path, ["uniq", "--all-repeated=prepend"], DUP, "\na\na\n\nb\nb\nb\n")
    same(tmp_path, ["uniq", "--all-repeated=none"], DUP, "a\na\nb\nb\nb\n")


def test_uniq_group_methods(tmp_path: Path) -> None:
    same(tmp_path, ["uniq", "--group"], DUP, "a\na\n\nA\n\nb\nb\nb\n\nc\n")
    same(tmp_path, ["uniq", "--group=prepend"], DUP, "\na\na\n\nA\n\nb\nb\nb\n\nc\n")
    same(tmp_path, ["uniq", "--group=append"], DUP, "a\na\n\nA\n\nb\nb\nb\n\nc\n\n")
    same(tmp_path, ["uniq", "--group=both"], DUP, "\na\na\n\nA\n\nb\nb\nb\n\nc\n\n")
    same(tmp_path, ["uniq", "--group", "-i"], DUP, "a\na\nA\n\nb\nb\nb\n\nc\n")
    same(tmp_path, ["uniq", "--group=both"], "", "")


def test_uniq_group_rejects_counting_options(tmp_path: Path) -> None:
    r = run(["uniq", "--group", "-c"], tmp_path, DUP)
    assert (r.code, r.err) == (1, "uniq: --group is mutually exclusive with -c/-d/-D/-u\n")


# ---------------------------------------------------------------------------- head/tail


def test_head_count_suffixes_decimal_and_binary(tmp_path: Path) -> None:
    data = b"x" * 3000
    for suffix, n in (("1KB", 1000), ("1kB", 1000), ("1K", 1024), ("1k", 1024),
                      ("1KiB", 1024), ("1kiB", 1024), ("2b", 1024)):
        same(tmp_path, ["head", "-c", suffix], data, data[:n])
    same(tmp_path, ["tail", "-c", "1KB"], data, data[:1000])


def test_head_count_rejects_unknown_suffixes(tmp_path: Path) -> None:
    for bad in ("1g", "1B", "1bB", "1Q"):
        r = run(["head", "-c", bad], tmp_path, b"x")
        assert (r.code, r.err) == (1, f"head: invalid number of bytes: '{bad}'\n")


# ---------------------------------------------------------------------------- nl


def test_nl_sections_restart_numbering_and_print_empty_lines(tmp_path: Path) -> None:
    data = "a\n\\:\\:\\:\nh\n\\:\\:\nb\n\\:\nf\n"
    same(tmp_path, ["nl"], data, "     1\ta\n\n       h\n\n     1\tb\n\n       f\n")
    same(tmp_path, ["nl", "-ha", "-fa", "-p"], data,
         "     1\ta\n\n     2\th\n\n     3\tb\n\n     4\tf\n")


def test_nl_section_delimiter_option(tmp_path: Path) -> None:
    same(tmp_path, ["nl", "-dx"], "a\nx:\nb\n", "     1\ta\n\n       b\n")
    same(tmp_path, ["nl", "-d", ""], "a\n\\:\nb\n", "     1\ta\n     2\t\\:\n     3\tb\n")


def test_nl_join_blank_lines(tmp_path: Path) -> None:
    same(tmp_path, ["nl", "-ba", "-l2"], "a\n\n\n\n\nb\n",
         "     1\ta\n       \n     2\t\n       \n     3\t\n     4\tb\n")


# ---------------------------------------------------------------------------- tac


def test_tac_before_attaches_separator_in_front(tmp_path: Path) -> None:
    same(tmp_path, ["tac", "-b", "-s", ","], "id,name,x\n1,b\n", ",b\n,x\n1,nameid")
    same(tmp_path, ["tac", "-b"], "a\nb\nc", "\nc\nba")


def test_tac_regex_separator(tmp_path: Path) -> None:
    same(tmp_path, ["tac", "-r", "-s", "[0-9]"], "a1b2c", "cb2a1")
    same(tmp_path, ["tac", "-r", "-s", "o$"], "one\ntwo\nsix\n", "\nsix\none\ntwo")


# ---------------------------------------------------------------------------- wc, tee, seq


def test_wc_max_line_length_restarts_at_carriage_return_and_form_feed(tmp_path: Path) -> None:
    same(tmp_path, ["wc", "-L"], "ab\rc\n", "2\n")
    same(tmp_path, ["wc", "-L"], "abc\fde\n", "3\n")
    same(tmp_path, ["wc", "-L"], "a\rbcd\n", "3\n")


def test_tee_output_error_modes_are_accepted(tmp_path: Path) -> None:
    for mode in ("warn", "warn-nopipe", "exit", "exit-nopipe"):
        same(tmp_path, ["tee", f"--output-error={mode}", "t.txt"], "a\n", "a\n")
        assert (tmp_path / "t.txt").read_text() == "a\n"
    same(tmp_path, ["tee", "--output-error", "t.txt"], "b\n", "b\n")


def test_seq_equal_width_counts_operands_as_written(tmp_path: Path) -> None:
    same(tmp_path, ["seq", "-w", "010", "12"], "", "010\n011\n012\n")
    same(tmp_path, ["seq", "-w", "1", "0010"], "", "0001\n0002\n0003\n0004\n0005\n"
         "0006\n0007\n0008\n0009\n0010\n")
    same(tmp_path, ["seq", "-w", "-05", "1"], "", "-05\n-04\n-03\n-02\n-01\n000\n001\n")
    same(tmp_path, ["seq", "-w", "1", "0.5", "02"], "", "01.0\n01.5\n02.0\n")
    same(tmp_path, ["seq", "-w", "+5", "6"], "", "5\n6\n")
    same(tmp_path, ["seq", "-w", ".5", "2"], "", "0.5\n1.5\n")


def test_seq_long_double_format_and_literal_apostrophes(tmp_path: Path) -> None:
    same(tmp_path, ["seq", "-f", "%Lg", "1", "2"], "", "1\n2\n")
    same(tmp_path, ["seq", "-f", "%.1f x's", "1", "2"], "", "1.0 x's\n2.0 x's\n")


def test_seq_infinite_last_streams_until_the_reader_stops(tmp_path: Path) -> None:
    tysh = Path(sys.executable).with_name("tysh")
    p = subprocess.run([str(tysh), "--no-external", "-c", "seq inf | head -n 3; seq 2 0.5 inf | head -n 2"],
               capture_output=True, timeout=60, check=False)
    assert (p.returncode, p.stdout) == (0, b"1\n2\n3\n2.0\n2.5\n")


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


def test_xargs_backslash_newline_is_part_of_the_word(tmp_path: Path) -> None:
    same(tmp_path, ["xargs", "echo"], "a\\\nb\n", "a\nb\n")
    same(tmp_path, ["xargs", "-I{}", "echo", "[{}]"], "x\\\ny\n", "[x\ny]\n")
    same(tmp_path, ["xargs", "-n1", "echo"], "a\\\\\nb\n", "a\\\nb\n")


# ---------------------------------------------------------------------------- tr, cut


def test_tr_squeezes_every_character_of_set2(tmp_path: Path) -> None:
    # Z is in SET2 (A-Z) though no SET1 character maps to it: GNU squeezes it too
    same(tmp_path, ["tr", "-s", " ", "A-Z"], "aZZ  b\n", "aZAb\n")
    same(tmp_path, ["tr", "-s", "a", "xy"], "aaxxyy\n", "xy\n")


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


def test_tr_unquoted_class_operands_are_not_globbed(tmp_path: Path) -> None:
    tysh = Path(sys.executable).with_name("tysh")
    p = subprocess.run([str(tysh), "--no-external", "-c", "echo aB | tr [:lower:] [:upper:]"],
                       cwd=tmp_path, capture_output=True, timeout=60, check=False)
    assert (p.returncode, p.stdout) == (0, b"AB\n")


def test_cut_adjacent_ranges_keep_the_output_delimiter(tmp_path: Path) -> None:
    same(tmp_path, ["cut", "-c1-2,3-4", "--output-delimiter=:"], "abcdef\n", "ab:cd\n")
    same(tmp_path, ["cut", "-b3,4-", "--output-delimiter=@"], "abcdef\n", "c@def\n")
    same(tmp_path, ["cut", "-c1-3,2-4", "--output-delimiter=:"], "abcdef\n", "abcd\n")
    same(tmp_path, ["cut", "-c1-2,3-4", "--complement"], "abcdef\n", "ef\n")


def test_tail_zero_count_prints_no_headers_and_opens_nothing(tmp_path: Path) -> None:
    write(tmp_path, "a", "1\n")
    write(tmp_path, "b", "2\n")
    same(tmp_path, ["tail", "-n", "0", "a", "b"], "", "")
    same(tmp_path, ["tail", "-c", "-0", "-v", "a"], "", "")
    r = same(tmp_path, ["tail", "-n0", "a", "missing"], "", "")
    assert r.err == ""
    same(tmp_path, ["tail", "-n", "+0", "a", "b"], "", "==> a <==\n1\n\n==> b <==\n2\n")


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


def test_uniq_all_repeated_with_unique_drops_each_runs_last_line(tmp_path: Path) -> None:
    data = "a\na\na\nb\nc\nc\n"
    same(tmp_path, ["uniq", "-D", "-u"], data, "a\na\nc\n")
    same(tmp_path, ["uniq", "--all-repeated=prepend", "-u"], data, "\na\na\n\nc\n")
