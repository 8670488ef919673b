"""REPL pieces below the terminal: lexing for highlighting, alias expansion, rendering,
prompt and file locations, the Shell runner."""

from __future__ import annotations

import io
from pathlib import Path

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.parser import parse
from tysh.kernel.syntax.unparse import script_source
from tysh.kernel.tools.output import OutputData, OutputNode
from tysh.repl.app import Shell, load_plugins
from tysh.repl.highlight import fragments, styles_of
from tysh.repl.lex import scan
from tysh.repl.prompt import default_prompt, history_path, init_path, prompt_text, tilde
from tysh.repl.render import format_syntax_error, render_output, render_to_text


def kinds(text: str) -> dict[str, str]:
    """word → its highlight class (the style of its first character)."""
    styles = styles_of(text)
    out: dict[str, str] = {}
    for w in text.split():
        i = text.index(w)
        out[w] = styles[i].removeprefix("class:")
    return out


# ---------------------------------------------------------------- lexing / highlighting

def test_command_words_are_found_after_operators_and_keywords() -> None:
    words = scan("A=1 ls -l | grep x; if true; then echo $y; fi").words
    assert [w.text for w in words if w.command] == ["ls", "grep", "true", "echo"]


def test_highlight_classes_for_commands_options_strings_variables_keywords() -> None:
    k = kinds("if grep --ignore-case 'a b' $HOME; then echo \"$x\"; fi")
    assert k["if"] == "keyword"
    assert k["grep"] == "command"
    assert k["--ignore-case"] == "option"
    assert k["'a"] == "string"
    assert k["$HOME;"] == "variable"
    assert k["echo"] == "command"


def test_unfinished_quote_is_not_an_error_but_a_stray_fi_is() -> None:
    assert "class:error" not in styles_of('echo "abc')
    styles = styles_of("echo a; fi")
    assert styles[-1] == "class:error" and styles[0] != "class:error"


def test_unknown_command_gets_its_own_class() -> None:
    styles = styles_of("nosuchcmd x", known=lambda name: False)
    assert styles[0] == "class:unknown"


def test_fragments_split_multiline_input_per_line() -> None:
    lines = fragments("if true\nthen echo x\nfi")
    assert len(lines) == 3
    assert "".join(t for _, t in lines[1]) == "then echo x"


def test_scan_never_raises_on_garbage() -> None:
    for text in ["$(", "${", "<<EOF", "))", "case", "[[ -f", "`", "a |& | b", "\\"]:
        scan(text)


# ---------------------------------------------------------------- aliases

def expand_aliases(text: str, aliases: dict[str, str]) -> str:
    """The command as the shell reads it with these aliases (the lexer expands them)."""
    return script_source(parse(text, aliases))


def test_alias_expands_in_command_position_only() -> None:
    aliases = {"ll": "ls -l"}
    assert expand_aliases("ll x; echo ll; a | ll", aliases) == "ls -l x; echo ll; a | ls -l"


def test_alias_is_not_expanded_inside_its_own_value() -> None:
    assert expand_aliases("ls", {"ls": "ls -F"}) == "ls -F"
    assert expand_aliases("a", {"a": "b", "b": "a x"}) == "a x"


def test_alias_ending_in_blank_expands_the_next_word() -> None:
    aliases = {"sudo": "sudo ", "ll": "ls -l"}
    assert expand_aliases("sudo ll", aliases) == "sudo ls -l"
    assert expand_aliases("nice ll", aliases) == "nice ll"


def test_quoted_alias_name_is_not_expanded() -> None:
    cmd = parse("'ll' x", {"ll": "ls -l"}).statements[0].body.first.commands[0]
    assert isinstance(cmd, ast.SimpleCommand)
    assert [w.literal_text() for w in cmd.words] == ["ll", "x"]
    assert isinstance(cmd.words[0].parts[0], ast.Quoted)


def test_shell_expands_aliases_defined_by_earlier_commands(tmp_path: Path) -> None:
    out = io.BytesIO()
    k = Kernel(cwd=str(tmp_path))
    sh = Shell(k, {0: io.BytesIO(), 1: out, 2: io.BytesIO()}, color=False)
    sh.run("alias hi='echo hello'")
    sh.run("hi world")
    sh.run("unalias hi")
    assert sh.run("hi") == 127
    assert out.getvalue() == b"hello world\n"


# ---------------------------------------------------------------- the Shell runner

def test_shell_reports_syntax_error_with_caret_and_status_2(tmp_path: Path) -> None:
    err = io.BytesIO()
    sh = Shell(Kernel(cwd=str(tmp_path)), {0: io.BytesIO(), 1: io.BytesIO(), 2: err})
    assert sh.run("echo a | | b") == 2
    text = err.getvalue().decode()
    assert "\x1b[1;31m" in text and text.rstrip().endswith("^\x1b[0m")


def test_shell_exit_is_recorded_not_raised(tmp_path: Path) -> None:
    sh = Shell(Kernel(cwd=str(tmp_path)), {0: io.BytesIO(), 1: io.BytesIO(), 2: io.BytesIO()})
    sh.run("echo before")
    assert sh.exit_status is None
    sh.run("exit 4")
    assert sh.exit_status == 4


def test_init_file_runs_command_by_command(tmp_path: Path) -> None:
    init = tmp_path / "init.tysh"
    init.write_text("alias say='echo said'\nsay it\nif true; then\n  say twice\nfi\n")
    out = io.BytesIO()
    sh = Shell(Kernel(cwd=str(tmp_path)), {0: io.BytesIO(), 1: out, 2: io.BytesIO()})
    sh.run_file(str(init))
    assert out.getvalue() == b"said it\nsaid twice\n"


def test_plugins_register_tools_and_report_bad_specs(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    errors: list[str] = []
    load_plugins(k, "test_repl_complete:KV, nosuch.module:x", errors.append)
    assert k.execute("kv store get a").out == "value of a\n"
    assert len(errors) == 1 and "nosuch.module" in errors[0]


# ---------------------------------------------------------------- rendering

def test_table_renders_with_borders_and_headers() -> None:
    text = render_to_text("output", OutputData.table(["name", "size"], [["a", 1], ["bb", 22]]))
    assert text is not None
    assert "╭" in text and "name" in text and "bb" in text and "22" in text


def test_tree_renders_with_guides() -> None:
    tree = OutputData.tree([OutputNode(name="root", entry_type="directory", children=(
        OutputNode(name="a.txt", entry_type="file"),))])
    text = render_to_text("output", tree)
    assert text is not None and "└── " in text and "a.txt" in text


def test_json_renders_indented() -> None:
    text = render_to_text("json", [{"a": 1}])
    assert text is not None
    assert _strip(text).splitlines() == ["[", "  {", '    "a": 1', "  }", "]"]


def _strip(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_simple_text_is_left_to_the_kernel() -> None:
    assert render_to_text("output", OutputData.text("hi\n")) is None
    assert render_output("output", OutputData.text("hi\n"), io.BytesIO()) is False


def test_rendering_happens_only_on_a_terminal(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.registry.render_output = render_output
    assert k.execute("tools grep").out == "grep\tprint lines that match patterns\n"


def test_syntax_error_text_is_red_only_with_color() -> None:
    msg = "tysh: syntax error at 1:3: x\nfi\n  ^"
    assert format_syntax_error(msg, False) == msg + "\n"
    assert format_syntax_error(msg, True).count("\x1b[1;31m") == 2


# ---------------------------------------------------------------- prompt and files

def test_history_file_location() -> None:
    assert history_path({"TYSH_HISTFILE": "/x/h"}) == "/x/h"
    assert history_path({"XDG_DATA_HOME": "/d", "HOME": "/h"}) == "/d/tysh/history"
    assert history_path({"HOME": "/h"}) == "/h/.local/share/tysh/history"


def test_init_file_location() -> None:
    assert init_path({"TYSH_INIT": "/i"}) == "/i"
    assert init_path({"HOME": "/h"}) == "/h/.config/tysh/init.tysh"


def test_default_prompt_shows_tilde_and_nonzero_status() -> None:
    assert tilde("/home/u/src", "/home/u") == "~/src"
    assert tilde("/home/user2", "/home/u") == "/home/user2"
    assert "[1]" in _strip(default_prompt("/home/u", "/home/u", 1))
    assert _strip(default_prompt("/home/u", "/home/u", 0)) == "~ $ "


def test_prompt_function_output_is_the_prompt_and_keeps_status(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.execute('tysh_prompt() { printf "st=%s> " "$?"; }')
    k.execute("false")
    assert prompt_text(k) == "st=1> "
    assert k.state.last_status == 1
