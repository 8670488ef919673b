"""echo and printf (one module, core/echo.py), called through the binder: options, escapes,
words spelled like options, typed values, --json, printf -v, and echo's speed budget."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
from harness_posix import FakeShell, run

from tysh import Kernel
from tysh.builtins import get_builtin
from tysh.builtins.core import echo as echo_mod
from tysh.kernel.base.argv import Flag, Operand
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.schema import ArgBinding
from tysh.kernel.tools.tool import Tool


@pytest.fixture
def sh(tmp_path: Path) -> FakeShell:
    return FakeShell(str(tmp_path))


def echo(sh: FakeShell, *argv: Any) -> str:
    return run("echo", list(argv), sh).text


# -- registry ------------------------------------------------------------------------------

def test_echo_and_printf_are_found_by_the_lazy_registry() -> None:
    for t in echo_mod.TOOLS:
        assert get_builtin(t.name) is t


def test_echo_and_printf_bind_their_words_verbatim() -> None:
    kinds = {t.name: t.schema for t in echo_mod.TOOLS}
    assert kinds["echo"].arg_binding is ArgBinding.VERBATIM
    assert kinds["printf"].arg_binding is ArgBinding.VERBATIM


# -- echo ------------------------------------------------------------------------------------

def test_echo_joins_words_with_single_spaces(sh: FakeShell) -> None:
    assert echo(sh, "a", "b", "c") == "a b c\n"


def test_echo_without_words_prints_a_newline(sh: FakeShell) -> None:
    assert echo(sh) == "\n"


def test_echo_n_suppresses_the_newline(sh: FakeShell) -> None:
    assert echo(sh, "-n", "abc") == "abc"


def test_echo_escapes_only_with_e(sh: FakeShell) -> None:
    assert echo(sh, "-e", "a\\tb\\nc\\\\d") == "a\tb\nc\\d\n"
    assert echo(sh, "a\\tb") == "a\\tb\n"
    assert echo(sh, "-E", "x\\ny") == "x\\ny\n"


def test_echo_last_of_e_and_capital_e_wins(sh: FakeShell) -> None:
    assert echo(sh, "-eE", "a\\tb") == "a\\tb\n"
    assert echo(sh, "-E", "-e", "a\\tb") == "a\tb\n"


def test_echo_backslash_c_stops_output_and_newline(sh: FakeShell) -> None:
    assert echo(sh, "-e", "keep\\cdrop", "more") == "keep"


def test_echo_combined_flags(sh: FakeShell) -> None:
    assert echo(sh, "-ne", "p\\tq") == "p\tq"


def test_echo_double_dash_is_printed(sh: FakeShell) -> None:
    assert echo(sh, "--", "x") == "-- x\n"


def test_echo_unknown_options_are_text(sh: FakeShell) -> None:
    assert echo(sh, "-x", "foo") == "-x foo\n"
    assert echo(sh, "-nx", "bar") == "-nx bar\n"
    assert echo(sh, "-") == "-\n"


def test_echo_options_are_not_permuted(sh: FakeShell) -> None:
    assert echo(sh, "x", "-n") == "x -n\n"


def test_echo_several_leading_option_words(sh: FakeShell) -> None:
    assert echo(sh, "-n", "-e", "a\\tb", "-n") == "a\tb -n"


def test_echo_glob_result_spelled_like_an_option_is_text(sh: FakeShell) -> None:
    assert echo(sh, Operand("-n"), Operand("a.txt")) == "-n a.txt\n"
    assert echo(sh, "-e", Operand("-n"), "x") == "-n x\n"


def test_echo_option_from_a_variable_is_an_option(sh: FakeShell) -> None:
    assert echo(sh, Flag("-n"), "x") == "x"


def test_printf_glob_result_spelled_like_an_option_is_the_format(sh: FakeShell) -> None:
    assert run("printf", [Operand("-v")], sh).text == "-v"


def test_echo_renders_typed_values(sh: FakeShell) -> None:
    assert echo(sh, [1, 2], {"a": None}, 3, True, None) == '[1,2] {"a":null} 3 true \n'


def test_echo_json_gives_the_string(sh: FakeShell) -> None:
    r = run("echo", ["hi", "there", "--json"], sh)
    assert r.out == b""
    assert r.output is not None and r.output.to_json() == "hi there"


def test_echo_writes_non_utf8_bytes_through(sh: FakeShell) -> None:
    assert run("echo", ["-e", "\\xff"], sh).out == b"\xff\n"


# -- printf ----------------------------------------------------------------------------------

def test_printf_formats_and_reuses(sh: FakeShell) -> None:
    assert run("printf", ["%s=%s\n", "a", "1", "b"], sh).text == "a=1\nb=\n"


def test_printf_double_dash_before_a_dash_format(sh: FakeShell) -> None:
    assert run("printf", ["--", "-%s-\n", "x"], sh).text == "-x-\n"


def test_printf_invalid_number_reports_and_continues(sh: FakeShell) -> None:
    r = run("printf", ["%d\n", "abc"], sh)
    assert (r.text, r.code, r.err) == ("0\n", 1, "printf: abc: invalid number\n")


@pytest.mark.parametrize(
    ("src", "out"),
    [
        ('printf -v pad "%*s" 5 ""; echo "[$pad]"', "[     ]\n"),
        ("printf -v 'a[2]' '%03d' 7; echo ${a[2]}", "007\n"),
        ('printf -vy "%s-" a b; echo $y', "a-b-\n"),
        ('printf -v z "%d" abc; echo "$? [$z]"', "1 [0]\n"),
        ("declare -u U; printf -v U %s abc; echo $U", "ABC\n"),
        ("printf -v q -- '%s' dash; echo $q", "dash\n"),
        ("printf -v 1x %s a; echo $?", "2\n"),
        ("printf -v x; echo $?; printf -v; echo $?", "2\n2\n"),
        ("readonly R=1; printf -v R %s 2; echo $? $R", "1 1\n"),
    ],
)
def test_printf_v_assigns_the_text_to_a_variable_as_bash(src: str, out: str) -> None:
    assert Kernel.isolated().execute(src).out == out


def test_printf_without_format_is_a_usage_error(sh: FakeShell) -> None:
    r = run("printf", [], sh)
    assert r.code == 2 and "usage" in r.err


def test_printf_unknown_option_is_a_usage_error(sh: FakeShell) -> None:
    r = run("printf", ["-z", "x"], sh)
    assert r.code == 2 and "-z: invalid option" in r.err


def test_printf_dash_alone_is_a_format(sh: FakeShell) -> None:
    assert run("printf", ["-"], sh).text == "-"


def test_printf_json_gives_the_string(sh: FakeShell) -> None:
    r = run("printf", ["%s,%s\n", "a", "b", "--json"], sh)
    assert r.out == b"" and r.output is not None and r.output.to_json() == "a,b\n"


def test_printf_typed_arguments(sh: FakeShell) -> None:
    assert run("printf", ["%d %s\n", 5, [1]], sh).text == "5 [1]\n"


def _tool(name: str) -> Tool:
    t = get_builtin(name)
    assert t is not None
    return t


def test_echo_speed_budget(sh: FakeShell) -> None:
    """echo is on the hottest path: its body must cost a few microseconds."""
    t = _tool("echo")
    assert t.func is not None
    ctx = Context(name="echo", stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.BytesIO(),
                  fs=LocalFileSystem(), shell=sh)  # type: ignore[arg-type]

    @attrs.define
    class W:
        words: list[Any]
        flag_words: frozenset[int] = frozenset()

    args = W(["hi"])
    n = 20000
    t0 = time.perf_counter()
    for _ in range(n):
        t.func(args, ctx)
    per_call = (time.perf_counter() - t0) / n
    assert per_call < 20e-6
