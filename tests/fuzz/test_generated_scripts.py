"""Hypothesis fuzz of the embedded kernel: scripts built from grammar
fragments — valid and broken — run against an in-memory kernel. Whatever the script,
`execute`, `validate` and `plan` return values (no exception, no traceback in `err`),
the host filesystem is untouched, and no run outlives the time limit."""

from __future__ import annotations

import inspect
import os
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.memory import MemoryFileSystem

TIME_LIMIT = 0.5  # seconds per execute
SLACK = 3.0  # for a slow CI machine: a hang is far longer than this
HOST_MARK = "tysh_fuzz_host_mark"

WORDS = [
    "a", "x", "f1", "dir", '"$x"', "'q s'", "*", "*.txt", "../x", "/etc/passwd", "..",
    f"/tmp/{HOST_MARK}", "$((1+2))", "$(echo hi)", "${x:-d}", "${#x}", "~", "{a,b}", "$?",
    "$1", '"$@"', "-n", "-r", "--json", "--bogus", "'['", "'s/a/b/'", "'.a'", "$'\\x00'",
    "\"${arr[@]}\"", "$(( 1/0 ))", "é", "-1",
]
COMMANDS = [
    "echo", "printf", "cat", "ls", "grep", "sed", "head", "tail", "wc", "sort", "uniq",
    "mkdir", "touch", "rm", "cp", "mv", "cd", "test", "[", "jq", "find", "true", "false",
    "read", "set", "shift", "local", "export", "unset", "f", "nosuch", "env", "xargs",
    "timeout", "tee", "cut", "tr", "seq", "fromjson", "ln", "stat", "realpath", "pwd",
]
REDIRECTS = ["> out.txt", ">> log", "< out.txt", "2>&1", "2> /dev/null",
             f"> /tmp/{HOST_MARK}", "< /etc/passwd", "<<< 'here'", "> ../up"]
BROKEN = ["'", '"', ")", "(", ";;", "done", "fi", "$(", "${", "`x`", "<(a)", "{", "}",
          "&&", "|", "if", "then", "esac", "\\"]


def _simple() -> st.SearchStrategy[str]:
    assign = st.sampled_from(["x=1", "x=$(seq 3)", "arr=(1 2 3)", "x+=y", "n=$((n+1))"])
    cmd = st.builds(
        lambda name, words, redir: " ".join([name, *words, *redir]),
        st.sampled_from(COMMANDS),
        st.lists(st.sampled_from(WORDS), max_size=4),
        st.lists(st.sampled_from(REDIRECTS), max_size=1),
    )
    return st.one_of(assign, cmd)


def _compound(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(lambda a, b: f"{a} | {b}", inner, inner),
        st.builds(lambda a, b: f"{a} && {b}", inner, inner),
        st.builds(lambda a, b: f"{a} || {b}", inner, inner),
        st.builds(lambda a, b: f"{a}; {b}", inner, inner),
        st.builds(lambda a, b: f"if {a}; then {b}; fi", inner, inner),
        st.builds(lambda a, b, c: f"if {a}; then {b}; else {c}; fi", inner, inner, inner),
        st.builds(lambda a: f"for i in 1 2 3; do {a}; done", inner),
        st.builds(lambda a: f"while false; do {a}; done", inner),
        st.builds(lambda a: f"until true; do {a}; done", inner),
        st.builds(lambda a: f"{{ {a}; }}", inner),
        st.builds(lambda a: f"( {a} )", inner),
        st.builds(lambda a: f"f() {{ {a}; }}", inner),
        st.builds(lambda a: f"echo $({a})", inner),
        st.builds(lambda a: f"case $x in a) {a};; *) :;; esac", inner),
        st.builds(lambda a: f"[[ -f {a} ]]", st.sampled_from(WORDS)),
        st.builds(lambda a: f"(( {a} ))", st.sampled_from(["x++", "1/0", "y=2**8", "a[1]=3"])),
        st.just("f() { f; }; f"),
        st.just("for ((i=0; i<500; i++)); do :; done"),
        st.just("break"),
        st.just("return 3"),
        st.just("exit 4"),
    )


SCRIPTS = st.recursive(_simple(), _compound, max_leaves=8)
BROKEN_SCRIPTS = st.builds(
    lambda parts: " ".join(parts),
    st.lists(st.one_of(st.sampled_from(BROKEN), st.sampled_from(WORDS),
                       st.sampled_from(COMMANDS)), min_size=1, max_size=8),
)
TAKES_TIMEOUT = "timeout" in inspect.signature(Kernel.execute).parameters
Kernel.isolated()  # the deep-recursion setup happens once, before hypothesis starts


def _kernel() -> Kernel:
    """The in-memory preset, with PATH pointing at real programs it must not run."""
    k = Kernel.isolated(cwd="/w", env={"PATH": "/usr/bin:/bin"}, max_fs_bytes=1 << 20,
                        files={"a": "a\nb\n", "x.txt": '{"a": 1}\n', "dir/f": "f\n"})
    assert isinstance(k.fs, MemoryFileSystem) and not k.allow_external
    return k


def _run(k: Kernel, src: str) -> Any:
    """Run with the time limit; a run never lasts much past it."""
    kw: dict[str, Any] = {"stdin": "line1\nline2\n"}
    if TAKES_TIMEOUT:
        kw["timeout"] = TIME_LIMIT
    start = time.monotonic()
    r = k.execute(src, **kw)
    elapsed = time.monotonic() - start
    assert elapsed < TIME_LIMIT + SLACK, (src, elapsed)
    return r


def _check(k: Kernel, src: str) -> None:
    problems = k.validate(src)
    assert isinstance(problems, list)
    try:
        k.plan(src)
    except TyshSyntaxError:
        assert problems and problems[0].kind == "syntax"
    r = _run(k, src)
    assert isinstance(r.code, int) and 0 <= r.code <= 255
    assert "Traceback" not in r.err and "internal error" not in r.err, (src, r.err)
    assert r.err == "" or r.err.endswith("\n")
    # the kernel stays usable
    assert k.execute("echo alive").out == "alive\n"


@pytest.fixture(autouse=True)
def _host_untouched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run from an empty host folder; after the fuzz it must still be empty, and no
    file named by the fragments may appear in /tmp."""
    monkeypatch.chdir(tmp_path)
    yield
    assert os.listdir(tmp_path) == []
    assert not os.path.exists(f"/tmp/{HOST_MARK}")


FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@FUZZ
@given(SCRIPTS)
def test_grammar_fragment_scripts_end_in_clean_results(src: str) -> None:
    _check(_kernel(), src)


@FUZZ
@given(BROKEN_SCRIPTS)
def test_broken_fragment_soup_ends_in_clean_results(src: str) -> None:
    _check(_kernel(), src)


HANGS = st.sampled_from([
    "while :; do :; done", "while true; do echo x; done | head -n 1; while :; do :; done",
    "for ((;;)); do :; done", "until false; do hang_n=$((hang_n+1)); done",
    "f() { while :; do :; done; }; f", "echo $(while :; do :; done)",
])


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(SCRIPTS, HANGS)
@pytest.mark.skipif(not TAKES_TIMEOUT, reason="execute() has no timeout yet")
def test_endless_scripts_stop_at_the_time_limit(prefix: str, hang: str) -> None:
    k = _kernel()
    _run(k, prefix)  # whatever session state it leaves behind
    r = _run(k, hang)
    assert r.code == 124 and "time limit" in r.err, (r.code, r.err)
    assert k.execute("echo alive").out == "alive\n"


@FUZZ
@given(st.lists(SCRIPTS, min_size=2, max_size=4))
def test_one_session_survives_a_sequence_of_scripts(srcs: list[str]) -> None:
    k = _kernel()
    for src in srcs:
        _check(k, src)
