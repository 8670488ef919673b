"""Kernel.validate and the refusal of a script with problems before any of it runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conformance.corpus import cases

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.embed.validate import Problem
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.memory import MemoryFileSystem


def _kernel(root: Path | None = None, *, external: bool = False, validate: bool = True) -> Kernel:
    """An embedded kernel that validates before running (the embedded presets'
    behaviour), confined to a folder or in memory."""
    if root is None:
        k = Kernel.isolated(cwd="/w", allow_external=external, validate=validate)
    else:
        k = Kernel(cwd=str(root), allow_external=external, validate=validate)
        assert isinstance(k.fs, ConfinedFileSystem)
    return k


def _problems(src: str, **kw: Any) -> list[tuple[int, int, str, str]]:
    return [(p.line, p.col, p.kind, p.message) for p in _kernel(**kw).validate(src)]


def _messages(src: str, **kw: Any) -> list[str]:
    return [p[3] for p in _problems(src, **kw)]


# ---------------------------------------------------------------- what is found


def test_a_clean_script_has_no_problems() -> None:
    src = "x=1\nfor i in 1 2; do echo $i; done | grep -c 1\nf(){ return 0; }; f"
    assert _problems(src) == []


def test_syntax_error_is_one_problem_with_its_position() -> None:
    assert _problems("echo ok\nif true; then") == [
        (2, 13, "syntax", "unexpected end of input: a command is missing")]


def test_unknown_command_when_externals_are_off() -> None:
    assert _problems("echo a\n  nosuch x") == [
        (2, 3, "unknown-command", "nosuch: command not found (external commands are disabled)")]


def test_unknown_command_is_not_reported_when_externals_are_on() -> None:
    assert _problems("nosuch_command_xyz", external=True) == []


def test_unknown_command_inside_substitution_is_found() -> None:
    assert _problems("echo $(nosuch)") == [
        (1, 8, "unknown-command", "nosuch: command not found (external commands are disabled)")]


def test_function_defined_later_in_the_script_is_known() -> None:
    assert _problems("greet; greet(){ echo hi; }") == []


def test_function_defined_in_an_earlier_execute_is_known() -> None:
    k = _kernel()
    k.execute("helper(){ echo hi; }")
    assert k.validate("helper") == []


def test_sourcing_a_file_turns_off_unknown_command_checks() -> None:
    assert _problems(". ./lib.sh; say hi") == []


def test_unknown_option_on_literal_argv() -> None:
    msgs = _messages("ls --bogus")
    assert len(msgs) == 1 and msgs[0].startswith("ls: unknown option '--bogus'")


def test_missing_option_value_on_literal_argv() -> None:
    assert _messages("sort -k") == ["sort: option '-k' needs a value"]


def test_computed_argv_is_not_checked() -> None:
    assert _problems('opt=--bogus; ls "$opt"') == []


def test_glob_argument_is_not_checked() -> None:
    assert _problems("grep -c x *.txt") == []


def test_break_outside_a_loop() -> None:
    assert _problems("echo a; break") == [
        (1, 9, "control", "break: only meaningful in a `for', `while', or `until' loop")]


def test_continue_inside_a_loop_body_and_while_condition_is_fine() -> None:
    assert _problems("for i in 1; do continue; done; while break; do :; done") == []


def test_break_in_a_substitution_inside_a_loop_is_a_problem() -> None:
    # $(…) runs in a subshell: bash reports the break there too
    assert [p[2] for p in _problems("for i in 1; do x=$(break); done")] == ["control"]


def test_break_in_a_subshell_inside_a_loop_is_fine() -> None:
    assert _problems("for i in 1; do (break); done") == []


def test_return_outside_a_function() -> None:
    assert _messages("return 1") == [
        "return: can only `return' from a function or sourced script"]


def test_return_inside_a_function_and_its_substitutions_is_fine() -> None:
    assert _problems("f(){ x=$(return 1); return 0; }") == []


def test_problems_in_nested_substitutions_are_reported_once() -> None:
    src = "if true; then echo $(echo $(nosuch)); fi"
    assert len(_problems(src)) == 1


@pytest.mark.parametrize(
    ("src", "message"),
    [
        ("grep 'a\\(' f", "grep: Unmatched ( or \\("),
        ("grep -E 'a(' f", "grep: Unmatched ( or \\("),
        ("grep -e ok -e '[a' f", "grep: Unmatched [, [^, [:, [., or [="),
        ("grep -e ok -e '[' f", "grep: Invalid regular expression"),  # GNU grep 3.8's words
        ("sed 's/a/b' f", "sed: -e expression #1, char 5: unterminated `s' command"),
        ("sed -e p -e 's/x' f", "sed: -e expression #2, char 3: unterminated `s' command"),
        ("sed 'k' f", "sed: -e expression #1, char 1: unknown command: `k'"),
    ],
)
def test_invalid_regex_and_sed_literals(src: str, message: str) -> None:
    assert _messages(src) == [message]


def test_fixed_string_grep_pattern_is_never_a_regex_problem() -> None:
    assert _problems("grep -F 'a(' f") == []


def test_invalid_jq_filter_gives_the_first_line_of_jq_message() -> None:
    msgs = _messages("jq '.a |' f")
    assert len(msgs) == 1 and msgs[0].startswith("jq: error: syntax error")
    assert "\n" not in msgs[0]


def test_jq_filter_using_declared_arg_is_valid() -> None:
    assert _problems("jq -n --arg who me '$who'") == []


def test_jq_filter_using_undeclared_variable_is_a_problem() -> None:
    assert _messages("jq -n '$who'")[0].startswith("jq: error: $who is not defined")


def test_problems_come_in_source_order() -> None:
    lines = [p[0] for p in _problems("nosuch1\nls --bogus\nbreak\nnosuch2")]
    assert lines == [1, 2, 3, 4]


def test_problem_is_json_able() -> None:
    p = _kernel().validate("nosuch")[0]
    assert isinstance(p, Problem)
    assert json.loads(json.dumps(p.to_json()))["kind"] == "unknown-command"
    assert p.format() == "1:1: nosuch: command not found (external commands are disabled)"


def test_validate_never_raises_on_deep_nesting() -> None:
    src = "echo " + "$(" * 3000 + "nosuch" + ")" * 3000
    problems = _kernel().validate(src)
    assert isinstance(problems, list)


# ---------------------------------------------------------------- refusing to run


def test_execute_refuses_a_script_with_problems_and_runs_none_of_it(tmp_path: Path) -> None:
    k = _kernel(tmp_path)
    r = k.execute("echo a > first.txt; nosuch; ls --bogus")
    # the status is the first problem's, as if that command had run: 127, not found
    assert r.code == 127 and r.out == ""
    assert r.err.splitlines() == [
        "tysh: 1:21: nosuch: command not found (external commands are disabled)",
        "tysh: 1:29: ls: unknown option '--bogus' (did you mean '--long'?)",
    ]
    assert not (tmp_path / "first.txt").exists()
    assert k.get_var("?") in (127, "127")
    assert k.execute("ls --bogus").code == 2


def test_kernel_stays_usable_after_a_refusal(tmp_path: Path) -> None:
    k = _kernel(tmp_path)
    assert k.execute("break").code == 1
    assert k.execute("echo fine").out == "fine\n"


def test_without_validation_a_script_runs_partially_as_bash_does(tmp_path: Path) -> None:
    k = _kernel(tmp_path, validate=False)
    r = k.execute("echo a; nosuch; echo b")
    assert (r.code, r.out) == (0, "a\nb\n")
    assert "nosuch: command not found" in r.err


def test_syntax_errors_are_reported_by_the_run_itself(tmp_path: Path) -> None:
    r = _kernel(tmp_path).execute("echo a; if")
    assert r.code == 2 and r.out == "" and "syntax error" in r.err


def test_only_a_validating_kernel_refuses_and_a_clean_script_runs() -> None:
    assert _kernel().execute("echo hi").out == "hi\n"
    partial = _kernel(validate=False).execute("echo a; nosuch; echo b")
    assert partial.out == "a\nb\n" and partial.code == 0
    refused = _kernel().execute("echo a; nosuch")
    assert refused.code == 127 and refused.out == ""


def test_embedded_presets_validate_and_the_repl_preset_does_not(tmp_path: Path) -> None:
    assert Kernel(cwd=str(tmp_path)).validate_first
    assert Kernel.isolated().validate_first
    assert not Kernel.repl(cwd=str(tmp_path)).validate_first


# ---------------------------------------------------------------- the corpus


def _corpus_kernel(case: Any) -> Kernel:
    """An in-memory, externals-off kernel with the case's fixtures, env and HOME."""
    fs = MemoryFileSystem()
    fs.mkdir("/w", parents=True)
    for path, body in case.files:
        full = "/w/" + path
        if body is None:
            fs.mkdir(full, parents=True)
        else:
            fs.mkdir(full.rsplit("/", 1)[0], parents=True)
            fs.write_bytes(full, body)
    env = {"HOME": "/w", "LC_ALL": "C.UTF-8", "TZ": "UTC", **case.env}
    return Kernel(cwd="/w", env=env, fs=fs)


# cases that run a missing command on purpose, its message sent to /dev/null
DELIBERATE = frozenset({"special/status-command-not-found"})


@pytest.mark.parametrize("corpus", ["lang", "tools"])
def test_corpus_scripts_that_run_cleanly_have_no_problems(corpus: str) -> None:
    """Validation never raises, and finds nothing in a script that runs with status 0
    and nothing on stderr (run in memory with validation off)."""
    clean = 0
    found: list[tuple[str, list[str]]] = []
    for case in cases(corpus):
        k = _corpus_kernel(case)
        problems = k.validate(case.script)  # must not raise
        assert all(isinstance(p, Problem) for p in problems)
        r = k.execute(case.script, stdin=case.stdin)
        if r.code == 0 and not r.err:
            clean += 1
            if problems and case.name not in DELIBERATE:
                found.append((case.name, [p.format() for p in problems]))
    assert found == []
    assert clean > len(cases(corpus)) // 2


def test_corpus_scripts_validate_with_externals_on_without_raising() -> None:
    for case in cases("lang"):
        k = Kernel.isolated(cwd="/w", env={"PATH": "/usr/bin:/bin"}, allow_external=True)
        problems = k.validate(case.script)
        assert all(p.kind != "unknown-command" for p in problems), case.name


# ---------------------------------------------------------------- the validation cache


def test_repeated_script_is_refused_every_time() -> None:
    k = _kernel()
    first = k.execute("nosuch_cmd a")
    again = k.execute("nosuch_cmd a")
    assert (first.code, first.err) == (again.code, again.err) == (
        127, "tysh: 1:1: nosuch_cmd: command not found (external commands are disabled)\n")


def test_refusal_is_dropped_once_the_session_defines_the_function() -> None:
    k = _kernel()
    assert k.execute("greetme").code == 127
    k.execute("greetme() { echo fn; }")
    r = k.execute("greetme")
    assert (r.code, r.out) == (0, "fn\n")


def test_refusal_returns_when_the_function_is_unset() -> None:
    k = _kernel()
    k.execute("greetme() { echo fn; }")
    assert k.execute("greetme").out == "fn\n"
    k.execute("unset -f greetme")
    r = k.execute("greetme")
    assert r.code == 127 and "greetme: command not found" in r.err


def test_refusal_is_dropped_once_a_tool_is_registered() -> None:
    from tysh.kernel.tools.context import Context
    from tysh.kernel.tools.tool import tool

    @tool("late_tool", description="registered after a refusal")
    def late_tool(args: object, ctx: Context) -> int:
        ctx.write("late\n")
        return 0

    k = _kernel()
    assert k.execute("late_tool").code == 127
    k.register(late_tool)
    r = k.execute("late_tool")
    assert (r.code, r.out) == (0, "late\n")


def test_registering_a_tool_bumps_the_registry_version() -> None:
    from tysh.kernel.tools.context import Context
    from tysh.kernel.tools.tool import tool

    @tool("versioned", description="x")
    def versioned(args: object, ctx: Context) -> int:
        return 0

    k = _kernel()
    before = k.registry.version
    k.register(versioned)
    assert k.registry.version == before + 1


def test_usage_problem_cache_follows_a_function_shadowing_a_builtin() -> None:
    k = _kernel()
    assert k.execute("head --bogus-flag").code == 2
    k.execute("head() { echo shadowed; }")
    assert k.execute("head --bogus-flag").out == "shadowed\n"


def test_validation_cache_stays_bounded() -> None:
    k = _kernel()
    for i in range(200):
        k.execute(f"echo {i}")
    assert len(k._checked) <= 64


# ---------------------------------------------------------------- only what certainly runs


@pytest.mark.parametrize("src, out", [
    ("command -v rg >/dev/null && rg x || echo fallback", "fallback\n"),
    ("if command -v python3 >/dev/null; then python3 -V; else echo no python; fi",
     "no python\n"),
    ("f() { nosuch; }; echo defined", "defined\n"),
    ("case x in y) nosuch;; *) echo other;; esac", "other\n"),
    ("for i in; do nosuch; done; echo loop", "loop\n"),
    ("if false; then :; elif nosuch; then :; else echo else; fi", "else\n"),
    ("true || nosuch; echo after", "after\n"),
    ("exit 0; nosuch", ""),
])
def test_a_problem_in_a_command_that_may_not_run_does_not_refuse(src: str, out: str) -> None:
    r = _kernel().execute(src)
    assert r.out == out and r.code == 0, r.err


def test_a_problem_that_may_not_run_is_a_warning_in_validate() -> None:
    [p] = _kernel().validate("command -v rg >/dev/null && rg x || grep x")
    assert (p.kind, p.severity, p.message) == (
        "unknown-command", "warning",
        "rg: command not found (external commands are disabled)")
    assert p.to_json()["severity"] == "warning"


@pytest.mark.parametrize("src", [
    "echo a; nosuch",
    "nosuch && echo a",
    "{ nosuch; } | cat",
    "if nosuch; then echo a; fi",
    "while nosuch; do echo a; done",
    "f() { nosuch; }; f",
    "g() { nosuch; }; f() { g; }; echo x; f",
    "echo $(nosuch)",
    "ls --bogus || echo failed",
])
def test_a_problem_in_a_command_that_certainly_runs_still_refuses(src: str) -> None:
    k = _kernel()
    assert [p.severity for p in k.validate(src)] == ["error"]
    r = k.execute(src)
    assert r.out == "" and r.code in (2, 127)


def test_an_allow_list_makes_other_programs_certain_problems(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path), allow_external=["python3"], runner="host")
    [p] = k.validate("echo start; rg x")
    assert p.severity == "error" and p.code == 127
    assert p.message == ("rg: command not found (external commands are disabled; "
                         "allowed: python3)")
    r = k.execute("echo start; rg x")
    assert r.out == "" and r.code == 127
    assert k.execute("command -v rg >/dev/null && rg x || echo none").out == "none\n"
