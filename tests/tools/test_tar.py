"""tar: creating, listing and extracting, options, safety against hostile archives and
GNU's errors — in an in-memory sandbox or a confined real directory, and against the
host's GNU tar when installed."""

from __future__ import annotations

import io
import json
import os
import tarfile
from pathlib import Path

import pytest
import reference

from tysh import Kernel

needs_tar = pytest.mark.skipif(reference.have("tar") is None, reason="GNU tar not installed")


def sandbox(**files: bytes | str) -> Kernel:
    return Kernel.isolated(files={k.replace("__", "/"): v for k, v in files.items()})


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


def test_tar_does_not_archive_its_own_archive() -> None:
    k = sandbox(**{"d__a.txt": "x\n"})
    res = k.execute("tar cf a.tar .; tar tf a.tar")
    assert res.out == "./\n./d/\n./d/a.txt\n"
    assert res.err == "tar: ./a.tar: file is the archive; not dumped\n"


# -- hostile archives -------------------------------------------------------------------

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


# -- errors and typed output ------------------------------------------------------------

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
    assert [r["path"] for r in rows] == ["d/sub", "d/sub/b.txt", "d/sub/c.o"]
    assert [r["name"] for r in rows] == ["sub", "b.txt", "c.o"]
    assert rows[1]["type"] == "file" and rows[1]["size"] == 5 and rows[0]["type"] == "directory"
    res = _sandbox_tree().execute("tar --json cf a.tar d/sub")
    assert json.loads(res.out) == [{"path": "d/sub/"}, {"path": "d/sub/b.txt"},
                                   {"path": "d/sub/c.o"}]


# -- against GNU tar --------------------------------------------------------------------

@needs_tar
def test_gnu_tar_reads_tysh_archives(tmp_path: Path) -> None:
    (tmp_path / "d" / "sub").mkdir(parents=True)
    (tmp_path / "d" / "a.txt").write_text("alpha\n")
    (tmp_path / "d" / "sub" / "b.bin").write_bytes(b"\xff\x00" * 100)
    (tmp_path / "d" / "l").symlink_to("a.txt")
    k = Kernel(cwd=str(tmp_path))
    assert k.execute("tar czf a.tgz d").code == 0
    listing = reference.run_tool(["tar", "tzf", "a.tgz"], tmp_path)
    assert listing is not None and listing.code == 0
    assert sorted(listing.text.split()) == ["d/", "d/a.txt", "d/l", "d/sub/", "d/sub/b.bin"]
    (tmp_path / "o").mkdir()
    extracted = reference.run_tool(["tar", "xzf", "a.tgz", "-C", "o"], tmp_path)
    assert extracted is not None and extracted.code == 0
    assert (tmp_path / "o/d/sub/b.bin").read_bytes() == b"\xff\x00" * 100
    assert os.readlink(tmp_path / "o/d/l") == "a.txt"


@needs_tar
def test_tysh_reads_gnu_tar_archives_and_lists_them_alike(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.txt").write_text("alpha\n")
    os.utime(tmp_path / "d" / "a.txt", (1700000000, 1700000000))
    os.utime(tmp_path / "d", (1700000000, 1700000000))
    made = reference.run_tool(["tar", "czf", "g.tgz", "d"], tmp_path)
    assert made is not None and made.code == 0
    gnu = reference.run_tool(["tar", "tvf", "g.tgz"], tmp_path)  # TZ=UTC
    assert gnu is not None and gnu.code == 0
    k = Kernel(cwd=str(tmp_path), env={"TZ": "UTC"})
    ours = k.execute("tar tvf g.tgz")
    assert ours.out == gnu.text
    import time as _time
    stamp = _time.strftime("%Y-%m-%d %H:%M", _time.localtime(1700000000))
    assert f"{stamp} d/a.txt\n" in ours.out
    res = k.execute("mkdir o; tar xzf g.tgz -C o; cat o/d/a.txt")
    assert res.out == "alpha\n"
    assert os.stat(tmp_path / "o/d/a.txt").st_mtime == 1700000000
