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


# nested functions defined in a sourced file, called from it while it is read, from the
# script, from a function that sources it, each also in a subshell and a `$(…)`
NESTED_LIB = """show() {
  echo "$1:${FUNCNAME[*]}|${BASH_SOURCE[*]}|${BASH_LINENO[*]}"
  caller; caller 0; caller 1; caller 2; caller 3; echo "caller 3: $?"
}
inner() { show inner; }
outer() { inner; echo "outer:${#FUNCNAME[@]} ${#BASH_LINENO[@]} ${#BASH_SOURCE[@]}"; }
outer
( outer )
echo "sub:$(inner)"
"""
NESTED_MAIN = """source sub/lib.sh
outer
( inner; ( outer ) )
f() { . sub/lib.sh; }
f
( f )
echo "top:${FUNCNAME[*]}|${BASH_SOURCE[*]}|${BASH_LINENO[*]}"
caller; echo "caller: $?"
"""


@pytest.mark.parametrize("how", ["file", "-c"])
def test_the_call_stack_of_nested_functions_from_a_sourced_file_matches_bash(
        tmp_path: Path, how: str) -> None:
    """$FUNCNAME, $BASH_LINENO, $BASH_SOURCE and caller at every depth of functions
    defined in a sourced file: called while the file is read, from the script, from a
    function that sources the file, in a subshell and a command substitution (which
    copy the stack), and after each call returns (which pops it); run from a script
    file (a "main" frame at the bottom) and as `-c` text (none)."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "lib.sh").write_text(NESTED_LIB)
    (tmp_path / "m.sh").write_text(NESTED_MAIN)
    argv = ["m.sh"] if how == "file" else ["-c", NESTED_MAIN]
    got = subprocess.run([sys.executable, "-m", "tysh", *argv], cwd=tmp_path,
                         capture_output=True, text=True, check=False)
    want = reference.run_bash("bash m.sh" if how == "file" else NESTED_MAIN, tmp_path)
    if want is None:
        pytest.skip("bash is the reference")
    assert (got.stdout, got.stderr, got.returncode) == (want.text, "", 0)
    if how == "file":
        assert ("inner:show inner outer source f main|sub/lib.sh sub/lib.sh sub/lib.sh "
                "sub/lib.sh m.sh m.sh|5 6 7 4 5 0\n") in got.stdout
        assert got.stdout.endswith("top:|m.sh|0\n0 NULL\ncaller: 0\n")
    else:
        assert ("inner:show inner outer source f|sub/lib.sh sub/lib.sh sub/lib.sh "
                "sub/lib.sh environment|5 6 7 4 5\n") in got.stdout
        assert got.stdout.endswith("top:||\ncaller: 1\n")
