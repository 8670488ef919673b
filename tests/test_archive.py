"""The archive family: gzip, gunzip, zcat and tar, in-process and through ctx.fs.

Unit tests run in an in-memory sandbox or a confined real directory; differential tests
compare with the host's GNU gzip/tar when installed (and assert literal output too)."""

from __future__ import annotations

import gzip as pygzip
import io
import json
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from tysh import Kernel
from tysh.builtins import get_builtin
from tysh.builtins.archive.gzip import compress_stream

HAVE_GZIP = shutil.which("gzip") is not None
HAVE_TAR = shutil.which("tar") is not None
needs_gzip = pytest.mark.skipif(not HAVE_GZIP, reason="GNU gzip not installed")
needs_tar = pytest.mark.skipif(not HAVE_TAR, reason="GNU tar not installed")

TEXT = "".join(f"line {i}\n" for i in range(500))


def sandbox(**files: bytes | str) -> Kernel:
    return Kernel.isolated(files={k.replace("__", "/"): v for k, v in files.items()})


def _gz(data: bytes, name: bytes | None = None, mtime: int = 0) -> bytes:
    out = io.BytesIO()
    compress_stream(io.BytesIO(data), out, name, mtime, 6)
    return out.getvalue()


# ------------------------------------------------------------------ gzip


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


def test_gzip_tools_declare_their_file_operations() -> None:
    ops = {n: set(t.schema.operations) for n in ("gzip", "gunzip", "zcat", "tar")
           if (t := get_builtin(n)) is not None}
    assert ops == {"gzip": {"fs.create", "fs.overwrite", "fs.remove"},
                   "gunzip": {"fs.create", "fs.overwrite", "fs.remove"},
                   "zcat": set(), "tar": {"fs.create", "fs.overwrite"}}


@needs_gzip
@pytest.mark.parametrize("opts", ["-n -c", "-c", "-9 -c", "-1 -c"])
def test_gzip_output_is_byte_identical_with_gnu_for_text(tmp_path: Path, opts: str) -> None:
    (tmp_path / "a.txt").write_text(TEXT)
    os.utime(tmp_path / "a.txt", (1700000000, 1700000000))
    ours = Kernel(cwd=str(tmp_path)).execute(f"gzip {opts} a.txt", binary=True).out
    gnu = subprocess.run(["gzip", *opts.split(), "a.txt"], cwd=tmp_path,
                         capture_output=True, check=True).stdout
    assert ours == gnu


@needs_gzip
def test_gnu_gzip_and_tysh_read_each_others_output(tmp_path: Path) -> None:
    blob = os.urandom(5000) + TEXT.encode()
    (tmp_path / "b.bin").write_bytes(blob)
    k = Kernel(cwd=str(tmp_path))
    assert k.execute("gzip -k b.bin").code == 0
    gnu = subprocess.run(["gzip", "-dc", "b.bin.gz"], cwd=tmp_path, capture_output=True,
                         check=True).stdout
    assert gnu == blob
    subprocess.run(["gzip", "-9f", "b.bin"], cwd=tmp_path, check=True)
    assert k.execute("zcat b.bin.gz", binary=True).out == blob


@needs_gzip
def test_gzip_l_matches_gnu(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(TEXT)
    (tmp_path / "b.txt").write_text("hi\n")
    subprocess.run(["gzip", "a.txt", "b.txt"], cwd=tmp_path, check=True)
    gnu = subprocess.run(["gzip", "-l", "a.txt.gz", "b.txt.gz"], cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout
    ours = Kernel(cwd=str(tmp_path)).execute("gzip -l a.txt.gz b.txt.gz").out
    assert ours == gnu
    assert ours.splitlines()[-1].endswith("(totals)")


# ------------------------------------------------------------------ tar

TREE = {"d__a.txt": "alpha\n", "d__sub__b.txt": "beta\n", "d__sub__c.o": "obj\n"}


def _sandbox_tree() -> Kernel:
    return sandbox(**TREE)


def test_tar_create_then_extract_elsewhere_round_trips() -> None:
    k = _sandbox_tree()
    res = k.execute("tar cf a.tar d && mkdir out && tar xf a.tar -C out && "
                    "cat out/d/a.txt out/d/sub/b.txt && find out | sort")
    assert res.code == 0, res.err
    assert res.out == ("alpha\nbeta\nout\nout/d\nout/d/a.txt\nout/d/sub\nout/d/sub/b.txt\n"
                       "out/d/sub/c.o\n")


def test_tar_bundled_old_style_options_and_dash_forms() -> None:
    k = _sandbox_tree()
    res = k.execute("tar czf a.tgz d; tar -tzf a.tgz; tar tf a.tgz d/sub")
    assert res.code == 0, res.err
    assert res.out == ("d/\nd/a.txt\nd/sub/\nd/sub/b.txt\nd/sub/c.o\n"
                       "d/sub/\nd/sub/b.txt\nd/sub/c.o\n")


def test_tar_detects_gzip_on_extract_without_z() -> None:
    k = _sandbox_tree()
    res = k.execute("tar -czf a.tgz d; mkdir o; tar xf a.tgz -C o; cat o/d/a.txt")
    assert (res.code, res.out) == (0, "alpha\n")
    assert k.execute("gzip -t a.tgz").code == 0


def test_tar_f_dash_writes_and_reads_a_pipe() -> None:
    res = _sandbox_tree().execute("tar cf - d/sub | tar tf -")
    assert (res.code, res.out) == (0, "d/sub/\nd/sub/b.txt\nd/sub/c.o\n")


def test_tar_verbose_create_and_extract_print_names() -> None:
    k = _sandbox_tree()
    res = k.execute("tar cvf a.tar d/sub")
    assert res.out == "d/sub/\nd/sub/b.txt\nd/sub/c.o\n"
    res = k.execute("mkdir o; tar xvf a.tar -C o")
    assert res.out == "d/sub/\nd/sub/b.txt\nd/sub/c.o\n"
    res = k.execute("tar cvf - d/sub > /dev/null")
    assert res.err == "d/sub/\nd/sub/b.txt\nd/sub/c.o\n"


def test_tar_tv_lists_like_ls_l(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("hello\n")
    os.chmod(tmp_path / "f.txt", 0o640)
    os.utime(tmp_path / "f.txt", (1700000000, 1700000000))
    k = Kernel(cwd=str(tmp_path), env={"TZ": "UTC"})
    assert k.execute("tar cf a.tar f.txt").code == 0
    with tarfile.open(tmp_path / "a.tar") as tf:
        m = tf.getmember("f.txt")
        user, group = m.uname or str(m.uid), m.gname or str(m.gid)
    import time as _time
    stamp = _time.strftime("%Y-%m-%d %H:%M", _time.localtime(1700000000))
    width = max(19, len(user) + len(group) + 3) - (len(user) + len(group) + 3) + 1
    want = f"-rw-r----- {user}/{group} {'6':>{width}} {stamp} f.txt\n"
    if (user, group) == ("root", "root"):
        assert want == f"-rw-r----- root/root         6 {stamp} f.txt\n"
    assert k.execute("tar tvf a.tar").out == want


def test_tar_O_extracts_to_stdout() -> None:
    res = _sandbox_tree().execute("tar cf a.tar d; tar xOf a.tar d/sub/b.txt; ls")
    assert res.out == "beta\na.tar\nd\n"


def test_tar_exclude_skips_matching_names() -> None:
    res = _sandbox_tree().execute("tar cf a.tar --exclude '*.o' d; tar tf a.tar")
    assert res.out == "d/\nd/a.txt\nd/sub/\nd/sub/b.txt\n"
    res = _sandbox_tree().execute("tar cf a.tar d; tar tf a.tar --exclude sub")
    assert res.out == "d/\nd/a.txt\n"


def test_tar_strip_components_drops_leading_directories() -> None:
    res = _sandbox_tree().execute(
        "tar cf a.tar d; mkdir o; tar xf a.tar -C o --strip-components=1; find o | sort")
    assert res.out == "o\no/a.txt\no/sub\no/sub/b.txt\no/sub/c.o\n"


def test_tar_C_on_create_archives_relative_names() -> None:
    res = _sandbox_tree().execute("tar cf a.tar -C d sub; tar tf a.tar")
    assert res.out == "sub/\nsub/b.txt\nsub/c.o\n"


def test_tar_keep_old_files_refuses_to_replace() -> None:
    k = _sandbox_tree()
    res = k.execute("tar cf a.tar d; echo changed > d/a.txt; tar xkf a.tar; cat d/a.txt")
    assert res.code == 0  # the status of cat; tar's is checked next
    assert res.out == "changed\n"
    res = k.execute("tar xkf a.tar d/a.txt")
    assert res.code == 2
    assert res.err == ("tar: d/a.txt: Cannot open: File exists\n"
                       "tar: Exiting with failure status due to previous errors\n")


def test_tar_symlinks_are_archived_as_links() -> None:
    k = _sandbox_tree()
    res = k.execute("ln -s a.txt d/l; tar cf a.tar d; mkdir o; tar xf a.tar -C o; "
                    "readlink o/d/l; cat o/d/l")
    assert (res.code, res.out) == (0, "a.txt\nalpha\n")


def _evil_tar(*members: tuple[str, str | None, bytes]) -> bytes:
    """An archive of (name, symlink target or None, data) members."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        for name, link, data in members:
            info = tarfile.TarInfo(name)
            if link is not None:
                info.type, info.linkname = tarfile.SYMTYPE, link
                tf.addfile(info)
            else:
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def test_tar_refuses_members_with_dotdot() -> None:
    k = sandbox(**{"e.tar": _evil_tar(("../evil.txt", None, b"x"), ("ok.txt", None, b"y"))})
    res = k.execute("mkdir o; tar xf e.tar -C o")
    assert res.code == 2
    assert res.err == ("tar: Removing leading `../' from member names\n"
                       "tar: ../evil.txt: Member name contains '..'\n"
                       "tar: Exiting with failure status due to previous errors\n")
    assert k.execute("ls o; ls").out == "ok.txt\ne.tar\no\n"


def test_tar_strips_leading_slash_and_extracts_under_the_target() -> None:
    k = sandbox(**{"e.tar": _evil_tar(("/etc/evil.txt", None, b"x"))})
    res = k.execute("mkdir o; tar xf e.tar -C o; cat o/etc/evil.txt")
    assert (res.code, res.out) == (0, "x")
    assert res.err == "tar: Removing leading `/' from member names\n"
    assert not k.execute("test -e /etc/evil.txt").code == 0


def test_tar_never_writes_through_a_symlink_from_the_archive(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    (work / "e.tar").write_bytes(_evil_tar(("link", str(outside), b""),
                                           ("link/pwned.txt", None, b"x"),
                                           ("rel", "../../outside", b""),
                                           ("rel/pwned2.txt", None, b"x")))
    res = Kernel(cwd=str(work)).execute("mkdir o; tar xf e.tar -C o")
    assert "Traceback" not in res.err
    assert list(outside.iterdir()) == []


def test_tar_replaces_an_existing_symlink_instead_of_following_it(tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("keep\n")
    work = tmp_path / "w"
    work.mkdir()
    (work / "f.txt").symlink_to(tmp_path / "secret")
    (work / "e.tar").write_bytes(_evil_tar(("f.txt", None, b"new\n")))
    res = Kernel(cwd=str(tmp_path)).execute("cd w && tar xf e.tar && cat f.txt")
    assert (res.code, res.out) == (0, "new\n")
    assert (tmp_path / "secret").read_text() == "keep\n"


def test_tar_errors_are_gnus() -> None:
    k = _sandbox_tree()
    res = k.execute("tar cf a.tar nope")
    assert res.code == 2
    assert res.err == ("tar: nope: Cannot stat: No such file or directory\n"
                       "tar: Exiting with failure status due to previous errors\n")
    res = k.execute("tar cf a.tar")
    assert (res.code, res.err) == (2, "tar: Cowardly refusing to create an empty archive\n"
                                      "Try 'tar --help' or 'tar --usage' for more information.\n")
    res = k.execute("tar cf a.tar d; tar tf a.tar nothere")
    assert res.code == 2
    assert res.err == ("tar: nothere: Not found in archive\n"
                       "tar: Exiting with failure status due to previous errors\n")
    res = k.execute("tar tf d/a.txt")
    assert res.code == 2
    assert res.err.startswith("tar: This does not look like a tar archive\n")
    res = k.execute("tar xf missing.tar")
    assert res.err == ("tar: missing.tar: Cannot open: No such file or directory\n"
                       "tar: Error is not recoverable: exiting now\n")
    res = k.execute("tar f a.tar")
    assert res.code == 2 and "You must specify one of the '-Acdtrux'" in res.err


def test_tar_truncated_archive_is_reported_not_a_traceback() -> None:
    k = _sandbox_tree()
    res = k.execute("tar czf a.tgz d; head -c 60 a.tgz > cut.tgz; tar tzf cut.tgz")
    assert res.code == 2
    assert "Traceback" not in res.err and res.err.startswith("tar: ")


def test_tar_json_lists_members_as_records() -> None:
    res = _sandbox_tree().execute("tar cf a.tar d/sub; tar --json tf a.tar")
    rows = json.loads(res.out)
    assert [r["name"] for r in rows] == ["d/sub", "d/sub/b.txt", "d/sub/c.o"]
    assert rows[1]["type"] == "file" and rows[1]["size"] == 5 and rows[0]["type"] == "directory"
    res = _sandbox_tree().execute("tar --json cf a.tar d/sub")
    assert json.loads(res.out) == ["d/sub/", "d/sub/b.txt", "d/sub/c.o"]


@needs_tar
def test_gnu_tar_reads_tysh_archives(tmp_path: Path) -> None:
    (tmp_path / "d" / "sub").mkdir(parents=True)
    (tmp_path / "d" / "a.txt").write_text("alpha\n")
    (tmp_path / "d" / "sub" / "b.bin").write_bytes(b"\xff\x00" * 100)
    (tmp_path / "d" / "l").symlink_to("a.txt")
    k = Kernel(cwd=str(tmp_path))
    assert k.execute("tar czf a.tgz d").code == 0
    listing = subprocess.run(["tar", "tzf", "a.tgz"], cwd=tmp_path, capture_output=True,
                             text=True, check=True).stdout
    assert sorted(listing.split()) == ["d/", "d/a.txt", "d/l", "d/sub/", "d/sub/b.bin"]
    (tmp_path / "o").mkdir()
    subprocess.run(["tar", "xzf", "a.tgz", "-C", "o"], cwd=tmp_path, check=True)
    assert (tmp_path / "o/d/sub/b.bin").read_bytes() == b"\xff\x00" * 100
    assert os.readlink(tmp_path / "o/d/l") == "a.txt"


@needs_tar
def test_tysh_reads_gnu_tar_archives_and_lists_them_alike(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.txt").write_text("alpha\n")
    os.utime(tmp_path / "d" / "a.txt", (1700000000, 1700000000))
    os.utime(tmp_path / "d", (1700000000, 1700000000))
    subprocess.run(["tar", "czf", "g.tgz", "d"], cwd=tmp_path, check=True)
    env = {**os.environ, "TZ": "UTC"}
    gnu = subprocess.run(["tar", "tvf", "g.tgz"], cwd=tmp_path, capture_output=True,
                         text=True, check=True, env=env).stdout
    k = Kernel(cwd=str(tmp_path), env={"TZ": "UTC"})
    ours = k.execute("tar tvf g.tgz")
    assert ours.out == gnu
    import time as _time
    stamp = _time.strftime("%Y-%m-%d %H:%M", _time.localtime(1700000000))
    assert f"{stamp} d/a.txt\n" in ours.out
    res = k.execute("mkdir o; tar xzf g.tgz -C o; cat o/d/a.txt")
    assert res.out == "alpha\n"
    assert os.stat(tmp_path / "o/d/a.txt").st_mtime == 1700000000


def test_gzip_d_of_empty_input_is_unexpected_end_of_file() -> None:
    res = sandbox(**{"e.gz": b""}).execute("zcat e.gz; gzip -dc < e.gz")
    assert res.code == 1
    assert res.err == ("gzip: e.gz: unexpected end of file\n"
                       "gzip: stdin: unexpected end of file\n")


def test_tar_does_not_archive_its_own_archive() -> None:
    k = sandbox(**{"d__a.txt": "x\n"})
    res = k.execute("tar cf a.tar .; tar tf a.tar")
    assert res.out == "./\n./d/\n./d/a.txt\n"
    assert res.err == "tar: ./a.tar: file is the archive; not dumped\n"
