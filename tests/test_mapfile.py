"""mapfile / readarray: lines of input into an indexed array, checked against bash."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import Kernel

SCRIPTS = [
    'printf "a\\nb\\nc\\n" > f; mapfile -t arr < f; echo ${#arr[@]} "${arr[1]}"',
    'printf "a\\nb\\n" > f; readarray arr < f; printf "[%s]" "${arr[@]}"; echo',
    'printf "a\\nb\\nc\\nd\\n" | { mapfile -t -s 1 -n 2 x; echo "${x[@]}"; }',
    'printf "a\\0b\\0" | { mapfile -t -d "" x; echo ${#x[@]} ${x[1]}; }',
    'printf "a,b,c" | { mapfile -t -d , x; echo ${#x[@]} "${x[2]}"; }',
    'x=(p q r s); printf "1\\n2\\n" | { mapfile -t -O 1 x; echo "${x[@]}"; }',
    'x=(p q); printf "1\\n" | { mapfile -t -O 5 x; echo ${#x[@]} "${!x[@]}"; }',
    'printf "l1\\nl2" | { mapfile; echo ${#MAPFILE[@]}; printf "<%s>" "${MAPFILE[@]}"; echo; }',
    'mapfile -t < /dev/null; echo ${#MAPFILE[@]}',
    'seq 100 | { mapfile -n 3 -t y; echo "${y[@]}"; }',
    'seq 5 | { mapfile -t -s 10 y; echo ${#y[@]}; }',
    'printf "x\\n\\ny\\n" | { mapfile -t y; echo ${#y[@]} "[${y[1]}]"; }',
    'f() { local -a got; mapfile -t got; echo "${#got[@]}"; }; printf "1\\n2\\n" | f',
    'mapfile -t arr <<< "one"; echo "${arr[0]}"',
]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("script", SCRIPTS)
def test_mapfile_matches_bash(script: str, tmp_path: Path) -> None:
    want = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], cwd=tmp_path,
                          capture_output=True, timeout=20)
    got = Kernel(cwd=str(tmp_path)).execute(script)
    assert (got.code, got.out) == (want.returncode, want.stdout.decode())


def test_mapfile_callbacks_are_refused_with_a_hint() -> None:
    r = Kernel.isolated().execute("mapfile -C f -c 1 x < /dev/null")
    assert r.code == 2 and "not supported in tysh" in r.err


def test_mapfile_reads_from_a_file_descriptor_given_with_u(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("1\n2\n")
    r = Kernel(cwd=str(tmp_path)).execute("mapfile -t -u 0 a < f; echo ${a[1]}")
    assert r.out == "2\n"
