"""The utils family: diff, the checksum tools, base64, du, mktemp and date."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from harness import FakeShell
from harness_text import run, write

from tysh.builtins.compare.diffseq import diff_changes
from tysh.builtins.system.date import render


def _shell(tmp: Path, **vars: str) -> FakeShell:
    from harness_text import _child

    return FakeShell(str(tmp), vars=dict(vars), child=_child)


# -- diff ---------------------------------------------------------------------------

def test_diff_identical_files_print_nothing_and_exit_0(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    write(tmp_path, "b", "x\n")
    assert (run(["diff", "a", "b"], tmp_path).code, run(["diff", "a", "b"], tmp_path).out) == (0, b"")


def test_diff_normal_format_change_delete_add(tmp_path: Path) -> None:
    write(tmp_path, "a", "1\n2\n3\n4\n")
    write(tmp_path, "b", "1\nX\n3\n4\n5\n")
    r = run(["diff", "a", "b"], tmp_path)
    assert (r.code, r.text) == (1, "2c2\n< 2\n---\n> X\n4a5\n> 5\n")


def test_diff_unified_headers_and_hunk(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nb\nc\n")
    write(tmp_path, "b", "a\nB\nc\n")
    lines = run(["diff", "-u", "a", "b"], tmp_path).text.splitlines()
    assert lines[0].startswith("--- a\t") and lines[1].startswith("+++ b\t")
    assert lines[2:] == ["@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"]


def test_diff_unified_context_width_and_long_spelling(tmp_path: Path) -> None:
    write(tmp_path, "a", "".join(f"{i}\n" for i in range(10)))
    write(tmp_path, "b", "".join(f"{i}\n" for i in range(10) if i != 5))
    assert run(["diff", "-U", "0", "a", "b"], tmp_path).text.splitlines()[2:] == [
        "@@ -6 +5,0 @@", "-5"]
    assert run(["diff", "--unified=1", "a", "b"], tmp_path).text.splitlines()[2] == (
        "@@ -5,3 +5,2 @@")


def test_diff_marks_a_missing_final_newline(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\ny")
    write(tmp_path, "b", "x\ny\n")
    assert run(["diff", "a", "b"], tmp_path).text == (
        "2c2\n< y\n\\ No newline at end of file\n---\n> y\n")


def test_diff_brief_and_report_identical(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    write(tmp_path, "b", "y\n")
    assert run(["diff", "-q", "a", "b"], tmp_path).text == "Files a and b differ\n"
    assert run(["diff", "-s", "a", "a"], tmp_path).text == "Files a and a are identical\n"


def test_diff_missing_file_is_trouble_status_2(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    r = run(["diff", "a", "nope"], tmp_path)
    assert (r.code, r.err) == (2, "diff: nope: No such file or directory\n")


def test_diff_new_file_treats_absent_as_empty(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    assert run(["diff", "-N", "a", "nope"], tmp_path).text == "1d0\n< x\n"


def test_diff_ignore_options(tmp_path: Path) -> None:
    write(tmp_path, "a", "Hello  World\n\nend\n")
    write(tmp_path, "b", "hello world\nend\n")
    assert run(["diff", "-i", "-b", "-B", "a", "b"], tmp_path).code == 0
    assert run(["diff", "-w", "-i", "a", "b"], tmp_path).code == 1
    write(tmp_path, "c", "HelloWorld\nend\n")
    assert run(["diff", "-w", "-B", "a", "c"], tmp_path).code == 0


def test_diff_reads_stdin_for_dash(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    assert run(["diff", "-", "a"], tmp_path, stdin="y\n").text == "1c1\n< y\n---\n> x\n"


def test_diff_recursive_directories_with_only_in_and_headers(tmp_path: Path) -> None:
    write(tmp_path, "d1/same", "s\n")
    write(tmp_path, "d2/same", "s\n")
    write(tmp_path, "d1/f", "a\n")
    write(tmp_path, "d2/f", "b\n")
    write(tmp_path, "d1/sub/only", "o\n")
    (tmp_path / "d2" / "sub").mkdir()
    r = run(["diff", "-r", "d1", "d2"], tmp_path)
    assert (r.code, r.text) == (1, "diff -r d1/f d2/f\n1c1\n< a\n---\n> b\nOnly in d1/sub: only\n")


def test_diff_binary_files_are_reported_not_printed(tmp_path: Path) -> None:
    write(tmp_path, "a", b"\0a")
    write(tmp_path, "b", b"\0b")
    assert run(["diff", "a", "b"], tmp_path).text == "Binary files a and b differ\n"


def test_diff_json_gives_hunks_with_tagged_lines(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nb\n")
    write(tmp_path, "b", "a\nc\n")
    got = run(["diff", "--json", "a", "b"], tmp_path).json()
    assert got == [{"old": "a", "new": "b", "hunks": [{
        "old_start": 1, "old_count": 2, "new_start": 1, "new_count": 2,
        "lines": [{"tag": " ", "text": "a"}, {"tag": "-", "text": "b"},
                  {"tag": "+", "text": "c"}]}]}]


def test_diff_core_slides_changes_like_gnu() -> None:
    a = [b"x\n", b"x\n"]
    b = [b"x\n"]
    assert diff_changes(a, b, a, b) == [(1, 1, 1, 0)]


# -- checksums and base64 -------------------------------------------------------------

def test_sha256sum_prints_hash_and_name(tmp_path: Path) -> None:
    write(tmp_path, "f", "hi\n")
    want = hashlib.sha256(b"hi\n").hexdigest()
    assert run(["sha256sum", "f"], tmp_path).text == f"{want}  f\n"
    assert run(["md5sum", "-b"], tmp_path, stdin="hi\n").text == (
        hashlib.md5(b"hi\n").hexdigest() + " *-\n")


def test_sha256sum_missing_file_reports_and_continues(tmp_path: Path) -> None:
    write(tmp_path, "f", "x")
    r = run(["sha1sum", "nope", "f"], tmp_path)
    assert r.code == 1 and r.err == "sha1sum: nope: No such file or directory\n"
    assert r.text.endswith("  f\n")


def test_checksum_escapes_backslash_and_newline_names(tmp_path: Path) -> None:
    write(tmp_path, "a\\b", "x")
    assert run(["md5sum", "a\\b"], tmp_path).text.startswith("\\")
    assert run(["md5sum", "a\\b"], tmp_path).text.endswith("  a\\\\b\n")


def test_check_reports_ok_failed_and_summary(tmp_path: Path) -> None:
    write(tmp_path, "f", "hi\n")
    good = hashlib.sha256(b"hi\n").hexdigest()
    write(tmp_path, "sums", f"{good}  f\n{'0' * 64}  f\n")
    r = run(["sha256sum", "-c", "sums"], tmp_path)
    assert (r.code, r.text) == (1, "f: OK\nf: FAILED\n")
    assert r.err == "sha256sum: WARNING: 1 computed checksum did NOT match\n"
    assert run(["sha256sum", "-c", "--quiet", "sums"], tmp_path).text == "f: FAILED\n"
    s = run(["sha256sum", "-c", "--status", "sums"], tmp_path)
    assert (s.code, s.text, s.err) == (1, "", "")


def test_check_reads_bsd_tag_lines(tmp_path: Path) -> None:
    write(tmp_path, "f", "hi\n")
    tagged = run(["sha512sum", "--tag", "f"], tmp_path).text
    write(tmp_path, "sums", tagged)
    assert run(["sha512sum", "-c", "sums"], tmp_path).text == "f: OK\n"


def test_checksum_json_lists_file_and_hash(tmp_path: Path) -> None:
    write(tmp_path, "f", "")
    assert run(["md5sum", "--json", "f"], tmp_path).json() == [
        {"file": "f", "hash": hashlib.md5(b"").hexdigest()}]


def test_base64_wraps_at_76_and_round_trips_bytes(tmp_path: Path) -> None:
    data = bytes(range(256)) * 3
    enc = run(["base64"], tmp_path, stdin=data).out
    assert max(len(x) for x in enc.splitlines()) == 76 and enc.endswith(b"\n")
    assert run(["base64", "-d"], tmp_path, stdin=enc).out == data
    assert run(["base64", "-w", "0"], tmp_path, stdin=b"hi").out == b"aGk="


def test_base64_decode_invalid_input_fails_after_the_valid_part(tmp_path: Path) -> None:
    r = run(["base64", "-d"], tmp_path, stdin=b"aGk=!!!!")
    assert (r.code, r.out, r.err) == (1, b"hi", "base64: invalid input\n")
    assert run(["base64", "-d", "-i"], tmp_path, stdin=b"aG!k=").out == b"hi"


# -- du -------------------------------------------------------------------------------

def test_du_apparent_bytes_post_order_and_hard_links_once(tmp_path: Path) -> None:
    write(tmp_path, "t/a", "x" * 100)
    write(tmp_path, "t/s/b", "y" * 10)
    os.link(tmp_path / "t/a", tmp_path / "t/s/h")
    dsize = (tmp_path / "t").stat().st_size
    ssize = (tmp_path / "t/s").stat().st_size
    r = run(["du", "-b", "t"], tmp_path)
    lines = r.text.splitlines()
    assert [x.split("\t")[1] for x in lines] == ["t/s", "t"]
    assert lines[1] == f"{dsize + ssize + 110}\tt"  # the linked 100 bytes once


def test_du_summarize_total_and_json(tmp_path: Path) -> None:
    write(tmp_path, "t/a", "x" * 5000)
    r = run(["du", "-s", "-c", "-b", "t"], tmp_path)
    lines = r.text.splitlines()
    assert len(lines) == 2 and lines[1].endswith("\ttotal")
    got = run(["du", "--json", "-a", "-b", "t"], tmp_path).json()
    assert {"path": "t/a", "bytes": 5000} in got


def test_du_missing_path_is_reported_status_1(tmp_path: Path) -> None:
    r = run(["du", "nope"], tmp_path)
    assert (r.code, r.err) == (1, "du: cannot access 'nope': No such file or directory\n")


def test_du_human_sizes_follow_gnu_rounding() -> None:
    from tysh.builtins.files.du import human

    assert [human(n, 1024) for n in (0, 1023, 1024, 4097, 13202, 10 * 1024 * 1024)] == [
        "0", "1023", "1.0K", "4.1K", "13K", "10M"]
    assert human(1500, 1000) == "1.5k"


# -- mktemp ---------------------------------------------------------------------------

def test_mktemp_creates_a_private_file_in_the_session_tmpdir(tmp_path: Path) -> None:
    from harness import invoke

    from tysh.builtins import get_builtin
    from tysh.kernel.base.argv import classify

    tool = get_builtin("mktemp")
    r = invoke(tool, "mktemp", classify([]), _shell(tmp_path, TMPDIR=str(tmp_path)))
    name = r.out.decode().strip()
    assert name.startswith(str(tmp_path) + "/tmp.") and len(name.rsplit(".", 1)[1]) == 10
    assert (os.stat(name).st_mode & 0o777) == 0o600


def test_mktemp_template_directory_and_suffix(tmp_path: Path) -> None:
    d = run(["mktemp", "-d", "work.XXXX"], tmp_path).text.strip()
    assert (tmp_path / d).is_dir() and d.startswith("work.")
    f = run(["mktemp", "--suffix=.csv", "r.XXX"], tmp_path).text.strip()
    assert f.endswith(".csv") and (tmp_path / f).is_file()


def test_mktemp_dry_run_creates_nothing(tmp_path: Path) -> None:
    name = run(["mktemp", "-u", "-p", str(tmp_path)], tmp_path).text.strip()
    assert name.startswith(str(tmp_path)) and not os.path.exists(name)


def test_mktemp_rejects_too_few_xs(tmp_path: Path) -> None:
    r = run(["mktemp", "fooXX"], tmp_path)
    assert (r.code, r.err) == (1, "mktemp: too few X's in template 'fooXX'\n")


def test_mktemp_missing_directory_fails_with_gnu_wording(tmp_path: Path) -> None:
    r = run(["mktemp", "-p", str(tmp_path / "no")], tmp_path)
    assert r.code == 1 and "failed to create file via template" in r.err


# -- date -----------------------------------------------------------------------------

def _date(tmp: Path, *argv: str, tz: str = "UTC") -> str:
    from harness import invoke

    from tysh.builtins import get_builtin
    from tysh.kernel.base.argv import classify

    tool = get_builtin("date")
    r = invoke(tool, "date", classify(list(argv)), _shell(tmp, TZ=tz))
    return r.out.decode() if r.code == 0 else f"{r.code}:{r.err.decode()}"


def test_date_epoch_and_formats(tmp_path: Path) -> None:
    assert _date(tmp_path, "-d", "@1700000000") == "Tue Nov 14 22:13:20 UTC 2023\n"
    assert _date(tmp_path, "-d", "@1700000000", "+%F %T %s %:z %P %-d %_m|%e") == (
        "2023-11-14 22:13:20 1700000000 +00:00 pm 14 11|14\n")


def test_date_respects_the_session_tz(tmp_path: Path) -> None:
    assert _date(tmp_path, "-d", "@0", "+%H:%M %Z %z", tz="Asia/Tokyo") == "09:00 JST +0900\n"
    assert _date(tmp_path, "-u", "-d", "@0", "+%H", tz="Asia/Tokyo") == "00\n"


def test_date_iso_rfc_options(tmp_path: Path) -> None:
    assert _date(tmp_path, "-I", "-d", "@0") == "1970-01-01\n"
    assert _date(tmp_path, "--iso-8601=ns", "-d", "@0.5") == (
        "1970-01-01T00:00:00,500000000+00:00\n")
    assert _date(tmp_path, "-R", "-d", "@0") == "Thu, 01 Jan 1970 00:00:00 +0000\n"


def test_date_relative_and_iso_inputs(tmp_path: Path) -> None:
    assert _date(tmp_path, "-d", "2024-01-31 + 1 month", "+%F") == "2024-03-02\n"
    assert _date(tmp_path, "-d", "2024-03-10 3 days ago", "+%F") == "2024-03-07\n"
    assert _date(tmp_path, "-d", "2024-01-31T12:00:00+02:00", "+%T") == "10:00:00\n"


def test_date_invalid_input_is_gnus_error(tmp_path: Path) -> None:
    assert _date(tmp_path, "-d", "xyz") == "1:date: invalid date 'xyz'\n"


def test_date_json_gives_epoch_and_iso(tmp_path: Path) -> None:
    assert run(["date", "--json", "-u", "-d", "@0"], tmp_path).json() == {
        "epoch": 0, "iso": "1970-01-01T00:00:00+00:00"}


def test_date_render_flags_and_widths() -> None:
    from datetime import UTC, datetime

    dt = datetime(2024, 3, 5, 7, 8, 9, tzinfo=UTC)
    assert render("%^a %10A|%-H %_H %3N %k%l", dt, 0, 123456789) == (
        "TUE    Tuesday|7  7 123  7 7")
