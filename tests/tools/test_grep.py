"""grep through the binder, with real files in a temp folder and BytesIO streams, and GNU
grep's messages for patterns and files it refuses. The GNU-pinned outputs are in
tests/conformance/pins/tools/grep.cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harness import FakeShell, invoke
from harness_text import same

from tysh.builtins.search.grep import grep as grep_tool
from tysh.kernel.base.argv import classify


def run(tmp: Path, argv: list[str], stdin: bytes = b"", json_mode: bool = False
        ) -> tuple[int, str, str, Any]:
    r = invoke(grep_tool, "grep", classify(argv[1:]), FakeShell(str(tmp)), stdin, json=json_mode)
    data = r.output.to_json() if r.output else None
    return r.code, r.out.decode(), r.err.decode(), data


@pytest.fixture
def d(tmp_path: Path) -> Path:
    (tmp_path / "log.txt").write_text("INFO start\nwarn: disk low\nERROR failed\ninfo: retry\nERROR timeout\ndone\n")
    (tmp_path / "a.txt").write_text("x marks\n")
    return tmp_path


def test_basic_match_prints_matching_lines(d: Path) -> None:
    assert run(d, ["grep", "ERROR", "log.txt"])[:2] == (0, "ERROR failed\nERROR timeout\n")


def test_no_match_exits_1(d: Path) -> None:
    assert run(d, ["grep", "nothing", "log.txt"])[:2] == (1, "")


def test_missing_file_exits_2_even_with_matches(d: Path) -> None:
    code, out, err, _ = run(d, ["grep", "x", "a.txt", "nosuch.txt"])
    assert (code, out) == (2, "a.txt:x marks\n")
    assert "grep: nosuch.txt: No such file or directory" in err


def test_quiet_match_exits_0_despite_error(d: Path) -> None:
    assert run(d, ["grep", "-q", "x", "nosuch.txt", "a.txt"])[:2] == (0, "")


def test_ignore_case_and_numbers_bundle(d: Path) -> None:
    assert run(d, ["grep", "-in", "info", "log.txt"])[1] == "1:INFO start\n4:info: retry\n"


def test_invert_match(d: Path) -> None:
    assert run(d, ["grep", "-v", "ERROR", "log.txt"])[1] == "INFO start\nwarn: disk low\ninfo: retry\ndone\n"


def test_invert_with_line_numbers_and_max(d: Path) -> None:
    assert run(d, ["grep", "-vn", "-m", "2", "ERROR", "log.txt"])[1] == "1:INFO start\n2:warn: disk low\n"


def test_count_several_files(d: Path) -> None:
    assert run(d, ["grep", "-c", "x", "a.txt", "log.txt"])[1] == "a.txt:1\nlog.txt:0\n"


def test_count_empty_pattern_counts_all_lines(d: Path) -> None:
    assert run(d, ["grep", "-c", "", "log.txt"])[1] == "6\n"


def test_count_with_invert(d: Path) -> None:
    assert run(d, ["grep", "-vc", "ERROR", "log.txt"])[1] == "4\n"


def test_files_with_and_without_match(d: Path) -> None:
    assert run(d, ["grep", "-l", "x", "a.txt", "log.txt"])[1] == "a.txt\n"
    assert run(d, ["grep", "-L", "x", "a.txt", "log.txt"])[1] == "log.txt\n"


def test_word_and_line_match(tmp_path: Path) -> None:
    (tmp_path / "w").write_text("foo\nfoobar\nfoo_bar\nfoo-bar\na foo.\n")
    assert run(tmp_path, ["grep", "-w", "foo", "w"])[1] == "foo\nfoo-bar\na foo.\n"
    assert run(tmp_path, ["grep", "-x", "foo", "w"])[1] == "foo\n"


def test_only_matching_with_numbers(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("id=12 and id=345\nnone\nx=7\n")
    assert run(tmp_path, ["grep", "-on", "[0-9]\\+", "f"])[1] == "1:12\n1:345\n3:7\n"


def test_context_merges_groups_with_separators(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("1\n2\nhit\n4\nhit\n6\n7\n8\nhit\n")
    out = run(tmp_path, ["grep", "-n", "-C1", "hit", "f"])[1]
    assert out == "2-2\n3:hit\n4-4\n5:hit\n6-6\n--\n8-8\n9:hit\n"


def test_after_and_before_context(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("m1\nx\ny\nz\nm2\nw\n")
    assert run(tmp_path, ["grep", "-A1", "m", "f"])[1] == "m1\nx\n--\nm2\nw\n"
    assert run(tmp_path, ["grep", "--before-context=2", "m2", "f"])[1] == "y\nz\nm2\n"


def test_multiple_e_patterns_and_dash_pattern(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("red\n-x flag\nblue\n")
    assert run(tmp_path, ["grep", "-e", "red", "-e", "blue", "f"])[1] == "red\nblue\n"
    assert run(tmp_path, ["grep", "-e", "-x", "f"])[1] == "-x flag\n"
    assert run(tmp_path, ["grep", "--", "-x", "f"])[1] == "-x flag\n"


def test_patterns_from_file(tmp_path: Path) -> None:
    (tmp_path / "p").write_text("red\nblue\n")
    (tmp_path / "f").write_text("red\ngreen\nblue\n")
    assert run(tmp_path, ["grep", "-f", "p", "f"])[1] == "red\nblue\n"


def test_stdin_label_with_dash(d: Path) -> None:
    assert run(d, ["grep", "x", "-", "a.txt"], stdin=b"x piped\n")[1] == (
        "(standard input):x piped\na.txt:x marks\n")


def test_unterminated_last_line_gets_newline(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"one\ntwo")
    assert run(tmp_path, ["grep", "two", "f"])[1] == "two\n"


def test_recursive_names_and_filters(tmp_path: Path) -> None:
    (tmp_path / "src" / "sub").mkdir(parents=True)
    (tmp_path / "src" / "a.py").write_text("TODO one\n")
    (tmp_path / "src" / "sub" / "b.txt").write_text("TODO two\n")
    assert run(tmp_path, ["grep", "-r", "TODO", "src"])[1] == "src/a.py:TODO one\nsrc/sub/b.txt:TODO two\n"
    assert run(tmp_path, ["grep", "-r", "TODO"])[1] == "src/a.py:TODO one\nsrc/sub/b.txt:TODO two\n"
    assert run(tmp_path, ["grep", "-r", "--include=*.py", "TODO", "src"])[1] == "src/a.py:TODO one\n"
    assert run(tmp_path, ["grep", "-r", "--exclude-dir=sub", "TODO", "src"])[1] == "src/a.py:TODO one\n"


def test_directory_without_recursive_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "dd").mkdir()
    code, _, err, _ = run(tmp_path, ["grep", "x", "dd"])
    assert code == 2 and "dd: Is a directory" in err


def test_suppress_errors(d: Path) -> None:
    code, out, err, _ = run(d, ["grep", "-s", "x", "nosuch", "a.txt"])
    assert (code, out, err) == (2, "a.txt:x marks\n", "")


def test_invalid_regex_is_status_2_with_gnu_message(d: Path) -> None:
    code, _, err, _ = run(d, ["grep", "\\(x", "a.txt"])
    assert code == 2 and err == "grep: Unmatched ( or \\(\n"


def test_unicode_ignore_case_and_dot(tmp_path: Path) -> None:
    (tmp_path / "u").write_text("ÄRGER\närger\nStraße\n")
    assert run(tmp_path, ["grep", "-i", "ärger", "u"])[1] == "ÄRGER\närger\n"
    assert run(tmp_path, ["grep", "-o", "Stra.e", "u"])[1] == "Straße\n"


def test_non_utf8_bytes_pass_through(tmp_path: Path) -> None:
    (tmp_path / "b").write_bytes(b"caf\xe9 x\nother\n")
    r = invoke(grep_tool, "grep", classify(["[^o]x", "b"]), FakeShell(str(tmp_path)))
    assert r.out == b"caf\xe9 x\n"


def test_binary_file_reports_on_stderr(tmp_path: Path) -> None:
    (tmp_path / "b").write_bytes(b"a\0b\n")
    code, out, err, _ = run(tmp_path, ["grep", "a", "b"])
    assert (code, out) == (0, "") and "b: binary file matches" in err


def test_max_count_stops_reading_stdin(tmp_path: Path) -> None:
    data = b"".join(b"line %d\n" % i for i in range(100000))
    assert run(tmp_path, ["grep", "-m", "2", "7"], stdin=data)[1] == "line 7\nline 17\n"


def test_json_records_have_file_line_text(d: Path) -> None:
    code, out, _, data = run(d, ["grep", "ERROR", "log.txt"], json_mode=True)
    assert out == "" and code == 0
    assert data == [{"path": "log.txt", "line": 3, "text": "ERROR failed"},
                    {"path": "log.txt", "line": 5, "text": "ERROR timeout"}]
    json.dumps(data)


def test_json_count_and_list(d: Path) -> None:
    assert run(d, ["grep", "-c", "x", "a.txt", "log.txt"], json_mode=True)[3] == [
        {"path": "a.txt", "count": 1}, {"path": "log.txt", "count": 0}]
    assert run(d, ["grep", "-l", "x", "a.txt", "log.txt"], json_mode=True)[3] == [
        {"path": "a.txt"}]


def test_operations_are_empty() -> None:
    assert grep_tool.schema.operations == ()


def test_invert_line_numbers_across_several_gaps(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("a\nx\nb\nc\nx\nd\n")
    assert run(tmp_path, ["grep", "-vn", "x", "f"])[1] == "1:a\n3:b\n4:c\n6:d\n"
    assert run(tmp_path, ["grep", "-n", "x", "f"])[1] == "2:x\n5:x\n"


def test_perl_keep_out_prints_only_what_follows_backslash_k(tmp_path: Path) -> None:
    (tmp_path / "c.ini").write_text("name=alpha\nport=80\nnothing\n")
    assert run(tmp_path, ["grep", "-oP", r"\w+=\K\w+", "c.ini"])[:2] == (0, "alpha\n80\n")
    assert run(tmp_path, ["grep", "-noP", r"port=\K\d+", "c.ini"])[:2] == (0, "2:80\n")
    # without -o the whole line is printed, as for any match; --json carries the kept part
    assert run(tmp_path, ["grep", "-P", r"port=\K\d+", "c.ini"])[:2] == (0, "port=80\n")
    assert run(tmp_path, ["grep", "-oP", r"port=\K\d+", "c.ini"], json_mode=True)[3] == [
        {"path": "c.ini", "line": 2, "text": "80"}]
    # an empty kept part prints nothing (GNU: the line matched, nothing to show)
    assert run(tmp_path, ["grep", "-oP", r"alpha\K", "c.ini"])[:2] == (0, "")


def test_perl_keep_out_inside_a_group_or_an_alternative_is_refused_with_a_message(
        tmp_path: Path) -> None:
    (tmp_path / "f").write_text("ab\n")
    for pat in (r"(a\Kb)", r"a\Kb|c"):
        code, _, err, _ = run(tmp_path, ["grep", "-P", pat, "f"])
        assert code == 2 and "\\K is supported once" in err
    code, _, err, _ = run(tmp_path, ["grep", "-oP", "-e", r"a\Kb", "-e", r"c\Kd", "f"])
    assert code == 2 and "single -P pattern" in err


# -- GNU grep's messages ------------------------------------------------------------------
# Each asserts tysh's literal output, status and a piece of its stderr, and the same of
# GNU grep when the host has it.


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_bytes(b"apple pie\nBanana\nabc abc\napple\n")
    (tmp_path / "bin.dat").write_bytes(b"text\x00binary\nmatch here\n")
    return tmp_path


def check(tmp: Path, argv: list[str], out: bytes, code: int = 0, err: str | None = None) -> None:
    same(tmp, argv, b"", out, code, err_has=err, gnu_only=True)


def test_grep_invert_on_binary_file_reports_instead_of_printing(samples: Path) -> None:
    check(samples, ["grep", "-v", "zzz", "bin.dat"], b"", 0, "bin.dat: binary file matches")


def test_grep_conflicting_matchers_is_an_error(samples: Path) -> None:
    check(samples, ["grep", "-E", "-F", "a", "a.txt"], b"", 2, "conflicting matchers specified")


def test_grep_class_syntax_without_outer_brackets_is_an_error(samples: Path) -> None:
    check(samples, ["grep", "[:alpha:]", "a.txt"], b"", 2,
          "character class syntax is [[:space:]], not [:space:]")


def test_grep_bracket_at_end_is_invalid_regex(samples: Path) -> None:
    check(samples, ["grep", "a[", "a.txt"], b"", 2, "grep: Invalid regular expression")


def test_grep_ere_repetition_at_start_warns(samples: Path) -> None:
    check(samples, ["grep", "-E", "*pie", "a.txt"], b"apple pie\n", 0,
          "grep: warning: * at start of expression")


def test_grep_interval_errors(samples: Path) -> None:
    check(samples, ["grep", "-E", "a{1,2,3}", "a.txt"], b"", 2, "Invalid content of \\{\\}")
    check(samples, ["grep", "a\\{70000\\}", "a.txt"], b"", 2, "Regular expression too big")
    check(samples, ["grep", "[[:alpha:]-z]", "a.txt"], b"", 2, "Invalid range end")


def test_grep_perl_errors_in_pcre_words(samples: Path) -> None:
    check(samples, ["grep", "-P", "(", "a.txt"], b"", 2, "grep: missing closing parenthesis")
    check(samples, ["grep", "-P", "[[:foo:]]", "a.txt"], b"", 2, "grep: unknown POSIX class name")


def test_a_line_longer_than_the_memory_budget_ends_grep_not_the_host() -> None:
    from tysh import Kernel, Limits

    k = Kernel.isolated(limits=Limits(max_memory=8 << 20), max_fs_bytes=64 << 20)
    k.execute("truncate -s 32M big")  # one line of NUL bytes, no newline
    r = k.execute("grep -c x big; echo $?", timeout=10)
    assert r.out == "1\n" and "memory limit" in r.err, (r.out, r.err)


def test_recursive_search_reads_each_file_as_grep_on_that_file_does(tmp_path: Path) -> None:
    """A tree walk reads small files whole: what it selects, counts and lists for each
    file is what grep on the file alone gives (unterminated last line, a NUL only in it,
    no match at all, an empty file, a pattern matching the empty line; whole words,
    any case, the first match only, a binary file read as text)."""
    t = tmp_path / "t"
    t.mkdir()
    files = {
        "a": b"needle one\nhay\nneedle two",
        "b": b"hay\nab\0needle",
        "c": b"hay only\n",
        "d": b"",
        "e": b"\n\nneedle\n",
        "f": b"needles\nNEEDLE\nna\xc3\xafve needle\nneedle_x\nxneedle needle\n",
        "g": b"needle\nneedle\nhay\nneedle\n",
    }
    for name, data in files.items():
        (t / name).write_bytes(data)
    for opts in ([], ["-c"], ["-l"], ["-L"], ["-v"], ["-n"], ["-o"], ["-x"], ["-w"],
                 ["-i"], ["-n", "-iw"], ["-m", "2"], ["-n", "-m", "1"], ["-a"], ["-Z"],
                 ["-lw"], ["-Li"], ["-lI"], ["-lZ"]):
        for p in ([*opts, "needle"], [*opts, ""], [*opts, "-e", "^$"]):
            walked = run(tmp_path, ["grep", "-r", *p, "t"])
            alone = [run(tmp_path, ["grep", "-H", *p, f"t/{n}"]) for n in files]
            assert walked[1] == "".join(a[1] for a in alone), (p, walked)
            assert walked[2] == "".join(a[2] for a in alone), (p, walked)


def test_a_walk_searches_files_around_a_subdirectory_in_sorted_order(tmp_path: Path) -> None:
    """Files before a subdirectory, the subdirectory's tree, then the files after it, in
    every output mode (files with no match write nothing, or their count, or their
    name); --include filters the files of each directory alike."""
    t = tmp_path / "t"
    (t / "m" / "n").mkdir(parents=True)
    for rel, text in {"a": "hit\n", "b.txt": "miss\n", "m/c": "hit\n", "m/n/d": "miss\n",
                      "m/n/e.txt": "hit\n", "z": "hit\n", "y.txt": "hit\n"}.items():
        (t / rel).write_text(text)
    assert run(tmp_path, ["grep", "-r", "hit", "t"])[1] == (
        "t/a:hit\nt/m/c:hit\nt/m/n/e.txt:hit\nt/y.txt:hit\nt/z:hit\n")
    assert run(tmp_path, ["grep", "-rc", "hit", "t"])[1] == (
        "t/a:1\nt/b.txt:0\nt/m/c:1\nt/m/n/d:0\nt/m/n/e.txt:1\nt/y.txt:1\nt/z:1\n")
    assert run(tmp_path, ["grep", "-rL", "hit", "t"])[1] == "t/b.txt\nt/m/n/d\n"
    assert run(tmp_path, ["grep", "-rl", "--include=*.txt", "hit", "t"])[1] == (
        "t/m/n/e.txt\nt/y.txt\n")
    code, out, _, _ = run(tmp_path, ["grep", "-rq", "hit", "t"])
    assert (code, out) == (0, "")
    code, out, _, _ = run(tmp_path, ["grep", "-rq", "nowhere", "t"])
    assert (code, out) == (1, "")


def test_recursive_output_and_error_messages_keep_their_order(tmp_path: Path) -> None:
    """A walk's lines are written in batches, but each message on stderr comes after the
    lines selected before it, as GNU grep's order is seen through `2>&1`."""
    from tysh.kernel.embed.kernel import Kernel

    d = tmp_path / "d"
    d.mkdir()
    (d / "a").write_text("x1\n")
    (d / "b").symlink_to("nowhere")
    (d / "c").write_text("x2\n")
    (d / "e").write_bytes(b"x3\0\n")
    (d / "f").write_text("x4\n")
    r = Kernel(cwd=str(tmp_path)).execute("grep -R x d 2>&1 | cat")
    assert r.out == ("d/a:x1\ngrep: d/b: No such file or directory\nd/c:x2\n"
                     "grep: d/e: binary file matches\nd/f:x4\n"), r.out


def test_a_recursive_search_stops_at_a_cancel_inside_one_big_directory(tmp_path: Path) -> None:
    """The walk asks the session whether to go on every few hundred files, not only
    between directories: a cancel or a time limit stops it inside a directory of many
    files none of which matches (so no output write notices it either)."""
    from harness import FakeShell

    class Stop(Exception):
        pass

    class Cancelling(FakeShell):
        asked = 0

        def check_boundary(self) -> None:
            self.asked += 1
            if self.asked > 1:
                raise Stop

    big = tmp_path / "big"
    big.mkdir()
    for i in range(2000):
        (big / f"f{i}").write_text("hay\n")
    shell = Cancelling(str(tmp_path))
    with pytest.raises(Stop):
        invoke(grep_tool, "grep", classify(["-r", "needle", "big"]), shell)
    assert shell.asked == 2
