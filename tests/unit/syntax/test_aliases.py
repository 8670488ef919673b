"""Aliases are expanded by the lexer as bash does (the REPL's, and scripts' under
`shopt -s expand_aliases`), and a script using them is read a complete command at a time."""

from __future__ import annotations

import pytest

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.parser import parse, read_commands
from tysh.kernel.syntax.unparse import script_source


def read(src: str, aliases: dict[str, str]) -> str:
    return script_source(parse(src, aliases))


@pytest.mark.parametrize("src,aliases,expected", [
    ("ll x; echo ll; a | ll", {"ll": "ls -l"}, "ls -l x; echo ll; a | ls -l"),
    ("ll && ! ll || (ll)", {"ll": "ls"}, "ls && ! ls || ( ls )"),
    ("x=1 ll >f", {"ll": "ls"}, "x=1 ls > f"),
    ("hi", {"hi": "e_ hello", "e_": "echo __"}, "echo __ hello"),
    ("ls", {"ls": "ls -F"}, "ls -F"),
    ("sudo ll", {"sudo": "sudo ", "ll": "ls -l"}, "sudo ls -l"),
    ("e_ one two", {"e_": "echo ", "one": "ONE", "two": "TWO"}, "echo ONE two"),
    ("q 2))", {"q": "echo $((1+"}, "echo $((1+ 2))"),
    ("echo $(ll) `ll`", {"ll": "ls"}, "echo $(ls) $(ls)"),
    ("{ ll; } ll", {"ll": "ls"}, None),  # after a compound command: not a command name
])
def test_aliases_expand_where_bash_expands_them(src: str, aliases: dict[str, str],
                                                expected: str | None) -> None:
    if expected is None:
        with pytest.raises(TyshSyntaxError):
            parse(src, aliases)
    else:
        assert read(src, aliases) == expected


def test_an_alias_shadows_a_reserved_word_and_a_function_definition() -> None:
    with pytest.raises(TyshSyntaxError):
        parse("ll() { :; }", {"ll": "ls -l"})  # bash: `ls -l() …`
    assert read("done", {"done": "echo d"}) == "echo d"


def test_mutually_recursive_aliases_end() -> None:
    assert read("a", {"a": "b", "b": "a x"}) == "a x"
    assert read("a z", {"a": "b ", "b": "a "}) == "a z"


def test_a_word_after_an_alias_keeps_its_line_number() -> None:
    script = parse("n_\necho after", {"n_": "echo 1\necho 2"})
    assert [st.pos.line for st in script.statements] == [1, 1, 2]


def test_an_alias_whose_text_closes_a_substitution_is_an_error() -> None:
    with pytest.raises(TyshSyntaxError) as e:
        parse("echo $(c; echo y)", {"c": "echo x)"})
    assert "alias" in e.value.message


def test_read_commands_reads_each_command_with_the_aliases_of_its_time() -> None:
    table: dict[str, str] = {}
    seen = []
    commands = read_commands("a=1; e one\ne two; e three\nfor i in 1\ndo e $i\ndone\n",
                             lambda: dict(table))
    for script in commands:
        seen.append(script_source(script))
        table["e"] = "echo"  # defined while the first command runs
    assert seen == ["a=1; e one", "echo two; echo three",
                    "for i in 1;\ndo\n    echo $i;\ndone"]


def test_read_commands_raises_at_the_command_with_the_error() -> None:
    commands = read_commands("echo ok\nfi\necho never\n", lambda: None)
    first = next(commands)
    assert isinstance(first.statements[0].body.first.commands[0], ast.SimpleCommand)
    with pytest.raises(TyshSyntaxError) as e:
        next(commands)
    assert e.value.line == 2


def test_a_script_that_turns_aliases_on_uses_them_from_the_next_line() -> None:
    r = Kernel.isolated(validate=False).execute(
        "shopt -s expand_aliases\nalias ll='echo listed'\nll x; alias n=echo; n same\nn next")
    assert r.out == "listed x\nnext\n"
    assert "n: command not found" in r.err


def test_a_command_is_checked_when_it_is_read_not_before() -> None:
    # validation sees the alias expanded, so `ll` is not an unknown command; a command
    # with a problem is refused whole when it is reached, and the script goes on
    k = Kernel.isolated()
    assert k.validate_first
    r = k.execute("shopt -s expand_aliases\nalias ll='echo listed'\nll x\n"
                  "echo refused; nosuchcmd\necho on")
    assert r.out == "listed x\non\n"
    assert "nosuchcmd" in r.err


def test_aliases_carry_over_between_executions_of_a_kernel() -> None:
    k = Kernel.isolated()
    k.execute("shopt -s expand_aliases; alias ll='echo listed'")
    assert k.execute("ll again").out == "listed again\n"
    k.execute("shopt -u expand_aliases")
    assert k.execute("ll again").code == 127


def test_a_syntax_error_stops_an_alias_script_where_it_is() -> None:
    r = Kernel.isolated().execute("shopt -s expand_aliases\necho before\nif\necho after")
    assert (r.code, r.out) == (2, "before\n")
    assert "expected 'then' for 'if' at 3:1" in r.err


def test_without_expand_aliases_a_script_is_parsed_whole_first() -> None:
    r = Kernel.isolated().execute("alias ll='echo x'\necho before\nll\nfi")
    assert (r.code, r.out) == (2, "")


def test_a_long_script_of_alias_uses_is_read_in_linear_time() -> None:
    import time

    src = "".join(f"e_ line {i}\n" for i in range(12000))
    t = time.process_time()
    commands = list(read_commands(src, lambda: {"e_": "echo"}))
    assert len(commands) == 12000
    assert script_source(commands[-1]) == "echo line 11999"
    assert commands[-1].statements[0].pos.line == 12000
    assert time.process_time() - t < 20  # a quadratic reading took minutes


def test_a_command_spanning_many_lines_is_read_whole() -> None:
    body = "".join(f"  e_ {i}\n" for i in range(3000))
    src = f"f() {{\n{body}}}\ne_ after\n"
    commands = list(read_commands(src, lambda: {"e_": "echo"}))
    assert len(commands) == 2
    fn = commands[0].statements[0].body.first.commands[0]
    assert isinstance(fn, ast.FunctionDef)
    assert fn.body.body.statements[-1].pos.line == 3001  # type: ignore[union-attr]
    assert script_source(commands[1]) == "echo after"


def test_aliases_that_double_at_each_level_are_refused_not_expanded_forever() -> None:
    aliases = {f"a{k}": f"a{k + 1} a{k + 1} " for k in range(40)}
    with pytest.raises(TyshSyntaxError) as e:
        parse("a0", aliases)
    assert "too long" in e.value.message


def test_an_alias_here_document_and_an_alias_with_newlines_in_a_script() -> None:
    r = Kernel.isolated(validate=False).execute(
        "shopt -s expand_aliases\nalias c='cat <<EOF'\nc\nbody line\nEOF\n"
        "alias n_='echo 1\necho 2'\nn_ three\necho end")
    assert r.out == "body line\n1\n2 three\nend\n"
