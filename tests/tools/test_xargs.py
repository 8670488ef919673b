"""xargs: items, quoting, -n/-L/-I/-d/-0/-E, statuses, the trace line, and -P running
commands in parallel, each in its own copy of the session. The GNU-pinned backslash-newline
case is in tests/conformance/pins/tools/xargs.cases."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import reference
from harness_text import FakeShell, run, same

from tysh.builtins.process.xargs import QuoteError, UsageError, parse_options, tokenize
from tysh.kernel.embed.kernel import Kernel


def xargs(tmp: Path, stdin: str, *argv: str) -> tuple[int, str, FakeShell]:
    sh = FakeShell(str(tmp))
    r = run(["xargs", *argv], tmp, stdin=stdin, shell=sh)
    return r.code, r.text, sh


def test_xargs_default_command_is_echo_with_all_items(tmp_path: Path) -> None:
    assert xargs(tmp_path, "a\nb c\n")[1] == "a b c\n"


def test_xargs_options_after_command_belong_to_command(tmp_path: Path) -> None:
    _, _, sh = xargs(tmp_path, "a\nb\n", "echo", "-n")
    assert sh.calls == [["echo", "-n", "a", "b"]]


def test_xargs_max_args_groups_items(tmp_path: Path) -> None:
    _, _, sh = xargs(tmp_path, "1\n2\n3\n4\n5\n", "-n", "2")
    assert sh.calls == [["echo", "1", "2"], ["echo", "3", "4"], ["echo", "5"]]


def test_xargs_bundled_short_options(tmp_path: Path) -> None:
    _, _, sh = xargs(tmp_path, "a\0b c\0", "-0rn1", "echo", "x")
    assert sh.calls == [["echo", "x", "a"], ["echo", "x", "b c"]]


def test_xargs_replace_runs_once_per_line_keeping_inner_blanks(tmp_path: Path) -> None:
    _, out, sh = xargs(tmp_path, "  x  y\n\nz\n", "-I", "{}", "echo", "[{}]")
    assert sh.calls == [["echo", "[x  y]"], ["echo", "[z]"]]


def test_xargs_max_lines_continues_lines_ending_in_blank(tmp_path: Path) -> None:
    _, _, sh = xargs(tmp_path, "a \nb\nc\n", "-L", "1")
    assert sh.calls == [["echo", "a", "b"], ["echo", "c"]]


def test_xargs_delimiter_items_are_literal(tmp_path: Path) -> None:
    _, _, sh = xargs(tmp_path, "a 'b',c", "-d", ",")
    assert sh.calls == [["echo", "a 'b'", "c"]]


def test_xargs_empty_input_runs_once_unless_r(tmp_path: Path) -> None:
    assert xargs(tmp_path, "", "echo", "hi")[2].calls == [["echo", "hi"]]
    assert xargs(tmp_path, "", "-r", "echo", "hi")[2].calls == []


def test_xargs_commands_get_empty_stdin(tmp_path: Path) -> None:
    _, _, sh = xargs(tmp_path, "a\n", "echo")
    assert sh.stdins == [b""]


def test_xargs_failing_command_gives_123_and_continues(tmp_path: Path) -> None:
    code, _, sh = xargs(tmp_path, "1\n2\n", "-n1", "fail", "3")
    assert code == 123 and len(sh.calls) == 2


def test_xargs_status_255_aborts_with_124_and_not_found_with_127(tmp_path: Path) -> None:
    code, _, sh = xargs(tmp_path, "1\n2\n", "-n1", "fail", "255")
    assert code == 124 and len(sh.calls) == 1
    assert xargs(tmp_path, "1\n", "nosuchcmd")[0] == 127


def test_xargs_eof_string_stops_input(tmp_path: Path) -> None:
    assert xargs(tmp_path, "a\nSTOP\nb\n", "-E", "STOP")[2].calls == [["echo", "a"]]


def test_xargs_unmatched_quote_is_an_error(tmp_path: Path) -> None:
    r = run(["xargs"], tmp_path, stdin="it's\n")
    assert r.code == 1 and "unmatched single quote" in r.err


def test_xargs_tokenize_quotes_and_backslashes() -> None:
    assert tokenize("'a b' \"c d\" e\\ f ''") == ["a b", "c d", "e f", ""]
    with pytest.raises(QuoteError):
        tokenize('"open')


def test_xargs_parse_options_long_forms_and_errors() -> None:
    o = parse_options(["--max-args=2", "--null", "--replace", "printf", "-n"])
    assert (o.max_args, o.delimiter, o.replace, o.command) == (2, b"\0", "{}", ("printf", "-n"))
    with pytest.raises(UsageError):
        parse_options(["-n", "0"])
    with pytest.raises(UsageError):
        parse_options(["-q"])


def test_xargs_trace_quotes_words_like_gnu() -> None:
    from tysh.builtins.process.xargs import shell_quote

    cases = {
        "a": "a", "": "''", "b c": "'b c'", "it's": '"it\'s"', "it's $x": "'it'\\''s $x'",
        "a=b": "'a=b'", "#x": "'#x'", "x#": "x#", "~x": "'~x'", "x~": "x~", "{}": "{}",
        "é": "é", "a\tb": "'a'$'\\t''b'", "\t\t": "''$'\\t\\t'", "\x01": "''$'\\001'",
        "a\\b": "'a\\b'", "a]b": "a]b", "\udcff": "''$'\\377'",
    }
    for word, want in cases.items():
        assert shell_quote(word) == want, word


def test_xargs_trace_line_on_stderr(tmp_path: Path) -> None:
    r = run(["xargs", "-t", "echo"], tmp_path, 'a "b c"\n')
    assert (r.code, r.out, r.err) == (0, b"a b c\n", "echo a 'b c'\n")
    gnu = reference.run_tool(["xargs", "-t", "echo"], tmp_path, b'a "b c"\n')
    if gnu is not None:
        assert (gnu.code, gnu.out) == (0, b"a b c\n")


def test_xargs_later_of_n_l_i_wins_with_gnu_warning(tmp_path: Path) -> None:
    data = "a b\nc\n"
    r = same(tmp_path, ["xargs", "-L", "1", "-n", "2", "echo"], data, "a b\nc\n")
    assert r.err == ("xargs: warning: options --max-lines and --max-args/-n are mutually "
                     "exclusive, ignoring previous --max-lines value\n")
    r = same(tmp_path, ["xargs", "-n", "1", "-L", "1", "echo"], data, "a b\nc\n")
    assert r.err == ("xargs: warning: options --max-args and -L are mutually "
                     "exclusive, ignoring previous --max-args value\n")
    r = same(tmp_path, ["xargs", "-I{}", "-L1", "echo", "{}"], data, "{} a b\n{} c\n")
    assert r.err == ("xargs: warning: options --replace and -L are mutually "
                     "exclusive, ignoring previous --replace value\n")
    r = same(tmp_path, ["xargs", "-n1", "-i", "echo", "<{}>"], data, "<a b>\n<c>\n")
    assert r.err == ("xargs: warning: options --max-args and --replace/-I/-i are mutually "
                     "exclusive, ignoring previous --max-args value\n")
    r = same(tmp_path, ["xargs", "-I{}", "-n1", "echo", "{}"], data, "a b\nc\n")
    assert r.err == ""


def test_xargs_parallel_commands_overlap_in_time() -> None:
    k = Kernel.isolated()
    t0 = time.monotonic()
    r = k.execute("seq 4 | xargs -P 4 -I{} sleep 0.3")
    parallel = time.monotonic() - t0
    assert r.code == 0
    assert parallel < 0.9  # one after another would take 1.2 s


def test_xargs_parallel_output_has_every_line_once() -> None:
    r = Kernel.isolated().execute("seq 200 | xargs -P 8 -n 3 echo | tr ' ' '\\n' | sort -n")
    assert r.out == "".join(f"{i}\n" for i in range(1, 201))


def test_xargs_parallel_status_is_123_when_a_command_fails() -> None:
    r = Kernel.isolated().execute('printf "0\\n1\\n0\\n" | xargs -P 2 -I{} test {} -eq 0')
    assert r.code == 123


def test_xargs_parallel_command_exiting_255_stops_the_run_with_124_and_one_message() -> None:
    k = Kernel.isolated()
    k.execute("f() { return 255; }")
    r = k.execute("seq 6 | xargs -P 2 -n 1 f")
    assert r.code == 124
    assert r.err.count("aborting") == 1


def test_xargs_parallel_commands_do_not_change_the_callers_variables() -> None:
    k = Kernel.isolated()
    k.execute("x=keep; g() { x=changed; }")
    assert k.execute("seq 3 | xargs -P 3 -n 1 g; echo $x").out == "keep\n"


def test_xargs_p_zero_runs_as_many_as_allowed_and_negative_is_refused() -> None:
    k = Kernel.isolated()
    assert k.execute("seq 5 | xargs -P 0 -n 1 echo | wc -l").out.strip() == "5"
    bad = k.execute("echo a | xargs -P -1 echo")
    assert bad.code == 1 and 'invalid number "-1" for -P option' in bad.err
