"""No input ends in a traceback: mutated corpus scripts run through Kernel.execute
(externals off, an in-memory filesystem) give ExecResults, never exceptions."""

from __future__ import annotations

import sys

from conformance.corpus import cases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.base.threads import DEEP_RECURSION
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.memory import MemoryFileSystem
from tysh.kernel.run.interpreter import Limits

sys.setrecursionlimit(max(sys.getrecursionlimit(), DEEP_RECURSION))  # before hypothesis records it

SCRIPTS = [c.script for c in cases("lang") if c.script is not None]
FRAGMENTS = [
    "$(", "${", "((", "))", "[[", "]]", "{", "}", "(", ")", "|", "&&", "||", ";", ";;",
    "<<EOF\n", "\nEOF\n", "'", '"', "\\", "$", "`", "fi", "done", "esac", "then", "do",
    ">&", "2>&1", "<<<", "${x:-", "$((1/0))", "&", "!", "*", "**", "~", "=", "[", "]",
]


def _kernel() -> Kernel:
    fs = MemoryFileSystem()
    fs.mkdir("/w", parents=True)
    return Kernel(cwd="/w", env={"HOME": "/w"}, fs=fs,
                  limits=Limits(max_function_depth=50, max_loop_iterations=2000))


@st.composite
def mutated(draw: st.DrawFn) -> str:
    src = draw(st.sampled_from(SCRIPTS))
    for _ in range(draw(st.integers(0, 3))):
        pos = draw(st.integers(0, len(src)))
        if draw(st.booleans()):
            src = src[:pos] + draw(st.sampled_from(FRAGMENTS)) + src[pos:]
        else:
            end = min(len(src), pos + draw(st.integers(1, 8)))
            src = src[:pos] + src[end:]
    return src


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_mutated_scripts_never_raise(src: str) -> None:
    k = _kernel()
    try:
        k.parse(src)
    except TyshSyntaxError:
        pass
    r = k.execute(src)
    assert isinstance(r.code, int)
    assert "Traceback" not in r.err
    assert "internal error" not in r.err, r.err


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from([*FRAGMENTS, "a", " ", "\n", "x=1", "echo"]), max_size=25).map("".join))
def test_random_fragments_never_raise(src: str) -> None:
    r = _kernel().execute(src)
    assert isinstance(r.code, int)
    assert "internal error" not in r.err, r.err
