"""Differential-hunt fixes in the utils and JSON families: each test pins one behaviour
that differed from GNU (coreutils 9.1, diffutils 3.8, jq 1.6). Where the host has the
GNU tool the same argv is run through it too (LC_ALL=C, TZ=UTC); the expected literal
output is asserted either way, so a test still means something without GNU."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from harness import host_run

from tysh.kernel.embed.kernel import Kernel

_ENV = {**os.environ, "LC_ALL": "C", "TZ": "UTC"}
_NS = re.compile(rb"(\d\d:\d\d:\d\d)\.\d{9}")


def _kernel(tmp: Path) -> Kernel:
    k = Kernel(cwd=str(tmp))
    k.execute("TZ=UTC")
    return k


def _ours(k: Kernel, argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    r = k.execute_argv(argv[0], argv[1:], stdin, binary=True)
    out = r.out if isinstance(r.out, bytes) else r.out.encode()
    return r.code, out, r.err


def _check(tmp: Path, argv: list[str], code: int, out: bytes, stdin: bytes = b"") -> None:
    """tysh gives (code, out); so does the GNU tool when the host has it."""
    got = _ours(_kernel(tmp), argv, stdin)
    assert (got[0], _NS.sub(rb"\1.N", got[1])) == (code, _NS.sub(rb"\1.N", out)), got[2]
    if shutil.which(argv[0]) is not None:
        want = host_run(argv, tmp, stdin, _ENV)
        assert (want[0], _NS.sub(rb"\1.N", want[1])) == (code, _NS.sub(rb"\1.N", out))


# -- date -d: GNU's date items ------------------------------------------------------------

@pytest.mark.parametrize(("text", "shown"), [
    ("Jan 5 2020", "2020-01-05 00:00:00"),
    ("5 Jan 2020", "2020-01-05 00:00:00"),
    ("January 5, 2020 3:04:05 PM", "2020-01-05 15:04:05"),
    ("14-nov-2023", "2023-11-14 00:00:00"),
    ("Jan-05-2020", "2020-01-05 00:00:00"),
    ("12/25/2020", "2020-12-25 00:00:00"),
    ("2020/12/25", "2020-12-25 00:00:00"),
    ("12/31/99", "1999-12-31 00:00:00"),
    ("20201225", "2020-12-25 00:00:00"),
    ("2020-01-05 1200", "2020-01-05 12:00:00"),
    ("2020-01-05 3pm", "2020-01-05 15:00:00"),
    ("2020-01-05 12am", "2020-01-05 00:00:00"),
    ("2020-01-05 3:30pm", "2020-01-05 15:30:00"),
    ("2020-01-05 next week", "2020-01-12 00:00:00"),
    ("2020-01-05 last year", "2019-01-05 00:00:00"),
    ("2020-01-05 monday", "2020-01-05 00:00:00"),
    ("1 hour ago 2020-01-05", "2020-01-04 23:00:00"),
    ("2020-01-05 1 day 2 hours ago", "2020-01-05 22:00:00"),
    ("Sun, 29 Feb 2004 16:21:42 -0800", "2004-03-01 00:21:42"),
    ("2004-02-29 16:21:42 -0800", "2004-03-01 00:21:42"),
    ("Tue Nov 14 22:13:20 UTC 2023", "2023-11-14 22:13:20"),
    ("Tue Nov 14 22:13:20 EST 2023", "2023-11-15 03:13:20"),
    ("Tue, 14 Nov 2023 22:13:20 +0000", "2023-11-14 22:13:20"),
    ("2020-01-05 12:00:00 +05:30", "2020-01-05 06:30:00"),
    ("2020-01-05 UTC+3", "2020-01-04 21:00:00"),
    ("2020-01-05 10:00 +1 day", "2020-01-06 09:00:00"),  # GNU: +1 is the zone
    ('TZ="Europe/Paris" 2020-01-05 10:00', "2020-01-05 09:00:00"),
])
def test_date_d_reads_gnu_date_items(tmp_path: Path, text: str, shown: str) -> None:
    _check(tmp_path, ["date", "-d", text, "+%F %T"], 0, shown.encode() + b"\n")


@pytest.mark.parametrize("text", ["2020-01-05 00:00:60", "nov 2023", "13pm", "25:00",
                                  "2020-01-05 monday tuesday", "hello"])
def test_date_d_rejects_what_gnu_rejects(tmp_path: Path, text: str) -> None:
    _check(tmp_path, ["date", "-d", text, "+%F"], 1, b"")


def test_date_round_trips_its_own_default_and_rfc_email_output(tmp_path: Path) -> None:
    k = _kernel(tmp_path)
    for fmt in ([], ["-R"]):
        shown = _ours(k, ["date", "-d", "@1700000000", *fmt])[1].decode().strip()
        assert _ours(k, ["date", "-d", shown, "+%s"])[:2] == (0, b"1700000000\n")


@pytest.mark.parametrize(("flag", "shown"), [
    ("-Iseconds", "2023-11-14T22:13:20+00:00"), ("-Ihours", "2023-11-14T22+00:00"),
    ("-Iminutes", "2023-11-14T22:13+00:00"), ("-Ins", "2023-11-14T22:13:20,500000000+00:00"),
    ("-Idate", "2023-11-14"),
])
def test_date_i_takes_its_precision_attached(tmp_path: Path, flag: str, shown: str) -> None:
    _check(tmp_path, ["date", "-d", "@1700000000.5", flag], 0, shown.encode() + b"\n")


def test_date_nanoseconds_width_and_flags_as_gnu(tmp_path: Path) -> None:
    _check(tmp_path, ["date", "-d", "@1.5", "+[%12N|%-12N|%_12N|%-N|%_N|%_3N|%3N]"], 0,
           b"[500000000000|5|5           |500000000|5        |5  |500]\n")


def test_date_f_reads_one_date_per_line_and_reports_bad_ones(tmp_path: Path) -> None:
    (tmp_path / "dates").write_text("2020-01-05\nbogus\n@0\n")
    code, out, err = _ours(_kernel(tmp_path), ["date", "-f", "dates", "+%s"])
    assert (code, out) == (1, b"1578182400\n0\n")
    assert err == "date: invalid date 'bogus'\n"


# -- diff: context and side-by-side formats, labels ----------------------------------------

_A = b"apple\nbanana\ncherry\ndate\n"
_B = b"apple\nblueberry\ncherry\nelder\nfig\n"


def _pair(tmp: Path, a: bytes = _A, b: bytes = _B) -> None:
    (tmp / "a").write_bytes(a)
    (tmp / "b").write_bytes(b)
    for n in ("a", "b"):
        os.utime(tmp / n, (1700000000, 1700000000))


def test_diff_c_prints_the_context_format(tmp_path: Path) -> None:
    _pair(tmp_path)
    _check(tmp_path, ["diff", "-c", "a", "b"], 1, (
        b"*** a\tTue Nov 14 22:13:20 2023\n--- b\tTue Nov 14 22:13:20 2023\n"
        b"***************\n*** 1,4 ****\n  apple\n! banana\n  cherry\n! date\n"
        b"--- 1,5 ----\n  apple\n! blueberry\n  cherry\n! elder\n! fig\n"))


def test_diff_context_zero_marks_pure_insertions_and_deletions(tmp_path: Path) -> None:
    _pair(tmp_path, b"a\nb\nc\n", b"b\nc\nd\n")
    _check(tmp_path, ["diff", "-C", "0", "--label", "X", "--label", "Y", "a", "b"], 1, (
        b"*** X\n--- Y\n***************\n*** 1 ****\n- a\n--- 0 ----\n"
        b"***************\n*** 3 ****\n--- 3 ----\n+ d\n"))


def test_diff_label_replaces_unified_headers(tmp_path: Path) -> None:
    _pair(tmp_path, b"x\n", b"y\n")
    _check(tmp_path, ["diff", "-u", "--label", "old", "--label", "new", "a", "b"], 1,
           b"--- old\n+++ new\n@@ -1 +1 @@\n-x\n+y\n")


def test_diff_conflicting_styles_are_trouble(tmp_path: Path) -> None:
    _pair(tmp_path)
    _check(tmp_path, ["diff", "-c", "-u", "a", "b"], 2, b"")


def test_diff_y_prints_two_columns_with_gnu_gutter(tmp_path: Path) -> None:
    _pair(tmp_path)
    _check(tmp_path, ["diff", "-y", "-W", "40", "a", "b"], 1, (
        b"apple\t\t\tapple\nbanana\t\t   |\tblueberry\ncherry\t\t\tcherry\n"
        b"date\t\t   |\telder\n\t\t   >\tfig\n"))
    _check(tmp_path, ["diff", "-y", "--suppress-common-lines", "a", "b"], 1, (
        b"banana\t\t\t\t\t\t\t      |\tblueberry\ndate\t\t\t\t\t\t\t      |\telder\n"
        b"\t\t\t\t\t\t\t      >\tfig\n"))


def test_diff_y_of_identical_files_still_shows_them(tmp_path: Path) -> None:
    _pair(tmp_path, b"same\n", b"same\n")
    _check(tmp_path, ["diff", "-y", "-W", "30", "a", "b"], 0, b"same\t\tsame\n")


def _random_text(rng: random.Random) -> bytes:
    words = ["a", "b", "c", "", "tab\there", "a much longer line that will need to be cut"]
    text = "".join(rng.choice(words) + "\n" for _ in range(rng.choice((0, 1, 4, 9, 20))))
    if text and rng.random() < 0.2:
        text = text[:-1]
    return text.encode()


def test_diff_context_and_side_by_side_match_gnu_on_random_pairs(tmp_path: Path) -> None:
    if shutil.which("diff") is None:
        pytest.skip("diff is not installed")
    rng = random.Random(20261130)
    k = _kernel(tmp_path)
    bad: list[str] = []
    for n in range(60):
        a, b = _random_text(rng), _random_text(rng)
        _pair(tmp_path, a, b)
        for opts in (["-c"], ["-C", "1"], ["-y"], ["-y", "-W", "50"],
                     ["-y", "--suppress-common-lines", "-W", "31"]):
            argv = ["diff", *opts, "a", "b"]
            want = host_run(argv, tmp_path, b"", _ENV)
            if want != _ours(k, argv)[:2]:
                bad.append(f"case {n} {opts}: a={a!r} b={b!r}")
    assert not bad, "\n".join(bad[:5])


# -- comm, expand, base64 --------------------------------------------------------------------

def test_comm_reports_disorder_read_before_the_first_unpairable_line(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"two\nthree\n")
    (tmp_path / "b").write_bytes(b"two\nfour\n")
    _check(tmp_path, ["comm", "a", "b"], 1, b"\t\ttwo\n\tfour\nthree\n")
    code, _, err = _ours(_kernel(tmp_path), ["comm", "a", "b"])
    assert err == ("comm: file 2 is not in sorted order\ncomm: file 1 is not in sorted order\n"
                   "comm: input is not in sorted order\n")


def test_expand_tab_list_may_end_in_plus_or_slash(tmp_path: Path) -> None:
    (tmp_path / "t").write_bytes(b"a\tb\tc\n12345678\tz\n")
    _check(tmp_path, ["expand", "-t", "4,+8", "t"], 0, b"a   b       c\n12345678    z\n")
    _check(tmp_path, ["expand", "-t", "4,/8", "t"], 0, b"a   b   c\n12345678        z\n")


@pytest.mark.parametrize("text", [b"YWJj====\n", b"YWJj=\n", b"YQ===\n"])
def test_base64_d_rejects_padding_past_a_whole_group(tmp_path: Path, text: bytes) -> None:
    _check(tmp_path, ["base64", "-d"], 1, b"abc" if text.startswith(b"YWJj") else b"a", text)


# -- jq --------------------------------------------------------------------------------------

def test_jq_tostring_and_csv_print_input_numbers_as_doubles(tmp_path: Path) -> None:
    (tmp_path / "n.json").write_text('[1.0, 2.50, 1E+3, "1.0"]\n')
    _check(tmp_path, ["jq", "-r", "@csv", "n.json"], 0, b'1,2.5,1000,"1.0"\n')
    _check(tmp_path, ["jq", "-r", ".[] | tostring", "n.json"], 0, b"1\n2.5\n1000\n1.0\n")
    _check(tmp_path, ["jq", "-s", "-r", ".[0] | @tsv", "n.json"], 0, b"1\t2.5\t1000\t1.0\n")


def test_jq_input_filename_names_each_file(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("1\n")
    (tmp_path / "y.json").write_text("2 3\n")
    _check(tmp_path, ["jq", "input_filename", "x.json", "y.json"], 0,
           b'"x.json"\n"y.json"\n"y.json"\n')


def test_jq_halt_error_prints_compact_json_and_nothing_for_null(tmp_path: Path) -> None:
    k = _kernel(tmp_path)
    r = k.execute_argv("jq", ["-n", '{"a":1} | halt_error(3)'])
    assert (r.code, r.err) == (3, '{"a":1}\n')
    r = k.execute_argv("jq", ["-n", "halt_error"])
    assert (r.code, r.err) == (5, "")


def test_jq_missing_file_message_is_jq_16s(tmp_path: Path) -> None:
    r = _kernel(tmp_path).execute_argv("jq", [".", "nofile.json"])
    assert (r.code, r.err) == (
        2, "jq: error: Could not open file nofile.json: No such file or directory\n")
    if shutil.which("jq") is not None:
        p = subprocess.run(["jq", ".", "nofile.json"], cwd=tmp_path, capture_output=True,
                           text=True, check=False)
        assert p.stderr == r.err


def test_fromjson_keeps_numbers_finite_and_refuses_nan(tmp_path: Path) -> None:
    k = _kernel(tmp_path)
    r = k.execute("echo '[1e1000,-1e999,1.5]' | fromjson --json")
    assert (r.code, r.out) == (0, "[1.7976931348623157e+308,-1.7976931348623157e+308,1.5]\n")
    r = k.execute("fromjson '[NaN]'")
    assert r.code == 1 and "invalid JSON" in r.err


def test_diff_stdin_against_itself_is_the_same_file(tmp_path: Path) -> None:
    _check(tmp_path, ["diff", "-", "-"], 0, b"", b"a\nb\n")
    _check(tmp_path, ["diff", "-s", "-", "-"], 0, b"Files - and - are identical\n", b"a\n")
