"""awk through the binder with in-memory streams (harness_text), plus the embedded
kernel for what needs a real session (system(), pipes), and a property test: no program
or input may end in a Python traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_text import run, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysh.builtins.awk.tool import build
from tysh.kernel.embed.kernel import Kernel


def awk(tmp: Path, *args: str, stdin: str | bytes = "") -> tuple[int, str, str]:
    r = run(["awk", *args], tmp, stdin)
    return r.code, r.text, r.err


def out(tmp: Path, *args: str, stdin: str | bytes = "") -> str:
    code, text, err = awk(tmp, *args, stdin=stdin)
    assert code == 0, err
    return text


# -- the common one-liners --------------------------------------------------------------


def test_print_first_field_with_default_fs(tmp_path: Path) -> None:
    assert out(tmp_path, "{print $1}", stdin="  a b\nc\td\n\n") == "a\nc\n\n"


def test_sum_column_in_end(tmp_path: Path) -> None:
    assert out(tmp_path, "{s += $2} END {print s}", stdin="x 1\ny 2.5\nz 3\n") == "6.5\n"


def test_field_separator_option_and_numeric_pattern(tmp_path: Path) -> None:
    write(tmp_path, "pw", "root:x:0\nuser:x:1000\nsvc:x:150\n")
    assert out(tmp_path, "-F:", "$3 > 100 {print $1}", "pw") == "user\nsvc\n"


def test_join_two_files_with_nr_fnr(tmp_path: Path) -> None:
    write(tmp_path, "a", "k1\nk3\n")
    write(tmp_path, "b", "k1 A\nk2 B\nk3 C\n")
    assert out(tmp_path, "NR==FNR{a[$1];next} $1 in a", "a", "b") == "k1 A\nk3 C\n"


def test_dedup_keeps_first_occurrence(tmp_path: Path) -> None:
    assert out(tmp_path, "!seen[$0]++", stdin="a\nb\na\nc\nb\n") == "a\nb\nc\n"


def test_assigning_a_field_rebuilds_record_with_ofs(tmp_path: Path) -> None:
    assert out(tmp_path, "-v", "OFS=,", "{$1=$1; print}", stdin="a  b   c\n") == "a,b,c\n"


def test_nf_assignment_truncates_and_extends(tmp_path: Path) -> None:
    assert out(tmp_path, "{NF=2; print; NF=4; print; print NF}", stdin="a b c\n") == \
        "a b\na b  \n4\n"


def test_length_pattern_without_parens(tmp_path: Path) -> None:
    assert out(tmp_path, "length > 3", stdin="ab\nabcd\n") == "abcd\n"


def test_range_pattern_starts_and_ends_inclusively(tmp_path: Path) -> None:
    assert out(tmp_path, "/start/,/end/", stdin="a\nstart\nb\nend\nc\nstart\nd\n") == \
        "start\nb\nend\nstart\nd\n"


def test_range_that_ends_on_its_start_line(tmp_path: Path) -> None:
    assert out(tmp_path, "/x/,/x/", stdin="x\ny\nx\n") == "x\nx\n"


def test_printf_widths_and_flags(tmp_path: Path) -> None:
    assert out(tmp_path, '{printf "%-6s|%5d|%05.1f|%x|%c\\n", $1, $2, $2, $2, $1}',
               stdin="ab 42\n") == "ab    |   42|042.0|2a|a\n"


def test_gsub_with_ampersand_and_escaped_ampersand(tmp_path: Path) -> None:
    assert out(tmp_path, '{gsub(/o/, "[&]"); print; gsub(/\\[/, "\\\\&"); print}',
               stdin="foo\n") == "f[o][o]\nf&o]&o]\n"


def test_gsub_empty_match_after_a_match_is_skipped(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN {s = "abxd"; gsub(/x*/, "-", s); print s}') == "-a-b-d-\n"


def test_fs_set_in_begin_applies_to_first_record(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN{FS=","} {print NF, $2}', stdin="a,b,,d\n") == "4 b\n"


def test_fs_change_applies_from_next_record(tmp_path: Path) -> None:
    assert out(tmp_path, '{FS=","; print $1}', stdin="a,b c\nd,e f\n") == "a,b\nd\n"


def test_user_functions_arrays_by_reference_scalars_by_value(tmp_path: Path) -> None:
    prog = ("function f(arr, x,   i) { arr[\"k\"] = x; x = 99; i = 5; return i }\n"
            "BEGIN { y = 1; r = f(a, y); print a[\"k\"], y, r, i == \"\" }")
    assert out(tmp_path, prog) == "1 1 5 1\n"


def test_recursive_function(tmp_path: Path) -> None:
    assert out(tmp_path, "function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2) } "
               "BEGIN { print fib(15) }") == "610\n"


def test_split_with_default_string_and_regex_separators(tmp_path: Path) -> None:
    prog = ('BEGIN { n = split(" a  b ", x); m = split("a:b:c", y, ":"); '
            'k = split("a1b22c", z, /[0-9]+/); print n, x[1], m, y[3], k, z[3] }')
    assert out(tmp_path, prog) == "2 a 3 c 3 c\n"


def test_split_elements_are_numeric_strings(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { split("10 9", a); print (a[1] > a[2]) }') == "1\n"


def test_substr_truncates_and_clips_like_gawk(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { print substr("hello", 0, 2) "|" substr("hello", -1, 3) "|" '
               'substr("hello", 1.5) "|" substr("hello", 2, 100) }') == "he|hel|hello|ello\n"


def test_match_sets_rstart_and_rlength(tmp_path: Path) -> None:
    assert out(tmp_path, '{ print match($0, /[0-9]+/), RSTART, RLENGTH }',
               stdin="ab123c\nxyz\n") == "3 3 3\n0 0 -1\n"


def test_sprintf_and_case_functions(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { s = sprintf("%s-%03d", toupper("ab"), 7); '
               'print s, tolower("XY"), index("hello", "ll") }') == "AB-007 xy 3\n"


def test_math_builtins(tmp_path: Path) -> None:
    assert out(tmp_path, "BEGIN { print int(-3.9), sqrt(16), exp(0), log(1), "
               "(atan2(0, -1) > 3.14), 2^10, 2**3, -2^2 }") == "-3 4 1 0 1 1024 8 -4\n"


def test_srand_returns_the_previous_seed(tmp_path: Path) -> None:
    assert out(tmp_path, "BEGIN { a = srand(5); b = srand(7); print a, b }") == "1 5\n"  # gawk


def test_rand_is_reproducible_for_a_seed(tmp_path: Path) -> None:
    one = out(tmp_path, "BEGIN { srand(3); print rand(), rand() }")
    assert one == out(tmp_path, "BEGIN { srand(3); print rand(), rand() }")


# -- values and conversions -------------------------------------------------------------


def test_strnum_fields_compare_numerically(tmp_path: Path) -> None:
    assert out(tmp_path, "{ print ($1 < $2) }", stdin="9 10\nabc abd\n") == "1\n1\n"


def test_string_constant_comparison_is_textual(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { print ("10" < "9"), (10 < 9) }') == "1 0\n"


def test_hex_strings_are_not_numbers(tmp_path: Path) -> None:
    assert out(tmp_path, "{ print $1 + 0, ($1 == 16) }", stdin="0x10\n") == "0 0\n"


def test_uninitialised_is_both_empty_and_zero(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { print (x == 0), (x == ""), length(x), x + 1 }') == \
        "1 1 0 1\n"


def test_integers_print_as_integers_and_others_via_ofmt(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { print 2^53, 1e6, 0.1 + 0.2; OFMT = "%.2f"; print 3.14159 }') \
        == "9007199254740992 1000000 0.3\n3.14\n"


def test_convfmt_applies_to_concatenation(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { CONVFMT = "%.2g"; x = 3.14159 ""; print x, 17 "" }') == \
        "3.1 17\n"


def test_number_subscripts_use_integer_form(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { a[1] = "x"; print a["1"], ((1.0) in a) }') == "x 1\n"


def test_multi_subscripts_and_in(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { a[1, 2] = 3; print ((1, 2) in a), ((2, 1) in a) }') == "1 0\n"


def test_delete_element_and_whole_array(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { a[1]; a[2]; delete a[1]; print length(a); delete a; '
               'print length(a) }') == "1\n0\n"


def test_v_assignment_processes_escapes_and_is_strnum(tmp_path: Path) -> None:
    assert out(tmp_path, "-v", "x=a\\tb", "-v", "n=10", "BEGIN { print x; print (n < 9) }") \
        == "a\tb\n0\n"


def test_operand_assignments_between_files(tmp_path: Path) -> None:
    write(tmp_path, "f", "line\n")
    assert out(tmp_path, "{ print v, $0 }", "v=1", "f", "v=2", "f") == "1 line\n2 line\n"


def test_argv_and_argc(tmp_path: Path) -> None:
    assert out(tmp_path, "BEGIN { print ARGC, ARGV[0], ARGV[2] }", "x", "y") == "3 awk y\n"


def test_environ_comes_from_the_session(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), env={"GREETING": "hi"})
    r = k.execute("export GREETING; awk 'BEGIN { print ENVIRON[\"GREETING\"] }'")
    assert r.out == "hi\n"


# -- records ------------------------------------------------------------------------------


def test_paragraph_mode_makes_newline_a_separator(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { RS = "" } { print NR ": " $1 "," $NF " " NF }',
               stdin="\n\na b\nc\n\n\nd e\n\n") == "1: a,c 3\n2: d,e 2\n"


def test_paragraph_mode_with_newline_fs(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { RS = ""; FS = "\\n" } { print $2 }', stdin="a b\nc d\n\ne\nf\n") \
        == "c d\nf\n"


def test_single_character_rs(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { RS = ";" } { print NR, $0 }', stdin="a;b;c") == "1 a\n2 b\n3 c\n"


def test_regex_rs_extension(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { RS = "[0-9]+" } { print $0 }', stdin="a1b22c") == "a\nb\nc\n"


def test_tab_fs_option_and_empty_fields(tmp_path: Path) -> None:
    assert out(tmp_path, "-F", "\\t", "{ print NF, $2 }", stdin="a\t\tc\n") == "3 \n"


def test_f_t_is_the_letter_t_like_gawk(tmp_path: Path) -> None:
    assert out(tmp_path, "-Ft", "{ print $2 }", stdin="atb\n") == "b\n"


def test_empty_fs_splits_characters(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { FS = "" } { print NF, $3 }', stdin="abc\n") == "3 c\n"


def test_crlf_keeps_carriage_return_in_last_field(tmp_path: Path) -> None:
    assert out(tmp_path, "{ print length($2) }", stdin="a bc\r\n") == "3\n"


def test_non_utf8_bytes_pass_through(tmp_path: Path) -> None:
    r = run(["awk", "{ print $2, length($2) }"], tmp_path, b"a \xff\xfe\n")
    assert r.out == b"\xff\xfe 2\n"


def test_filename_fnr_and_nextfile(tmp_path: Path) -> None:
    write(tmp_path, "a", "1\n2\n3\n")
    write(tmp_path, "b", "4\n5\n")
    assert out(tmp_path, "FNR == 2 { nextfile } { print FILENAME, FNR, NR }", "a", "b") == \
        "a 1 1\nb 1 3\n"


def test_stdin_dash_operand(tmp_path: Path) -> None:
    assert out(tmp_path, "{ print FILENAME \":\" $0 }", "-", stdin="x\n") == "-:x\n"


# -- getline, output, commands --------------------------------------------------------------


def test_plain_getline_advances_the_record_and_nr(tmp_path: Path) -> None:
    assert out(tmp_path, 'NR == 1 { getline; print $0, NR }', stdin="a\nb\nc\n") == "b 2\n"


def test_getline_var_leaves_dollar_zero(tmp_path: Path) -> None:
    assert out(tmp_path, 'NR == 1 { getline x; print $0, x, NR }', stdin="a\nb\n") == "a b 2\n"


def test_getline_from_file_and_missing_file(tmp_path: Path) -> None:
    write(tmp_path, "f", "one\ntwo\n")
    assert out(tmp_path, 'BEGIN { while ((getline l < "f") > 0) n++; '
               'print n, l, (getline z < "missing") }') == "2 two -1\n"


def test_print_redirections_write_through_the_filesystem(tmp_path: Path) -> None:
    out(tmp_path, '{ print > "o.txt"; print "x" >> "a.txt" } END { close("o.txt"); '
        'while ((getline l < "o.txt") > 0) print "back", l }', stdin="1\n2\n")
    assert (tmp_path / "o.txt").read_text() == "1\n2\n"
    assert (tmp_path / "a.txt").read_text() == "x\nx\n"


def test_print_to_stderr(tmp_path: Path) -> None:
    code, text, err = awk(tmp_path, '{ print "oops" > "/dev/stderr" }', stdin="x\n")
    assert (code, text, err) == (0, "", "oops\n")


def test_system_and_pipes_run_through_the_session(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("""awk 'BEGIN { r = system("echo hi; exit 3"); print r
        "echo a b" | getline; print $2
        print "z\\ny" | "sort"; close("sort"); print "done" }'""")
    assert r.out == "hi\n3\nb\ny\nz\ndone\n", r.err


def test_system_falls_back_to_run_argv_without_an_interpreter(tmp_path: Path) -> None:
    assert out(tmp_path, 'BEGIN { system("echo via argv") }') == "via argv\n"


def test_json_output_is_the_lines(tmp_path: Path) -> None:
    r = run(["awk", "{print $2}", "--json"], tmp_path, "a b\nc d\n")
    assert r.code == 0 and r.data == ["b", "d"]


def test_program_file_and_double_dash(tmp_path: Path) -> None:
    write(tmp_path, "p.awk", "{ print \"f:\" $1 }\n")
    write(tmp_path, "q.awk", "END { print NR }\n")
    assert out(tmp_path, "-f", "p.awk", "-f", "q.awk", stdin="x\n") == "f:x\n1\n"
    assert out(tmp_path, "--", "{ print $1 }", stdin="y z\n") == "y\n"


# -- exit status and errors ------------------------------------------------------------


def test_exit_code_and_end_still_runs(tmp_path: Path) -> None:
    assert awk(tmp_path, 'BEGIN { exit 3 } END { print "end" }') == (3, "end\n", "")


def test_exit_in_end_overrides(tmp_path: Path) -> None:
    assert awk(tmp_path, "BEGIN { exit 1 } END { exit 4 }")[0] == 4


def test_syntax_error_names_line_and_token(tmp_path: Path) -> None:
    code, _, err = awk(tmp_path, "BEGIN { x = }")
    assert code == 2 and err == "awk: syntax error at line 1 near '}'\n"


def test_syntax_error_on_a_later_line(tmp_path: Path) -> None:
    code, _, err = awk(tmp_path, "BEGIN {\n  print 1\n  print (\n}")
    assert code == 2 and "line 4" in err


def test_undefined_function_is_an_error(tmp_path: Path) -> None:
    code, _, err = awk(tmp_path, "BEGIN { nope(1) }")
    assert code == 2 and "nope" in err


def test_division_by_zero(tmp_path: Path) -> None:
    code, _, err = awk(tmp_path, "{ print 1 / $1 }", stdin="0\n")
    assert code == 2 and err == "awk: fatal: division by zero attempted\n"


def test_missing_input_file_is_fatal_like_gawk(tmp_path: Path) -> None:
    code, text, err = awk(tmp_path, "{ print }", "missing")
    assert code == 2 and text == ""
    assert err == "awk: fatal: cannot open file 'missing' for reading: No such file or directory\n"


def test_usage_without_program(tmp_path: Path) -> None:
    code, _, err = awk(tmp_path)
    assert code == 2 and "usage" in err


def test_printf_with_too_few_arguments_is_fatal(tmp_path: Path) -> None:
    code, _, err = awk(tmp_path, 'BEGIN { printf "%s %s\\n", 1 }')
    assert code == 2 and "not enough arguments" in err


def test_array_in_scalar_context_is_an_error(tmp_path: Path) -> None:
    code, _, err = awk(tmp_path, "BEGIN { a[1] = 1; print a }")
    assert code == 2 and "array" in err


def test_deep_recursion_is_reported_not_raised(tmp_path: Path) -> None:
    code, _, err = awk(tmp_path, "function f(n) { return f(n + 1) } BEGIN { f(1) }")
    assert code == 2 and "deep" in err


def test_invalid_dynamic_regex_is_reported(tmp_path: Path) -> None:
    code, _, err = awk(tmp_path, '{ print ($0 ~ "(") }', stdin="x\n")
    assert code == 2 and "regexp" in err


# -- compilation ---------------------------------------------------------------------------


def test_field_program_splits_each_record_once_and_indexes_inline() -> None:
    (code, _, _), _ = build("{ print $1 }")
    assert "_F[0]" in code and "R.fp(" not in code


def test_regex_guarded_field_access_splits_lazily() -> None:
    (code, _, _), _ = build("/x/ { print $1 }")
    assert "R.fp(1)" in code and "R.splitter(" not in code


def test_record_mutation_disables_the_inline_fields() -> None:
    (code, _, _), _ = build("{ $1 = \"x\"; print $1 }")
    assert "_F[" not in code


def test_next_at_rule_level_compiles_to_continue() -> None:
    (code, _, _), _ = build("NR == 1 { next } { print }")
    assert "continue" in code and "NextRecord" not in code


# -- the property: never a traceback ------------------------------------------------------

_PIECES = st.sampled_from([
    "{", "}", "(", ")", "$", "1", "NF", "x", "a[", "]", "print", "printf", '"%d"', ",", ";",
    "\n", "+", "-", "*", "/", "%", "^", "=", "==", "<", ">", "!", "~", "/re/", "if", "else",
    "in", "getline", "next", "exit", "BEGIN", "END", "function", "f(", "length",
    "substr(", "split(", "gsub(", "sprintf(", "?", ":", "&&", "||", "++", "--", "delete",
    '"s"', "0", "1e400", "-1", " ", "NR", "$0", "|", ">>", "return", "break",
])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=st.lists(_PIECES, max_size=14).map(" ".join),
       data=st.text(alphabet="ab 1\n:\t-.0x", max_size=30))
def test_random_programs_never_raise(prog: str, data: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        r = run(["awk", prog], Path(d), data)
    assert r.code in (0, 1, 2) or 0 <= r.code <= 255
    assert "Traceback" not in r.err


@pytest.mark.parametrize("prog", [
    "BEGIN { printf \"%*d\", 1e300, 1 }",
    "BEGIN { print substr(\"abc\", 1e300, -1e300) }",
    "BEGIN { x = 2 ^ 99999; print x, -x, x - x, int(x) }",
    "BEGIN { $(-1) = 1 }",
    "BEGIN { NF = -1 }",
    "BEGIN { printf \"%c\", -5 }",
    "BEGIN { print log(-1), sqrt(-1) }",
    "BEGIN { CONVFMT = \"%s\"; x = 0.5 \"\"; print x }",
    "BEGIN { OFMT = \"%z\"; print 0.5 }",
    "BEGIN { getline x < \"\"; print x }",
])
def test_edge_programs_end_cleanly(tmp_path: Path, prog: str) -> None:
    r = run(["awk", prog], tmp_path, "")
    assert "Traceback" not in r.err and r.code in (0, 2)


# -- fast paths give what the general path gives -----------------------------------------
# Each fast path is set against the same operation written so that it takes the general
# path (a format or replacement in a variable, a field copied to a variable), on input
# that is hard to classify: blanks around numbers, hex, signs, -0, a stray dot, empty
# fields, underscores, odd blanks float() strips, non-ASCII digits, inf/nan words and
# bytes that are not UTF-8.

TRICKY = [" 1e3 ", "0x1A", "+5", "-0", ".5.", "", "1_0", "\x1c5", "5\x1f", "\t7", "inf", "nan",
          "-nan", "1e400", "\u0663", "5.", ".5", "1e", "-", ".", "+.5e-3", "abc", "12ab",
          " ", "007", "-1.5", "\xff9"]


def _tricky_input() -> bytes:
    rows = [",".join(["k", t, t]) for t in TRICKY]
    return ("\n".join(rows) + "\n").encode("utf-8", "surrogateescape").replace(
        "\xff".encode(), b"\xff")


def _both(tmp: Path, fast: str, general: str, stdin: bytes, *pre: str) -> str:
    a = out(tmp, *pre, fast, stdin=stdin)
    b = out(tmp, *pre, general, stdin=stdin)
    assert a == b
    return a


def test_field_compared_with_number_fast_path_matches_general_comparison(tmp_path: Path) -> None:
    for op in ("<", "<=", ">", ">=", "==", "!="):
        for n in ("5", "0", "1000", "-1"):
            got = _both(tmp_path, f"{{print ($2 {op} {n}), ($3 {op} {n})}}",
                        f"{{x = $2; print (x {op} {n}), (x {op} {n})}}", _tricky_input(), "-F,")
            assert got.count("\n") == len(TRICKY)


def test_field_comparison_fast_path_takes_numbers_and_rejects_words(tmp_path: Path) -> None:
    got = out(tmp_path, "-F,", "{print ($1 > 6)}", stdin=" 1e3 \n0x1A\n+5\n-0\n\x1c9\n1_0\n")
    # " 1e3 " is 1000; "0x1A", "\x1c9" and "1_0" are strings ("0x1A" > "6" is false…)
    assert got == "1\n0\n0\n0\n0\n0\n"


def test_split_elements_are_numeric_exactly_when_fields_are(tmp_path: Path) -> None:
    prog_split = "{n = split($0, a, \",\"); for (i = 1; i <= n; i++) printf \"%s \", (a[i] < 10); print \"\"}"
    prog_field = "{for (i = 1; i <= NF; i++) { x = $i; printf \"%s \", (x < 10) }; print \"\"}"
    data = _tricky_input() * 3  # the second and third rounds come from the element cache
    assert out(tmp_path, prog_split, stdin=data) == out(tmp_path, "-F,", prog_field, stdin=data)


def test_split_default_separator_keeps_numeric_strings(tmp_path: Path) -> None:
    got = out(tmp_path, "{split($0, a); print (a[1] < a[2]), (a[3] == 5), (a[4] < 2)}",
              stdin="10 9 +5 abc\n10 9 5.0 -1\n")
    assert got == "0 1 0\n0 1 1\n"


def test_non_ascii_digits_are_not_numbers(tmp_path: Path) -> None:
    assert out(tmp_path, "{print $1 + 0, ($1 < 2)}", stdin="\u0663 x\n") == "0 0\n"


def test_printf_constant_format_matches_the_general_formatter(tmp_path: Path) -> None:
    fmts = ["%-10s|%5d|%i\\n", "%+.3e %08.2f %g %G %E %F\\n", "%5.2s|%-3d|%.3d|% d\\n",
            "%%%s%%%d\\n", "%5s%5d\\n", "%s %s %s %d %d %d\\n"]
    for fmt in fmts:
        nconv = fmt.replace("%%", "").count("%")
        args = ", ".join(["$2", "$3", "$1", "$2 * 1e400", "-$3", "NR"][:nconv])
        _both(tmp_path, f'{{printf "{fmt}", {args}}}', f'{{f = "{fmt}"; printf f, {args}}}',
              _tricky_input(), "-F,")
        _both(tmp_path, f'{{s = sprintf("{fmt}", {args}); printf "%s", s}}',
              f'{{f = "{fmt}"; s = sprintf(f, {args}); printf "%s", s}}', _tricky_input(), "-F,")


def test_printf_fast_path_prints_inf_and_nan_as_gawk(tmp_path: Path) -> None:
    got = out(tmp_path, 'BEGIN {x = -log(0); printf "%d|%5.1f|%s\\n", x, -x, log(-1)}')
    assert got == "+inf| -inf|-nan\n"


def test_printf_fast_path_keeps_missing_argument_error_and_c_conversion(tmp_path: Path) -> None:
    code, _, err = awk(tmp_path, 'BEGIN {printf "%s %d\\n", 1}')
    assert code == 2 and "not enough arguments" in err
    assert out(tmp_path, 'BEGIN {printf "%c%c|%s\\n", 65, "hi", 1}') == "Ah|1\n"


def test_generated_printf_is_one_percent_expression() -> None:
    (code, _, _), _ = build('{printf "%-10s %5d\\n", $1, $2}')
    assert "'%-10s %5d\\n' % (" in code


def test_constant_gsub_matches_the_general_path(tmp_path: Path) -> None:
    cases = [("/a/", '"A"'), ("\"a\"", '"A"'), ("/ab/", '"x"'), ("/aa/", '"b"'),
             ("/a+/", '"-"'), ("/x*/", '"-"'), ("/a/", '"[&]"'), ("/a/", '"\\\\&"'),
             ("/\\./", '"!"'), ("/^/", '">"'), ("/$/", '"<"'), ("/1/", '""')]
    data = "banana aa aaa\n\nx.y.1\n\xff a\xffa\n".encode("utf-8", "surrogateescape")
    data = data.replace("\xff".encode("utf-8", "surrogateescape"), b"\xff")
    for fn in ("gsub", "sub"):
        for rx, repl in cases:
            _both(tmp_path, f"{{n = {fn}({rx}, {repl}); print n, $0, NF}}",
                  f"{{r = {repl}; n = {fn}({rx}, r); print n, $0, NF}}", data)
            _both(tmp_path, f"{{t = $0; n = {fn}({rx}, {repl}, t); print n, t}}",
                  f"{{t = $0; r = {repl}; n = {fn}({rx}, r, t); print n, t}}", data)


def test_gsub_on_record_resplits_fields(tmp_path: Path) -> None:
    assert out(tmp_path, '{gsub(/,/, " "); print NF, $2}', stdin="a,b,c\n") == "3 b\n"


def test_program_reading_only_the_record_still_sees_fields_after_assignment(
        tmp_path: Path) -> None:
    assert out(tmp_path, '{n += split($0, a)} END {print n}', stdin="a b\nc d e\n") == "5\n"
    assert out(tmp_path, '{$0 = "x y"; print $2, NF}', stdin="a\n") == "y 2\n"


@pytest.mark.parametrize(("prog", "message"), [
    ("$ 1e400", "field index too large"),
    ("{print $(1e400)}", "field index too large"),
    ("{print $(-1e400)}", "attempt to access field -inf"),
    ("{print $(-2)}", "attempt to access field -2"),
])
def test_infinite_or_negative_field_indexes_are_fatal_errors(tmp_path: Path, prog: str,
                                                             message: str) -> None:
    r = run(["awk", prog], tmp_path, "x y\n")
    assert r.code == 2 and message in r.err
