"""The expansion stage on hand-built words: classification, no splitting, "$@",
typed values, tilde, braces, globs and the single-string forms."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import reference

from tysh import Kernel
from tysh.kernel.base.argv import DOUBLE_DASH, Flag, Operand
from tysh.kernel.base.errors import ExpansionError
from tysh.kernel.expand.words import (
    expand_args,
    expand_heredoc,
    expand_list,
    expand_pattern,
    expand_regex,
    expand_text,
    expand_value,
)
from tysh.kernel.syntax import ast

sys.path.insert(0, str(Path(__file__).parent))
from _expand_host import DQ, FakeHost, P, Q, W, cmdsub  # noqa: E402

ALL = W(Q("@"))
STAR = W(Q("*"))


def host(**kw: Any) -> FakeHost:
    vars = kw.pop("vars", {})
    return FakeHost(vars, **kw)


def texts(args: list[Any]) -> list[Any]:
    return [
        a.value if isinstance(a, Operand) else a.text if isinstance(a, Flag) else "--" for a in args
    ]


# --- classification ---------------------------------------------------------


def test_literal_words_classify_as_flags_operands_and_double_dash() -> None:
    args = expand_args(
        [W("echo"), W("-n"), W("--lines=5"), W("--"), W("-"), W("-5"), W(Q("x"))], host()
    )
    assert args == [
        Operand("echo", True),
        Flag("-n"),
        Flag("--lines=5"),
        DOUBLE_DASH,
        Operand("-", True),
        Operand("-5", True),
        Operand("x", True),
    ]


def test_option_from_variable_is_a_flag() -> None:
    assert expand_args([W(P("x"))], host(vars={"x": "-n"})) == [Flag("-n")]


def test_operand_is_literal_only_without_expansions() -> None:
    h = host(vars={"x": "v"})
    assert expand_args([W("a", Q("b"), DQ("c"))], h) == [Operand("abc", True)]
    assert expand_args([W("a", P("x"))], h) == [Operand("av", False)]
    assert expand_args([W("{a,b}")], h) == [Operand("a", True), Operand("b", True)]


def test_quoted_empty_string_is_an_argument() -> None:
    assert expand_args([W(Q("")), W(DQ()), W(DQ(""))], host()) == [Operand("", True)] * 3


# --- no word splitting ------------------------------------------------------


def test_unquoted_variable_is_one_argument_never_split() -> None:
    h = host(vars={"x": "  a   b  "})
    assert texts(expand_args([W(P("x"))], h)) == ["  a   b  "]


def test_unquoted_command_substitution_gives_one_argument_per_non_empty_line() -> None:
    h = host(subs={"lines": "a b\n\n c*"})
    assert texts(expand_args([W(cmdsub("lines"))], h)) == ["a b", " c*"]
    # the text around it joins the first and the last line
    assert texts(expand_args([W("x", cmdsub("lines"), "y")], h)) == ["xa b", " c*y"]


def test_quoted_command_substitution_and_declaration_words_stay_whole() -> None:
    h = host(subs={"lines": "a\nb"})
    assert texts(expand_args([W(DQ(cmdsub("lines")))], h)) == ["a\nb"]
    assert texts(expand_args([W("x=", cmdsub("lines"))], h, assign_words=frozenset({0}))) == [
        "x=a\nb"]


def test_sh_word_split_splits_unquoted_expansions_on_ifs_as_bash() -> None:
    h = host(vars={"a": "1 2", "b": "3 4", "IFS": "_ ", "s": "_ a  b _ "},
             subs={"out": "x y"})
    h.sh_word_split = True
    assert texts(expand_args([W(P("a"), DQ(P("b")))], h)) == ["1", "23 4"]
    assert texts(expand_args([W(P("s"))], h)) == ["", "a", "b"]
    assert texts(expand_args([W(cmdsub("out"))], h)) == ["x", "y"]


def test_sh_word_split_globs_the_fields_of_unquoted_expansions(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("")
    h = host(vars={"x": "*.txt"}, cwd=str(tmp_path))
    h.sh_word_split = True
    assert texts(expand_args([W(P("x"))], h)) == ["a.txt"]
    assert texts(expand_args([W(DQ(P("x")))], h)) == ["*.txt"]


def test_empty_unquoted_expansion_disappears_but_quoted_stays() -> None:
    h = host(vars={"e": ""})
    args = expand_args([W("a"), W(P("e")), W(P("u")), W(P("e"), P("u")), W(DQ(P("e"))), W("b")], h)
    assert texts(args) == ["a", "", "b"]


def test_glob_characters_from_a_variable_are_literal(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("")
    h = host(vars={"x": "*.txt"}, cwd=str(tmp_path))
    assert texts(expand_args([W(P("x"))], h)) == ["*.txt"]


# --- "$@" and arrays --------------------------------------------------------


def test_quoted_at_gives_one_word_per_parameter() -> None:
    h = host(positional=["a b", "", "c"])
    assert texts(expand_args([W(DQ(P("@")))], h)) == ["a b", "", "c"]


def test_quoted_at_with_no_parameters_gives_no_words() -> None:
    assert expand_args([W(DQ(P("@")))], host()) == []


def test_prefix_and_suffix_attach_to_first_and_last_element() -> None:
    h = host(positional=["1", "2", "3"])
    assert texts(expand_args([W(DQ("x", P("@"), "y"))], h)) == ["x1", "2", "3y"]
    assert texts(expand_args([W(DQ("x", P("@"), "y"))], host())) == ["xy"]


def test_unquoted_at_gives_one_word_per_parameter_dropping_empties() -> None:
    h = host(positional=["a b", "", "c"])
    assert texts(expand_args([W(P("@"))], h)) == ["a b", "c"]


def test_quoted_star_joins_with_first_ifs_character() -> None:
    h = host(positional=["a b", "c", "d"])
    assert texts(expand_args([W(DQ(P("*")))], h)) == ["a b c d"]
    h.vars["IFS"] = ":x"
    assert texts(expand_args([W(DQ(P("*")))], h)) == ["a b:c:d"]


def test_array_all_elements_quoted_and_unquoted() -> None:
    h = host(vars={"a": ["one", "two words", None, "three"]})
    assert texts(expand_args([W(DQ(P("a", index=ALL)))], h)) == ["one", "two words", "three"]
    assert texts(expand_args([W(P("a", index=ALL))], h)) == ["one", "two words", "three"]
    assert texts(expand_args([W(DQ(P("a", index=STAR)))], h)) == ["one two words three"]


def test_array_count_keys_and_indexing() -> None:
    h = host(vars={"a": ["p", "q", None, None, None, "r"], "m": {"k": "v", "j": "w"}})
    assert expand_text(W(P("a", index=ALL, length=True)), h) == "3"
    assert expand_text(W(P("a", index=ALL, indirect=True)), h) == "0 1 5"
    assert expand_text(W(P("a", index=W(Q("-1")))), h) == "r"
    assert expand_text(W(P("a", index=W(Q("1+4")))), h) == "r"
    assert expand_text(W(P("a", index=W(Q("3")))), h) == ""
    assert expand_text(W(P("a")), h) == "p"
    assert expand_text(W(P("m", index=W(Q("k")))), h) == "v"
    assert sorted(expand_text(W(P("m", index=ALL, indirect=True)), h).split()) == ["j", "k"]
    assert expand_text(W(P("m", index=ALL, length=True)), h) == "2"


def test_scalar_indexed_by_zero_is_the_scalar() -> None:
    h = host(vars={"x": "val"})
    assert expand_text(W(P("x", index=W(Q("0")))), h) == "val"
    assert expand_text(W(P("x", index=W(Q("1")))), h) == ""


def test_per_element_operators_on_arrays() -> None:
    h = host(vars={"a": ["a.txt", "b.txt"]})
    got = expand_args([W(DQ(P("a", index=ALL, op="%", arg=W(".txt"))))], h)
    assert texts(got) == ["a", "b"]
    got = expand_args([W(DQ(P("a", index=ALL, op="/", arg=W("txt"), arg2=W("md"))))], h)
    assert texts(got) == ["a.md", "b.md"]


def test_array_and_positional_slices() -> None:
    h = host(vars={"a": ["a", "b", "c", "d", "e"]}, positional=["a", "b", "c", "d"])
    assert expand_text(W(P("a", index=ALL, op=":", arg=W("1"), arg2=W("3"))), h) == "b c d"
    assert expand_text(W(P("a", index=ALL, op=":", arg=W("3"))), h) == "d e"
    assert expand_text(W(P("@", op=":", arg=W("2"))), h) == "b c d"
    assert expand_text(W(P("@", op=":", arg=W("2"), arg2=W("2"))), h) == "b c"
    assert expand_text(W(P("@", op=":", arg=W(" -1"))), h) == "d"


def test_positional_and_special_parameters() -> None:
    h = host(positional=[str(i) for i in range(1, 10)] + ["ten", "eleven"])
    assert expand_text(W(P("10")), h) == "ten"
    assert expand_text(W(P("#")), h) == "11"
    assert expand_text(W(P("@", length=True)), h) == "11"
    assert expand_text(W(P("12")), h) == ""
    assert expand_text(W(P("?"), P("$"), P("0")), h) == "04242tysh"


# --- parameter operators ----------------------------------------------------


@pytest.mark.parametrize(
    "name,op,arg,expected",
    [
        ("u", ":-", "d", "d"),
        ("e", ":-", "d", "d"),
        ("u", "-", "d", "d"),
        ("e", "-", "d", ""),
        ("x", ":-", "d", "set"),
        ("x", ":+", "alt", "alt"),
        ("e", ":+", "alt", ""),
        ("e", "+", "alt", "alt"),
        ("u", "+", "alt", ""),
    ],
)
def test_default_and_alternative_values(name: str, op: str, arg: str, expected: str) -> None:
    h = host(vars={"x": "set", "e": ""})
    assert expand_text(W(P(name, op=op, arg=W(arg))), h) == expected


def test_assign_default_sets_the_variable() -> None:
    h = host(vars={"b": ""})
    assert expand_text(W(P("a", op=":=", arg=W("first"))), h) == "first"
    assert h.vars["a"] == "first"
    assert expand_text(W(P("b", op="=", arg=W("x"))), h) == ""
    assert expand_text(W(P("b", op=":=", arg=W("y"))), h) == "y"
    assert h.vars["b"] == "y"


def test_assign_default_to_positional_is_an_error() -> None:
    with pytest.raises(ExpansionError, match="cannot assign"):
        expand_text(W(P("1", op=":=", arg=W("x"))), host())


def test_error_if_unset_is_fatal_127_with_message() -> None:
    with pytest.raises(ExpansionError) as ei:
        expand_text(W(P("y", op=":?", arg=W("y is required"))), host())
    assert ei.value.message == "y: y is required"
    assert ei.value.status == 127 and ei.value.fatal
    with pytest.raises(ExpansionError, match="parameter null or not set"):
        expand_text(W(P("y", op=":?")), host(vars={"y": ""}))
    assert expand_text(W(P("y", op="?")), host(vars={"y": ""})) == ""


def test_length_counts_characters() -> None:
    h = host(vars={"x": "hello", "u": "日本語", "s": "a b  c"})
    assert [expand_text(W(P(n, length=True)), h) for n in ("x", "u", "s", "zz")] == [
        "5",
        "3",
        "6",
        "0",
    ]


@pytest.mark.parametrize(
    "op,arg,expected",
    [
        ("#", "*/", "b/c.tar.gz"),
        ("##", "*/", "c.tar.gz"),
        ("%", ".*", "a/b/c.tar"),
        ("%%", ".*", "a/b/c"),
        ("%", "/*", "a/b"),
    ],
)
def test_prefix_and_suffix_removal(op: str, arg: str, expected: str) -> None:
    h = host(vars={"p": "a/b/c.tar.gz"})
    assert expand_text(W(P("p", op=op, arg=W(arg))), h) == expected


def test_pattern_from_variable_is_live_unless_quoted() -> None:
    h = host(vars={"s": "*a*b", "p": "*"})
    assert expand_text(W(P("s", op="#", arg=W(DQ(P("p"))))), h) == "a*b"
    assert expand_text(W(P("s", op="#", arg=W(P("p")))), h) == "*a*b"
    assert expand_text(W(P("s", op="##", arg=W(P("p")))), h) == ""


def test_substitution_forms() -> None:
    h = host(vars={"s": "a-b-c-d", "t": "abcb", "r": "<&>"})
    assert expand_text(W(P("s", op="/", arg=W("-"), arg2=W("+"))), h) == "a+b-c-d"
    assert expand_text(W(P("s", op="//", arg=W("-"), arg2=W("+"))), h) == "a+b+c+d"
    assert expand_text(W(P("s", op="//", arg=W("-"))), h) == "abcd"
    assert expand_text(W(P("s", op="/#", arg=W("a"), arg2=W("X"))), h) == "X-b-c-d"
    assert expand_text(W(P("s", op="/%", arg=W("d"), arg2=W("Y"))), h) == "a-b-c-Y"
    # bash 5.2: an unquoted & in the replacement is the matched text
    assert expand_text(W(P("t", op="/", arg=W("b"), arg2=W("[&]"))), h) == "a[b]cb"
    assert expand_text(W(P("t", op="/", arg=W("b"), arg2=W(DQ("[&]")))), h) == "a[&]cb"
    assert expand_text(W(P("t", op="/", arg=W("b"), arg2=W(P("r")))), h) == "a<b>cb"


@pytest.mark.parametrize(
    "off,length,expected",
    [
        ("2", None, "cdefgh"),
        ("2", "3", "cde"),
        (" -3", None, "fgh"),
        ("1", "-2", "bcdef"),
        ("0", "0", ""),
        ("10", None, ""),
    ],
)
def test_substring(off: str, length: str | None, expected: str) -> None:
    h = host(vars={"s": "abcdefgh"})
    pe = P("s", op=":", arg=W(off), arg2=None if length is None else W(length))
    assert expand_text(W(pe), h) == expected


def test_case_conversion() -> None:
    h = host(vars={"s": "hello World"})
    assert [expand_text(W(P("s", op=op)), h) for op in ("^^", ",,", "^", ",")] == [
        "HELLO WORLD",
        "hello world",
        "Hello World",
        "hello World",
    ]


def test_indirect_reference() -> None:
    h = host(vars={"ref": "target", "target": "hit"})
    assert expand_text(W(P("ref", indirect=True)), h) == "hit"


# --- nounset ----------------------------------------------------------------


def test_nounset_unset_variable_is_fatal_127() -> None:
    with pytest.raises(ExpansionError) as ei:
        expand_args([W(DQ(P("undefined_var")))], host(nounset=True))
    assert ei.value.message == "undefined_var: unbound variable"
    assert ei.value.status == 127 and ei.value.fatal


def test_nounset_allows_defaults_at_and_empty_arrays() -> None:
    h = host(nounset=True, vars={"a": []})
    assert expand_text(W(P("u", op=":-", arg=W("fallback"))), h) == "fallback"
    assert expand_text(W(P("a", index=ALL, length=True)), h) == "0"
    assert expand_args([W(DQ(P("@"))), W(DQ(P("a", index=ALL)))], h) == []


# --- typed values -----------------------------------------------------------


def test_typed_value_passes_through_a_whole_word() -> None:
    h = host(vars={"d": {"k": 1}, "n": 5}, subs={"fromjson": [1, 2]})
    assert expand_args([W(P("d")), W(cmdsub("fromjson")), W(P("n"))], h) == [
        Operand({"k": 1}, False),
        Operand([1, 2], False),
        Operand(5, False),
    ]


def test_typed_value_in_name_equals_flag_becomes_flag_value() -> None:
    h = host(vars={"d": {"k": 1}, "l": [1, 2]})
    assert expand_args([W("--data=", P("d"))], h) == [Flag("--data", {"k": 1})]
    assert expand_args([W("--data=", P("l"))], h) == [Flag("--data", [1, 2])]


def test_unquoted_array_variable_alone_is_element_zero_as_in_bash() -> None:
    h = host(vars={"a": ["x", "y"]})
    assert expand_args([W(P("a")), W(DQ(P("a")))], h) == [Operand("x", False)] * 2


def test_typed_value_concatenated_with_text_renders_as_text() -> None:
    h = host(vars={"d": {"k": 1}}, subs={"fromjson": [1, 2]})
    assert texts(expand_args([W("x", P("d")), W(DQ(cmdsub("fromjson")))], h)) == [
        'x{"k":1}',
        "[1,2]",
    ]


def test_expand_value_keeps_typed_substitution() -> None:
    h = host(vars={"l": ["a", "b"]}, subs={"fromjson": [1, 2]})
    assert expand_value(W(cmdsub("fromjson")), h) == [1, 2]
    assert expand_value(W(P("l")), h) == ["a", "b"]
    assert expand_value(W(DQ(P("l"))), h) == "a"


# --- tilde ------------------------------------------------------------------


def test_tilde_expands_from_home_only_unquoted_at_start() -> None:
    h = host(vars={"HOME": "/home/tester"})
    args = expand_args([W("~"), W("~/docs"), W(Q("~")), W("a~b"), W("x/~"), W("~", Q("/x"))], h)
    assert texts(args) == ["/home/tester", "/home/tester/docs", "~", "a~b", "x/~", "~/x"]


def test_tilde_in_assignment_value_after_colon() -> None:
    h = host(vars={"HOME": "/h"})
    assert expand_value(W("~/b:~/c"), h) == "/h/b:/h/c"
    assert expand_value(W(DQ("~/bin")), h) == "~/bin"


def test_tilde_applies_after_brace_expansion() -> None:
    h = host(vars={"HOME": "/h"})
    assert texts(expand_args([W("~/{a,b}")], h)) == ["/h/a", "/h/b"]


# --- brace ------------------------------------------------------------------


def test_brace_expansion_spans_quoted_alternatives() -> None:
    h = host(vars={"x": "1", "y": "2"})
    assert texts(expand_args([W("{", DQ(P("x")), ",", DQ(P("y")), "}z")], h)) == ["1z", "2z"]


def test_escaped_brace_stays_literal() -> None:
    assert texts(expand_args([W(Q("{"), "x,y}"), W("{a}")], host())) == ["{x,y}", "{a}"]


# --- glob -------------------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path) -> FakeHost:
    for n in ("a.txt", "b.txt", "-n", "with space.txt"):
        (tmp_path / n).write_text("")
    return host(cwd=str(tmp_path))


def test_glob_expands_sorted_and_results_are_operands(files: FakeHost) -> None:
    args = expand_args([W("*")], files)
    assert args == [Operand(n, False) for n in ("-n", "a.txt", "b.txt", "with space.txt")]


def test_glob_no_match_is_an_error(files: FakeHost) -> None:
    with pytest.raises(ExpansionError) as ei:
        expand_args([W("*.md")], files)
    assert ei.value.message == (
        "no matches: *.md (quote it to pass the pattern: '*.md')") and ei.value.status == 1 and not ei.value.fatal


def test_quoted_glob_is_literal_and_mixed_quoting_matches_literally(files: FakeHost) -> None:
    assert texts(expand_args([W(Q("*.txt")), W(DQ("a?"))], files)) == ["*.txt", "a?"]
    assert texts(expand_args([W(Q("with "), "*")], files)) == ["with space.txt"]


def test_glob_passthrough_keeps_the_pattern_text(files: FakeHost) -> None:
    assert expand_args([W("*.md")], files, glob_passthrough=True) == [Operand("*.md", True)]


def test_lone_bracket_is_not_a_glob(files: FakeHost) -> None:
    assert texts(expand_args([W("["), W("-f"), W("x"), W("]")], files)) == ["[", "-f", "x", "]"]


def test_glob_prefix_from_variable_matches_literally(files: FakeHost) -> None:
    files.vars["p"] = "with "
    assert texts(expand_args([W(P("p"), "*")], files)) == ["with space.txt"]


# --- lists (for heads, array literals) --------------------------------------


def test_expand_list_splits_unquoted_expansions_only() -> None:
    h = host(vars={"x": " a  b ", "q": "c d"}, subs={"seq": "1\n2\n3"})
    words = [W(P("x")), W(DQ(P("q"))), W(cmdsub("seq")), W("lit")]
    assert expand_list(words, h) == ["a", "b", "c d", "1", "2", "3", "lit"]


def test_expand_list_with_non_whitespace_ifs_keeps_empty_fields() -> None:
    h = host(vars={"x": "a::b:", "IFS": ":"})
    assert expand_list([W(P("x"))], h) == ["a", "", "b"]


def test_expand_list_typed_list_contributes_elements() -> None:
    h = host(subs={"fromjson": [1, {"a": 2}]})
    assert expand_list([W(cmdsub("fromjson"))], h) == ["1", {"a": 2}]


def test_expand_list_globs_literal_patterns(files: FakeHost) -> None:
    assert expand_list([W("*.txt")], files) == ["a.txt", "b.txt", "with space.txt"]
    files.vars["x"] = "*.txt"
    assert expand_list([W(P("x"))], files) == ["*.txt"]


def test_expand_list_brace_and_quoted_at() -> None:
    h = host(positional=["a b", "c"])
    assert expand_list([W("{1,2}"), W(DQ(P("@")))], h) == ["1", "2", "a b", "c"]


# --- single-string forms ----------------------------------------------------


def test_expand_text_joins_at_with_spaces_and_never_globs() -> None:
    h = host(positional=["a", "b"])
    assert expand_text(W(P("@")), h) == "a b"
    assert expand_text(W("*.txt"), h) == "*.txt"


def test_expand_pattern_escapes_quoted_parts() -> None:
    h = host(vars={"p": "a*"})
    assert expand_pattern(W("*.", Q("*")), h) == "*.\\*"
    assert expand_pattern(W(P("p")), h) == "a*"
    assert expand_pattern(W(DQ(P("p"))), h) == "a\\*"


def test_expand_regex_escapes_quoted_parts() -> None:
    assert expand_regex(W("^a", Q(".b")), host()) == "^a\\.b"


def test_heredoc_expands_unless_quoted() -> None:
    h = host(vars={"x": "X"})
    body = W(Q("a "), P("x"), Q("\n"))
    assert expand_heredoc(ast.HereDoc(body), h) == "a X\n"
    assert expand_heredoc(ast.HereDoc(W(Q("a $x\n")), quoted=True), h) == "a $x\n"


def test_heredoc_strip_tabs_only_touches_literal_line_starts() -> None:
    h = host(vars={"x": "\tv"})
    body = W(Q("\t\ta\n\t"), P("x"), Q("\n"))
    assert expand_heredoc(ast.HereDoc(body, strip_tabs=True), h) == "a\n\tv\n"


def test_arithmetic_substitution_faults_are_fatal() -> None:
    with pytest.raises(ExpansionError) as ei:
        expand_args([W(ast.ArithSub(W(Q("5/0"))))], host())
    assert "division by 0" in ei.value.message and ei.value.fatal and ei.value.status == 1


def test_arithmetic_rereads_expanded_text() -> None:
    h = host(vars={"x": "1+2"})
    assert texts(expand_args([W(ast.ArithSub(W(P("x"), Q("*3"))))], h)) == ["7"]


def test_quoted_variable_holding_option_or_double_dash_is_classified() -> None:
    h = host(vars={"o": "-v", "dd": "--", "t": "text"})
    got = expand_args([W(DQ(P("o"))), W(DQ(P("dd"))), W(DQ(P("t"))), W(P("t"))], h)
    assert got == [Flag("-v"), DOUBLE_DASH, Operand("text", False), Operand("text", False)]


@pytest.mark.parametrize("ifs", ["]", "^", "-", "\\\\", "[", "a-c", "x^", "1", ".*", " -",
                                 "\\t]", "é", "é: ", "\\n\\\\d", "w"])
def test_ifs_of_any_characters_splits_as_bash(ifs: str, tmp_path: Path) -> None:
    # each IFS character stands for itself in the delimiter pattern, whatever it means
    # to a regular expression (`]`, `^`, `-`, `\`, a digit, a letter)
    script = (f"IFS=$'{ifs}'; x=$'a]b^c-d\\\\e[f1g.h*i j\\tk\\nl\\\\dm wéx:y  z'; "
              "for w in $x; do printf '<%s>' \"$w\"; done; echo")
    got = Kernel(cwd=str(tmp_path)).execute(script)
    want = reference.run_bash(script, tmp_path)
    if want is not None:
        assert (got.code, got.out) == (want.code, want.text)
    assert got.code == 0 and got.out.startswith("<")
