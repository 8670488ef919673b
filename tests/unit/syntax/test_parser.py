"""The parser: AST shapes for every construct of the language, errors, the corpus."""

from __future__ import annotations

import pytest
from conformance.corpus import files, iter_scripts

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.parser import is_incomplete, parse


def cmd(src: str) -> ast.Command:
    """The one command of a one-statement script."""
    script = parse(src)
    assert len(script.statements) == 1
    pipe = script.statements[0].body.first
    assert len(pipe.commands) == 1
    return pipe.commands[0]


def simple(src: str) -> ast.SimpleCommand:
    c = cmd(src)
    assert isinstance(c, ast.SimpleCommand)
    return c


def texts(words: tuple[ast.Word, ...]) -> list[str | None]:
    return [w.literal_text() for w in words]


def syntax_error(src: str) -> TyshSyntaxError:
    with pytest.raises(TyshSyntaxError) as e:
        parse(src)
    return e.value


# --- simple commands -------------------------------------------------------------------


def test_empty_and_comment_only_scripts_have_no_statements() -> None:
    assert parse("").statements == ()
    assert parse("\n# only a comment\n\n").statements == ()


def test_prefix_assignments_words_and_redirections_in_any_order() -> None:
    c = simple("A=1 B=2 >out cmd a 2>&1 b")
    assert [a.name for a in c.assigns] == ["A", "B"]
    assert texts(c.words) == ["cmd", "a", "b"]
    assert [(r.op, r.fd) for r in c.redirects] == [(">", None), (">&", 2)]


def test_assignment_after_the_command_name_is_a_plain_word() -> None:
    c = simple("echo a=1")
    assert c.assigns == () and texts(c.words) == ["echo", "a=1"]


def test_assignment_only_command() -> None:
    c = simple("x=1")
    assert c.words == () and c.assigns[0].value == ast.Word((ast.Lit("1"),), ast.Pos(1, 3))


def test_empty_assignment_value_is_an_empty_word() -> None:
    assert simple("x= cmd").assigns[0].value == ast.Word((), ast.Pos(1, 3))


def test_append_and_indexed_assignments() -> None:
    c = simple("a+=x b[i+1]=y m[$k]+=z")
    a, b, m = c.assigns
    assert (a.name, a.append, a.index) == ("a", True, None)
    assert b.name == "b" and b.index is not None and b.index.literal_text() == "i+1"
    assert m.append and m.index is not None and m.index.parts == (ast.ParamExp("k"),)


def test_array_literal_with_keys_newlines_and_comments() -> None:
    c = simple("a=(x 'y z'\n  # note\n  [k]=v [$i]=w)")
    value = c.assigns[0].value
    assert isinstance(value, ast.ArrayLit)
    assert [e.value.literal_text() for e in value.elements] == ["x", "y z", "v", "w"]
    assert value.elements[2].key is not None and value.elements[2].key.literal_text() == "k"
    assert value.elements[3].key is not None
    assert value.elements[3].key.parts == (ast.ParamExp("i"),)


def test_declare_with_array_literal_is_given_as_arg_assign() -> None:
    c = simple("declare -A m=([a]=1 [b]=2) n=3")
    assert texts(c.words)[:2] == ["declare", "-A"]
    idx = [i for i, _ in c.arg_assigns]
    assert idx == [2, 3]
    m = c.arg_assigns[0][1]
    assert m.name == "m" and isinstance(m.value, ast.ArrayLit)
    assert c.words[3].literal_text() == "n=3"


def test_word_positions_are_line_and_column() -> None:
    c = simple("\n  echo  hi")
    assert [w.pos for w in c.words] == [ast.Pos(2, 3), ast.Pos(2, 9)]
    assert c.pos == ast.Pos(2, 3)


def test_statement_andor_pipeline_positions() -> None:
    s = parse("a\n  b && c | d").statements[1]
    assert s.pos == ast.Pos(2, 3) and s.body.pos == ast.Pos(2, 3)
    assert s.body.rest[0][1].pos == ast.Pos(2, 8)


# --- pipelines and lists -------------------------------------------------------------


def test_pipeline_and_negation() -> None:
    p = parse("! a | b | c").statements[0].body.first
    assert p.negated and len(p.commands) == 3


def test_pipe_ampersand_adds_stderr_to_stdout_dup() -> None:
    p = parse("a 2>/dev/null |& b").statements[0].body.first
    first = p.commands[0]
    assert isinstance(first, ast.SimpleCommand)
    assert [(r.op, r.fd, r.target) for r in first.redirects][-1][:2] == (">&", 2)


def test_and_or_is_left_associative_with_equal_precedence() -> None:
    ao = parse("a && b || c && d").statements[0].body
    assert [op for op, _ in ao.rest] == ["&&", "||", "&&"]


def test_newline_may_follow_and_or_pipe() -> None:
    ao = parse("a &&\n\n b |\n c").statements[0].body
    assert len(ao.rest) == 1 and len(ao.rest[0][1].commands) == 2


def test_separators_and_background() -> None:
    stmts = parse("a; b & c\nd &").statements
    assert [s.background for s in stmts] == [False, True, False, True]


# --- compound commands --------------------------------------------------------------------


def test_brace_group_and_subshell_with_redirects() -> None:
    b = cmd("{ a; b; } >out")
    assert isinstance(b, ast.BraceGroup) and len(b.body.statements) == 2
    assert b.redirects[0].op == ">"
    s = cmd("(a; b) 2>err")
    assert isinstance(s, ast.Subshell) and s.redirects[0].fd == 2


def test_if_elif_else() -> None:
    c = cmd("if a; then b; elif c\nthen d; else e; fi")
    assert isinstance(c, ast.If)
    assert len(c.clauses) == 2 and c.else_body is not None


def test_while_and_until() -> None:
    w = cmd("while a; do b; done")
    u = cmd("until a\ndo b\ndone <in")
    assert isinstance(w, ast.While) and not w.until
    assert isinstance(u, ast.While) and u.until and u.redirects[0].op == "<"


def test_for_in_words() -> None:
    f = cmd("for x in a 'b c' $d; do echo $x; done")
    assert isinstance(f, ast.For) and f.var == "x"
    assert f.items is not None and len(f.items) == 3


def test_for_without_in_iterates_positionals() -> None:
    for src in ("for x; do :; done", "for x do :; done", "for x\ndo :; done"):
        f = cmd(src)
        assert isinstance(f, ast.For) and f.items is None


def test_for_with_empty_list() -> None:
    f = cmd("for x in; do :; done")
    assert isinstance(f, ast.For) and f.items == ()


def test_for_words_may_be_reserved_words() -> None:
    f = cmd("for x in if do done; do :; done")
    assert isinstance(f, ast.For) and texts(f.items or ()) == ["if", "do", "done"]


def test_arithmetic_for() -> None:
    f = cmd("for ((i=0; i<3; i++)); do :; done")
    assert isinstance(f, ast.ArithFor)
    assert [w.literal_text() if w else None for w in (f.init, f.cond, f.step)] == [
        "i=0", " i<3", " i++"]
    g = cmd("for ((;;))\ndo :; done")
    assert isinstance(g, ast.ArithFor) and (g.init, g.cond, g.step) == (None, None, None)


def test_case_items_terminators_and_optional_paren() -> None:
    c = cmd("case $x in\n a|b) one;;\n (c) two;&\n *) three;;&\n d) ;;\nesac")
    assert isinstance(c, ast.Case)
    assert [it.terminator for it in c.items] == [";;", ";&", ";;&", ";;"]
    assert [len(it.patterns) for it in c.items] == [2, 1, 1, 1]
    assert c.items[3].body.statements == ()


def test_case_last_item_may_omit_terminator() -> None:
    c = cmd("case x in a) echo a\nesac")
    assert isinstance(c, ast.Case) and len(c.items) == 1


def test_empty_case() -> None:
    c = cmd("case x in esac")
    assert isinstance(c, ast.Case) and c.items == ()


def test_case_pattern_words_may_look_like_reserved_words() -> None:
    c = cmd("case x in if|then) : ;; esac")
    assert isinstance(c, ast.Case) and texts(c.items[0].patterns) == ["if", "then"]


def test_nested_case_inside_case() -> None:
    c = cmd("case a in a) case b in b) echo;; esac;; esac")
    assert isinstance(c, ast.Case)


def test_conditional_expression_precedence() -> None:
    c = cmd("[[ -n $a && ! ( $b == x* || $c -lt 3 ) ]]")
    assert isinstance(c, ast.CondCommand)
    e = c.expr
    assert isinstance(e, ast.CondAnd) and isinstance(e.left, ast.CondUnary)
    assert isinstance(e.right, ast.CondNot) and isinstance(e.right.operand, ast.CondOr)


def test_conditional_angle_brackets_compare() -> None:
    c = cmd("[[ a < b ]]")
    assert isinstance(c, ast.CondCommand) and isinstance(c.expr, ast.CondBinary)
    assert c.expr.op == "<"


def test_conditional_regex_keeps_parens_and_bars() -> None:
    c = cmd("[[ $s =~ ^(a|b)+[0-9]$ ]]")
    assert isinstance(c, ast.CondCommand) and isinstance(c.expr, ast.CondBinary)
    assert c.expr.op == "=~" and c.expr.right.literal_text() == "^(a|b)+[0-9]$"


def test_conditional_bare_word_and_operator_lookalike_operand() -> None:
    c = cmd("[[ $x ]]")
    assert isinstance(c, ast.CondCommand) and isinstance(c.expr, ast.CondWord)
    d = cmd("[[ $x == -f ]]")
    assert isinstance(d, ast.CondCommand) and isinstance(d.expr, ast.CondBinary)


def test_arithmetic_command() -> None:
    c = cmd("(( x += $y ))")
    assert isinstance(c, ast.ArithCommand)
    assert c.expr.parts == (ast.Quoted(" x += "), ast.ParamExp("y"), ast.Quoted(" "))


def test_double_paren_that_is_two_subshells() -> None:
    c = cmd("((echo a); (echo b))")
    assert isinstance(c, ast.Subshell)


@pytest.mark.parametrize("src,body", [
    ("f() { echo; }", ast.BraceGroup),
    ("f () ( echo )", ast.Subshell),
    ("function f { echo; }", ast.BraceGroup),
    ("function f() { echo; }", ast.BraceGroup),
    ("f()\n{\n echo\n}", ast.BraceGroup),
    ("f() if true; then :; fi", ast.If),
])
def test_function_definitions(src: str, body: type) -> None:
    f = cmd(src)
    assert isinstance(f, ast.FunctionDef) and f.name == "f" and isinstance(f.body, body)


def test_function_redirects_go_on_the_body() -> None:
    f = cmd("f() { echo; } >log")
    assert isinstance(f, ast.FunctionDef) and isinstance(f.body, ast.BraceGroup)
    assert f.body.redirects[0].op == ">"


# --- here-documents --------------------------------------------------------------------------


def heredoc(c: ast.SimpleCommand, k: int = 0) -> ast.HereDoc:
    doc = c.redirects[k].target
    assert isinstance(doc, ast.HereDoc)
    return doc


def test_heredoc_unquoted_body_expands() -> None:
    c = simple("cat <<EOF\nhi $x \\$y \\\\ \"q\"\nEOF\n")
    body = heredoc(c).body
    assert body.parts == (ast.Quoted("hi "), ast.ParamExp("x"), ast.Quoted(' $y \\ "q"\n'))


def test_heredoc_quoted_delimiter_gives_literal_body() -> None:
    for delim in ("'EOF'", '"EOF"', "E\\OF"):
        c = simple(f"cat <<{delim}\n$x $(no)\nEOF\n")
        doc = heredoc(c)
        assert doc.quoted and doc.body.parts == (ast.Quoted("$x $(no)\n"),)


def test_heredoc_strip_tabs() -> None:
    doc = heredoc(simple("cat <<-EOF\n\t\tone\n\tEOF\n"))
    assert doc.strip_tabs and doc.body.parts == (ast.Quoted("one\n"),)


def test_two_heredocs_on_one_line_in_order() -> None:
    stmts = parse("cat <<A; cat <<B\nfirst\nA\nsecond\nB\necho after\n").statements
    a, b, after = (s.body.first.commands[0] for s in stmts)
    assert isinstance(a, ast.SimpleCommand) and isinstance(b, ast.SimpleCommand)
    assert heredoc(a).body.parts == (ast.Quoted("first\n"),)
    assert heredoc(b).body.parts == (ast.Quoted("second\n"),)
    assert isinstance(after, ast.SimpleCommand) and texts(after.words) == ["echo", "after"]


def test_heredoc_in_pipeline_and_loop_redirect() -> None:
    s = parse("cat <<EOF | sort\nb\nEOF\nwhile read l; do :; done <<X\n1\nX\n").statements
    assert len(s) == 2


def test_heredoc_inside_command_substitution() -> None:
    c = simple("x=$(cat <<EOF\nin\nEOF\n)")
    sub = c.assigns[0].value
    assert isinstance(sub, ast.Word) and isinstance(sub.parts[0], ast.CmdSub)


def test_here_string() -> None:
    r = simple("cat <<< \"$x\"").redirects[0]
    assert r.op == "<<<" and isinstance(r.target, ast.Word)


# --- errors ----------------------------------------------------------------------------------


def test_if_without_fi_expects_fi() -> None:
    e = syntax_error("if true; then echo x")
    assert "expected 'fi'" in e.message and e.incomplete


def test_stray_closers_are_unexpected() -> None:
    assert "unexpected 'fi'" in syntax_error("echo a; fi").message
    e = syntax_error("echo a; done")
    assert "unexpected 'done'" in e.message and (e.line, e.col) == (1, 9)
    assert "unexpected '}'" in syntax_error("echo }\n}").message


def test_error_names_line_and_column() -> None:
    e = syntax_error("x=1\ny=2\nif then fi")
    assert (e.line, e.col) == (3, 4) and "unexpected 'then'" in e.message
    assert e.format() == (
        "tysh: syntax error at 3:4: unexpected 'then'\nif then fi\n   ^")


def test_double_semicolon_outside_case() -> None:
    assert "';;'" in syntax_error("echo a;; echo b").message


def test_empty_pipeline_stage() -> None:
    assert "unexpected '|'" in syntax_error("| x").message
    assert "unexpected '|'" in syntax_error("a | | b").message
    assert is_incomplete("a |")


def test_unexpected_paren() -> None:
    assert "unexpected ')'" in syntax_error("echo )").message


def test_unclosed_quote_points_at_the_opening_quote() -> None:
    e = syntax_error("echo ok\necho 'abc\n")
    assert (e.line, e.col) == (2, 6) and "unterminated" in e.message


def test_unterminated_heredoc_names_the_delimiter() -> None:
    e = syntax_error("cat <<END\nbody\n")
    assert "'END'" in e.message and e.incomplete


def test_unsupported_constructs_are_syntax_errors() -> None:
    assert "coproc" in syntax_error("coproc cat").message
    assert "select" in syntax_error("select x in a; do :; done").message


def test_error_inside_command_substitution_points_inside_it() -> None:
    e = syntax_error("echo $(if true)")
    assert "unexpected ')'" in e.message and (e.line, e.col) == (1, 15)


def test_bad_for_variable() -> None:
    assert "for-loop variable" in syntax_error("for 1x in a; do :; done").message


@pytest.mark.parametrize("src", [
    "echo 'abc", 'echo "abc', "if true; then", "while a; do", "a &&", "a ||", "a |",
    "{ echo", "( echo", "echo $(ls", "echo ${x", "cat <<EOF", "cat <<EOF\nbody",
    "echo a\\", "case x in", "for x in a", "f() {", "[[ -n a",
])
def test_incomplete_input(src: str) -> None:
    assert is_incomplete(src)


@pytest.mark.parametrize("src", ["echo hi", "echo a; fi", "echo )", "if true; then :; fi",
                                 "echo a\\\\", ""])
def test_complete_or_plainly_wrong_input_is_not_incomplete(src: str) -> None:
    assert not is_incomplete(src)


# --- caching and the corpus ------------------------------------------------------------------


def test_parse_results_are_cached_by_source() -> None:
    src = "echo cached-result-check"
    assert parse(src) is parse(src)


# Corpus cases that are meant to be syntax errors (exit 2 with a syntax message).
SYNTAX_ERROR_CASES = {
    "errors/syntax-unexpected-paren",
    "errors/syntax-unterminated-if",
    "errors/syntax-error-runs-nothing",
    "errors/unterminated-quote",
    "tysh-diff/syntax-error-names-the-line",
}

CASES = list(iter_scripts())


@pytest.mark.skipif(not files("lang"), reason="conformance corpus not found")
@pytest.mark.parametrize("name,script", [(n, s) for n, s, _ in CASES], ids=[n for n, _, _ in CASES])
def test_corpus_script_parses_or_is_a_syntax_error_case(name: str, script: str) -> None:
    if name in SYNTAX_ERROR_CASES:
        with pytest.raises(TyshSyntaxError):
            parse(script)
    else:
        assert isinstance(parse(script), ast.Script)


# --- the innermost open construct in messages ------------------------------------------


@pytest.mark.parametrize("src,expected", [
    ("for i in 1 2; do echo", "expected 'done' to close 'for' at 1:1"),
    ("for i in 1 2", "expected 'do' for 'for' at 1:1"),
    ("if true", "expected 'then' for 'if' at 1:1"),
    ("while true; do echo; fi", "unexpected 'fi': expected 'done' to close 'while' at 1:1"),
    ("case x in a) echo", "expected 'esac' to close 'case' at 1:1"),
    ("{ echo;", "expected '}' to close '{' at 1:1"),
    ("(echo a", "expected ')' to close '(' at 1:1"),
    ("f() { if true; then :; }", "unexpected '}': expected 'fi' to close 'if' at 1:7"),
    ("if a; then b; elif c", "expected 'then' for 'elif' at 1:15"),
    ("if a; then b; elif c; then d", "expected 'fi' to close 'if' at 1:1"),
    ("x=1\nfor i in a; do\n  if true; then\n    echo\n  done",
     "unexpected 'done': expected 'fi' to close 'if' at 3:3"),
    ("echo $(for x in a; do echo)", "unexpected ')': expected 'done' to close 'for' at 1:8"),
])
def test_a_syntax_error_names_the_innermost_open_construct(src: str, expected: str) -> None:
    assert expected in syntax_error(src).message


@pytest.mark.parametrize("src", [
    "name=x () { echo; }", "{ true; } echo bad", "echo a; fi", "if then fi",
])
def test_an_error_outside_any_open_construct_expects_no_closer(src: str) -> None:
    assert ": expected" not in syntax_error(src).message


# --- grammar corners ------------------------------------------------------------------------


def test_reserved_words_follow_a_compound_command_directly() -> None:
    for src in ("if { true; } then :; fi", "if (true) then :; fi", "while { :; } do :; done",
                "{ { :; } }", "if [[ a ]] then :; fi", "if ((1)) then :; fi",
                "case a in a) { :; } esac", "for i in 1; do { :; } done"):
        parse(src)


def test_a_brace_group_is_a_loop_body() -> None:
    loop = parse("for ((i = 0; i < 2; i++)) { echo $i; }").statements[0].body.first.commands[0]
    assert isinstance(loop, ast.ArithFor) and len(loop.body.statements) == 1
    for src in ("for x in a b; { echo $x; }", "for x; { echo $x; }", "for x in a\n{ :; }"):
        cmd = parse(src).statements[0].body.first.commands[0]
        assert isinstance(cmd, ast.For) and isinstance(cmd.body, ast.Script)
    with pytest.raises(TyshSyntaxError):
        parse("for x { echo $x; }")


def test_dollar_hash_forms() -> None:
    def pe(src: str) -> ast.ParamExp:
        p = simple("echo " + src).words[1].parts[0]
        assert isinstance(p, ast.ParamExp)
        return p

    assert (pe("${##}").name, pe("${##}").length) == ("#", True)
    assert (pe("${###}").name, pe("${###}").op, pe("${###}").length) == ("#", "##", False)
    assert (pe("${#-x}").op, pe("${#:-y}").op, pe("${#%1}").op) == ("-", ":-", "%")
    assert (pe("${#@}").name, pe("${#@}").length) == ("@", True)
    assert (pe("${#a[1]}").name, pe("${#a[1]}").length) == ("a", True)
    assert (pe("${#10}").name, pe("${#10}").length) == ("10", True)


def test_named_fd_redirections_carry_the_variable() -> None:
    cmd = simple("cat {fd}<<<hi {out}>f {h}<<E\nbody\nE\n")
    assert [(r.op, r.fd, r.fd_var) for r in cmd.redirects] == [
        ("<<<", None, "fd"), (">", None, "out"), ("<<", None, "h")]
    assert [w.literal_text() for w in simple("echo {a,b} {c} {x}").words] == [
        "echo", "{a,b}", "{c}", "{x}"]


def test_array_subscripts_hold_blanks_and_brackets_in_assignments() -> None:
    a = simple("a[1 + 1]=x").assigns[0]
    assert a.name == "a" and a.index is not None and a.index.literal_text() == "1 + 1"
    a = simple("a[a[0]]=X").assigns[0]
    assert a.index is not None and a.index.literal_text() == "a[0]"
    cmd = simple("typeset a[3]=4 b[$i]=5")
    assert [a.index.literal_text() if a.index else None for _, a in cmd.arg_assigns] == [
        "3", None]
    # the declaration's word never globs its subscript
    assert all(type(p) is not ast.Lit for p in cmd.words[1].parts[:3])
    # not in an argument of a declaration: three words, as in bash
    assert len(simple("local a[1 + 1]=3").words) == 4
    assert simple("echo a[1 + 1]=x").words[1].literal_text() == "a[1"
