"""Faults and hostile input: each ends in a clean ExecResult with its documented code,
no traceback escapes, and the kernel stays usable afterwards."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tysh.kernel.base.limits import Limits
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import ExecResult
from tysh.kernel.tools.tool import tool


def _clean(r: ExecResult, code: int) -> None:
    assert "Traceback" not in r.err
    assert r.code == code, (r.code, r.err[-500:])


def _usable(k: Kernel) -> None:
    r = k.execute("echo ok")
    assert (r.code, r.out, r.err) == (0, "ok\n", "")


@pytest.fixture
def k(tmp_path: Path) -> Kernel:
    return Kernel(cwd=str(tmp_path))


# ---------------------------------------------------------------- one test per kind of code


def test_syntax_error_is_2_and_nothing_runs(k: Kernel) -> None:
    r = k.execute("echo ran; if then fi")
    _clean(r, 2)
    assert r.out == "" and r.err.startswith("tysh: syntax error at ")
    _usable(k)


def test_bad_option_is_a_usage_error_2(k: Kernel) -> None:
    r = k.execute("head --no-such-option x")
    _clean(r, 2)
    _usable(k)


def test_time_limit_is_124(k: Kernel) -> None:
    r = k.execute("while :; do :; done", timeout=0.2)
    _clean(r, 124)
    assert r.err == "tysh: time limit of 0.2s exceeded\n"
    _usable(k)


def test_cancellation_is_130(k: Kernel) -> None:
    threading.Timer(0.2, k.cancel).start()
    r = k.execute("while :; do echo x; done | while read -r l; do :; done")
    _clean(r, 130)
    _usable(k)


def test_output_limit_is_3(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_output_bytes=1000))
    r = k.execute("seq 1 100000")
    _clean(r, 3)
    assert r.truncated and r.out.startswith("1\n2\n") and r.out.endswith("99999\n100000\n")
    _usable(k)


def test_runaway_recursion_is_1(k: Kernel) -> None:
    r = k.execute("f(){ f; }; f")
    _clean(r, 1)
    assert "maximum function nesting exceeded" in r.err
    _usable(k)


def test_mutual_recursion_through_pipes_and_substitutions_ends(k: Kernel) -> None:
    r = k.execute("f(){ echo $(g); }; g(){ f | cat; }; f", timeout=20)
    assert "Traceback" not in r.err
    assert "maximum subshell nesting exceeded" in r.err
    _usable(k)


def test_internal_fault_in_a_tool_is_70(k: Kernel) -> None:
    @tool("boom", description="fails inside")
    def boom(args: object, ctx: Context) -> int:
        raise ZeroDivisionError("on purpose")

    k.register(boom)
    r = k.execute("boom")
    _clean(r, 70)
    assert r.err == "tysh: internal error: ZeroDivisionError: on purpose\n"
    r = k.execute("boom | cat; echo after")
    assert "Traceback" not in r.err and r.out == "after\n"
    _usable(k)


def test_busy_is_75(k: Kernel) -> None:
    t = threading.Thread(target=k.execute, args=("sleep 0.4",))
    t.start()
    time.sleep(0.1)
    r = k.execute("echo x")
    t.join()
    _clean(r, 75)
    _usable(k)


# ---------------------------------------------------------------- deep nesting


def _deep(n: int) -> dict[str, str]:
    return {
        "arith": "echo $((" + "(" * n + "1" + ")" * n + "))",
        "subshell": "(" * n + "echo hi" + ")" * n,
        "subshell_spaced": "( " * n + "echo hi" + " )" * n,
        "brace": "{ " * n + "echo hi; " + "} " * n,
        "if": "if true; then " * n + "echo hi" + "; fi" * n,
        "cmdsub": "echo " + "$(" * n + "echo hi" + ")" * n,
        "param": "echo " + "${x:-" * n + "d" + "}" * n,
    }


@pytest.mark.parametrize("kind", sorted(_deep(1)))
def test_ten_thousand_deep_nesting_is_a_clean_result(k: Kernel, kind: str) -> None:
    r = k.execute(_deep(10_000)[kind], timeout=60)
    assert "Traceback" not in r.err
    assert r.code in (0, 1, 2), (r.code, r.err[:300])
    if r.code == 2 and "syntax error" not in r.err:
        assert r.err == "tysh: script nests too deeply\n"
    _usable(k)


def test_hundred_thousand_semicolons(k: Kernel) -> None:
    _clean(k.execute(";" * 100_000), 2)
    r = k.execute("true;" * 100_000 + "echo end")
    _clean(r, 0)
    assert r.out == "end\n"
    _usable(k)


def test_long_pipeline(k: Kernel) -> None:
    r = k.execute("echo hi" + " | cat" * 500)
    _clean(r, 0)
    assert r.out == "hi\n"


# ---------------------------------------------------------------- big and odd input


def test_hundred_megabyte_line_streams_through_cat_and_wc(k: Kernel) -> None:
    line = b"x" * 100_000_000 + b"\n"
    r = k.execute("cat | wc -c", stdin=line, timeout=120)
    _clean(r, 0)
    assert r.out.strip() == "100000001"
    _usable(k)


def test_invalid_utf8_in_the_script(k: Kernel) -> None:
    src = b"echo \xff\xfe ok; x=\xc3; echo ${#x}".decode("utf-8", "surrogateescape")
    r = k.execute(src, binary=True)
    _clean(r, 0)
    assert isinstance(r.out, bytes) and r.out.startswith(b"\xff\xfe ok\n")
    _usable(k)


def test_invalid_utf8_on_stdin(k: Kernel) -> None:
    r = k.execute("read -r x; echo \"[$x]\"; cat | wc -c", stdin=b"\xff\xfeab\n\x80\x81\n")
    _clean(r, 0)
    assert r.out.encode("utf-8", "surrogateescape") == b"[\xff\xfeab]\n3\n"


def test_binary_stdin_passes_through_unchanged(k: Kernel) -> None:
    data = bytes(range(256)) * 1000
    r = k.execute("cat | cat", stdin=data, binary=True)
    _clean(r, 0)
    assert r.out == data


@pytest.mark.parametrize("src", ["grep -c a", "sort | uniq -c | wc -l", "sed s/a/b/ | wc -c",
                                 "tr a b | head -c 10 | wc -c", "cut -c1-3 | wc -l"])
def test_text_tools_survive_binary_input(k: Kernel, src: str) -> None:
    r = k.execute(src, stdin=bytes(range(256)) * 10 + b"a\n")
    assert "Traceback" not in r.err and r.code in (0, 1)
    _usable(k)


def test_nul_bytes_in_the_script(k: Kernel) -> None:
    r = k.execute("echo a\x00b; echo next")
    assert "Traceback" not in r.err and r.code != 70
    _usable(k)


# ---------------------------------------------------------------- resources


def test_full_in_memory_filesystem() -> None:
    k = Kernel.isolated(max_fs_bytes=10_000)
    r = k.execute("seq 1 100000 > big; echo $?; ls")
    _clean(r, 0)
    assert r.out.startswith("1\n") and "No space left on device" in r.err
    r = k.execute("while :; do echo 0123456789; done > runaway", timeout=1)
    assert "Traceback" not in r.err and r.code == 124
    _usable(k)


def test_a_fault_inside_a_pipeline_stage_does_not_hang(k: Kernel) -> None:
    @tool("explode", description="fails after some output")
    def explode(args: object, ctx: Context) -> int:
        ctx.write("partial\n")
        raise RuntimeError("stage fault")

    k.register(explode)
    r = k.execute("explode | cat; seq 1 3 | explode | wc -l", timeout=10)
    assert "Traceback" not in r.err and "stage fault" in r.err
    _usable(k)


_HOSTILE: list[Callable[[], str]] = [
    lambda: "exit 300",
    lambda: "return 5",
    lambda: "break 3",
    lambda: "set -e; false; echo no",
    lambda: "set -u; echo $nope",
    lambda: "echo ${x:?gone}",
    lambda: "readonly r=1; r=2",
    lambda: "cd /; cd ..; cd /proc",
    lambda: "echo $((1/0))",
    lambda: "echo $((2**64**64))",
    lambda: "a=(1 2 3); echo ${a[99999999999999999999]}",
    lambda: "printf '%*d' 999999999 1",
    lambda: "seq 1 0.000000001 2 | head -n 3",
    lambda: "x=$(printf '%s' {1..100000}); echo ${#x}",
    lambda: "f() { local x; x=$((x+1)); }; for i in {1..1000}; do f; done",
    lambda: "exec 3>&-; echo hi >&3",
    lambda: "echo hi >&99",
    lambda: "cat <&7",
    lambda: "wait 12345",
    lambda: ": $(( $(echo 1) + ))",
]


@pytest.mark.parametrize("make", _HOSTILE, ids=[m() for m in _HOSTILE])
def test_hostile_snippets_never_escape_as_a_traceback(k: Kernel, make: Callable[[], str]) -> None:
    r = k.execute(make(), timeout=10)
    assert "Traceback" not in r.err and r.code != 70, (r.code, r.err[-400:])
    _usable(k)
