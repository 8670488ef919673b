"""gzip, gunzip and zcat, in-process and through ctx.fs: in an in-memory sandbox or a
confined real directory, and against the host's GNU gzip when installed."""

from __future__ import annotations

import gzip as pygzip
import io
import json
import os
from pathlib import Path

import pytest
import reference

from tysh import Kernel
from tysh.builtins.archive.gzip import compress_stream

needs_gzip = pytest.mark.skipif(reference.have("gzip") is None, reason="GNU gzip not installed")
TEXT = "".join(f"line {i}\n" for i in range(500))


def sandbox(**files: bytes | str) -> Kernel:
    return Kernel.isolated(files={k.replace("__", "/"): v for k, v in files.items()})


def _gz(data: bytes, name: bytes | None = None, mtime: int = 0) -> bytes:
    out = io.BytesIO()
    compress_stream(io.BytesIO(data), out, name, mtime, 6)
    return out.getvalue()


def test_gzip_replaces_the_file_and_gunzip_restores_it() -> None:
    k = sandbox(**{"a.txt": TEXT})
    res = k.execute("gzip a.txt; ls; gunzip a.txt.gz; ls; cat a.txt")
    assert res.code == 0, res.err
    assert res.out == "a.txt.gz\na.txt\n" + TEXT


def test_gzip_keep_and_stdout_keep_the_original() -> None:
    k = sandbox(**{"a.txt": TEXT})
    res = k.execute("gzip -k a.txt; gzip -c a.txt > b.gz; ls; zcat b.gz | wc -l")
    assert res.code == 0, res.err
    assert res.out == "a.txt\na.txt.gz\nb.gz\n500\n"


def test_gzip_without_files_filters_stdin_to_stdout() -> None:
    res = sandbox().execute("gzip | gunzip", stdin="hello\n")
    assert (res.code, res.out) == (0, "hello\n")


def test_gzip_output_is_valid_for_python_gzip_with_name_and_mtime() -> None:
    k = sandbox(**{"a.txt": "abc\n"})
    res = k.execute("touch -d @1700000000 a.txt; gzip -c a.txt", binary=True)
    data = res.out
    assert isinstance(data, bytes)
    assert data[:4] == b"\x1f\x8b\x08\x08" and data[4:8] == (1700000000).to_bytes(4, "little")
    assert data[8:10] == b"\x00\x03" and data[10:16] == b"a.txt\0"
    assert pygzip.decompress(data) == b"abc\n"


def test_gzip_n_stores_no_name_and_no_time() -> None:
    res = sandbox(**{"a.txt": "abc\n"}).execute("gzip -n -9 -c a.txt", binary=True)
    assert isinstance(res.out, bytes)
    assert res.out[:10] == b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03"


def test_gzip_does_not_overwrite_an_existing_gz_without_f() -> None:
    k = sandbox(**{"a.txt": "new\n", "a.txt.gz": "old"})
    res = k.execute("gzip a.txt")
    assert res.code == 2
    assert res.err == "gzip: a.txt.gz already exists;\tnot overwritten\n"
    res = k.execute("gzip -f a.txt; zcat a.txt.gz; ls")
    assert (res.code, res.out) == (0, "new\na.txt.gz\n")


def test_gzip_missing_file_is_an_error() -> None:
    res = sandbox().execute("gzip nope")
    assert (res.code, res.err) == (1, "gzip: nope: No such file or directory\n")


def test_gunzip_of_a_name_finds_its_gz_or_reports_the_gz_name() -> None:
    k = sandbox(**{"a.gz": _gz(b"x\n")})
    assert k.execute("gunzip a; cat a").out == "x\n"
    res = k.execute("gunzip nope")
    assert (res.code, res.err) == (1, "gzip: nope.gz: No such file or directory\n")


def test_gunzip_of_a_file_not_in_gzip_format_fails_with_status_1() -> None:
    k = sandbox(**{"f.gz": "plain\n"})
    res = k.execute("gzip -d f.gz")
    assert (res.code, res.err) == (1, "gzip: f.gz: not in gzip format\n")
    assert k.execute("cat f.gz").out == "plain\n"
    res = k.execute("zcat < f.gz")
    assert (res.code, res.err) == (1, "gzip: stdin: not in gzip format\n")


def test_gunzip_of_a_file_without_a_known_suffix_is_ignored() -> None:
    res = sandbox(**{"f": _gz(b"x")}).execute("gunzip f")
    assert (res.code, res.err) == (2, "gzip: f: unknown suffix -- ignored\n")


def test_gzip_of_a_gz_file_is_left_unchanged() -> None:
    res = sandbox(**{"f.gz": _gz(b"x")}).execute("gzip f.gz")
    assert (res.code, res.err) == (2, "gzip: f.gz already has .gz suffix -- unchanged\n")


def test_gzip_ignores_directories_unless_recursive() -> None:
    k = sandbox(**{"d__a": "1\n", "d__e__b": "2\n"})
    res = k.execute("gzip d")
    assert (res.code, res.err) == (2, "gzip: d is a directory -- ignored\n")
    res = k.execute("gzip -r d; find d -type f | sort; gunzip -r d; find d -type f | sort")
    assert res.out == "d/a.gz\nd/e/b.gz\nd/a\nd/e/b\n"


def test_zcat_reads_concatenated_members() -> None:
    k = sandbox(**{"a.gz": _gz(b"one\n") + _gz(b"two\n")})
    assert k.execute("zcat a.gz").out == "one\ntwo\n"


def test_zcat_warns_about_trailing_garbage_with_status_2() -> None:
    k = sandbox(**{"a.gz": _gz(b"one\n") + b"garbage\n"})
    res = k.execute("zcat a.gz")
    assert (res.code, res.out) == (2, "one\n")
    assert res.err == "gzip: a.gz: decompression OK, trailing garbage ignored\n"


def test_gzip_t_reports_corruption_and_v_says_ok() -> None:
    good = _gz(TEXT.encode())
    bad = good[:-8] + b"\0\0\0\0" + good[-4:]
    k = sandbox(**{"good.gz": good, "bad.gz": bad, "short.gz": good[:20]})
    res = k.execute("gzip -tv good.gz")
    assert (res.code, res.err) == (0, "good.gz:\t OK\n")
    res = k.execute("gzip -t bad.gz")
    assert (res.code, res.err) == (1, "gzip: bad.gz: invalid compressed data--crc error\n")
    res = k.execute("gzip -t short.gz")
    assert (res.code, res.err) == (1, "gzip: short.gz: unexpected end of file\n")


def test_gzip_l_lists_sizes_and_ratio_like_gnu() -> None:
    k = sandbox(**{"a.txt": "hi\n"})
    res = k.execute("gzip a.txt; gzip -l a.txt.gz")
    assert res.out == (
        "         compressed        uncompressed  ratio uncompressed_name\n"
        "                 29                   3 -66.7% a.txt\n")


def test_gzip_v_reports_the_ratio_on_stderr() -> None:
    res = sandbox(**{"b.txt": "hi\n"}).execute("gzip -v b.txt")
    assert res.err == "b.txt:\t-66.7% -- replaced with b.txt.gz\n"


def test_gunzip_N_restores_the_stored_name() -> None:
    k = sandbox(**{"x.gz": _gz(b"data\n", b"original.txt", 1700000000)})
    res = k.execute("gunzip -N x.gz; ls; cat original.txt")
    assert res.out == "original.txt\ndata\n"


def test_gzip_level_bundles_with_letters() -> None:
    res = sandbox(**{"a": TEXT}).execute("gzip -9c a | gunzip | wc -l")
    assert res.out.strip() == "500"


def test_gzip_round_trips_bytes_that_are_not_utf8() -> None:
    blob = bytes(range(256)) * 50
    k = sandbox(**{"b.bin": blob})
    res = k.execute("gzip b.bin; gunzip -c b.bin.gz", binary=True)
    assert res.out == blob


def test_gzip_json_list_gives_records() -> None:
    res = sandbox(**{"a.gz": _gz(b"hi\n", b"a")}).execute("gzip --json -l a.gz")
    assert json.loads(res.out) == [
        {"compressed": 25, "uncompressed": 3, "ratio": -66.7, "name": "a"}]


def test_gzip_d_of_empty_input_is_unexpected_end_of_file() -> None:
    res = sandbox(**{"e.gz": b""}).execute("zcat e.gz; gzip -dc < e.gz")
    assert res.code == 1
    assert res.err == ("gzip: e.gz: unexpected end of file\n"
                       "gzip: stdin: unexpected end of file\n")


# -- against GNU gzip -------------------------------------------------------------------

@needs_gzip
@pytest.mark.parametrize("opts", ["-n -c", "-c", "-9 -c", "-1 -c"])
def test_gzip_output_is_byte_identical_with_gnu_for_text(tmp_path: Path, opts: str) -> None:
    (tmp_path / "a.txt").write_text(TEXT)
    os.utime(tmp_path / "a.txt", (1700000000, 1700000000))
    ours = Kernel(cwd=str(tmp_path)).execute(f"gzip {opts} a.txt", binary=True).out
    gnu = reference.run_tool(["gzip", *opts.split(), "a.txt"], tmp_path)
    assert gnu is not None and gnu.code == 0
    assert ours == gnu.out


@needs_gzip
def test_gnu_gzip_and_tysh_read_each_others_output(tmp_path: Path) -> None:
    blob = os.urandom(5000) + TEXT.encode()
    (tmp_path / "b.bin").write_bytes(blob)
    k = Kernel(cwd=str(tmp_path))
    assert k.execute("gzip -k b.bin").code == 0
    gnu = reference.run_tool(["gzip", "-dc", "b.bin.gz"], tmp_path)
    assert gnu is not None and gnu.code == 0
    assert gnu.out == blob
    again = reference.run_tool(["gzip", "-9f", "b.bin"], tmp_path)
    assert again is not None and again.code == 0
    assert k.execute("zcat b.bin.gz", binary=True).out == blob


@needs_gzip
def test_gzip_l_matches_gnu(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(TEXT)
    (tmp_path / "b.txt").write_text("hi\n")
    made = reference.run_tool(["gzip", "a.txt", "b.txt"], tmp_path)
    assert made is not None and made.code == 0
    gnu = reference.run_tool(["gzip", "-l", "a.txt.gz", "b.txt.gz"], tmp_path)
    assert gnu is not None and gnu.code == 0
    ours = Kernel(cwd=str(tmp_path)).execute("gzip -l a.txt.gz b.txt.gz").out
    assert ours == gnu.text
    assert ours.splitlines()[-1].endswith("(totals)")
