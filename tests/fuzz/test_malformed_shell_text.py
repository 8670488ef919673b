"""No input, however malformed, makes the parser fail with anything but TyshSyntaxError.

Inputs are random text over the shell's special characters, random splices of grammar
fragments, and the corpus scripts mutated (characters deleted, inserted, duplicated,
truncated) — the malformed-but-nearly-right inputs where lexer states get confused.

CI runs a few hundred examples per strategy; `TYSH_FUZZ_SCALE=N` multiplies them for a
long run (`TYSH_FUZZ_SCALE=50 pytest tests/fuzz/test_malformed_shell_text.py`).
"""

from __future__ import annotations

import os

from conformance.corpus import iter_scripts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.parser import is_incomplete, parse, read_commands

FRAGMENTS = [
    "echo", " ", "\n", ";", ";;", ";&", ";;&", "|", "|&", "&&", "||", "&", "(", ")", "{", "}",
    "if", "then", "elif", "else", "fi", "for", "in", "do", "done", "while", "until", "case",
    "esac", "function", "f()", "[[", "]]", "((", "))", "!", "x=1", "a=(", "a[1]=", "$x",
    "${x", "${x:-", "}", "$(", "$((", "'", '"', "$'", "\\", "`", "<", ">", ">>", "2>&1", "<<EOF",
    "<<-EOF", "<<'EOF'", "EOF", "<<<", "<(", "#", "=~", "==", "-n", "*", "?", "[a]", "~",
    "declare", "local", "m=([k]=v)", "\t", "1", "x", "'a b'", '"$y"',
]

SPECIAL = st.text(alphabet=list(" \t\n;|&(){}[]<>$'\"`\\#=!*?~-:+%/^,@0123456789abcifdoen"),
                  max_size=60)

SCALE = max(1, int(os.environ.get("TYSH_FUZZ_SCALE", "1") or "1"))

CORPUS = [s for _, s, _ in iter_scripts()] or ["echo hi\n"]


# Aliases whose texts open constructs, quotes and assignments, for the reading bash does
# under `shopt -s expand_aliases` (the text is spliced in as the lexer reads it).
ALIASES = {"a": "echo ", "b": "if true; then ", "c": "( ", "d": "x=1 ", "e": "'", "f": "for i in"}


def check_error(e: TyshSyntaxError) -> None:
    assert e.line >= 1 and e.col >= 1
    assert e.message and "internal" not in e.message
    assert e.format().startswith(f"tysh: syntax error at {e.line}:{e.col}: {e.message}")


def check(src: str) -> None:
    for aliases in (None, ALIASES):
        try:
            result = parse(src, aliases)
        except TyshSyntaxError as e:
            check_error(e)
        else:
            assert isinstance(result, ast.Script)
    try:
        for script in read_commands(src, lambda: ALIASES):
            assert isinstance(script, ast.Script)
    except TyshSyntaxError as e:
        check_error(e)
    assert isinstance(is_incomplete(src), bool)


@settings(max_examples=400 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SPECIAL)
def test_random_shell_text_parses_or_raises_syntax_error(src: str) -> None:
    check(src)


@settings(max_examples=400 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=25).map(" ".join))
def test_spliced_grammar_fragments_parse_or_raise_syntax_error(src: str) -> None:
    check(src)


@settings(max_examples=400 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=25).map("".join))
def test_glued_grammar_fragments_parse_or_raise_syntax_error(src: str) -> None:
    check(src)


@st.composite
def mutated_corpus_script(draw: st.DrawFn) -> str:
    src = draw(st.sampled_from(CORPUS))
    for _ in range(draw(st.integers(1, 4))):
        if not src:
            break
        i = draw(st.integers(0, len(src) - 1))
        kind = draw(st.sampled_from(["delete", "insert", "duplicate", "truncate"]))
        if kind == "delete":
            src = src[:i] + src[i + 1:]
        elif kind == "insert":
            src = src[:i] + draw(st.sampled_from(FRAGMENTS)) + src[i:]
        elif kind == "duplicate":
            j = draw(st.integers(i, min(len(src), i + 20)))
            src = src[:j] + src[i:j] + src[j:]
        else:
            src = src[:i]
    return src


@settings(max_examples=600 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_corpus_script())
def test_mutated_corpus_scripts_parse_or_raise_syntax_error(src: str) -> None:
    check(src)


def test_deeply_nested_substitutions_end_in_a_clean_error() -> None:
    src = "echo " + "$(" * 500 + ")" * 500
    try:
        parse(src)
    except TyshSyntaxError as e:
        assert "nested too deeply" in e.message
