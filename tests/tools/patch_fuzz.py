"""Random scenarios for differential testing of `patch` against GNU patch.

A scenario is a tree of files before patching, a diff made by GNU diff from random edits
of them, a patch command line, and — to exercise offsets, fuzz, failures and reversed
patches — a target tree that may have drifted from what the diff was made against. The
test (tests/tools/test_patch_differential.py) runs GNU patch and tysh's on copies of the
target tree and compares the exit status, stdout, stderr and the resulting files."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import attrs

VOCAB = [b"a\n", b"b\n", b"{\n", b"}\n", b"\n", b"    x = 1;\n", b"return;\n",
         b"  \tindented\n", b"#include <x.h>\n", b"\\ back\n", b"- dash\n", b"+ plus\n",
         b"*** stars\n", b"@@ at\n"]


@attrs.frozen
class Scenario:
    """One case: the tree the diff was made from, the tree patch runs in, the patch and
    the command line (argv after `patch`; the patch goes to stdin unless -i names it)."""

    target: dict[str, bytes]
    patch: bytes
    argv: list[str]
    note: str


def rand_lines(rng: random.Random, lo: int = 0, hi: int = 30) -> list[bytes]:
    out = []
    for _ in range(rng.randint(lo, hi)):
        if rng.random() < 0.35:
            out.append(rng.choice(VOCAB))
        else:
            out.append(b"line %d\n" % rng.randint(0, 60))
    return out


def edit(rng: random.Random, lines: list[bytes], edits: int) -> list[bytes]:
    lines = list(lines)
    for _ in range(edits):
        op = rng.random()
        pos = rng.randint(0, len(lines))
        if op < 0.35:
            lines[pos:pos] = rand_lines(rng, 1, 4)
        elif op < 0.65 and lines:
            end = min(len(lines), pos + rng.randint(1, 3))
            del lines[pos:end]
        elif lines:
            end = min(len(lines), pos + rng.randint(1, 3))
            lines[pos:end] = rand_lines(rng, 1, 3)
    return lines


def join(lines: list[bytes], no_eol: bool) -> bytes:
    data = b"".join(lines)
    if no_eol and data.endswith(b"\n"):
        data = data[:-1]
    return data


def _diff(args: list[str], cwd: str) -> bytes:
    p = subprocess.run(["diff", *args], cwd=cwd, capture_output=True, check=False,
                       env={"LC_ALL": "C", "TZ": "UTC", "PATH": "/usr/bin:/bin"})
    return p.stdout


FORMATS = [["-u"], ["-u"], ["-U0"], ["-U1"], ["-U5"], ["-c"], ["-C1"], ["-C0"], []]


def single_file(rng: random.Random) -> Scenario | None:
    """One file, a diff of it, and a target that may differ from the diff's original."""
    orig = rand_lines(rng, 0, 40)
    new = edit(rng, orig, rng.randint(1, 4))
    orig_eol = rng.random() < 0.1
    new_eol = rng.random() < 0.1
    a, b = join(orig, orig_eol), join(new, new_eol)
    if a == b:
        return None
    fmt = rng.choice(FORMATS)
    d = tempfile.mkdtemp()
    try:
        Path(d, "old").write_bytes(a)
        Path(d, "new").write_bytes(b)
        labels = ["--label", "a/f.txt", "--label", "b/f.txt"] if fmt else []
        patch = _diff([*fmt, *labels, "old", "new"], d)
    finally:
        shutil.rmtree(d)
    kind = rng.random()
    if kind < 0.45:
        target, note = a, "clean"
    elif kind < 0.65:
        # drift: edits elsewhere move the hunks (offsets) or touch their context (fuzz)
        target, note = join(edit(rng, orig, rng.randint(1, 3)), orig_eol), "drifted"
    elif kind < 0.8:
        target, note = b, "already applied"
    elif kind < 0.9:
        target = join([x.replace(b" ", b"  ") for x in orig], orig_eol)
        note = "whitespace"
    else:
        target, note = join(rand_lines(rng, 0, 20), False), "unrelated"
    argv: list[str] = []
    if rng.random() < 0.5:
        argv.append("-p1" if fmt else "-p0")
    for opt, p in (("-N", 0.1), ("-t", 0.1), ("-f", 0.1), ("-l", 0.15), ("--dry-run", 0.1),
                   ("-b", 0.1), ("-E", 0.05), ("-R", 0.1), ("--no-backup-if-mismatch", 0.1)):
        if rng.random() < p:
            argv.append(opt)
    # (one of them: GNU keeps the last of -s and --verbose, a typed binder cannot tell)
    if rng.random() < 0.1:
        argv.append(rng.choice(["-s", "--verbose"]))
    if rng.random() < 0.2:
        argv.append(f"-F{rng.randint(0, 3)}")
    if rng.random() < 0.1:
        argv += ["-r", rng.choice(["rej.txt", "-"])]
    if rng.random() < 0.1:
        argv.append(f"--reject-format={rng.choice(['context', 'unified'])}")
    if rng.random() < 0.1:
        argv += ["-o", "out.txt"]
    if rng.random() < 0.08:
        argv += ["-z", ".bak"]
    if rng.random() < 0.05:
        argv += ["-V", rng.choice(["numbered", "existing", "simple"])]
    if rng.random() < 0.04:
        argv += ["-B", "bak/"]
    if rng.random() < 0.04:
        argv += ["-Y", "old_"]
    if rng.random() < 0.05:
        argv += ["-D", "NEWCODE"]
    files = {"f.txt": target}
    if rng.random() < 0.05:
        files["f.txt.~1~"] = b"an older numbered backup\n"
    patch = dress(rng, patch)
    if not fmt or rng.random() < 0.4:
        argv.append("f.txt")  # a normal diff names no file
    elif rng.random() < 0.2:
        argv += ["-i", "p.diff"]
        files["p.diff"] = patch
        patch = b""
    return Scenario(files, patch, argv, f"{note} {' '.join(fmt) or 'normal'}")


def dress(rng: random.Random, patch: bytes) -> bytes:
    """What happens to patches on their way: mail headers before them, indentation,
    CRLF line ends, an `Index:` line, a mangled line or a cut-off end."""
    r = rng.random()
    if r < 0.05:
        patch = b"From: someone\nSubject: [PATCH] fix\n\nSome words.\n---\n" + patch
    elif r < 0.08:
        patch = b"".join(b"    " + line for line in patch.splitlines(keepends=True))
    elif r < 0.11:
        patch = patch.replace(b"\n", b"\r\n")
    elif r < 0.14:
        patch = b"Index: f.txt\n===================================================\n" + patch
    elif r < 0.24:
        lines = patch.splitlines(keepends=True)
        if lines:
            k = rng.randrange(len(lines))
            how = rng.random()
            if how < 0.3:
                del lines[k]
            elif how < 0.5:
                lines.insert(k, lines[k])
            elif how < 0.7:
                lines[k] = bytes(ord(str(rng.randint(0, 9))) if c in b"0123456789"
                                 and rng.random() < 0.5 else c for c in lines[k])
            elif how < 0.85:
                lines = lines[:k]
            else:
                lines[k] = lines[k][: rng.randint(0, len(lines[k]))]
        patch = b"".join(lines)
    return patch


def tree(rng: random.Random) -> Scenario | None:
    """Several files in folders, created, deleted and changed, as `diff -ruN` shows."""
    d = tempfile.mkdtemp()
    try:
        names = ["x.txt", "dir/y.txt", "dir/sub/z.txt", "w.txt"]
        old_tree: dict[str, bytes] = {}
        for n in names:
            r = rng.random()
            old = join(rand_lines(rng, 0, 15), False) if r < 0.8 else None
            new = join(edit(rng, (old or b"").splitlines(keepends=True), 2), False) \
                if rng.random() < 0.8 else None
            if old is not None:
                old_tree[n] = old
                Path(d, "a", n).parent.mkdir(parents=True, exist_ok=True)
                Path(d, "a", n).write_bytes(old)
            if new is not None:
                Path(d, "b", n).parent.mkdir(parents=True, exist_ok=True)
                Path(d, "b", n).write_bytes(new)
        Path(d, "a").mkdir(exist_ok=True)
        Path(d, "b").mkdir(exist_ok=True)
        patch = _diff(["-ruN", "a", "b"], d)
    finally:
        shutil.rmtree(d)
    if not patch:
        return None
    return Scenario(old_tree, patch, ["-p1"], "tree")


def git_tree(rng: random.Random) -> Scenario | None:
    """A `git diff` of a repository's changes: edits, new and deleted files, renames
    (with and without changes) and mode changes, applied with -p1."""
    if shutil.which("git") is None:
        return None
    d = tempfile.mkdtemp()
    env = {"PATH": "/usr/bin:/bin", "HOME": d, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}

    def git(*args: str) -> bytes:
        return subprocess.run(["git", *args], cwd=d, env=env, capture_output=True,
                              check=True).stdout

    try:
        git("init", "-q")
        names = ["x.txt", "dir/y.txt", "dir/sub/z.txt", "w.txt", "v.txt"]
        start: dict[str, bytes] = {}
        for n in names:
            if rng.random() < 0.85:
                start[n] = join(rand_lines(rng, 3, 15), False)
        if not start:
            return None
        materialize(d, start)
        git("add", "-A")
        git("commit", "-qm", "start")
        for n in list(start):
            r = rng.random()
            p = Path(d, n)
            if r < 0.35:
                p.write_bytes(join(edit(rng, start[n].splitlines(keepends=True), 2), False))
            elif r < 0.45:
                p.unlink()
            elif r < 0.6:
                target = "moved/" + n.replace("/", "_")
                Path(d, target).parent.mkdir(parents=True, exist_ok=True)
                data = start[n] if rng.random() < 0.5 else join(
                    edit(rng, start[n].splitlines(keepends=True), 1), False)
                p.unlink()
                Path(d, target).write_bytes(data)
            elif r < 0.7:
                p.chmod(0o755)
        if rng.random() < 0.5:
            Path(d, "new/file.txt").parent.mkdir(parents=True, exist_ok=True)
            Path(d, "new/file.txt").write_bytes(join(rand_lines(rng, 1, 8), False))
        git("add", "-A")
        patch = git("diff", "--cached", "-M")
    finally:
        shutil.rmtree(d)
    if not patch:
        return None
    return Scenario(start, patch, ["-p1"], "git")


def scenarios(seed: int, count: int) -> list[Scenario]:
    rng = random.Random(seed)
    out: list[Scenario] = []
    while len(out) < count:
        r = rng.random()
        s = tree(rng) if r < 0.15 else git_tree(rng) if r < 0.3 else single_file(rng)
        if s is not None:
            out.append(s)
    return out


def snapshot(root: str) -> dict[str, tuple[object, ...]]:
    """Every file under `root` with its permission bits and content, every empty
    folder, and every symlink."""
    out: dict[str, tuple[object, ...]] = {}
    for base, dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(base, f)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out[rel] = ("link", os.readlink(p))
            else:
                out[rel] = (oct(os.stat(p).st_mode & 0o777), Path(p).read_bytes())
        for x in dirs:
            p = os.path.join(base, x)
            if not os.listdir(p):
                out[os.path.relpath(p, root) + "/"] = ("dir",)
    return out


def materialize(root: str, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        p = Path(root, name)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
