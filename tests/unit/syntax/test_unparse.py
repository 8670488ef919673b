"""tysh.kernel.syntax.unparse: `declare -f` / `type` print a function's source as bash does."""

from __future__ import annotations

from pathlib import Path

import pytest
import reference

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.parser import parse
from tysh.kernel.syntax.unparse import function_source

needs_bash = pytest.mark.skipif(reference.have("bash") is None, reason="bash is not installed")

# Function bodies (the text between `f() {` and `}`) printed byte for byte as bash 5.2 does.
CASES: list[str] = [
    "echo hi; local x=1",
    "if true; then echo 1; fi",
    "if [ -f x ]; then echo a; elif [ -d x ]; then echo b; else echo c; fi",
    'for x in a b; do echo "$x"; done',
    "for x; do echo $x; done",
    'while read -r line; do echo "$line"; done < file',
    "until false; do break; done",
    "case $1 in a|b) echo ab;; *) echo other;; esac",
    'case "$x" in a) echo a;& b) echo b;;& *) ;; esac',
    '[[ -n $x && $y == "z" ]]',
    "(( x++ )); ((y=2))",
    "for ((i=0;i<3;i++)); do echo $i; done",
    "for (( i = 0 ; i < 3 ; i++ )); do :; done",
    "x=$(ls -l | wc -l)",
    "echo > file 2>&1; cat < in >> out; exec 3<>dev; echo 2>/dev/null >&2",
    'echo &> y; echo &>> y; cat <&3; cat <<< "$x"; echo >| f; echo 3>&-',
    "ls | grep a | wc -l",
    "true && echo y || echo n",
    "( cd /tmp; ls )",
    "{ echo a; echo b; } > out",
    "a=1 b=2 cmd arg",
    'arr=(1 2 "three four"); m=([k]=v [j]=w); x+=1; a[3]=z',
    "echo 'single' \"double $x\" $'\\t' a\\ b",
    "echo 'it'\\''s' \"$x\"y ${x}y",
    "echo ${x:-def} ${#x} ${x#pre} ${x%%suf} ${x/a/b} ${x//a} ${x:1:2} ${a[@]} ${!a[@]}"
    " ${x^^} ${x@Q}",
    'echo ${!p*} ${x,,} ${x/#a/b} ${x:2} ${a[1]} "${a[*]}" ${#a[@]}',
    'echo "${x:-a b}" "a\\$b" "say \\"hi\\""',
    'echo $((1 + 2)) "$((x * 3))"',
    "cat <<EOF\nhello $name\nEOF\necho after",
    "cat <<'EOF'\nliteral $x\nEOF",
    "cat <<EOF | wc\nx\nEOF\necho",
    "while read l; do echo \"$l\"; done <<EOF\na\nb\nEOF",
    "sleep 1 & wait",
    "sleep 1 & echo a; echo b",
    "if a; then sleep 1 & fi",
    "if a; b; then c; fi",
    "! grep -q x file",
    "time ls",
    "time -p ls | wc",
    "echo a |& cat",
    "if true; then { echo a; echo b; }; fi",
    "a && { b; c; }",
    "a | while read x; do b; done",
    "while true; do if x; then break; fi; done",
    "declare -a arr=(a b); export PATH=/bin",
    'local -r v="a b"; readonly w',
    'echo "$(date +%s)" "${HOME}/x" "$@" "$*" $# $? $$',
    "return 0",
    "case x in (a) echo;; esac",
    "echo ~ ~/x *.txt {a,b}",
    "y=$(if true; then echo 1; fi)",
    "x=$(while a; do b; c; done; d)",
    "x=$(case a in b) c; d;; esac)",
    "x=$({ a; b; })",
    "x=$( (a; b) )",
    "a=$(b) c",
    "( a ) > out",
    "f2() { echo; }",
    "function g { echo; } > log",
    'for f in *.c; do gcc -c "$f" || return 1; done; echo ok',
    "x=1; while (( x < 10 )); do x=$((x * 2)); done",
]

# Bodies whose printed form differs from bash's, with what tysh prints: the syntax tree
# keeps neither redundant `[[ ( … ) ]]` groups nor which of `\\` and `\` was written in "…".
DIFFERENT: dict[str, str] = {
    "[[ ! -f x || ( a < b && c =~ ^d ) ]]": "[[ ! -f x || a < b && c =~ ^d ]]",
    'echo "x\\\\y"': 'echo "x\\y"',
}


def _fn(body: str) -> ast.FunctionDef:
    node = parse(f"f() {{\n{body}\n}}").statements[0].body.first.commands[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def _src(body: str) -> str:
    return function_source("f", _fn(body))


def _bash(body: str, cwd: Path) -> str:
    r = reference.run_bash(f"f() {{\n{body}\n}}\ndeclare -f f", cwd)
    assert r is not None and r.code == 0, r
    return r.text


def _wrap(*lines: str) -> str:
    return "f () \n{ \n" + "".join(line + "\n" for line in lines) + "}"


@pytest.fixture
def k(tmp_path: Path) -> Kernel:
    return Kernel(cwd=str(tmp_path), env={"HOME": str(tmp_path)}, validate=False)


def _out(k: Kernel, src: str) -> str:
    r = k.execute(src, "")
    assert isinstance(r.out, str)
    return r.out


# --- literal expectations -------------------------------------------------------------


def test_simple_statements_end_with_semicolons_except_the_last() -> None:
    assert _src("echo hi; local x=1") == _wrap("    echo hi;", "    local x=1")


def test_if_prints_then_on_the_condition_line_and_elif_as_nested_else_if() -> None:
    assert _src("if a; then b; elif c; then d; else e; fi") == _wrap(
        "    if a; then", "        b;", "    else", "        if c; then", "            d;",
        "        else", "            e;", "        fi;", "    fi")


def test_for_puts_do_on_its_own_line_and_bare_for_iterates_over_all_args() -> None:
    assert _src("for x; do echo $x; done") == _wrap(
        '    for x in "$@";', "    do", "        echo $x;", "    done")


def test_while_keeps_do_on_the_condition_line_and_redirections_after_done() -> None:
    assert _src("while read -r l; do :; done < f") == _wrap(
        "    while read -r l; do", "        :;", "    done < f")


def test_case_prints_one_pattern_line_per_item_and_its_terminator() -> None:
    assert _src("case $1 in a|b) echo ab;; *) ;& esac") == _wrap(
        "    case $1 in ", "        a | b)", "            echo ab", "        ;;", "        *)", "",
        "        ;&", "    esac")


def test_redirections_space_file_targets_and_glue_fd_duplications() -> None:
    assert _src("echo 2>/dev/null >&2 >x 3<&0 4>&-") == _wrap(
        "    echo 2> /dev/null 1>&2 > x 3<&0 4>&-")


def test_here_document_body_follows_the_line_and_drops_the_semicolon() -> None:
    assert _src("cat <<'E'\n$x\nE\necho") == _wrap(
        "    cat <<'EOF'", "$x", "EOF", "", "    echo")


def test_here_document_delimiter_avoids_a_body_line() -> None:
    assert _src("cat <<X\nEOF\nX") == _wrap("    cat <<EOF1", "EOF", "EOF1", "")


def test_command_substitution_prints_its_list_on_one_line() -> None:
    assert _src("x=$(a; b | c)") == _wrap("    x=$(a; b | c)")


def test_subshell_and_nested_group_follow_bash_layout() -> None:
    assert _src("( a; b ); { c; d; }") == _wrap(
        "    ( a;", "    b );", "    { ", "        c;", "        d", "    }")


def test_quoting_keeps_single_double_and_backslash_forms() -> None:
    assert _src("echo 'a b' \"$x y\" a\\ b 'it'\\''s' \"q\\\"\"") == _wrap(
        "    echo 'a b' \"$x y\" a\\ b 'it'\\''s' \"q\\\"\"")


def test_declaration_arguments_print_as_assignments() -> None:
    assert _src("local -a m=(x [2]=y) z=1") == _wrap("    local -a m=(x [2]=y) z=1")


def test_cond_and_arith_commands_print_their_operators_and_text() -> None:
    assert _src("[[ ! -f x && $a == b* ]]; (( i += 2 ))") == _wrap(
        "    [[ ! -f x && $a == b* ]];", "    (( i += 2 ))")


def test_nested_cond_grouping_is_parenthesised_where_precedence_needs_it() -> None:
    assert _src("[[ ( a || b ) && c ]]") == _wrap("    [[ ( a || b ) && c ]]")


def test_nested_function_prints_with_the_function_keyword() -> None:
    assert _src("g() { echo; }") == _wrap(
        "    function g () ", "    { ", "        echo", "    }")


def test_unprintable_node_gives_readable_text_not_an_exception() -> None:
    odd = ast.FunctionDef("f", ast.BraceGroup(ast.Script(
        (ast.Statement(ast.AndOr(ast.Pipeline((object(),)))),))))  # type: ignore[arg-type]
    text = function_source("f", odd)
    assert text.startswith("f () \n{ \n") and text.endswith("}")


# --- against bash and round trip -------------------------------------------------------


@needs_bash
@pytest.mark.parametrize("body", CASES)
def test_function_source_matches_bash_declare_f(body: str, tmp_path: Path) -> None:
    assert _src(body) + "\n" == _bash(body, tmp_path)


@needs_bash
@pytest.mark.parametrize("body", sorted(DIFFERENT))
def test_known_differences_from_bash_stay_as_documented(body: str, tmp_path: Path) -> None:
    assert _src(body) == _wrap("    " + DIFFERENT[body])
    assert _src(body) + "\n" != _bash(body, tmp_path)


@pytest.mark.parametrize("body", CASES + sorted(DIFFERENT))
def test_printed_source_parses_back_to_the_same_text(body: str) -> None:
    once = _src(body)
    node = parse(once).statements[0].body.first.commands[0]
    assert isinstance(node, ast.FunctionDef)
    assert function_source("f", node) == once


# --- wired into the builtins (against bash: pins/lang/declare.cases) -------------------

SCRIPT = "g() { echo g; }; f() { echo hi; local x=1; }; "
F_SRC = "f () \n{ \n    echo hi;\n    local x=1\n}\n"
G_SRC = "g () \n{ \n    echo g\n}\n"


def test_declare_f_prints_every_function_sorted_by_name(k: Kernel) -> None:
    assert _out(k, SCRIPT + "declare -f") == F_SRC + G_SRC


def test_declare_f_and_typeset_f_print_the_named_functions(k: Kernel) -> None:
    assert _out(k, SCRIPT + "declare -f g f; typeset -f g") == G_SRC + F_SRC + G_SRC


def test_declare_capital_f_still_prints_names_only(k: Kernel) -> None:
    assert _out(k, SCRIPT + "declare -F; declare -F f") == "declare -f f\ndeclare -f g\nf\n"


def test_type_prints_is_a_function_then_the_source(k: Kernel) -> None:
    assert _out(k, SCRIPT + "type f") == "f is a function\n" + F_SRC
