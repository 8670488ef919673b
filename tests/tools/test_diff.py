"""diff: the normal, unified, context and side-by-side formats, options, directories and
the diff core, through the binder; the formats that print file times and randomized
file pairs also against GNU diff 3.8 when the host has it. The GNU pins that are a
command line and its output are tests/conformance/pins/tools/diff.cases."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
import reference
from harness_text import run as text_run
from harness_text import write

from tysh.builtins.compare.diffseq import diff_changes
from tysh.kernel.embed.kernel import Kernel

_C = {"LC_ALL": "C"}  # the locale these GNU runs have always used
_NS = re.compile(rb"(\d\d:\d\d:\d\d)\.\d{9}")
_STAMP = re.compile(rb"^(---|\+\+\+) (\S+)\t.*$", re.MULTILINE)


def _kernel(tmp: Path) -> Kernel:
    k = Kernel(cwd=str(tmp))
    k.execute("TZ=UTC")
    return k


def _ours(k: Kernel, argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    r = k.execute_argv(argv[0], argv[1:], stdin, binary=True)
    out = r.out if isinstance(r.out, bytes) else r.out.encode()
    return r.code, out, r.err


def _need(tool: str) -> None:
    if reference.have(tool) is None:
        pytest.skip(f"{tool} is not installed")


def _norm(out: bytes) -> bytes:
    return _STAMP.sub(rb"\1 \2\tSTAMP", out)


def _check(tmp: Path, argv: list[str], code: int, out: bytes, stdin: bytes = b"") -> None:
    """tysh gives (code, out); so does the GNU tool when the host has it."""
    got = _ours(_kernel(tmp), argv, stdin)
    assert (got[0], _NS.sub(rb"\1.N", got[1])) == (code, _NS.sub(rb"\1.N", out)), got[2]
    want = reference.run_tool(argv, tmp, stdin, env=_C)
    if want is not None:
        assert (want.code, _NS.sub(rb"\1.N", want.out)) == (code, _NS.sub(rb"\1.N", out))


_A = b"apple\nbanana\ncherry\ndate\n"
_B = b"apple\nblueberry\ncherry\nelder\nfig\n"


def _pair(tmp: Path, a: bytes = _A, b: bytes = _B) -> None:
    (tmp / "a").write_bytes(a)
    (tmp / "b").write_bytes(b)
    for n in ("a", "b"):
        os.utime(tmp / n, (1700000000, 1700000000))


# -- formats ----------------------------------------------------------------------------

def test_diff_identical_files_print_nothing_and_exit_0(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    write(tmp_path, "b", "x\n")
    assert (text_run(["diff", "a", "b"], tmp_path).code, text_run(["diff", "a", "b"], tmp_path).out) == (0, b"")


def test_diff_normal_format_change_delete_add(tmp_path: Path) -> None:
    write(tmp_path, "a", "1\n2\n3\n4\n")
    write(tmp_path, "b", "1\nX\n3\n4\n5\n")
    r = text_run(["diff", "a", "b"], tmp_path)
    assert (r.code, r.text) == (1, "2c2\n< 2\n---\n> X\n4a5\n> 5\n")


def test_diff_unified_headers_and_hunk(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nb\nc\n")
    write(tmp_path, "b", "a\nB\nc\n")
    lines = text_run(["diff", "-u", "a", "b"], tmp_path).text.splitlines()
    assert lines[0].startswith("--- a\t") and lines[1].startswith("+++ b\t")
    assert lines[2:] == ["@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"]


def test_diff_unified_context_width_and_long_spelling(tmp_path: Path) -> None:
    write(tmp_path, "a", "".join(f"{i}\n" for i in range(10)))
    write(tmp_path, "b", "".join(f"{i}\n" for i in range(10) if i != 5))
    assert text_run(["diff", "-U", "0", "a", "b"], tmp_path).text.splitlines()[2:] == [
        "@@ -6 +5,0 @@", "-5"]
    assert text_run(["diff", "--unified=1", "a", "b"], tmp_path).text.splitlines()[2] == (
        "@@ -5,3 +5,2 @@")


def test_diff_marks_a_missing_final_newline(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\ny")
    write(tmp_path, "b", "x\ny\n")
    assert text_run(["diff", "a", "b"], tmp_path).text == (
        "2c2\n< y\n\\ No newline at end of file\n---\n> y\n")


def test_diff_brief_and_report_identical(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    write(tmp_path, "b", "y\n")
    assert text_run(["diff", "-q", "a", "b"], tmp_path).text == "Files a and b differ\n"
    assert text_run(["diff", "-s", "a", "a"], tmp_path).text == "Files a and a are identical\n"


def test_diff_c_prints_the_context_format(tmp_path: Path) -> None:
    _pair(tmp_path)
    _check(tmp_path, ["diff", "-c", "a", "b"], 1, (
        b"*** a\tTue Nov 14 22:13:20 2023\n--- b\tTue Nov 14 22:13:20 2023\n"
        b"***************\n*** 1,4 ****\n  apple\n! banana\n  cherry\n! date\n"
        b"--- 1,5 ----\n  apple\n! blueberry\n  cherry\n! elder\n! fig\n"))


# -- options, operands and directories --------------------------------------------------

def test_diff_missing_file_is_trouble_status_2(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    r = text_run(["diff", "a", "nope"], tmp_path)
    assert (r.code, r.err) == (2, "diff: nope: No such file or directory\n")


def test_diff_new_file_treats_absent_as_empty(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    assert text_run(["diff", "-N", "a", "nope"], tmp_path).text == "1d0\n< x\n"


def test_diff_ignore_options(tmp_path: Path) -> None:
    write(tmp_path, "a", "Hello  World\n\nend\n")
    write(tmp_path, "b", "hello world\nend\n")
    assert text_run(["diff", "-i", "-b", "-B", "a", "b"], tmp_path).code == 0
    assert text_run(["diff", "-w", "-i", "a", "b"], tmp_path).code == 1
    write(tmp_path, "c", "HelloWorld\nend\n")
    assert text_run(["diff", "-w", "-B", "a", "c"], tmp_path).code == 0


def test_diff_reads_stdin_for_dash(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    assert text_run(["diff", "-", "a"], tmp_path, stdin="y\n").text == "1c1\n< y\n---\n> x\n"


def test_diff_recursive_directories_with_only_in_and_headers(tmp_path: Path) -> None:
    write(tmp_path, "d1/same", "s\n")
    write(tmp_path, "d2/same", "s\n")
    write(tmp_path, "d1/f", "a\n")
    write(tmp_path, "d2/f", "b\n")
    write(tmp_path, "d1/sub/only", "o\n")
    (tmp_path / "d2" / "sub").mkdir()
    r = text_run(["diff", "-r", "d1", "d2"], tmp_path)
    assert (r.code, r.text) == (1, "diff -r d1/f d2/f\n1c1\n< a\n---\n> b\nOnly in d1/sub: only\n")


def test_diff_binary_files_are_reported_not_printed(tmp_path: Path) -> None:
    write(tmp_path, "a", b"\0a")
    write(tmp_path, "b", b"\0b")
    assert text_run(["diff", "a", "b"], tmp_path).text == "Binary files a and b differ\n"


def test_diff_unified_recursive_matches_gnu_but_for_time_stamps(tmp_path: Path) -> None:
    _need("diff")
    files = {"d1/f": b"1\n2\n3\n", "d2/f": b"1\nX\n3\n", "d1/same": b"s\n", "d2/same": b"s\n",
             "d1/only1": b"o\n", "d2/sub/only2": b"p\n", "d1/sub/k": b"k\n"}
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    argv = ["diff", "-u", "-r", "d1", "d2"]
    want = reference.run_tool(argv, tmp_path, env=_C)
    assert want is not None
    got = _ours(_kernel(tmp_path), argv)
    assert (got[0], _norm(got[1])) == (want.code, _norm(want.out))


# -- typed output and the diff core -----------------------------------------------------

def test_diff_json_gives_hunks_with_tagged_lines(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nb\n")
    write(tmp_path, "b", "a\nc\n")
    got = text_run(["diff", "--json", "a", "b"], tmp_path).json()
    assert got == [{"old": "a", "new": "b", "hunks": [{
        "old_start": 1, "old_count": 2, "new_start": 1, "new_count": 2,
        "lines": [{"tag": " ", "text": "a"}, {"tag": "-", "text": "b"},
                  {"tag": "+", "text": "c"}]}]}]


def test_diff_core_slides_changes_like_gnu() -> None:
    a = [b"x\n", b"x\n"]
    b = [b"x\n"]
    assert diff_changes(a, b, a, b) == [(1, 1, 1, 0)]


# -- randomized pairs against GNU diff --------------------------------------------------

def _random_text(rng: random.Random) -> bytes:
    words = ["a", "b", "c", "", "tab\there", "a much longer line that will need to be cut"]
    text = "".join(rng.choice(words) + "\n" for _ in range(rng.choice((0, 1, 4, 9, 20))))
    if text and rng.random() < 0.2:
        text = text[:-1]
    return text.encode()


def test_diff_context_and_side_by_side_match_gnu_on_random_pairs(tmp_path: Path) -> None:
    _need("diff")
    rng = random.Random(20261130)
    k = _kernel(tmp_path)
    bad: list[str] = []
    for n in range(60):
        a, b = _random_text(rng), _random_text(rng)
        _pair(tmp_path, a, b)
        for opts in (["-c"], ["-C", "1"], ["-y"], ["-y", "-W", "50"],
                     ["-y", "--suppress-common-lines", "-W", "31"]):
            argv = ["diff", *opts, "a", "b"]
            want = reference.run_tool(argv, tmp_path, env=_C)
            assert want is not None
            if (want.code, want.out) != _ours(k, argv)[:2]:
                bad.append(f"case {n} {opts}: a={a!r} b={b!r}")
    assert not bad, "\n".join(bad[:5])


def _random_lines(rng: random.Random) -> bytes:
    alphabet = "abcdefgh"[: rng.choice((2, 3, 4, 6, 8))]
    n = rng.choice((0, 1, 3, 8, 15, 30, 60))
    text = "".join(rng.choice(alphabet) + "\n" for _ in range(n))
    if text and rng.random() < 0.15:
        text = text[:-1]  # no newline at the end
    return text.encode()


def test_diff_randomized_pairs_match_gnu_byte_for_byte(tmp_path: Path) -> None:
    _need("diff")
    rng = random.Random(20261130)
    k = _kernel(tmp_path)
    bad: list[str] = []
    cases = 0
    for n in range(250):
        a, b = _random_lines(rng), _random_lines(rng)
        if rng.random() < 0.3 and a:  # a near-copy: a few edits of a
            lines = a.split(b"\n")
            for _ in range(rng.randint(1, 3)):
                lines.insert(rng.randint(0, len(lines)), rng.choice((b"a", b"z", b"b")))
            b = b"\n".join(lines)
        (tmp_path / "a").write_bytes(a)
        (tmp_path / "b").write_bytes(b)
        for opts in ([], ["-u"], ["-U", "1"], ["-U", "0"]):
            argv = ["diff", *opts, "a", "b"]
            want = reference.run_tool(argv, tmp_path, env=_C)
            assert want is not None
            got = _ours(k, argv)
            cases += 1
            if (want.code, _norm(want.out)) != (got[0], _norm(got[1])):
                bad.append(f"case {n} {opts}: a={a!r} b={b!r}")
    print(f"\ndiff randomized: {cases - len(bad)} of {cases} identical to GNU")
    assert not bad, "\n".join(bad[:5])
