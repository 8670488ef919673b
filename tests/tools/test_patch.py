"""`patch`: what the differential run against GNU patch (test_patch_differential.py)
cannot show — the sandbox's walls, JSON output, an in-memory filesystem, names that try
to leave the tree, and inputs that must end cleanly."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tysh import Kernel

ONE = "one\ntwo\nthree\n"
FIX = ("--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n")


def test_applies_a_unified_diff_with_strip(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text(ONE)
    r = kernel.execute("patch -p1", FIX)
    assert (r.code, r.out) == (0, "patching file f.txt\n")
    assert (tmp_path / "f.txt").read_text() == "one\nTWO\nthree\n"


def test_offset_message_and_backup_on_mismatch(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x\ny\n" + ONE)
    r = kernel.execute("patch -p1", FIX)
    assert r.out == "patching file f.txt\nHunk #1 succeeded at 3 (offset 2 lines).\n"
    assert (tmp_path / "f.txt.orig").read_text() == "x\ny\n" + ONE


def test_failed_hunk_goes_to_a_reject_file_and_status_1(kernel: Kernel,
                                                       tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("one\nzwei\nthree\n")
    r = kernel.execute("patch -p1", FIX)
    assert r.code == 1
    assert "Hunk #1 FAILED at 1." in r.out
    assert "saving rejects to file f.txt.rej" in r.out
    assert "+TWO" in (tmp_path / "f.txt.rej").read_text()


def test_json_reports_each_file_and_hunk(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x\n" + ONE)
    r = kernel.execute("patch --json -p1", FIX)
    assert r.code == 0
    [rec] = json.loads(r.out)
    assert rec["path"] == "f.txt" and rec["status"] == "patched"
    assert rec["hunks"] == [{"hunk": 1, "status": "applied", "line": 2, "offset": 1,
                             "fuzz": 0}]


def test_dry_run_changes_nothing(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text(ONE)
    r = kernel.execute("patch -p1 --dry-run", FIX)
    assert r.out == "checking file f.txt\n"
    assert (tmp_path / "f.txt").read_text() == ONE


def test_names_that_leave_the_tree_are_ignored(tmp_path: Path) -> None:
    # a host session (the CLI) can reach ../f.txt; a patch may still not name it
    inner = tmp_path / "inner"
    inner.mkdir()
    (tmp_path / "f.txt").write_text(ONE)
    k = Kernel.repl(cwd=str(inner))
    evil = FIX.replace("a/f.txt", "../f.txt").replace("b/f.txt", f"{tmp_path}/f.txt")
    r = k.execute("patch -p0", evil)
    assert "Ignoring potentially dangerous file name ../f.txt" in r.out
    assert r.code == 1
    assert (tmp_path / "f.txt").read_text() == ONE


def test_a_sandboxed_patch_cannot_write_outside_its_root(tmp_path: Path) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    (tmp_path / "secret.txt").write_text(ONE)
    k = Kernel(cwd=str(inner))
    r = k.execute("patch ../secret.txt; echo $?", FIX)
    assert r.out.endswith("2\n")
    assert (tmp_path / "secret.txt").read_text() == ONE
    r = k.execute("patch -o ../out.txt f.txt; echo $?", FIX)
    assert r.out.endswith("2\n")
    assert not (tmp_path / "out.txt").exists()


def test_works_on_an_in_memory_filesystem() -> None:
    k = Kernel.isolated(files={"src/f.txt": ONE})
    r = k.execute("patch -p1 && cat src/f.txt",
                  FIX.replace("a/f.txt", "a/src/f.txt").replace("b/f.txt", "b/src/f.txt"))
    assert r.code == 0, r.err
    assert r.out == "patching file src/f.txt\none\nTWO\nthree\n"


def test_creates_and_deletes_files_with_their_folders(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "old" / "deep").mkdir(parents=True)
    (tmp_path / "old" / "deep" / "gone.txt").write_text("bye\n")
    diff = ("--- a/new/dir/made.txt\t1970-01-01 00:00:00.000000000 +0000\n"
            "+++ b/new/dir/made.txt\t2024-01-01 00:00:00.000000000 +0000\n"
            "@@ -0,0 +1 @@\n+hello\n"
            "--- a/old/deep/gone.txt\t2024-01-01 00:00:00.000000000 +0000\n"
            "+++ b/old/deep/gone.txt\t1970-01-01 00:00:00.000000000 +0000\n"
            "@@ -1 +0,0 @@\n-bye\n")
    r = kernel.execute("patch -p1", diff)
    assert r.code == 0, r.out + r.err
    assert (tmp_path / "new" / "dir" / "made.txt").read_text() == "hello\n"
    assert not (tmp_path / "old").exists()  # emptied folders go too, as GNU's do


def test_git_rename_and_mode(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text(ONE)
    diff = ("diff --git a/f.txt b/g.txt\nsimilarity index 80%\nrename from f.txt\n"
            "rename to g.txt\nold mode 100644\nnew mode 100755\n"
            "--- a/f.txt\n+++ b/g.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n")
    r = kernel.execute("patch -p1", diff)
    assert r.out == "patching file g.txt (renamed from f.txt)\n", r.out + r.err
    assert not (tmp_path / "f.txt").exists()
    assert (tmp_path / "g.txt").read_text() == "one\nTWO\nthree\n"
    assert (tmp_path / "g.txt").stat().st_mode & 0o777 == 0o755


@pytest.mark.parametrize("junk", [
    "", "garbage only\n", "@@ -1 +1 @@\n", "*** a\n--- b\n***************\n*** 1\n",
    "diff --git a/x b/x\nGIT binary patch\nliteral 0\n", "--- a\n+++ b\n@@ -99999999999999999999 +1 @@\n",
    "1c1\n< a\n---\n", "\\ No newline at end of file\n", "--- a\n+++ b\n@@ -1,2 +1,2 @@\n",
    "--- \"unterminated\n+++ b\n@@ -1 +1 @@\n-a\n+b\n", "\x00\x01\xff\n",
])
def test_malformed_input_ends_cleanly(kernel: Kernel, junk: str) -> None:
    t0 = time.monotonic()
    r = kernel.execute("patch -f x.txt; echo $?", junk)
    assert time.monotonic() - t0 < 10
    assert "Traceback" not in r.err and "internal error" not in r.err
    assert r.out.rstrip().split("\n")[-1] in ("0", "1", "2")


def test_ed_scripts_are_refused_by_name(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text(ONE)
    r = kernel.execute("patch -e f.txt", "2c\nTWO\n.\n")
    assert r.code == 2
    assert "ed scripts are not supported" in r.err


def _edit(name: str) -> str:
    return f"--- {name}\n+++ {name}\n@@ -1 +1 @@\n-SECRET\n+PWNED\n"


@pytest.mark.parametrize(("command", "diff"), [
    ("patch -p0", _edit("{outside}/secret.txt")),
    ("patch -p0", _edit("../secret.txt")),
    ("patch -p1", _edit("a/../../secret.txt")),
    ("patch -p0", _edit("../../../../../../../../etc/passwd")),
    ("patch -p0", _edit("link")),
    ("patch -p0 link", _edit("x")),
    ("patch -d .. -p0", _edit("secret.txt")),
    ("patch -d / -p0", _edit("{outside}/secret.txt".lstrip("/"))),
    ("patch -p0 -i ../secret.txt", ""),
    ("patch -p0", "--- /dev/null\n+++ {outside}/new.txt\n@@ -0,0 +1 @@\n+NEW\n"),
    ("patch -p1", "diff --git a/f b/../new.txt\nnew file mode 100644\n--- /dev/null\n"
                  "+++ b/../new.txt\n@@ -0,0 +1 @@\n+NEW\n"),
    ("echo SECRET > f; patch -b -B ../ -p0", _edit("f")),
    ("echo NOPE > f; patch -r ../rej -p0", _edit("f")),
    ("echo SECRET > f; patch -p0 -o {outside}/out.txt", _edit("f")),
])
def test_a_sandboxed_patch_writes_nothing_outside_its_root(
        tmp_path: Path, command: str, diff: str) -> None:
    # the names a hostile diff or command line may use: absolute, climbing, through a
    # link that leaves the root, a directory outside; the file outside stays as it was
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("SECRET\n")
    (root / "link").symlink_to(tmp_path / "secret.txt")
    k = Kernel(cwd=str(root), validate=False)
    r = k.execute(command.format(outside=tmp_path), diff.format(outside=tmp_path))
    assert r.code in (1, 2), r.out + r.err
    assert "Traceback" not in r.err
    assert (tmp_path / "secret.txt").read_text() == "SECRET\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["root", "secret.txt"]
