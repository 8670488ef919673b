"""echo, printf, test/[, true/false/:, sleep, env, timeout — called through the binder."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import IO, Any

import attrs
import pytest
from harness import invoke

from tysh.builtins import get_builtin
from tysh.builtins.core import echo as echo_mod
from tysh.builtins.core import noop as noop_mod
from tysh.builtins.core import test as test_mod
from tysh.builtins.process import env as env_mod
from tysh.builtins.process import sleep as sleep_mod
from tysh.builtins.process import timeout as timeout_mod
from tysh.builtins.process.sleep import parse_duration
from tysh.kernel.base.argv import Arg, Flag, Operand, classify
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.schema import ArgBinding
from tysh.kernel.tools.tool import Tool

TOOLS: list[Tool] = [*echo_mod.TOOLS, *test_mod.TOOLS, *noop_mod.TOOLS, *sleep_mod.TOOLS,
                     *env_mod.TOOLS, *timeout_mod.TOOLS]


class FakeShell:
    """The ShellAPI surface these tools use; records the commands they run."""

    def __init__(self, cwd: str) -> None:
        self._cwd = cwd
        self.vars: dict[str, Any] = {}
        self.env = {"HOME": cwd, "PATH": "/usr/bin", "LANG": "C"}
        self.calls: list[dict[str, Any]] = []
        self.cancel_after: float | None = None
        self.status = 0

    @property
    def cwd(self) -> str:
        return self._cwd

    def get_var(self, name: str) -> Any:
        return self.vars.get(name)

    def set_var(self, name: str, value: Any) -> None:
        self.vars[name] = value

    def exported_env(self) -> dict[str, str]:
        return dict(self.env)

    def run_argv(
        self, argv: list[str], stdin: IO[bytes], stdout: IO[bytes], stderr: IO[bytes],
        *, env: dict[str, str] | None = None, timeout: float | None = None,
    ) -> int:
        self.calls.append({"argv": argv, "env": env, "timeout": timeout})
        stdout.write(("ran " + " ".join(argv) + "\n").encode())
        return self.status

    def cancelled(self) -> bool:
        return self.cancel_after is not None and time.monotonic() >= self.cancel_after


@attrs.frozen
class Result:
    code: int
    out: bytes
    err: str
    output: OutputData | None

    @property
    def text(self) -> str:
        return self.out.decode("utf-8", "surrogateescape")


def run(name: str, argv: list[Any], shell: FakeShell, stdin: bytes = b"") -> Result:
    tool = get_builtin(name)
    assert tool is not None
    args: list[Arg] = []
    for w in argv:
        if isinstance(w, (Flag, Operand)):
            args.append(w)  # pre-classified, e.g. a glob result
        elif isinstance(w, str):
            args.extend(classify([w]))
        else:
            args.append(Operand(w))  # a typed value
    r = invoke(tool, name, args, shell, stdin)
    return Result(r.code, r.out, r.err.decode(), r.output)


@pytest.fixture
def sh(tmp_path: Path) -> FakeShell:
    return FakeShell(str(tmp_path))


def echo(sh: FakeShell, *argv: Any) -> str:
    return run("echo", list(argv), sh).text


# -- registry ------------------------------------------------------------------------------

def test_every_posix_tool_is_found_by_the_lazy_registry() -> None:
    for t in TOOLS:
        assert get_builtin(t.name) is t


def test_binding_modes_are_declared() -> None:
    kinds = {t.name: t.schema for t in TOOLS}
    assert kinds["echo"].arg_binding is ArgBinding.VERBATIM
    assert kinds["printf"].arg_binding is ArgBinding.VERBATIM
    for n in ("test", "[", "true", "false", ":", "env", "timeout"):
        assert kinds[n].raw_argv, n
    assert not kinds["sleep"].raw_argv and kinds["sleep"].params


def test_timeout_declares_that_it_runs_commands() -> None:
    assert "proc.exec" in next(t for t in TOOLS if t.name == "timeout").schema.operations


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
    from tysh import Kernel

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


# -- test / [ --------------------------------------------------------------------------------

def test_test_status_reflects_the_expression(sh: FakeShell, tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    assert run("test", ["-f", "f"], sh).code == 0
    assert run("test", ["-d", "f"], sh).code == 1
    assert run("test", ["0", "-gt", "-5"], sh).code == 0
    assert run("test", ["x", "=", "-n"], sh).code == 1


def test_test_error_is_status_2_with_bash_message(sh: FakeShell) -> None:
    r = run("test", ["abc", "-eq", "1"], sh)
    assert (r.code, r.err) == (2, "test: abc: integer expression expected\n")


def test_bracket_requires_the_closing_bracket(sh: FakeShell) -> None:
    r = run("[", ["a", "=", "a"], sh)
    assert (r.code, r.err) == (2, "[: missing `]'\n")
    assert run("[", ["a", "=", "a", "]"], sh).code == 0
    assert run("[", ["]"], sh).code == 1


def test_bracket_json_word_is_an_operand(sh: FakeShell) -> None:
    assert run("[", ["--json", "]"], sh).code == 0
    assert run("[", ["--json", "=", "--json", "]"], sh).code == 0


def test_test_renders_typed_operands(sh: FakeShell) -> None:
    assert run("test", [3, "-eq", "3"], sh).code == 0


# -- true / false / : ------------------------------------------------------------------------

def test_true_false_colon_ignore_their_arguments(sh: FakeShell) -> None:
    assert run("true", ["--bogus", "x"], sh).code == 0
    assert run("false", ["-x"], sh).code == 1
    assert run(":", ["anything", "-n"], sh).code == 0


# -- sleep -----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "secs"),
    [("1", 1.0), ("0.5", 0.5), ("1s", 1.0), ("2m", 120.0), ("1h", 3600.0), ("1d", 86400.0),
     (".5", 0.5), ("1e1", 10.0), ("inf", float("inf"))],
)
def test_durations_parse_like_gnu(text: str, secs: float) -> None:
    assert parse_duration(text) == secs


@pytest.mark.parametrize("text", ["", "x", "1x", "-1", "1 s", "m"])
def test_bad_durations_are_refused(text: str) -> None:
    assert parse_duration(text) is None


def test_sleep_sums_its_durations(sh: FakeShell) -> None:
    t0 = time.monotonic()
    assert run("sleep", ["0.05", "0.05s"], sh).code == 0
    assert time.monotonic() - t0 >= 0.09


def test_sleep_stops_when_the_shell_cancels(sh: FakeShell) -> None:
    sh.cancel_after = time.monotonic() + 0.1
    t0 = time.monotonic()
    assert run("sleep", ["10"], sh).code == 130
    assert time.monotonic() - t0 < 1


def test_sleep_errors(sh: FakeShell) -> None:
    r = run("sleep", [], sh)
    assert (r.code, r.err) == (1, "sleep: missing operand\n")
    r = run("sleep", ["abc"], sh)
    assert (r.code, r.err) == (1, "sleep: invalid time interval 'abc'\n")


# -- env -------------------------------------------------------------------------------------

def test_env_prints_exported_variables_in_order(sh: FakeShell, tmp_path: Path) -> None:
    assert run("env", [], sh).text == f"HOME={tmp_path}\nPATH=/usr/bin\nLANG=C\n"


def test_env_assignments_unset_and_ignore(sh: FakeShell) -> None:
    assert run("env", ["-u", "HOME", "X=1"], sh).text == "PATH=/usr/bin\nLANG=C\nX=1\n"
    assert run("env", ["-i", "A=1", "B=x=y"], sh).text == "A=1\nB=x=y\n"
    assert run("env", ["-", "A=1"], sh).text == "A=1\n"
    assert run("env", ["--unset=PATH", "-uLANG", "-i"], sh).text == ""


def test_env_null_separator(sh: FakeShell) -> None:
    assert run("env", ["-i0", "A=1", "B=2"], sh).out == b"A=1\0B=2\0"


def test_env_json_prints_an_object(sh: FakeShell) -> None:
    r = run("env", ["-i", "--json", "A=1"], sh)
    assert json.loads(r.text) == {"A": "1"}


def test_env_runs_a_command_with_the_new_environment(sh: FakeShell) -> None:
    sh.status = 3
    r = run("env", ["-i", "A=1", "cmd", "-x", "--json", "B=2"], sh)
    assert r.code == 3 and r.text == "ran cmd -x --json B=2\n"
    assert sh.calls == [{"argv": ["cmd", "-x", "--json", "B=2"], "env": {"A": "1"},
                         "timeout": None}]


def test_env_double_dash_ends_options(sh: FakeShell) -> None:
    run("env", ["--", "-cmd"], sh)
    assert sh.calls[0]["argv"] == ["-cmd"]


def test_env_unknown_option_is_status_125(sh: FakeShell) -> None:
    r = run("env", ["-q"], sh)
    assert r.code == 125 and "invalid option '-q'" in r.err


def test_env_u_without_name(sh: FakeShell) -> None:
    assert run("env", ["-u"], sh).code == 125


# -- timeout ---------------------------------------------------------------------------------

def test_timeout_runs_the_command_with_a_deadline(sh: FakeShell) -> None:
    r = run("timeout", ["2m", "cmd", "-n", "5"], sh)
    assert r.code == 0 and r.text == "ran cmd -n 5\n"
    assert sh.calls[0]["timeout"] == 120.0 and sh.calls[0]["env"] is None


def test_timeout_zero_means_no_deadline(sh: FakeShell) -> None:
    run("timeout", ["0", "cmd"], sh)
    assert sh.calls[0]["timeout"] is None


def test_timeout_options(sh: FakeShell) -> None:
    sh.status = 124
    r = run("timeout", ["-v", "-s", "TERM", "-k", "1", "1", "cmd"], sh)
    assert r.code == 124 and "sending signal TERM to command 'cmd'" in r.err
    r = run("timeout", ["-v", "-s", "KILL", "1", "cmd"], sh)
    assert r.code == 137  # as GNU timeout: KILL can't be caught, so 128+9
    assert "sending signal KILL to command 'cmd'" in r.err
    r = run("timeout", ["--preserve-status", "--signal=INT", "1", "cmd"], sh)
    assert r.code == 130


def test_timeout_usage_errors_are_status_125(sh: FakeShell) -> None:
    assert run("timeout", [], sh).code == 125
    assert run("timeout", ["5"], sh).code == 125
    assert run("timeout", ["x", "cmd"], sh).code == 125
    assert run("timeout", ["-s", "BOGUS", "1", "cmd"], sh).code == 125
    assert run("timeout", ["--frob", "1", "cmd"], sh).code == 125
    assert sh.calls == []


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
