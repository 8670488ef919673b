"""true, false and `:`: their direct path (no binding, no Context) answers as the tool."""

from __future__ import annotations

from pathlib import Path

import reference
from hypothesis import given
from hypothesis import strategies as st

from tysh import Kernel
from tysh.builtins.core.noop import colon, false_, true_


@given(st.lists(st.text(max_size=6), max_size=4))
def test_the_direct_status_is_the_tools_own(argv: list[str]) -> None:
    for t, status in ((true_, 0), (false_, 1), (colon, 0)):
        assert t.direct is not None
        assert t.direct(argv) == (None if "--json" in argv else status)


def test_status_arguments_and_last_argument_are_as_in_bash(tmp_path: Path) -> None:
    script = ("true; echo $? $_; false x y; echo $? $_; : ${a:=3} 'b c'; echo $? $_ $a; "
              "true --help; echo $?; false --json; echo $?; ! true; echo $?; "
              "for ((i=0; i<3; i++)); do :; done; echo $i $?")
    got = Kernel(cwd=str(tmp_path)).execute(script)
    want = reference.run_bash(script, tmp_path)
    if want is not None:
        assert (got.code, got.out) == (want.code, want.text)
    assert got.out.splitlines()[0] == "0 true"


def test_json_runs_the_tool(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    assert (k.execute("true --json").code, k.execute("false --json").code) == (0, 1)
