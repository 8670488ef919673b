"""echo's writer (ToolWriter: no binding, no Context) writes and answers as the tool's own
run: the same output, status, typed value and errors for every kind of word."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import reference
from hypothesis import given
from hypothesis import strategies as st

from tysh import Kernel
from tysh.builtins.core.echo import echo
from tysh.kernel.base.argv import Arg, DoubleDash, Flag, Operand
from tysh.kernel.base.limits import Limits
from tysh.kernel.fs.memory import MemoryFileSystem
from tysh.kernel.run.simple_command import call_tool

_WITHOUT_WRITER = echo.evolve(writer=None)

_words = st.one_of(
    st.text(max_size=5),
    st.sampled_from(["-n", "-e", "-E", "-neE", "--json", "--help", "-", "--", "\udcff",
                     "\ud800", "a\\tb"]),
    st.integers(-5, 5),
    st.lists(st.integers(0, 3), max_size=2),
)
_args = st.lists(
    st.one_of(
        st.builds(Operand, _words, st.booleans()),
        st.builds(Flag, st.sampled_from(["-n", "-e", "--json", "-x", "--help"])),
        st.just(DoubleDash()),
    ),
    max_size=4,
)


def _run(tool: Any, args: list[Arg]) -> tuple[int, bytes, bytes, Any, bool]:
    k = Kernel(fs=MemoryFileSystem())
    interp = k.interp
    out, err = io.BytesIO(), io.BytesIO()
    fds = {0: io.BytesIO(), 1: out, 2: err}
    interp.last_data = None
    interp.last_typed = False
    code = call_tool(interp, tool, "echo", list(args), fds)
    return code, out.getvalue(), err.getvalue(), interp.last_data, interp.last_typed


@given(_args)
def test_the_writer_answers_as_the_tools_own_run(args: list[Arg]) -> None:
    assert echo.writer is not None
    assert _run(echo, args) == _run(_WITHOUT_WRITER, args)


def test_echo_is_as_in_bash(tmp_path: Path) -> None:
    script = ("echo hi; echo; echo a 'b  c' \"$x\"; echo -n x; echo; echo -e 'a\\tb'; "
              "echo -- -n; echo x -n; echo $? $_")
    got = Kernel(cwd=str(tmp_path)).execute(script)
    want = reference.run_bash(script, tmp_path)
    if want is not None:
        assert (got.code, got.out) == (want.code, want.text)
    assert got.out.startswith("hi\n\na b  c \nx\na\tb\n")


def test_a_write_past_the_output_limit_fails_as_the_tool_does() -> None:
    k = Kernel(fs=MemoryFileSystem(), limits=Limits(max_output_bytes=10))
    r = k.execute("for i in $(seq 1 2000000); do echo $i; done; echo end")
    assert r.truncated
    assert "internal error" not in r.err and "Traceback" not in r.err


def test_a_lone_surrogate_fails_with_a_message_not_a_traceback() -> None:
    k = Kernel(fs=MemoryFileSystem())
    k.interp.state.set("s", "a\ud800")  # (as a JSON string `"a\\ud800"` decodes)
    for script in ("echo $s", "echo -n $s", "printf '%s\\n' $s"):
        r = k.execute(script)
        assert r.code == 1, script
        assert "cannot write text holding '\\ud800'" in r.err, (script, r.err)
