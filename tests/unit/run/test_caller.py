"""caller, $BASH_LINENO, $BASH_SOURCE and $FUNCNAME in a script run from a file (the
.cases pin `bash -c`): bash's stack then has a "main" frame at the bottom."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import reference

SCRIPT = """f() { caller; caller 0; caller 1; echo $?; g; }
g() { caller 0; caller 1; caller 2; echo $?; echo "${BASH_LINENO[@]}"; }
f
caller; echo $?
"""


def test_caller_in_a_script_file_matches_bash(tmp_path: Path) -> None:
    (tmp_path / "s.sh").write_text(SCRIPT)
    got = subprocess.run([sys.executable, "-m", "tysh", "s.sh"], cwd=tmp_path,
                         capture_output=True, text=True, check=False)
    want = reference.run_bash("bash s.sh", tmp_path)
    if want is None:
        pytest.skip("bash is the reference")
    assert got.stdout == want.text
    assert got.stdout.startswith("3 s.sh\n3 main s.sh\n1\n1 f s.sh\n3 main s.sh\n1\n1 3 0\n")


LIB = """g() {
  echo "g:${FUNCNAME[*]}|${BASH_SOURCE[*]}|${BASH_LINENO[*]}"
  caller 0; caller 1; caller 2
}
echo "lib:${FUNCNAME[*]}|${BASH_SOURCE[*]}|${BASH_LINENO[*]}"
"""
MAIN = """echo "main:$BASH_SOURCE|${FUNCNAME[*]}|${BASH_LINENO[*]}"
source sub/lib.sh
f() { . sub/lib.sh; g; }
f
g
"""


def test_bash_source_and_funcname_in_a_script_file_match_bash(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "lib.sh").write_text(LIB)
    (tmp_path / "m.sh").write_text(MAIN)
    got = subprocess.run([sys.executable, "-m", "tysh", "m.sh"], cwd=tmp_path,
                         capture_output=True, text=True, check=False)
    want = reference.run_bash("bash m.sh", tmp_path)
    if want is None:
        pytest.skip("bash is the reference")
    assert (got.stdout, got.stderr) == (want.text, "")
    assert "g:g f main|sub/lib.sh m.sh m.sh|3 4 0\n" in got.stdout
