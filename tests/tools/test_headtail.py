"""head and tail (one module, text/headtail.py): counts, suffixes, headers, reading
only what is needed. `tail -f` is in test_tail_follow.py; the GNU-pinned cases are in
tests/conformance/pins/tools/head.cases and tail.cases."""

from __future__ import annotations

import io
from pathlib import Path

from harness_text import run, write

NUMS = "".join(f"{i}\n" for i in range(1, 13))


def test_head_defaults_to_ten_lines(tmp_path: Path) -> None:
    assert run(["head"], tmp_path, stdin=NUMS).out == "".join(f"{i}\n" for i in range(1, 11)).encode()


def test_head_n_spellings_agree(tmp_path: Path) -> None:
    for argv in (["-n", "2"], ["-n2"], ["--lines=2"], ["--lines", "2"], ["-2"]):
        assert run(["head", *argv], tmp_path, stdin=NUMS).out == b"1\n2\n", argv


def test_head_negative_count_prints_all_but_last_lines(tmp_path: Path) -> None:
    assert run(["head", "-n", "-10"], tmp_path, stdin=NUMS).out == b"1\n2\n"


def test_head_negative_count_treats_unterminated_last_line_as_a_line(tmp_path: Path) -> None:
    assert run(["head", "-n", "-1"], tmp_path, stdin="a\nb\nc").out == b"a\nb\n"


def test_head_bytes_and_all_but_last_bytes(tmp_path: Path) -> None:
    assert run(["head", "-c", "5"], tmp_path, stdin="abcdefgh").out == b"abcde"
    assert run(["head", "-c", "-3"], tmp_path, stdin="abcdefgh").out == b"abcde"


def test_head_count_accepts_size_suffix(tmp_path: Path) -> None:
    assert len(run(["head", "-c", "1K"], tmp_path, stdin="x" * 5000).out) == 1024


def test_head_headers_for_several_files_with_blank_line_between(tmp_path: Path) -> None:
    write(tmp_path, "a", "a1\na2\n")
    write(tmp_path, "b", "b1\n")
    r = run(["head", "-n", "1", "a", "-", "b"], tmp_path, stdin="s1\n")
    assert r.out == b"==> a <==\na1\n\n==> standard input <==\ns1\n\n==> b <==\nb1\n"


def test_head_quiet_and_verbose_control_headers(tmp_path: Path) -> None:
    write(tmp_path, "a", "a1\n")
    assert run(["head", "-q", "a", "a"], tmp_path).out == b"a1\na1\n"
    assert run(["head", "-v", "a"], tmp_path).out == b"==> a <==\na1\n"


def test_head_invalid_count_is_an_error(tmp_path: Path) -> None:
    r = run(["head", "-n", "x"], tmp_path)
    assert r.code == 1 and "invalid number of lines: 'x'" in r.err


def test_head_stops_reading_once_it_has_enough(tmp_path: Path) -> None:
    class Endless(io.RawIOBase):
        reads = 0

        def readable(self) -> bool:
            return True

        def readinto(self, b: bytearray) -> int:  # type: ignore[override]
            Endless.reads += 1
            assert Endless.reads < 50, "head kept reading"
            b[: len(b)] = b"y\n" * (len(b) // 2)
            return len(b) - len(b) % 2

    from harness_text import FakeShell

    from tysh.builtins import get_builtin
    from tysh.kernel.fs.local import LocalFileSystem
    from tysh.kernel.tools.context import Context

    tool = get_builtin("head")
    assert tool is not None and tool.func is not None and tool.args_class is not None
    out = io.BytesIO()
    ctx = Context("head", io.BufferedReader(Endless()), out, io.BytesIO(), LocalFileSystem(),
                  FakeShell(str(tmp_path)))
    tool.func(tool.args_class(lines="3"), ctx)
    assert out.getvalue() == b"y\ny\ny\n"


def test_head_json_gives_lines_or_per_file_objects(tmp_path: Path) -> None:
    write(tmp_path, "a", "1\n2\n")
    assert run(["head", "--json", "-n1", "a"], tmp_path).json() == ["1"]
    assert run(["head", "--json", "-n1", "a", "a"], tmp_path).json() == [
        {"path": "a", "lines": ["1"]}, {"path": "a", "lines": ["1"]}]


def test_tail_defaults_to_last_ten_lines(tmp_path: Path) -> None:
    assert run(["tail"], tmp_path, stdin=NUMS).out == "".join(f"{i}\n" for i in range(3, 13)).encode()


def test_tail_obsolete_forms_minus_and_plus(tmp_path: Path) -> None:
    assert run(["tail", "-3"], tmp_path, stdin=NUMS).out == b"10\n11\n12\n"
    assert run(["tail", "+11"], tmp_path, stdin=NUMS).out == b"11\n12\n"


def test_tail_plus_n_starts_at_line_n(tmp_path: Path) -> None:
    assert run(["tail", "-n", "+11"], tmp_path, stdin=NUMS).out == b"11\n12\n"


def test_tail_keeps_unterminated_last_line(tmp_path: Path) -> None:
    assert run(["tail", "-n", "2"], tmp_path, stdin="x\ny\nz").out == b"y\nz"


def test_tail_on_a_file_reads_from_the_end(tmp_path: Path) -> None:
    lines = "".join(f"line {i}\n" for i in range(200000))
    write(tmp_path, "big", lines)
    assert run(["tail", "-n", "2", "big"], tmp_path).out == b"line 199998\nline 199999\n"
    assert run(["tail", "-c", "5", "big"], tmp_path).out == b"9999\n"


def test_tail_from_a_pipe_with_many_chunks(tmp_path: Path) -> None:
    lines = "".join(f"{i}\n" for i in range(300000))
    assert run(["tail", "-n", "3"], tmp_path, stdin=lines).out == b"299997\n299998\n299999\n"


def test_tail_bytes_from_offset(tmp_path: Path) -> None:
    assert run(["tail", "-c", "+3"], tmp_path, stdin="abcdef").out == b"cdef"


def test_tail_header_for_stdin_is_standard_input(tmp_path: Path) -> None:
    write(tmp_path, "a", "f1\nf2\n")
    r = run(["tail", "-n", "1", "a", "-"], tmp_path, stdin="s1\ns2\n")
    assert r.out == b"==> a <==\nf2\n\n==> standard input <==\ns2\n"


def test_tail_missing_file_skips_header_and_fails(tmp_path: Path) -> None:
    write(tmp_path, "a", "a1\n")
    r = run(["tail", "-n", "1", "nosuch", "a"], tmp_path)
    assert (r.code, r.out) == (1, b"==> a <==\na1\n")


def test_head_count_too_large_is_an_error(tmp_path: Path) -> None:
    r = run(["head", "-n", "99999999999999999999"], tmp_path, stdin="a\n")
    assert r.code == 1 and "Value too large" in r.err


def test_head_count_rejects_unknown_suffixes(tmp_path: Path) -> None:
    for bad in ("1g", "1B", "1bB", "1Q"):
        r = run(["head", "-c", bad], tmp_path, b"x")
        assert (r.code, r.err) == (1, f"head: invalid number of bytes: '{bad}'\n")
