"""The lexer: token kinds by context, and the word parts it builds."""

from __future__ import annotations

from typing import Any

import pytest

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.lexer import Scanner, Source, decode_ansi_c
from tysh.kernel.syntax.parser import parse, parse_scanner
from tysh.kernel.syntax.unparse import script_source
from tysh.kernel.syntax.walk import walk


def toks(src: str) -> list[tuple[str, Any]]:
    return [(t[0], t[1]) for t in Scanner(Source(src, parse_scanner)).tokens()]


def types(src: str) -> list[str]:
    return [t for t, _ in toks(src)]


def word(src: str) -> ast.Word:
    """The single WORD token of `echo SRC`'s argument."""
    ts = toks("echo " + src)
    assert [t for t, _ in ts] == ["WORD", "WORD"], ts
    w = ts[1][1]
    assert isinstance(w, ast.Word)
    return w


def test_reserved_words_only_in_command_position() -> None:
    assert types("if true; then echo if fi; fi") == [
        "IF", "WORD", "_SEMI", "_THEN", "WORD", "WORD", "WORD", "_SEMI", "_FI"]


def test_quoted_reserved_word_is_a_word() -> None:
    assert types("'if'") == ["WORD"]


def test_brace_is_reserved_only_as_a_whole_word() -> None:
    assert types("{ echo {a,b}; }") == ["LBRACE", "WORD", "WORD", "_SEMI", "_RBRACE"]


def test_assignment_only_before_the_command_name() -> None:
    assert types("a=1 b=2 env c=3") == ["ASSIGN", "ASSIGN", "WORD", "WORD"]


def test_declaration_commands_get_assignment_arguments() -> None:
    assert types("local x=1 y") == ["WORD", "DECL_ASSIGN", "WORD"]


def test_run_of_newlines_and_comments_is_one_newline_token() -> None:
    assert types("a\n\n  # c\n\nb\n") == ["WORD", "_NL", "WORD", "_NL"]


def test_line_continuation_joins_words_and_lines() -> None:
    assert types("echo a \\\n b") == ["WORD", "WORD", "WORD"]
    assert word("a\\\nb").parts == (ast.Lit("ab"),)


def test_function_name_with_parens_is_one_funcname() -> None:
    assert types("f () { :; }") == ["FUNCNAME", "FUNC_PARENS", "LBRACE", "WORD", "_SEMI",
                                    "_RBRACE"]


def test_redirect_token_carries_fd_op_and_target() -> None:
    ts = toks("cmd 2>>log")
    r = ts[1][1]
    assert isinstance(r, ast.Redirect)
    assert (r.op, r.fd, r.target) == (">>", 2, ast.Word((ast.Lit("log"),), ast.Pos(1, 8)))


@pytest.mark.parametrize("src,op,fd", [
    (">f", ">", None), (">>f", ">>", None), ("<f", "<", None), ("<>f", "<>", None),
    (">|f", ">|", None), ("2>f", ">", 2), ("&>f", "&>", None), ("&>>f", "&>>", None),
    ("2>&1", ">&", 2), (">&2", ">&", None), ("1>&2", ">&", 1), ("<&0", "<&", None),
    ("3>&-", ">&", 3), ("<<<w", "<<<", None),
])
def test_every_redirection_operator(src: str, op: str, fd: int | None) -> None:
    r = toks("cmd " + src)[1][1]
    assert (r.op, r.fd) == (op, fd)


def test_digits_not_touching_operator_are_a_word() -> None:
    assert types("echo 2 >f") == ["WORD", "WORD", "REDIR"]


def test_single_quotes_are_literal() -> None:
    assert word("'$x \\n'").parts == (ast.Quoted("$x \\n"),)


def test_double_quotes_hold_expansions_and_escapes() -> None:
    w = word('"a $x \\$ \\" \\\\ \\q"')
    assert w.parts == (ast.DQ((ast.Quoted("a "), ast.ParamExp("x"),
                               ast.Quoted(' $ " \\ \\q'))),)


def test_empty_double_quotes_are_an_empty_dq() -> None:
    assert word('""').parts == (ast.DQ(()),)


def test_backslash_outside_quotes_is_quoted() -> None:
    assert word("a\\*b").parts == (ast.Lit("a"), ast.Quoted("*"), ast.Lit("b"))


def test_globs_braces_and_tilde_stay_literal_text() -> None:
    assert word("~/{a,b}/*.txt").parts == (ast.Lit("~/{a,b}/*.txt"),)


def test_ansi_c_strings_are_decoded() -> None:
    assert word("$'a\\tb\\x41\\101\\u00e9\\e\\\\\\''").parts == (
        ast.Quoted("a\tbAAé\x1b\\'"),)


def test_decode_ansi_c_handles_control_and_unknown_escapes() -> None:
    assert decode_ansi_c("\\cA\\q\\0") == "\x01\\q\x00"


@pytest.mark.parametrize("src,name", [
    ("$x", "x"), ("$1", "1"), ("$#", "#"), ("$@", "@"), ("$*", "*"), ("$?", "?"),
    ("$$", "$"), ("$!", "!"), ("$0", "0"), ("$-", "-"), ("${10}", "10"), ("${x}", "x"),
])
def test_parameter_names(src: str, name: str) -> None:
    p = word(src).parts[0]
    assert isinstance(p, ast.ParamExp) and p.name == name


def test_dollar_digit_takes_one_digit() -> None:
    assert word("$10").parts == (ast.ParamExp("1"), ast.Lit("0"))


def test_lone_dollar_is_literal() -> None:
    assert word("a$").parts == (ast.Lit("a$"),)


@pytest.mark.parametrize("op", [":-", "-", ":=", "=", ":?", "?", ":+", "+", "#", "##", "%",
                                "%%"])
def test_parameter_operators_with_a_word(op: str) -> None:
    p = word("${x" + op + "a b}").parts[0]
    assert isinstance(p, ast.ParamExp)
    assert (p.op, p.arg) == (op, ast.Word((ast.Lit("a b"),), p.arg.pos if p.arg else ast.NOPOS))


def test_parameter_default_word_may_hold_quotes_and_expansions() -> None:
    p = word("${x:-\"$y\"'z'$(echo w)}").parts[0]
    assert isinstance(p, ast.ParamExp) and p.arg is not None
    kinds = [type(q).__name__ for q in p.arg.parts]
    assert kinds == ["DQ", "Quoted", "CmdSub"]


def test_substitution_pattern_and_replacement() -> None:
    p = word("${x//a/b}").parts[0]
    assert isinstance(p, ast.ParamExp)
    assert p.op == "//" and p.arg is not None and p.arg2 is not None
    assert (p.arg.parts, p.arg2.parts) == ((ast.Lit("a"),), (ast.Lit("b"),))
    q = word("${x/a}").parts[0]
    assert isinstance(q, ast.ParamExp) and q.op == "/" and q.arg2 is None


def test_substring_offset_and_length() -> None:
    p = word("${x:1:2}").parts[0]
    assert isinstance(p, ast.ParamExp) and p.op == ":"
    assert p.arg is not None and p.arg2 is not None
    assert (p.arg.parts, p.arg2.parts) == ((ast.Lit("1"),), (ast.Lit("2"),))


def test_case_operators_with_and_without_pattern() -> None:
    p = word("${x^^}").parts[0]
    assert isinstance(p, ast.ParamExp) and p.op == "^^" and p.arg is None
    q = word("${x,[ab]}").parts[0]
    assert isinstance(q, ast.ParamExp) and q.op == "," and q.arg is not None


def test_array_forms() -> None:
    at = ast.Word((ast.Quoted("@"),), ast.Pos(1, 10))
    p = word("${a[@]}").parts[0]
    assert isinstance(p, ast.ParamExp) and p.index == at
    n = word("${#a[@]}").parts[0]
    assert isinstance(n, ast.ParamExp) and n.length and n.name == "a"
    k = word("${!a[@]}").parts[0]
    assert isinstance(k, ast.ParamExp) and k.indirect and k.name == "a"
    i = word("${a[$i+1]}").parts[0]
    assert isinstance(i, ast.ParamExp) and i.index is not None
    assert i.index.parts == (ast.ParamExp("i"), ast.Lit("+1"))


def test_length_of_scalar() -> None:
    p = word("${#x}").parts[0]
    assert isinstance(p, ast.ParamExp) and p.length and p.name == "x"


def test_command_substitution_body_is_parsed() -> None:
    p = word("$(echo a | tr a b)").parts[0]
    assert isinstance(p, ast.CmdSub)
    assert len(p.body.statements[0].body.first.commands) == 2


def test_command_substitution_with_case_pattern_parens() -> None:
    p = word("$(case x in x) echo y;; esac)").parts[0]
    assert isinstance(p, ast.CmdSub)


def test_arithmetic_substitution_is_text_with_expansions() -> None:
    p = word("$((1 + $x * (2)))").parts[0]
    assert isinstance(p, ast.ArithSub)
    assert p.expr.parts == (ast.Quoted("1 + "), ast.ParamExp("x"), ast.Quoted(" * (2)"))


def test_dollar_double_paren_that_is_a_subshell_falls_back_to_cmdsub() -> None:
    p = word("$( (echo a) )").parts[0]
    assert isinstance(p, ast.CmdSub)


@pytest.mark.parametrize("src,msg", [
    ("echo 'abc", "unterminated single-quoted string"),
    ('echo "abc', "unterminated double-quoted string"),
    ("echo $(ls", "unterminated '$('"),
    ("echo ${x", "unterminated '${'"),
    ("echo $((1+", "unterminated '$(('"),
    ("echo `ls", "unterminated '`'"),
    ("cat <(ls", "unterminated '<('"),
    ("echo ${%x", "unterminated '${'"),
])
def test_lexical_errors(src: str, msg: str) -> None:
    with pytest.raises(TyshSyntaxError) as e:
        toks(src)
    assert msg in e.value.message


def test_ansi_c_hex_escapes_give_raw_bytes_that_form_utf8() -> None:
    from tysh.kernel.syntax.lexer import decode_ansi_c

    assert decode_ansi_c(r"\xc3\xa9") == "é"
    assert decode_ansi_c(r"\303\251") == "é"
    assert decode_ansi_c(r"\xff").encode("utf-8", "surrogateescape") == b"\xff"
    assert decode_ansi_c(r"\u00e9") == "é"


def test_process_substitution_parses_and_runs() -> None:
    from tysh.kernel.embed.kernel import Kernel

    r = Kernel(validate=False).execute(
        "echo before; while read -r l; do echo $l; done < <(echo x); echo after $?")
    assert (r.code, r.out) == (0, "before\nx\nafter 0\n")


def test_a_backtick_substitution_is_the_same_node_as_dollar_paren() -> None:
    from tysh.kernel.syntax.unparse import word_source

    for tick, paren in (("`echo hi`", "$(echo hi)"), ('"a`echo b`c"', '"a$(echo b)c"')):
        w = word(tick)
        assert [type(p) for p in w.parts] == [type(p) for p in word(paren).parts]
        assert word_source(w) == word_source(word(paren))


def test_positions_inside_backticks_are_those_of_the_source() -> None:
    sub = word("x`echo  hi`").parts[1]
    assert isinstance(sub, ast.CmdSub)
    assert sub.pos == ast.Pos(1, 7)
    assert sub.body.statements[0].pos == ast.Pos(1, 8)
    e = pytest.raises(TyshSyntaxError, parse, "echo `echo )`").value
    assert (e.line, e.col) == (1, 12)


@pytest.mark.parametrize("src,body", [
    # a backslash goes before $ ` and \, and stays before anything else
    (r"`echo \$x \`y\` \\ \a`", r"echo $x `y` \ \a"),
    # inside double quotes, before " too
    (r'"`echo \"q\" \a`"', r'echo "q" \a'),
    # an inner substitution nests as \`
    (r"`echo a \`echo b \\\`echo c\\\`\``", r"echo a `echo b \`echo c\``"),
])
def test_backtick_bodies_follow_bashs_backslash_rules(src: str, body: str) -> None:
    w = word(src)
    sub = w.parts[0]
    if isinstance(sub, ast.DQ):
        sub = sub.parts[0]
    assert isinstance(sub, ast.CmdSub)
    assert script_source(sub.body) == script_source(parse(body))


def test_backticks_work_in_every_word_context() -> None:
    script = parse("x=`echo 1` ; echo ${y:-`echo 2`} $(( `echo 3` + 1 )); cat <<E\n`echo 4`\nE\n"
                   "[[ `echo 5` == 5 ]]; case `echo 6` in `echo 6`) :;; esac")
    subs = [n for n in walk(script) if isinstance(n, ast.CmdSub)]
    assert len(subs) == 7


@pytest.mark.parametrize("src,direction", [
    ("cat <(ls)", "<"), ("tee >(wc -l)", ">"), ("echo a<(x)b", "<"), ("echo 2<(x)", "<"),
    ("x=<(x)", "<"), ("cat < <(ls)", "<"), ("for f in <(x); do :; done", "<"),
])
def test_process_substitution_is_a_word_part_with_its_direction(src: str, direction: str) -> None:
    script = parse(src)
    subs = [n for n in walk(script) if isinstance(n, ast.ProcSub)]
    assert len(subs) == 1
    assert subs[0].direction == direction
    assert script_source(subs[0].body) == ("ls" if "ls" in src else ("wc -l" if "wc" in src else "x"))


def test_a_word_glued_to_a_process_substitution_stays_one_word() -> None:
    cmd = parse("echo a<(x)b 2<(y)").statements[0].body.first.commands[0]
    assert isinstance(cmd, ast.SimpleCommand)
    assert len(cmd.words) == 3 and not cmd.redirects
    assert [type(p).__name__ for p in cmd.words[1].parts] == ["Lit", "ProcSub", "Lit"]


@pytest.mark.parametrize("src,parts", [
    ("@(a|b)", [ast.Lit("@(a|b)")]),
    ("x*.@(py|txt)", [ast.Lit("x*.@(py|txt)")]),
    ("!(*.o)", [ast.Lit("!(*.o)")]),
    ("+(a b)", [ast.Lit("+(a b)")]),  # blanks, | ; & < > are pattern text inside
    ("?(a;b&c<d>e)", [ast.Lit("?(a;b&c<d>e)")]),
    ("@(a|*(b|c)|d)z", [ast.Lit("@(a|*(b|c)|d)z")]),
    ('@("a|b"|c)', [ast.Lit("@("), ast.DQ((ast.Quoted("a|b"),)), ast.Lit("|c)")]),
    ("@($x|\\))", [ast.Lit("@("), ast.ParamExp("x"), ast.Lit("|"), ast.Quoted(")"),
                   ast.Lit(")")]),
])
def test_an_extended_pattern_is_one_word_with_its_operators_unquoted(
        src: str, parts: list[ast.WordPart]) -> None:
    assert list(word(src).parts) == parts


def test_extended_patterns_in_conditions_case_patterns_and_assignments() -> None:
    script = parse("[[ $f == *.@(c|h) ]]; case $f in @(a|b)) :;; !(x)|y) :;; esac; v=@(a|b)")
    words = [n.text for n in walk(script) if isinstance(n, ast.Lit)]
    assert {"*.@(c|h)", "@(a|b)", "!(x)", "y"} <= set(words)
    assign = parse("v=+(a|b)").statements[0].body.first.commands[0]
    assert isinstance(assign, ast.SimpleCommand)
    assert assign.assigns[0].value == ast.Word((ast.Lit("+(a|b)"),), ast.Pos(1, 3))


def test_bang_paren_starting_a_command_is_negation() -> None:
    assert types("!(false)") == ["BANG", "LPAREN", "WORD", "_RPAREN"]
    assert types("echo !(false)") == ["WORD", "WORD"]


def test_a_quoted_or_escaped_operator_does_not_start_an_extended_pattern() -> None:
    for src in ("echo '@'(a)", "echo \\@(a)", "echo a (b)"):
        with pytest.raises(TyshSyntaxError):
            parse(src)


def test_an_unterminated_extended_pattern_is_incomplete() -> None:
    with pytest.raises(TyshSyntaxError) as e:
        parse("echo @(a|b")
    assert e.value.incomplete and "'@('" in e.value.message


@pytest.mark.parametrize("src,text", [
    ("${%x}", "%x"), ("${#v:1:3}", "#v:1:3"), ("${x;y}", "x;y"), ("${x:}", "x:"),
    ("${(M)${(k)p[@]}:#x*}", "(M)${(k)p[@]}:#x*"),
])
def test_a_bad_substitution_is_kept_for_the_runtime_to_refuse(src: str, text: str) -> None:
    p = word(src).parts[0]
    assert isinstance(p, ast.ParamExp) and (p.op, p.name) == ("bad", text)


def test_a_bad_substitution_fails_only_when_expanded() -> None:
    from tysh.kernel.embed.kernel import Kernel

    r = Kernel(validate=False).execute(
        "if false; then echo ${%x}; fi; echo ok; v=abc; echo ${#v:1:3}; echo never")
    assert (r.code, r.out) == (1, "ok\n")
    assert "${#v:1:3}: bad substitution" in r.err


@pytest.mark.parametrize("op", ["Q", "E", "U", "L", "u", "P", "a", "A", "K", "k"])
def test_every_transformation_bash_has_is_read(op: str) -> None:
    p = word("${x@" + op + "}").parts[0]
    assert isinstance(p, ast.ParamExp) and p.op == "@" + op


def test_after_a_prefix_assignment_or_redirection_no_word_is_reserved() -> None:
    assert types("x=1 for") == ["ASSIGN", "WORD"]
    assert types(">f if") == ["REDIR", "WORD"]
    assert types("x=1 [[ a ]]") == ["ASSIGN", "WORD", "WORD", "WORD"]
    assert types("x=1 !(a)")[:2] == ["ASSIGN", "WORD"]
    # after a compound command's redirection, a reserved word still closes or continues
    assert types("if { :; } >f then :; fi")[-3:] == ["WORD", "_SEMI", "_FI"]


def test_let_arguments_may_be_array_like_assignments() -> None:
    script = parse("let x=( 1 ) y=(x+2)")
    cmd = script.statements[0].body.first.commands[0]
    assert isinstance(cmd, ast.SimpleCommand)
    assert [w.literal_text() for w in cmd.words] == ["let", "x=( 1 )", "y=(x+2)"]
