"""The planned paths of loop and function bodies (run/plan.py, ToolDirect, arithmetic
templates): they do less per command, and every hook of the general path still sees
each command — events, limits, cancel, traps, xtrace."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tysh import Kernel
from tysh.kernel.base.limits import Limits
from tysh.kernel.expand import arith

LOOP = "i=0; x=0; while [ $i -lt 50 ]; do x=$((x+i)); i=$((i+1)); done; echo $x"
CALLS = "f() { r=$(( $1 + 1 )); }; i=0; while [ $i -lt 50 ]; do f $i; i=$((i+1)); done; echo $r"


@pytest.fixture
def k(tmp_path: Path) -> Kernel:
    return Kernel(cwd=str(tmp_path))


def _bracket_tool_calls(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Record the calls that reach the body the `[` and `test` tools share."""
    from tysh.builtins.core import test as test_tools

    calls: list[Any] = []
    inner = test_tools._run_test

    def spy(*a: Any, **kw: Any) -> Any:
        calls.append(a[0])
        return inner(*a, **kw)

    monkeypatch.setattr(test_tools, "_run_test", spy)
    return calls


def test_plain_comparisons_are_answered_without_running_the_tool(
        k: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _bracket_tool_calls(monkeypatch)
    assert k.execute(LOOP).out == "1225\n"
    assert k.execute("[ a = b ] || test 3 -ge 2 && [ ! -z x ] && echo ok").out == "ok\n"
    assert calls == []


def test_other_expressions_and_errors_still_run_the_tool(
        k: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _bracket_tool_calls(monkeypatch)
    r = k.execute("touch f; [ -f f ]; echo $?; [ x -lt 1 ]; echo $?; [ 1 = 1; echo $?; "
                  "test --json 1 -eq 1")
    assert r.out == "0\n2\n2\ntrue\n"
    assert "integer expression expected" in r.err and "missing `]'" in r.err
    assert len(calls) == 3  # `[ 1 = 1` is refused by the tool before it evaluates


def test_an_argument_template_is_parsed_once_for_all_its_values(
        k: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    real = arith._Parser

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, text: str, holes: bool = False) -> None:
            made.append(text)
            super().__init__(text, holes)

    monkeypatch.setattr(arith, "_Parser", Counting)
    assert k.execute(CALLS).out == "50\n"
    assert len(made) < 10, made  # not one parse per value of $1


def test_events_report_every_test_and_call_of_a_loop(k: Kernel) -> None:
    events: list[dict[str, Any]] = []
    k.add_listener(events.append)
    r = k.execute("f() { :; }; i=0; while [ $i -lt 2 ]; do f $i; i=$((i+1)); done")
    assert r.code == 0
    titles = [e["title"] for e in events if e["sessionUpdate"] == "tool_call"]
    assert [t.split()[0] for t in titles] == ["[", "f", ":", "[", "f", ":", "["]


@pytest.mark.parametrize("src", [
    "while [ 1 -eq 1 ]; do x=$((x+1)); done",
    "f() { x=$(( $1 + 1 )); }; while true; do f $x; done",
    "for ((;;)); do x=$((x+1)); done",
])
def test_the_time_limit_stops_a_planned_loop(k: Kernel, src: str) -> None:
    t = time.monotonic()
    r = k.execute(src, timeout=0.3)
    assert time.monotonic() - t < 5
    assert r.code == 124 and r.err.endswith("time limit of 0.3s exceeded\n")


def test_cancel_stops_a_planned_loop(k: Kernel) -> None:
    threading.Timer(0.2, k.cancel).start()
    r = k.execute("f() { [ $1 -ge 0 ]; }; while [ 1 -eq 1 ]; do f 1; x=$((x+1)); done")
    assert r.code == 130 and r.err.endswith("tysh: cancelled\n")


def test_the_iteration_cap_counts_planned_iterations(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_loop_iterations=100))
    r = k.execute("i=0; while [ $i -lt 1000 ]; do i=$((i+1)); done; echo $i")
    assert r.code != 0 and "loop iteration limit exceeded (100)" in r.err


def test_function_depth_limit_holds_on_the_planned_call(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_function_depth=20))
    r = k.execute("f() { f $(( $1 + 1 )); }; f 0")
    assert r.code != 0 and "maximum function nesting exceeded (20)" in r.err


def test_a_planned_call_sets_dollar_underscore_and_the_call_stack(k: Kernel) -> None:
    r = k.execute("g() { echo \"$_ ${FUNCNAME[*]} $#\"; }; f() { g $1 z; }\n"
                  "i=0; while [ $i -lt 1 ]; do f a; echo \"$_\"; i=$((i+1)); done")
    assert r.out == "z g f 2\na\n"


def test_a_name_that_becomes_a_function_is_called_as_one(k: Kernel) -> None:
    r = k.execute("for n in 1 2; do [ 1 -eq 1 ] && echo $n; [() { echo mine; }; done")
    assert r.out == "1\nmine\n2\n"


def test_a_function_redefined_in_a_loop_runs_its_new_body(k: Kernel) -> None:
    r = k.execute("f() { echo one; }; for n in 1 2 3; do f $n; f() { echo \"$1 two\"; }; done")
    assert r.out == "one\n2 two\n3 two\n"


def test_the_commands_of_a_loop_import_nothing_per_iteration(
        k: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    """An import run inside a function costs CPython 3.11 two formatted AttributeErrors
    even when the module is loaded: more than a whole `[ $i -lt N ]`."""
    import builtins

    src = ("f() { r=$(( $1 + 1 )); s=$1; }; i=0\n"
           "while [ $i -lt {n} ] && test $i -ge 0 && [[ $i == [0-9]* && $i -lt 99 ]]; do\n"
           "  f $i; i=$((i+1)); (( i > 0 )); case $i in 1) ;; esac; done; echo $r")
    assert k.execute(src.replace("{n}", "3")).out == "3\n"  # loads what the loop uses
    seen: list[str] = []
    real = builtins.__import__

    def spy(name: str, *a: Any, **kw: Any) -> Any:
        seen.append(name)
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", spy)
    k.execute(src.replace("{n}", "2"))
    few = len(seen)
    assert k.execute(src.replace("{n}", "40")).out == "40\n"
    assert len(seen) - few <= few, seen[few:]


TEMPLATES = ["$a + 1", " $a*$b ", "$a-$b", "x$a", "1$a", "$a$b", "$a#1", "-$a", "!$a",
             "$a ? $b : 7", "$a / $b", "$a % $b", "($a) << $b", "y = $a, y + $b",
             "$a ** $b", "a[$b] + $a", "$a++", "++$a", "$a,$b", "$b"]
VALUES = ["0", "7", "12", "-3", "08", "0x1f", "2#11", "1+2", "y", " 4 ", "",
          "9223372036854775807", "99999999999999999999", "3a"]


def test_an_arithmetic_template_computes_what_its_joined_text_does(k: Kernel) -> None:
    """`$(( $a + 1 ))` with every kind of value: the same output, status and message
    as the literal text the expansion makes (`$(( 7 + 1 ))`)."""
    for tpl in TEMPLATES:
        for a in VALUES:
            for b in ("2", "-1", "0"):
                joined = tpl.replace("$a", a).replace("$b", b)
                if "$" in joined:
                    continue
                pre = "y=5; a[2]=4; a[-1]=1; "
                got = k.execute(f"{pre}A='{a}' B='{b}'; f() {{ echo $(( {tpl.replace('$a', '$1').replace('$b', '$2')} )); }}; f \"$A\" \"$B\"; echo $?")
                want = k.execute(f"{pre}echo $(( {joined} )); echo $?")
                assert (got.code, got.out, got.err) == (want.code, want.out, want.err), (
                    tpl, a, b)
