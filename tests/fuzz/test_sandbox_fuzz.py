"""The sandbox under a seeded adversarial fuzz.

A generator builds scripts from attack fragments (symlink games, `..` in link targets,
writes through links, huge numeric options, backtracking patterns, memory growth,
background jobs, in-place rewrites) and `execute_argv` calls with edge-value arguments,
and runs them against `Kernel(cwd)`, `Kernel.isolated()` and `Kernel.overlay()`. Whatever
runs: no status 70, no exception out of `execute()`, no traceback, no file outside the root
touched (a sentinel tree beside the root is compared before and after, overlay commits
included), and the host process's thread count and memory come back near where they were.

CI runs a few thousand cases. `TYSH_SANDBOX_FUZZ=N` runs N scripts per preset (and N argv
calls) for a longer hunt; `TYSH_SANDBOX_FUZZ_SEED` picks the seed (the default is fixed so a
failure reproduces); `TYSH_SANDBOX_FUZZ_LOG=FILE` appends each script to FILE before it
runs, to name the one a hang was in."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tysh import Kernel, Limits
from tysh.kernel.fs.confined import ConfinedFileSystem

COUNT = int(os.environ.get("TYSH_SANDBOX_FUZZ", "700"))
SEED = int(os.environ.get("TYSH_SANDBOX_FUZZ_SEED", "20261202"))
TIME_LIMIT = 1.0
SLACK = 4.0  # a loaded CI machine; a freeze is far longer
RESET_EVERY = 40  # scripts between rebuilding the root's bait
MARK = "tysh_sbfuzz_mark"

# ----------------------------------------------------------------- the tree


def _snapshot(top: Path) -> dict[str, tuple[str, int, str]]:
    """Every entry under `top`: kind, mtime and a content hash (link targets for links)."""
    out: dict[str, tuple[str, int, str]] = {}
    for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            rel = os.path.relpath(p, top)
            if os.path.islink(p):
                out[rel] = ("link", st.st_mtime_ns, os.readlink(p))
            elif os.path.isdir(p):
                out[rel] = ("dir", st.st_mtime_ns, oct(st.st_mode))
            else:
                with open(p, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                out[rel] = ("file", st.st_mtime_ns, digest + oct(st.st_mode))
    return out


def _bait(root: Path, sentinel: Path) -> None:
    """(Re)build the root's content: ordinary files plus links that point outside,
    loop through themselves, or hide `..` behind a loop."""
    for entry in list(root.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            _remove_tree(entry)
        else:
            entry.unlink()
    (root / "a.txt").write_text("alpha\nbeta\ngamma\n")
    (root / "d").mkdir()
    (root / "d" / "n.txt").write_text("1\n2\n3\n")
    (root / "d" / "e").mkdir()
    (root / "d" / "e" / "deep.txt").write_text("deep\n")
    links = {
        "lnk": str(sentinel / "secret.txt"),
        "up": "../sentinel",
        "abs": str(sentinel),
        "h": "/",
        "loop": "loop",
        "x": "loop/../h",
        "y": "d/../../sentinel",
        "self": ".",
        "cyc": "d/cycback",
    }
    for name, target in links.items():
        os.symlink(target, root / name)
    os.symlink("..", root / "d" / "cycback")


def _remove_tree(top: Path) -> None:
    """Remove a tree of any depth (a runaway copy nests past PATH_MAX) and any mode."""
    def unlock(func: object, path: str, exc: object) -> None:
        os.chmod(os.path.dirname(path), 0o755)
        shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else os.unlink(path)

    for dirpath, dirnames, _ in os.walk(top, followlinks=False):
        for name in dirnames:
            full = os.path.join(dirpath, name)
            if not os.path.islink(full):
                try:
                    os.chmod(full, 0o755)
                except OSError:
                    pass
    shutil.rmtree(top, onerror=unlock)


# ----------------------------------------------------------------- the generator

PATHS = [
    "a.txt", "d", "d/n.txt", "d/e", "lnk", "up", "up/secret.txt", "abs/secret.txt",
    "h/etc/passwd", "x", "x/etc/passwd", "x/tmp", "y/secret.txt", "loop", "loop/a",
    "self/a.txt", "cyc", "cyc/up/secret.txt", "../sentinel/secret.txt", "/etc/passwd",
    f"/tmp/{MARK}", "../" + MARK, "new.txt", "d/new", "a.txt/", "d/n.txt/", "nosuch/",
    "/proc/self/root/etc/passwd", "/proc/self/fd/0", "/dev/full", "'$(printf a\\\\0b)'",
    "''",
]
NUMBERS = ["0", "-1", "1", "3", "2147483648", "9223372036854775808", "1e20", "2^63",
           "nan", "-0", "99999999999999999999999", "0x10", "  7"]
PATTERNS = ["'(a|a)*b'", "'(a*)*b'", "'(x+x+)+y'", "'^(a|aa)+$'", "'\\(a\\)\\1'",
            "'[[:alpha:]]+'", "'a{1,1000}'", "'(.*a){12}'", "'.'", "'['"]
SUBJECTS = ["a" * 26, "x" * 24, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "abc"]


def _p(r: random.Random) -> str:
    return r.choice(PATHS)


def _n(r: random.Random) -> str:
    return r.choice(NUMBERS)


FRAGMENTS: list[Callable[[random.Random], str]] = [
    lambda r: f"cat {_p(r)}",
    lambda r: f"head -n {_n(r)} {_p(r)}",
    lambda r: f"tail -c {_n(r)} {_p(r)}",
    lambda r: f"echo {MARK} > {_p(r)}",
    lambda r: f"echo {MARK} >> {_p(r)}",
    lambda r: f"printf '%s\\n' {MARK} | tee {_p(r)} {_p(r)}",
    lambda r: f"rm -rf {_p(r)}",
    lambda r: f"rm {_p(r)}",
    lambda r: f"mv {_p(r)} {_p(r)}",
    lambda r: f"cp -r {_p(r)} {_p(r)}",
    lambda r: f"cp -rL {_p(r)} cpy",
    lambda r: f"ln -s {r.choice(['/', '..', '../sentinel', 'loop/../h', _p(r)])} {_p(r)}",
    lambda r: f"ln {_p(r)} hard",
    lambda r: f"mkdir -p {_p(r)}/z",
    lambda r: f"touch {_p(r)}",
    lambda r: f"chmod 000 {_p(r)}",
    lambda r: f"truncate -s {_n(r)} {_p(r)}",
    lambda r: f"sed -i 's/a/{MARK}/' {_p(r)}",
    lambda r: f"sort -o {_p(r)} {_p(r)}",
    lambda r: f"cd {_p(r)} && cat ../../sentinel/secret.txt; cd ~",
    lambda r: f"cd {_p(r)}; pwd; cd ~",
    lambda r: f"ls -laR {_p(r)} | head -n 5",
    lambda r: f"find {_p(r)} -maxdepth 3 | head -n 20",
    lambda r: f"find {_p(r)} -name '*.txt' -delete",
    lambda r: f"grep -r alpha {_p(r)}",
    lambda r: f"grep -R secret {_p(r)}",
    lambda r: f"du -s {_p(r)}",
    lambda r: f"stat {_p(r)}",
    lambda r: f"realpath {_p(r)}",
    lambda r: f"readlink -f {_p(r)}",
    lambda r: f"tar -cf t.tar {_p(r)} && tar -xf t.tar -C d",
    lambda r: f"gzip -k {_p(r)}",
    lambda r: f"test -e {_p(r)} && echo yes",
    lambda r: f"[[ -f {_p(r)} ]]; echo $?",
    lambda r: "echo */*.txt x/* up/*",
    lambda r: f"source {_p(r)}",
    lambda r: f"exec 3< {_p(r)}; cat <&3",
    lambda r: f"while read -r l; do echo $l; done < {_p(r)}",
    lambda r: f"mapfile -t arr < {_p(r)}; echo ${{#arr[@]}}",
    # numbers at the edges
    lambda r: f"seq {_n(r)} | head -n 3",
    lambda r: f"nl -w {_n(r)} a.txt",
    lambda r: f"uniq -f {_n(r)} a.txt",
    lambda r: f"sort -k {_n(r)} a.txt",
    lambda r: f"numfmt --padding {_n(r)} 5",
    lambda r: f"split -n {_n(r)} a.txt sp",
    lambda r: f"grep -B {_n(r)} beta a.txt",
    lambda r: f"readarray -O {_n(r)} arr < a.txt",
    lambda r: f"cut -c {_n(r)} a.txt",
    lambda r: f"fold -w {_n(r)} a.txt",
    lambda r: f"yes | head -n {_n(r)} | wc -l",
    lambda r: f"printf '%*d' {_n(r)} 1 | wc -c",
    lambda r: f"echo $(( {_n(r)} ** {_n(r)} ))",
    lambda r: f"x={_n(r)}; echo ${{x:0:{_n(r)}}}",
    # patterns that backtrack in a naive engine, on short subjects
    lambda r: f"echo {r.choice(SUBJECTS)} | grep -E {r.choice(PATTERNS)}",
    lambda r: f"echo {r.choice(SUBJECTS)} | sed -E 's/{r.choice(PATTERNS)[1:-1]}/z/'",
    lambda r: f"echo {r.choice(SUBJECTS)} | awk '/{r.choice(PATTERNS)[1:-1]}/'",
    lambda r: f"[[ {r.choice(SUBJECTS)} =~ {r.choice(PATTERNS)} ]]; echo $?",
    lambda r: f"x={r.choice(SUBJECTS)}; [[ $x == *a*a*a*a*a*b ]]; echo ${{x#*a*a*b}}",
    lambda r: "echo '[1,2]' | jq -c 'map(.+1)'",
    lambda r: f"echo 2^{r.choice(['10', '1000', '99999'])} | bc | wc -c",
    lambda r: f"factor {r.choice(['12', '1000000007', '18446744073709551617'])}",
    lambda r: f"expr {_n(r)} + {_n(r)}",
    # growth, jobs, limits
    lambda r: "x=ab; for i in 1 2 3 4 5 6 7 8; do x=$x$x; done; echo ${#x}",
    lambda r: "a=$(yes | head -n 2000); echo ${#a}",
    lambda r: "cat a.txt & cat d/n.txt & wait",
    lambda r: "f() { echo in; }; f | f | f",
    lambda r: f"(cd {_p(r)}; echo {MARK} > out)",
    lambda r: "eval 'echo ev'",
    lambda r: "trap 'echo bye' EXIT; echo t",
    lambda r: "printf 'a\\0b' > nul; cat nul | wc -c",
    lambda r: f"cat <<EOF > {_p(r)}\n{MARK}\nEOF",
    lambda r: "echo \udcff | head -n 1",
]


def _script(r: random.Random) -> str:
    joins = [";\n", " && ", " || ", " | "]
    parts = [r.choice(FRAGMENTS)(r) for _ in range(r.randint(1, 4))]
    out = parts[0]
    for part in parts[1:]:
        out += r.choice(joins) + part
    return out


# ----------------------------------------------------------------- the harness


DISK_GUARD = 512 << 20  # the root may hold this much; more is a runaway writer


def _disk_used(top: Path) -> int:
    """Bytes of disk the files under `top` take (sparse files count what they hold)."""
    total = 0
    for dirpath, _, filenames in os.walk(top, followlinks=False):
        for name in filenames:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
            except OSError:
                pass
    return total


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    root = tmp_path / "root"
    sentinel = tmp_path / "sentinel"
    root.mkdir()
    sentinel.mkdir()
    (sentinel / "secret.txt").write_text("SECRET-CONTENT\n")
    (sentinel / "sub").mkdir()
    (sentinel / "sub" / "keep.txt").write_text("keep\n")
    _bait(root, sentinel)
    yield root, sentinel
    for p in (root, sentinel):
        for dirpath, dirnames, _ in os.walk(p):
            for name in dirnames:
                full = os.path.join(dirpath, name)
                if not os.path.islink(full):
                    os.chmod(full, 0o755)


LOG = os.environ.get("TYSH_SANDBOX_FUZZ_LOG")  # a file each script is appended to first


def _check(k: Kernel, src: str) -> None:
    if LOG:
        with open(LOG, "a", errors="surrogateescape") as f:
            f.write(f"----- {os.getpid()}\n{src}\n")
    start = time.monotonic()
    r = k.execute(src, stdin="in1\nin2\n", timeout=TIME_LIMIT)
    elapsed = time.monotonic() - start
    assert elapsed < TIME_LIMIT + SLACK, (src, elapsed)
    assert r.code != 70, (src, r.err)
    assert 0 <= r.code <= 255, (src, r.code)
    assert "Traceback" not in r.err and "internal error" not in r.err, (src, r.err)
    assert "SECRET-CONTENT" not in r.out + r.err, src
    assert "root:x:0:0" not in r.out + r.err, src


def _make(preset: str, root: Path) -> Kernel:
    limits = Limits(timeout=TIME_LIMIT)
    if preset == "confined":
        return Kernel(str(root), limits=limits)
    if preset == "isolated":
        return Kernel.isolated(files={"a.txt": "alpha\nbeta\n", "d/n.txt": "1\n2\n"},
                               max_fs_bytes=1 << 20, limits=limits)
    return Kernel.overlay(str(root), limits=limits)


def _baseline() -> tuple[int, int]:
    Kernel.isolated().execute("echo warm | grep w | sed s/w/x/")  # lazy imports paid
    return threading.active_count(), _rss()


def _settled(threads: int, rss: int) -> None:
    deadline = time.monotonic() + 5
    while threading.active_count() > threads + 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= threads + 2, threading.enumerate()
    assert _rss() - rss < 400 << 20, (_rss() - rss) >> 20


@pytest.mark.parametrize("preset", ["confined", "isolated", "overlay"])
def test_fuzzed_scripts_stay_inside_and_end_cleanly(
        preset: str, arena: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, sentinel = arena
    monkeypatch.chdir(root)
    before = _snapshot(sentinel)
    threads, rss = _baseline()
    r = random.Random(f"{SEED}-{preset}")
    k = _make(preset, root)
    for i in range(COUNT):
        if i and i % RESET_EVERY == 0:
            if preset == "overlay":
                fs = k.fs
                commit = getattr(fs, "commit", None)
                if commit is not None and r.random() < 0.5:
                    try:
                        commit(ConfinedFileSystem(str(root)))
                    except Exception as e:  # a refused commit is a value, never a leak
                        assert "SECRET" not in str(e)
                assert _snapshot(sentinel) == before, f"commit after script {i}"
            _bait(root, sentinel)
            k = _make(preset, root)
        src = _script(r)
        _check(k, src)
        assert _snapshot(sentinel) == before, src
        assert _disk_used(root) < DISK_GUARD, src
    k.cancel()
    del k
    _settled(threads, rss)
    assert not os.path.exists(f"/tmp/{MARK}")
    assert not (root.parent / MARK).exists()


EDGE_ARGS = ["-n", "-c", "-k", "-w", "-f", "-s", "-o", "-B", "-A", "-O", "-d", "-t",
             "--padding", "-i", "-r", "-R", "-L", "-p", "-m", "-e", "--", "-"]


def test_fuzzed_argv_calls_end_cleanly(arena: tuple[Path, Path],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """execute_argv: no parsing, no expansion — every tool, edge-value arguments."""
    root, sentinel = arena
    monkeypatch.chdir(root)
    before = _snapshot(sentinel)
    threads, rss = _baseline()
    k = Kernel(str(root), limits=Limits(timeout=TIME_LIMIT))
    names = sorted({t.name for t in k.tools()} - {"sleep", "yes", "read"})
    r = random.Random(f"{SEED}-argv")
    for i in range(COUNT):
        if i and i % RESET_EVERY == 0:
            _bait(root, sentinel)
        name = r.choice(names)
        argv = [r.choice([r.choice(EDGE_ARGS), _n(r), r.choice(PATHS).strip("'"),
                          r.choice(PATTERNS).strip("'"), MARK, "\udcff", "a\x00b"])
                for _ in range(r.randint(0, 4))]
        start = time.monotonic()
        res = k.execute_argv(name, argv, stdin="in\n", timeout=TIME_LIMIT)
        assert time.monotonic() - start < TIME_LIMIT + SLACK, (name, argv)
        assert res.code != 70, (name, argv, res.err)
        assert "Traceback" not in res.err, (name, argv, res.err)
        assert "SECRET-CONTENT" not in res.out + res.err, (name, argv)
        assert _snapshot(sentinel) == before, (name, argv)
    del k
    _settled(threads, rss)
