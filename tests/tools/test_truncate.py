"""truncate: creating, growing, shrinking, relative sizes and errors."""

from __future__ import annotations

from pathlib import Path

from tysh import Kernel


def _k(**files: bytes | str) -> Kernel:
    return Kernel.isolated(files=dict(files))


def _run(k: Kernel, script: str) -> tuple[int, str, str]:
    r = k.execute(script)
    return r.code, r.text_out(), r.err


def test_truncate_creates_grows_with_zeros_and_shrinks() -> None:
    k = _k(c1="abc\ndef\n")
    assert _run(k, "truncate -s 5 new; od -An -c new")[1] == "  \\0  \\0  \\0  \\0  \\0\n"
    assert _run(k, "truncate -s +2 c1; od -An -c c1")[1] == (
        "   a   b   c  \\n   d   e   f  \\n  \\0  \\0\n")
    assert _run(k, "truncate -s 2 c1; cat c1")[1] == "ab"


def test_truncate_relative_sizes_suffixes_and_reference() -> None:
    k = _k(c1="abc\ndef\n")
    assert _run(k, "truncate -s %3 c1; wc -c < c1")[1].strip() == "9"
    assert _run(k, "truncate -s /4 c1; wc -c < c1")[1].strip() == "8"
    assert _run(k, "truncate -s '<5' c1; wc -c < c1")[1].strip() == "5"
    assert _run(k, "truncate -s 1K x; wc -c < x")[1].strip() == "1024"
    assert _run(k, "truncate -s 1KB y; wc -c < y")[1].strip() == "1000"
    assert _run(k, "truncate -r c1 z; wc -c < z")[1].strip() == "5"
    assert _run(k, "truncate -r c1 -s +1 z2; wc -c < z2")[1].strip() == "6"


def test_truncate_no_create_and_errors() -> None:
    k = _k()
    assert _run(k, "truncate -c -s 5 nn; test -e nn")[0] == 1
    code, _, err = _run(k, "truncate nn")
    assert code == 1 and "you must specify either" in err
    assert _run(k, "truncate -s xx y")[2] == "truncate: Invalid number: \u2018xx\u2019\n"
    assert _run(k, "truncate -s 5")[2].startswith("truncate: missing file operand")
    assert _run(k, "truncate -s 5 no/x")[2] == (
        "truncate: cannot open 'no/x' for writing: No such file or directory\n")


def test_truncate_on_a_real_directory(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"0123456789")
    k = Kernel(cwd=str(tmp_path))
    assert k.execute("truncate -s 4 f; truncate -s +3 f").code == 0
    assert (tmp_path / "f").read_bytes() == b"0123\0\0\0"
