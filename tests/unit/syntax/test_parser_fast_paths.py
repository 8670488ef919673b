"""The parser's fast paths give what its general paths give: the same tree (equal and
shown alike) for every script, and the same error, at the same place, for every
script it refuses.

- The driver reads a run of tokens that only grows a list (a simple command's words,
  a for's words, redirections after a compound command) without the tables
  (`tablegen.token_runs`); with no runs, every token is shifted and reduced.
- The token loop reads plain words, quoted words, short redirections, operators,
  plain reserved words, assignments and the end of the text inline, making their nodes
  without calling their classes; with those paths closed, every token goes through
  `Scanner._next`.

- The statement reader (`parser._run_lists`) reads lists and compound commands without
  the tables, and leaves the rest of the text to them at a token it does not take.

Each is compared on the parse benchmark's generated script, the conformance corpora
and scripts made to end or break inside a run."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conformance import corpus
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.syntax import ast, lexer, parser

BENCH = Path(__file__).resolve().parents[3] / "bench" / "parse.py"

BROKEN = [
    "echo a b )", "echo a b; fi", "x=1 y=2 )", "echo a >f b <g ;;", "a\necho b c d }",
    "for i in a b c )", "for i in a b c", "for i in a b c; do echo $i; done >a >b c",
    "{ echo a; } >x >y fi", "if echo a b", "echo a b |", "echo a b &&", "echo a b c d",
    "echo", "x=1", "echo a b\n)", "while echo a b do", "case a in x) echo a b c esac",
    "f() { echo a b; } >o 2>&1 c", "echo a b c;;", "echo $(echo a b c )", "(echo a b",
    "echo a b `echo c d", "cat <<E a b\nx\nE\n)", "[[ a b ]]", "time echo a b !",
]


def _bench_scripts() -> list[str]:
    spec = importlib.util.spec_from_file_location("_bench_parse", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    chunks: list[str] = mod.generate(400)
    return ["\n".join(chunks) + "\n", *chunks]


def _scripts() -> list[str]:
    out = _bench_scripts()
    for name in ("lang", "tools", "pins/lang", "pins/tools"):
        out.extend(c.script for c in corpus.cases(name) if c.script is not None)
    return out + BROKEN


def _outcome(src: str) -> tuple[str, str]:
    """The tree (its repr, which shows every field) or the error, with where it is."""
    try:
        tree = parser.parse_uncached(src)
    except TyshSyntaxError as e:
        return "error", f"{e} @{e.line}:{e.col} {e.incomplete}"
    assert tree == tree  # every field of every node is set (equality reads them all)
    return "tree", repr(tree)


def _outcomes(scripts: list[str]) -> list[tuple[str, str]]:
    return [_outcome(s) for s in scripts]


class _Everything:
    """A set holding every character: each one starts the general path."""

    def __contains__(self, _c: object) -> bool:
        return True


def _general_lexer(mp: pytest.MonkeyPatch) -> None:
    """Close the token loop's inline paths: every token is read by `_next`."""
    mp.setattr(lexer, "_SLOW_START", _Everything())
    mp.setattr(lexer, "_OP_START", frozenset())
    mp.setattr(lexer, "_STEP_BLANKS", "")
    mp.setattr(lexer, "_QUICK_WORD", LazyRegex(r"(?!)"))
    mp.setattr(lexer, "_QUICK_REDIR", LazyRegex(r"(?!)"))
    mp.setattr(lexer, "_END_INLINE", False)


def _general_driver(mp: pytest.MonkeyPatch) -> None:
    """Tables without runs, chains of one reduction each and no rule of two symbols
    built in place: the driver shifts and reduces every token and every rule on its
    own, calling each builder on a list of the rule's children."""
    tables = parser._get_tables()
    plain = parser._Tables.__new__(parser._Tables)
    plain.__dict__.update(tables.__dict__)
    plain.runs = {}
    plain.chains = {}
    plain.reductions = [(size, origin, fn, None if one.__class__ is tuple else one)
                        for size, origin, fn, one in tables.reductions]
    mp.setattr(parser, "_tables", plain)
    mp.setattr(parser, "_CHAIN_MAX", 1)
    mp.setattr(parser, "_LISTS_INLINE", False)


@pytest.fixture(scope="module")
def scripts() -> list[str]:
    return _scripts()


@pytest.fixture(scope="module")
def fast(scripts: list[str]) -> list[tuple[str, str]]:
    return _outcomes(scripts)


def _mp() -> Iterator[pytest.MonkeyPatch]:
    mp = pytest.MonkeyPatch()
    try:
        yield mp
    finally:
        mp.undo()


def test_the_tables_have_runs_for_simple_commands() -> None:
    runs = parser._get_tables().runs
    kinds = {frozenset(k) for _, k in runs.values()}
    assert frozenset({"WORD", "ASSIGN", "DECL_ASSIGN", "REDIR"}) in kinds


def test_reading_runs_parses_as_shifting_every_token(
        scripts: list[str], fast: list[tuple[str, str]]) -> None:
    for mp in _mp():
        _general_driver(mp)
        general = _outcomes(scripts)
    assert [s for s, a, b in zip(scripts, fast, general, strict=True) if a != b] == []
    assert any(kind == "error" for kind, _ in fast)


def test_the_inline_token_paths_parse_as_the_general_path(
        scripts: list[str], fast: list[tuple[str, str]]) -> None:
    for mp in _mp():
        _general_lexer(mp)
        general = _outcomes(scripts)
    assert [s for s, a, b in zip(scripts, fast, general, strict=True) if a != b] == []


def test_a_node_made_inline_equals_one_its_class_makes() -> None:
    tree = parser.parse_uncached("echo 'a'$b \"c\" d\n")
    words = tree.statements[0].body.first.commands[0].words  # type: ignore[union-attr]
    for w in words:
        assert type(w) is ast.Word and type(w.pos) is ast.Pos
        assert w == ast.Word(w.parts, ast.Pos(w.pos.line, w.pos.col))
        assert hash(w) == hash(ast.Word(w.parts, ast.Pos(w.pos.line, w.pos.col)))


_PIECES = ["echo", "a", "'q r'", '"$x"', "x=1", "local y=2", ">o", "2>&1", "<i", "|", "&&",
           ";", "\n", "&", "{", "}", "(", ")", "if", "then", "fi", "for", "in", "do", "done",
           "$(b c)", "#c\n", "<<E\nh $y\nE\n", "case", "esac", "a)", ";;"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14))
def test_any_script_of_shell_pieces_parses_alike_on_every_path(pieces: list[str]) -> None:
    src = " ".join(pieces)
    fast = _outcome(src)
    for mp in _mp():
        _general_driver(mp)
        _general_lexer(mp)
        assert _outcome(src) == fast


def test_the_nodes_builders_make_inline_equal_the_ones_their_classes_make() -> None:
    pos = ast.Pos(2, 3)
    word = ast.Word((ast.Lit("echo"),), pos)
    b = parser._Builder()
    cmd = b.simple_command([("WORD", word, 0, 4)])
    made = ast.SimpleCommand((), (word,), (), pos, ())
    pipe = b.pipeline_one(cmd)
    ao = b.and_or_one(pipe)
    expected: list[tuple[object, object]] = [
        (cmd, made),
        (pipe, ast.Pipeline((made,), False, pos, 0)),
        (ao, ast.AndOr(ast.Pipeline((made,), False, pos), (), pos)),
        (b.stmt_fg([ao]), ast.Statement(ao, False, pos)),
        (b.stmt_list_one(ao), (ast.Statement(ao, False, pos),)),
    ]
    for inline, by_class in expected:
        assert type(inline) is type(by_class)
        assert inline == by_class and hash(inline) == hash(by_class)
        assert repr(inline) == repr(by_class)


def test_the_driver_meets_chains_of_several_reductions() -> None:
    parser.parse_uncached("echo a && echo b\nif a; then b; fi\n")
    assert max(len(fns) for fns, _row in parser._get_tables().chains.values()) >= 2


_BLANKS = st.sampled_from([" ", "  ", "\t", " \t ", "\\\n", " \\\n  ", "\n", "\n\n", "\n  \n",
                           "\n  ", "\n\t", "  #c\n", "\n#c\n  ", "\n  #c\n\t", "\\", ";"])
_WORDS = st.sampled_from(["echo", "a", "b1", "'q'", "$x", "x=1", ">o", "{", "}", "if", "then",
                          "fi", "#", "|", "&&", "(", ")", "do", "done", "for", "in"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_WORDS, _BLANKS), max_size=12), _BLANKS)
def test_blanks_indentation_and_comment_lines_are_skipped_alike_on_every_path(
        items: list[tuple[str, str]], lead: str) -> None:
    src = lead + "".join(w + b for w, b in items)
    fast = _outcome(src)
    for mp in _mp():
        _general_lexer(mp)
        assert _outcome(src) == fast


def test_rules_that_keep_one_of_two_symbols_are_built_in_place() -> None:
    tables = parser._get_tables()
    taken = {one[1].__name__ for *_, one in tables.reductions if one.__class__ is tuple}
    assert {"stmt_fg_one", "start_one"} <= taken


def test_a_builder_of_one_kept_child_makes_what_its_list_form_makes() -> None:
    b = parser._Builder()
    pos = ast.Pos(1, 1)
    word = ast.Word((ast.Lit("a"),), pos)
    ao = b.and_or_one(b.pipeline_one(b.simple_command([("WORD", word, 0, 1)])))
    stmts = (b.stmt_fg([ao]),)
    pairs = [(b.stmt_fg_one(ao), b.stmt_fg([ao]))]
    for list_form in (b.start, b.compound_list, b.case_body):
        pairs.append((b.start_one(stmts), list_form([stmts])))
        pairs.append((b.start_one(()), list_form([()])))
    for inline, general in pairs:
        assert type(inline) is type(general) and inline == general
        assert repr(inline) == repr(general)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab\n", max_size=12), st.integers(0, 3), st.data())
def test_a_source_pos_equals_the_pos_its_class_makes_from_line_col(
        text: str, line_offset: int, data: st.DataObject) -> None:
    src = lexer.Source(text, parser.parse_scanner, line_offset)
    offset = data.draw(st.integers(0, len(text)))
    made = src.pos(offset)
    by_class = ast.Pos(*src.line_col(offset))
    assert type(made) is ast.Pos and made == by_class and hash(made) == hash(by_class)
    assert repr(made) == repr(by_class)


_ASSIGNS = st.sampled_from(["x=1", "x+=1", "rc=$?", "s=\"a $b\"", "x=", "x=''", "a[1]=v",
                            "a[1]+=v", "x=a'b'c", "y=$1x", "z=${q}r", "f=a=b", "p=~/a:b",
                            "x=(a b)", "x=$(c)", "1x=2", "_=a(", "x=a\\ b", "v=\"$@\"",
                            "echo", "local", "export", "for", "if", "}", "{", "a=b)",
                            ";", "\n", "|", "&&", "(", ")", "<i", "x=1>o", "x=a;"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_ASSIGNS, st.sampled_from([" ", "", "\t", "\n"])), max_size=10))
def test_assignments_before_the_command_name_parse_alike_on_every_path(
        items: list[tuple[str, str]]) -> None:
    src = "".join(w + b for w, b in items)
    fast = _outcome(src)
    for mp in _mp():
        _general_lexer(mp)
        assert _outcome(src) == fast


def _command_tokens(src: str) -> list[tuple[object, ...]]:
    scanner = lexer.Scanner(lexer.Source(src, parser.parse_scanner))
    return list(scanner.tokens())


_RUN_TOKENS = [*_command_tokens("echo 'a b' \"$c\" d{1,2}"), *_command_tokens("x=1 y+=2 >o 2>&1"),
               *_command_tokens("local z=1 a[2]=b"), *_command_tokens("a <i")]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([t for t in _RUN_TOKENS if t[0] != "DECL_ASSIGN"]),
       st.lists(st.sampled_from(_RUN_TOKENS), max_size=8))
def test_a_command_of_words_only_is_built_as_any_command_is(
        first: tuple[object, ...], rest: list[tuple[object, ...]]) -> None:
    # (a declaration's assignments only follow its name)
    run = [first, *rest]
    b = parser._Builder()
    made, general = b.simple_command(list(run)), b.simple_command_of(list(run))
    assert type(made) is type(general) and made == general and repr(made) == repr(general)


def _slots(obj: object) -> dict[str, object]:
    """Every slot an object of a slotted class holds (a missing one fails the read)."""
    return {name: getattr(obj, name) for name in type(obj).__slots__}  # type: ignore[attr-defined]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab \n", max_size=12),
       st.sampled_from([None, {}, {"a": "echo"}]))
def test_a_script_scanner_holds_what_the_classes_of_scanner_and_source_make(
        text: str, aliases: dict[str, str] | None) -> None:
    by_class = lexer.Scanner(lexer.Source(text, parser.parse_scanner), aliases=aliases)
    made = lexer.script_scanner(text, parser.parse_scanner, aliases)
    assert type(made) is lexer.Scanner and type(made.src) is lexer.Source
    assert _slots(made.src) == _slots(by_class.src)
    mine, theirs = _slots(made), _slots(by_class)
    assert mine.pop("src") is made.src and theirs.pop("src") is by_class.src
    assert mine == theirs
    assert list(made.tokens()) == list(by_class.tokens())


_QUICK_PIECES = st.sampled_from(["a", "b.c", "-x", "'q'", "''", "'r s'", '"t"', '""', '"u v"',
                                 "$x", "$1", "$?", "${y}", '"$z"', '"w $@ ${v}"', '"$x$y"',
                                 '"${a}b"', "=", "%", "$((1+2))", "$(( (a+b) * 2 ))", "$(())",
                                 "$((x))", "$((()))", "'a\"b'", '"c\'d"'])


@settings(max_examples=300, deadline=None)
@given(st.lists(_QUICK_PIECES, min_size=1, max_size=6))
def test_a_quick_words_parts_equal_the_ones_scan_word_makes(pieces: list[str]) -> None:
    text = "".join(pieces)
    m = lexer._QUICK_WORD.match(text)
    assert m is not None and m.end() == len(text)
    quick = lexer._quick_parts(text, 0, len(text))
    word, end = lexer.Scanner(lexer.Source(text, parser.parse_scanner)).scan_word(0, lexer.M_WORD)
    assert end == len(text)
    assert [type(p) for p in quick] == [type(p) for p in word.parts]
    assert quick == word.parts and hash(quick) == hash(word.parts)
    assert repr(quick) == repr(word.parts)


@settings(max_examples=300, deadline=None)
@given(st.lists(_QUICK_PIECES, min_size=1, max_size=4), st.text(alphabet=" x\n", max_size=6))
def test_a_quick_word_after_other_lines_has_the_positions_scan_word_gives(
        pieces: list[str], before: str) -> None:
    # (an arithmetic expansion's parts carry positions of their own)
    text = before + " " + "".join(pieces)
    i = len(before) + 1
    line = text.count("\n", 0, i) + 1
    line_start = text.rfind("\n", 0, i) + 1
    quick = lexer._quick_parts(text, i, len(text), line, line_start)
    word, end = lexer.Scanner(lexer.Source(text, parser.parse_scanner)).scan_word(i, lexer.M_WORD)
    assert end == len(text)
    assert quick == word.parts and repr(quick) == repr(word.parts)


def _rebuilt(x: object) -> object:
    """`x` made again by calling the class of each node in it on its fields."""
    if isinstance(x, tuple):
        return tuple(_rebuilt(v) for v in x)
    fields = getattr(type(x), "__record_fields__", None)
    if fields is None:
        return x
    return type(x)(*(_rebuilt(getattr(x, f)) for f in fields))


def test_every_node_of_every_tree_equals_the_one_its_class_makes(
        scripts: list[str], fast: list[tuple[str, str]]) -> None:
    trees = 0
    for src, (kind, _shown) in zip(scripts, fast, strict=True):
        if kind != "tree":
            continue
        tree = parser.parse_uncached(src)
        again = _rebuilt(tree)
        assert again == tree and hash(again) == hash(tree) and repr(again) == repr(tree)
        trees += 1
    assert trees > 500


@pytest.mark.parametrize("word", ["a", "a\\ b", "x'y'\"z\"", "a$(b)c", "@(x|y)", "'a'\\'", "~/d",
                                  "${x:-d}", "$'\\t'", "a[1]", "\"$(c)\"e"])
def test_the_words_scan_word_makes_equal_the_ones_their_classes_make(word: str) -> None:
    made, end = lexer.Scanner(lexer.Source(word, parser.parse_scanner)).scan_word(0, lexer.M_WORD)
    assert end == len(word)
    again = _rebuilt(made)
    assert again == made and hash(again) == hash(made) and repr(again) == repr(made)


def _lists_by_tables(mp: pytest.MonkeyPatch) -> None:
    """Every statement read by the tables (`_run`), none by `_run_lists` itself."""
    mp.setattr(parser, "_LISTS_INLINE", False)


def test_the_lists_reader_parses_the_scripts_as_the_tables_do(
        scripts: list[str], fast: list[tuple[str, str]]) -> None:
    for mp in _mp():
        _lists_by_tables(mp)
        general = _outcomes(scripts)
    assert [s for s, a, b in zip(scripts, fast, general, strict=True) if a != b] == []


_LIST_PIECES = st.sampled_from(
    ["echo", "a", "'q r'", '"$x"', "x=1", "local y=2", ">o", "2>&1", "|", "||", "&&", ";",
     "&", "\n", "\n\n", "#c\n", "$(a b)", "$(a; b | c)", "$(a &&)", "$(\n)", "if", "then",
     "elif", "else", "fi", "{", "}", "(", ")", "!", "time", ";;", ";&", "|&", "for", "in",
     "do", "done", "while", "until", "case", "esac", "a)", "(a|b)", "f()", "function",
     "[[", "]]", "-n", "==", "((x))", "for ((;;))", "<<E\nh\nE\n", "1x"])


@settings(max_examples=1500, deadline=None)
@given(st.lists(_LIST_PIECES, max_size=16), st.booleans())
def test_statements_read_before_a_compound_command_or_an_error_keep_the_tables_outcome(
        pieces: list[str], keep_none: bool) -> None:
    # (the tables read from the statement the first token that is not a list's is in;
    # with `keep_none`, the reader drops the tokens of every statement before the last)
    src = " ".join(pieces)
    for mp in _mp():
        if keep_none:
            mp.setattr(parser, "_LISTS_KEEP", 0)
        fast = _outcome(src)
    for mp in _mp():
        _lists_by_tables(mp)
        assert _outcome(src) == fast


@pytest.mark.parametrize("src", [
    "", "\n", "\n\n#c\n", "a", "a\n", "a;", "a;\n", "a &", "a & b", "a;b;c", "a\nb\n",
    "a | b | c", "a && b || c", "a &&\nb", "a |\n b", "x=1 >o a b 2>&1 | c && d; e &",
    "a; if b; then c; fi", "a\nb\n{ c; }", "a; ;", "a\n\n;", "a;\n;", "a &&", "a |",
    "a; b )", "a; fi", "a; $(b; c)", "echo $(a; if b; then c; fi; d)", "a; b; ! c",
    "a; b |& c", "a; time b", "local a=1 b; c", "\na; (b)", "a;\n\nif"])
def test_the_lists_reader_gives_the_tables_tree_or_error(src: str) -> None:
    fast = _outcome(src)
    for mp in _mp():
        mp.setattr(parser, "_LISTS_KEEP", 0)
        assert _outcome(src) == fast
    for mp in _mp():
        _lists_by_tables(mp)
        assert _outcome(src) == fast


def _double_newlines(tokens: Iterator[tuple[object, ...]]) -> Iterator[tuple[object, ...]]:
    """The tokens with each newline given twice (the lexer gives one for a run)."""
    for tok in tokens:
        yield tok
        if tok[0] == "_NL":
            yield tok


@pytest.mark.parametrize("src", ["a\nb\n", "a;\nb", "a; b\n", "if a; then b; fi\nc\n", "a; b; c\nd"])
@pytest.mark.parametrize("keep", [0, 4096])
def test_a_newline_where_a_statement_should_start_is_refused_as_the_tables_refuse_it(
        src: str, keep: int, monkeypatch: pytest.MonkeyPatch) -> None:
    def outcome(run: object) -> str:
        scanner = lexer.script_scanner(src, parser.parse_scanner)
        tokens = _double_newlines(scanner.tokens())
        try:
            return repr(run(tokens, scanner))  # type: ignore[operator]
        except TyshSyntaxError as e:
            return f"{e} @{e.line}:{e.col}"

    monkeypatch.setattr(parser, "_LISTS_KEEP", keep)
    refused = outcome(lambda tokens, scanner: parser._run(parser._get_tables(), tokens, scanner))
    assert "unexpected newline" in refused
    assert outcome(parser._run_lists) == refused


def test_the_lists_reader_makes_nodes_equal_to_the_ones_their_classes_make() -> None:
    tree = parser.parse_uncached("a b | c && d; x=1 e >o &\nf\n")
    again = _rebuilt(tree)
    assert again == tree and hash(again) == hash(tree) and repr(again) == repr(tree)
    for st_ in tree.statements:
        for p in (st_.body.first, *(p for _op, p in st_.body.rest)):
            assert type(p) is ast.Pipeline and p.timed == 0 and p.negated is False


_COMPOUND_SCRIPT = """\
a b | c && d; x=1 e >o &
echo "$(f; g)"
if a; then b; elif c; then d; else e; fi >o
while a; do b; done; until a
do b; done
for x in a b; do c; done | d
for x
do c; done
for x; { c; }
for ((i=0; i<2; i++)); do c; done
{ a; b & } 2>&1 && (c; d)
((x > 1)) || [[ -n $a && ( ! $b == c || -f d ) ]]
case $x in (a|b) c ;; d) e ;& *) f
esac
f() { a; } >o
g()
( b )
"""


def test_a_script_of_lists_and_compound_commands_is_read_without_the_tables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object) -> None:
        raise AssertionError("read by the tables")

    with_tables = _outcome(_COMPOUND_SCRIPT)
    monkeypatch.setattr(parser, "_run", refuse)
    tree = parser.parse_uncached(_COMPOUND_SCRIPT)
    assert len(tree.statements) == 15
    assert ("tree", repr(tree)) == with_tables


_CASE_BODY_PIECES = st.sampled_from(["echo", "a", "'q'", '"$x"', "x=1", ">o", "|", "&&", ";",
                                     "\n", "  ", ";;", ";&", "esac", "b)", "(c|d)", "*)", "{",
                                     "}", "if", "then", "fi", "case", "in", "#c\n", "$((1))"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_CASE_BODY_PIECES, st.sampled_from([" ", "\n", ""])), max_size=12),
       st.booleans())
def test_the_commands_of_a_case_item_are_read_inline_as_by_the_general_path(
        items: list[tuple[str, str]], close: bool) -> None:
    src = "case $v in\n  a) " + "".join(w + b for w, b in items) + ("\nesac\n" if close else "")
    fast = _outcome(src)
    for mp in _mp():
        _general_lexer(mp)
        assert _outcome(src) == fast


@pytest.mark.parametrize("depth", [parser._DEEPEST - 1, parser._DEEPEST, parser._DEEPEST + 1, 400])
@pytest.mark.parametrize("opener", ["{ ", "( ", "if true; then ", "while false; do "])
def test_compound_commands_nested_past_the_readers_depth_are_read_by_the_tables(
        depth: int, opener: str) -> None:
    # the readers recurse per level of nesting: deeper than _DEEPEST, the tables read the
    # statement with their own stack, so a parse outside any run (which raises the
    # recursion limit) needs no more than the default limit; the tree is the tables'
    from tysh.kernel.base.threads import deep_recursion

    closer = {"{ ": "; }", "( ": ")", "if true; then ": "; fi", "while false; do ": "; done"}
    src = "echo a; " + opener * depth + "echo b" + closer[opener] * depth + "\necho c\n"
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # CPython's default (other tests may have raised it)
    try:
        fast = parser.parse_uncached(src)
    finally:
        sys.setrecursionlimit(saved)
    with deep_recursion():
        for mp in _mp():
            _lists_by_tables(mp)
            assert parser.parse_uncached(src) == fast
        assert len(fast.statements) == 3
