"""`patch` against GNU patch on random edits (tests/tools/patch_fuzz.py): the same exit
status, the same messages on stdout, the same stderr, the same files afterwards —
results, backups and rejects.

`TYSH_PATCH_FUZZ=N` runs N scenarios (default 100; CI keeps the default) and
`TYSH_PATCH_SEED=S` picks another sequence."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import pytest
import reference
from patch_fuzz import Scenario, materialize, scenarios, snapshot

from tysh import Kernel

COUNT = int(os.environ.get("TYSH_PATCH_FUZZ", "100"))
SEED = int(os.environ.get("TYSH_PATCH_SEED", "11"))

pytestmark = pytest.mark.skipif(
    reference.have("patch", gnu_only=True) is None or reference.have("diff") is None,
    reason="GNU patch and diff are the reference")


def run_gnu(s: Scenario) -> tuple[int, bytes, bytes, dict[str, tuple[object, ...]]]:
    d = tempfile.mkdtemp()
    try:
        materialize(d, s.target)
        p = subprocess.run(["patch", *s.argv], cwd=d, input=s.patch, capture_output=True,
                           env={**reference.BASE_ENV, "HOME": d}, check=False, timeout=30)
        return p.returncode, p.stdout, _one_newline(p.stderr), snapshot(d)
    finally:
        shutil.rmtree(d)


def _one_newline(err: bytes) -> bytes:
    """stderr as an embedded kernel's ExecResult gives it: empty, or ending in exactly
    one newline (GNU's `malformed patch` message ends in a blank line)."""
    return err.rstrip(b"\n") + b"\n" if err else b""


def run_tysh(s: Scenario) -> tuple[int, bytes, bytes, dict[str, tuple[object, ...]]]:
    d = tempfile.mkdtemp()
    try:
        materialize(d, s.target)
        k = Kernel(cwd=d, env={"HOME": d})
        r = k.execute_argv("patch", s.argv, s.patch, binary=True)
        out = r.out if isinstance(r.out, bytes) else r.out.encode()
        return r.code, out, r.err.encode("utf-8", "surrogateescape"), snapshot(d)
    finally:
        shutil.rmtree(d)


def describe(s: Scenario, g: tuple[object, ...], t: tuple[object, ...]) -> str:
    return (f"{s.note}: patch {' '.join(s.argv)}\n--- patch\n"
            f"{s.patch.decode('utf-8', 'replace')}\n--- target\n{s.target!r}\n"
            f"--- gnu\n{g!r}\n--- tysh\n{t!r}")


@pytest.mark.parametrize("chunk", range(5))
def test_patch_matches_gnu_patch_on_random_edits(chunk: int) -> None:
    cases = scenarios(SEED * 1000 + chunk, max(COUNT // 5, 1))
    for s in cases:
        g = run_gnu(s)
        t = run_tysh(s)
        assert t == g, describe(s, g, t)
