"""tysh's in-process sed against GNU sed on last lines without a newline.

GNU keeps a per-output "missing newline" flag: a line read without its newline is output
without one, and the newline is written before any further output to that stream (`q`
writes it at once). Each case runs through /usr/bin/sed and through a Kernel, compiled
and interpreted, on inputs with and without a final newline, and compares stdout bytes,
the files left behind (-i, `w`) and the exit status."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tysh.builtins.sed import compile as sed_compile
from tysh.kernel.embed.kernel import Kernel

GNU = "/usr/bin/sed"


def _is_gnu() -> bool:
    if shutil.which(GNU) is None:
        return False
    try:
        r = subprocess.run([GNU, "--version"], capture_output=True, timeout=10)
    except OSError:
        return False
    return b"GNU sed" in r.stdout


pytestmark = pytest.mark.skipif(not _is_gnu(), reason="GNU sed is not at /usr/bin/sed")

FILES = {
    "nf": b"a\nb",  # no final newline
    "wf": b"c\nd\n",
    "nf2": b"x\ny",
    "one": b"z",
    "empty": b"",
}

# (argv, stdin); `w` writes to `out`, whose content is compared too
CASES: list[tuple[list[str], bytes]] = [
    (["p"], b"a\nb"),
    (["p"], b"a\nb\n"),
    (["-n", "p"], b"a\nb"),
    (["-n", "p", "nf", "nf2"], b""),
    (["-s", "p", "nf", "nf2"], b""),
    (["-s", "-n", "$p", "nf", "wf"], b""),
    (["P"], b"a\nb"),
    (["-n", "P;p"], b"z"),
    (["="], b"a\nb"),
    (["=", "nf", "wf"], b""),
    (["-s", "=", "nf", "nf2"], b""),
    (["l"], b"a\nb"),
    (["-n", "$l"], b"a\nb"),
    (["$a\\tail"], b"five"),
    (["$a\\tail"], b"five\n"),
    (["a\\X", "nf", "nf2"], b""),
    (["-s", "$a\\T", "nf", "nf2"], b""),
    (["$i\\X"], b"a\nb"),
    (["i\\X", "one", "nf"], b""),
    (["$c\\Z"], b"a\nb"),
    (["c\\Z", "nf", "nf2"], b""),
    (["$r wf"], b"a\nb"),
    (["r nf", "wf"], b""),
    (["$r empty", "nf", "nf2"], b""),
    (["r missing", "nf", "nf2"], b""),
    (["-n", "$r empty"], b"a\nb"),
    (["w out", "nf", "nf2"], b""),
    (["-s", "-n", "$w out", "nf", "nf2"], b""),
    (["-n", "$w out"], b"a\nb"),
    (["-n", "$w /dev/stdout"], b"a\nb"),
    (["q"], b"z"),
    (["$q7"], b"a\nb"),
    (["$q7"], b"a\nb\n"),
    (["-n", "p;q"], b"z"),
    (["p;Q"], b"z"),
    (["$Q3"], b"a\nb"),
    (["-s", "1q", "nf", "wf"], b""),
    (["-s", "$q", "nf", "wf"], b""),
    (["-s", "$q", "wf", "nf"], b""),
    (["-s", "$!d;q3", "nf", "wf"], b""),
    (["3q", "nf", "nf2"], b""),
    (["d"], b"a\nb"),
    (["$!d", "nf", "nf2"], b""),
    (["N;P;D"], b"a\nb"),
    (["$!N;P"], b"a\nb"),
    (["N"], b"z"),
    (["N", "nf", "one"], b""),
    (["-s", "n;d", "one", "nf"], b""),
    (["n;d"], b"z"),
    (["G"], b"a\nb"),
    (["$!h;$G"], b"a\nb"),
    (["H;x"], b"a\nb"),
    (["$!H;$x"], b"a\nb"),
    (["x"], b"a\nb"),
    (["x;p;x", "nf", "nf2"], b""),
    (["1h;$g"], b"a\nb"),
    (["y/b/B/"], b"a\nb"),
    (["s/b/B/"], b"a\nb"),
    (["-s", "s/b/B/", "nf", "nf2"], b""),
    (["-n", "s/b/B/p"], b"a\nb"),
    (["s/b/B/p", "nf", "nf2"], b""),
    (["-n", "s/b//;p;p"], b"a\nb"),
    (["$!d;=", "nf", "nf2"], b""),
    (["-n", "/b/p"], b"a\nb"),
    (["/a/d", "nf", "nf2"], b""),
    (["-n", "1,2p"], b"a\nb"),
    (["-n", "2p", "nf", "nf2"], b""),
    (["$!{p;d};{p;p}"], b"a\nb"),
    (["-n", "/b/{p;=;l}", "nf", "nf2"], b""),
    (["-z", "p"], b"a\0b"),
    (["-i", "p", "nf", "nf2"], b""),
    (["-i", "$a\\T", "nf", "wf"], b""),
    (["-i", "1q", "nf", "nf2"], b""),
    (["-i", "$q5", "nf", "nf2"], b""),
]

# `R` reads on through its file, line by line (each line as read), across the inputs of a
# run, and from the start again per file under -s / -i
CASES += [
    (["R wf"], b"1\n2\n3\n"),
    (["R nf"], b"1\n2\n3\n"),
    (["R missing"], b"1\n2\n"),
    (["R wf", "nf2", "one"], b""),
    (["-s", "R wf", "nf2", "one"], b""),
    (["-i", "R nf", "wf", "nf2"], b""),
]

# ranges whose first address is a line number start even when that line went by unseen
# (`d` ended its cycle, `N`/`n` read it), unless their own absolute end has gone by too;
# past a relative end (`,+N`) the closing line is still taken. `P` of a line read without
# its newline writes none. (Found by a random differential against GNU sed.)
_SEQ = b"".join(b"%d\n" % i for i in range(1, 9))
CASES += [
    (["2d;2,3s/$/X/"], _SEQ),
    (["2,3d;2,3s/$/X/"], _SEQ),
    (["2,3d;2,+1s/$/X/"], _SEQ),
    (["2,3d;2,/5/s/$/X/"], _SEQ),
    (["-n", "2,+1{N;N;=}"], _SEQ),
    (["-n", "2,3{N;N;=}"], _SEQ),
    (["2,3N;5,6d"], _SEQ),
    (["1N;1,/b/s/b/Y/p"], b" 1b c\n\n"),
    (["-n", "$P"], b"a\nb"),
]


def _tree(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(root.iterdir()) if p.is_file()}


def _setup(root: Path) -> None:
    root.mkdir()
    for name, data in FILES.items():
        (root / name).write_bytes(data)


def _gnu(root: Path, argv: list[str], stdin: bytes) -> tuple[int, bytes, dict[str, bytes]]:
    r = subprocess.run([GNU, *argv], input=stdin, capture_output=True, cwd=root, timeout=20)
    return r.returncode, r.stdout, _tree(root)


def _tysh(root: Path, argv: list[str], stdin: bytes) -> tuple[int, bytes, dict[str, bytes]]:
    r = Kernel(cwd=str(root)).execute_argv("sed", argv, stdin, binary=True)
    out = r.out if isinstance(r.out, bytes) else r.out.encode()
    return r.code, out, _tree(root)


@pytest.fixture(params=[True, False], ids=["compiled", "interpreted"])
def compiled(request: pytest.FixtureRequest) -> Iterator[bool]:
    saved = sed_compile.ENABLED
    sed_compile.ENABLED = request.param
    try:
        yield request.param
    finally:
        sed_compile.ENABLED = saved


@pytest.mark.parametrize(("argv", "stdin"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_output_newlines_match_gnu_sed(tmp_path: Path, compiled: bool, argv: list[str],
                                       stdin: bytes) -> None:
    _setup(tmp_path / "gnu")
    _setup(tmp_path / "tysh")
    want = _gnu(tmp_path / "gnu", argv, stdin)
    got = _tysh(tmp_path / "tysh", argv, stdin)
    assert got == want


def test_case_list_covers_the_brief() -> None:
    assert len(CASES) >= 60
