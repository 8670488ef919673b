"""`parse(src) -> ast.Script`: the grammar in `grammar/tysh.lark`, driven by our lexer.

Lark compiles the grammar into LALR(1) tables when the package is built (`tablegen.py`
writes them to `lalr_tables.py`; Lark is never imported at run time). The tables are run
by a small shift/reduce loop here rather than by `Lark.parse`: tokens are plain tuples
from `lexer.Scanner`, and each reduction calls the tree builder directly with the rule's children already filtered
(punctuation dropped, `_rule` and repetition helpers spliced in), so no parse tree and no
Lark Token objects are ever built. That loop is what makes parsing several times faster
than bashlex (`bench/parse.py`); the grammar file stays the one definition of the syntax.
Most statements are read before the tables see them, by `_run_lists` and the readers
after it: a recursive descent over the same tokens for the statements the grammar's
commonest rules make, calling the same builders, that leaves everything else (and every
error) to the tables.

Results are memoised by source text: ASTs are immutable and the interpreter re-parses the
same function bodies and `-c` strings over and over.
"""

from __future__ import annotations

import _thread
import gc

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.base.hints import Any
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.memo import bounded_memo
from tysh.kernel.base.record import Record, frozen, replace
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.ast import AndOr, Pipeline, Script, SimpleCommand, Statement

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping
    from typing import NoReturn

    from tysh.kernel.syntax import lexer
    from tysh.kernel.syntax.lexer import Scanner, Tok
else:  # loaded by the first parse: constructing a Kernel parses nothing
    lexer = LazyModule(globals(), "lexer", "tysh.kernel.syntax.lexer")

__all__ = ["parse", "read_commands", "is_incomplete", "TyshSyntaxError"]

_lock = _thread.allocate_lock()
_tables: _Tables | None = None

_VALID_NAME = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*\Z")

# How terminals are named in messages.
_SHOWN = {
    "_FI": "'fi'",
    "_DONE": "'done'",
    "_ESAC": "'esac'",
    "_RBRACE": "'}'",
    "_RPAREN": "')'",
    "_DBRACK_CLOSE": "']]'",
    "_THEN": "'then'",
    "_DO": "'do'",
    "_IN": "'in'",
    "_NL": "newline",
    "$END": "end of input",
}

_HINTS = {
    "CASE_TERM": " (only a case item ends with ';;', ';&' or ';;&')",
    "PIPE": " (a pipeline stage is missing)",
    "PIPE_AMP": " (a pipeline stage is missing)",
    "AND_IF": " (a command is missing before '&&')",
    "OR_IF": " (a command is missing before '||')",
}


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


def parse(src: str, aliases: Mapping[str, str] | None = None) -> ast.Script:
    """Parse a whole script; raise TyshSyntaxError (with line, column and caret) if invalid.
    With `aliases`, a word bash would check for an alias is replaced by its alias's text
    as it is read (bash's `expand_aliases`; the REPL's)."""
    if aliases:
        return _parse_aliased(src, tuple(aliases.items()))
    return _parse_cached(src)


# Above this size, the cyclic garbage collector is paused while a script is parsed.
_GC_PAUSE_THRESHOLD = 4096


def parse_uncached(src: str, aliases: Mapping[str, str] | None = None) -> ast.Script:
    """`parse` without the memo: every call really parses (the parse benchmark's entry).

    A big script allocates tens of thousands of AST nodes that all survive, so each
    young-generation collection triggered meanwhile rescans objects that can never be
    garbage; the collector is paused for the parse of a big script. (The nodes hold no
    cycles, so nothing is left for the collector to find afterwards.)
    """
    scanner = lexer.script_scanner(src, parse_scanner, aliases)
    if len(src) < _GC_PAUSE_THRESHOLD or not gc.isenabled():
        # (parse_scanner's work without its two calls: most scripts are a line or two)
        script: ast.Script = _run_lists(scanner.tokens(), scanner)
        return script
    gc.disable()
    try:
        return parse_scanner(scanner)
    finally:
        gc.enable()


_parse_cached = bounded_memo(512)(parse_uncached)


@bounded_memo(64)
def _parse_aliased(src: str, aliases: tuple[tuple[str, str], ...]) -> ast.Script:
    return parse_uncached(src, dict(aliases))


def read_commands(src: str, aliases: Callable[[], Mapping[str, str] | None]
                  ) -> Iterator[ast.Script]:
    """The script's complete commands one at a time, as bash reads a script: each is the
    top-level list up to a newline, read with the aliases `aliases()` gives when its
    reading starts, so it may use an alias that the commands before it defined. A syntax
    error is raised when the command it is in is read (the commands before it have been
    given, and run, by then).

    Each command is read from a window of the text that starts where it starts: its
    first line, doubled until the command is complete in it, so the cost of an alias
    expansion (a splice of the window) does not grow with the script."""
    Scanner, Source = lexer.Scanner, lexer.Source
    tables = _get_tables()
    n = len(src)
    pos = 0
    line = 1
    while pos < n:
        want = 0
        while True:
            stop = src.find("\n", pos + want)
            stop = n if stop < 0 else stop + 1
            whole = stop >= n
            scanner = Scanner(Source(src[pos:stop], parse_scanner, line - 1),
                              aliases=aliases())
            try:
                got = _read_one(tables, scanner, whole)
            except TyshSyntaxError as e:
                if not e.incomplete or whole:
                    raise
                got = None
            if got is not None:
                break
            want = max(2 * (stop - pos), 256)  # the command goes on: a larger window
        script, used = got
        if script.statements:
            yield script
        line += src.count("\n", pos, pos + used)
        pos += used


def _read_one(tables: _Tables, scanner: Scanner, whole: bool
              ) -> tuple[ast.Script, int] | None:
    """The first complete command of the scanner's text and how much of the text (before
    any alias expansion) it took, or None when the text ends first and is not `whole`."""
    rows, reductions = tables.rows, tables.reductions
    start = tables.start
    stack: list[_Row] = [start]
    values: list[Any] = []
    row = start
    for tok in scanner.tokens():
        ttype = tok[0]
        while True:
            try:
                act = row[ttype]
            except KeyError:  # (a row holds no entry for a token its state refuses)
                raise _syntax_error(scanner, tok, stack, values) from None
            if act >= 0:
                row = rows[act]
                stack.append(row)
                values.append(tok)
                break
            size, origin, fn, _one = reductions[act]
            s = values[-size:] if size else []
            if size:
                del values[-size:]
                del stack[-size:]
            values.append(fn(s))
            row = rows[stack[-1][origin]]
            stack.append(row)
        # a newline ends the command when the parser is at the top level, and the
        # newline is the script's own (not one inside an alias's text)
        if ttype == "_NL" and _ends(tables, stack) and not any(
                r[1] <= tok[2] < r[2] for r in scanner.alias_regions):
            return _finish(tables, stack, values, scanner), scanner.i - scanner.shift
    if not whole:
        return None
    return _finish(tables, stack, values, scanner), len(scanner.src.text) - scanner.shift


def _ends(tables: _Tables, stack: list[_Row]) -> bool:
    """Whether the input could end where the parser stands (a complete command)."""
    stack = list(stack)
    row = stack[-1]
    while True:
        act = row.get("$END")
        if act is None:
            return False
        size, origin, _fn, _one = tables.reductions[act]
        if size:
            del stack[-size:]
        row = tables.rows[stack[-1][origin]]
        if row is tables.end:
            return True
        stack.append(row)


def _finish(tables: _Tables, stack: list[_Row], values: list[Any],
            scanner: Scanner) -> ast.Script:
    """The reductions at the end of the input: the script read so far."""
    row = stack[-1]
    while True:
        at_end = row.get("$END")
        if at_end is None:
            end = len(scanner.text)
            raise _syntax_error(scanner, ("$END", "", end, end), stack, values)
        act = at_end
        size, origin, fn, _one = tables.reductions[act]
        s = values[-size:] if size else []
        if size:
            del values[-size:]
            del stack[-size:]
        value = fn(s)
        row = tables.rows[stack[-1][origin]]
        if row is tables.end:
            assert isinstance(value, ast.Script)
            return value
        stack.append(row)
        values.append(value)


def is_incomplete(src: str) -> bool:
    """True when `src` is a valid prefix that needs more input (the REPL keeps reading).

    Open quotes, `$(`, `${`, here-documents without their delimiter, `if` without `fi`,
    open `{`/`(`, and a trailing `|`, `&&`, `||` or `\\` all count; a real syntax error
    (a stray `fi`) does not.
    """
    body = src[:-1] if src.endswith("\n") else src
    if body.endswith("\\") and (len(body) - len(body.rstrip("\\"))) % 2 == 1:
        return True
    try:
        parse(src)
    except TyshSyntaxError as e:
        return e.incomplete
    return False


# The children of an `_inlined` rule or a repetition helper, spliced into the parent: a
# plain list (a literal `[v]` is the cheapest thing to build), which no builder keeps.
_Expand = list


if TYPE_CHECKING:
    # A reduction: (number of stack entries popped, the rule's nonterminal, its builder,
    # and what the driver does in place of calling the builder on a slice of the value
    # stack: for a rule of one symbol, a function of that one value (SAME: the value
    # stays as it is); for a left-recursive repetition helper of two symbols, GROW (the
    # second value is appended to the first's list); for a rule of two symbols that
    # keeps one, (which one, a function of its value); else None).
    _Reduce = tuple[int, str, Callable[[list[Any]], Any], Any]
_SAME: Any = object()
_GROW: Any = object()


# The layout of lalr_tables.py that this module reads (see tablegen.py).
TABLES_FORMAT = 5
_Recipe = tuple[str, str, str, int, tuple[Any, ...]]
_Row = dict[str, int]
_Spec = tuple[int, str, tuple[_Recipe, ...], tuple[_Row, ...], int, int,
              dict[int, tuple[str, tuple[str, ...]]]]


class _Tables:
    """The grammar's LALR(1) tables as the driver loop in `_run` reads them.

    Each state (row) is a dict from terminal or nonterminal name to an action: n ≥ 0
    shifts (or, after a reduction, goes) to `rows[n]`; n < 0 reduces by `reductions[n]`
    (the rules in reverse order, so the negative number indexes it as it is). The rows
    are the generated module's own dicts, used as they are: loading the tables builds
    one reduction per rule and nothing per table entry.

    `runs` maps each state that starts a run of tokens (tablegen.token_runs) to the
    repetition helper the run grows and the token types that continue it. `chains`
    holds the chains of reductions of one symbol the driver has met (`_unit_chain`).
    """

    def __init__(self, spec: _Spec) -> None:
        _, _, recipes, states, start, end, runs = spec
        builder = _Builder()
        reductions: list[_Reduce] = []
        for recipe in reversed(recipes):
            reductions.append((recipe[3], recipe[0], *_reducer(recipe, builder)))
        self.rows: tuple[_Row, ...] = states
        self.reductions: list[_Reduce] = reductions
        self.start: _Row = states[start]
        self.end: _Row = states[end]
        self.runs: dict[int, tuple[str, frozenset[str]]] = {
            n: (origin, frozenset(kinds)) for n, (origin, kinds) in runs.items()}
        # (id of the state below, first reduction, lookahead) -> what `_unit_chain` finds
        self.chains: dict[tuple[int, int, str], tuple[tuple[Callable[[Any], Any], ...],
                                                      _Row]] = {}


def _reducer(recipe: _Recipe, builder: _Builder
             ) -> tuple[Callable[[list[Any]], Any], Any]:
    """The function that turns a rule's popped stack entries into its value, and the
    in-place form `_run` uses instead when there is one (see _Reduce), made from the
    rule's recipe (tablegen.rule_recipe says what its kinds and kept children are)."""
    origin, name, kind, size, keep = recipe

    def one(fn: Callable[[list[Any]], Any]) -> tuple[Callable[[list[Any]], Any], Any]:
        """fn, and for a rule of one symbol its form taking that symbol's value."""
        return fn, ((lambda v: fn([v])) if size == 1 else None)

    def filtered(s: list[Any]) -> list[Any]:
        out: list[Any] = []
        for i, exp in keep:
            if exp:
                out.extend(s[i])
            else:
                out.append(s[i])
        return out

    if kind == "grow1":
        k = keep[0]

        def grow1(s: list[Any]) -> Any:
            acc: list[Any] = s[0]
            acc.append(s[k])
            return acc

        return grow1, (_GROW if size == 2 else None)
    if kind == "grow":
        def grow(s: list[Any]) -> Any:
            acc: list[Any] = s[0]
            for i, exp in keep:
                if exp:
                    acc.extend(s[i])
                else:
                    acc.append(s[i])
            return acc

        return grow, (_SAME if size == 1 and not keep else None)
    if kind == "splice_all":
        # (the driver hands a builder a fresh list of the popped values: it is the list)
        return (lambda s: s), ((lambda v: [v]) if size == 1 else None)
    if kind == "splice_pick":
        return one(lambda s: [s[i] for i in keep])
    if kind == "splice_filter":
        return one(filtered)
    callback: Callable[[list[Any]], Any] | None = getattr(builder, name, None)
    if callback is None:
        # A `?rule` without a builder of its own (e.g. `?command`): always one child.
        if kind != "inline" or (len(keep) if keep else size) != 1:
            raise AssertionError(f"tysh.lark rule {origin!r} has no builder method")
        only = keep[0][0] if keep else 0
        return (lambda s: s[only]), (_SAME if size == 1 else None)
    cb = callback
    if kind == "inline":
        def maybe_inline(s: list[Any]) -> Any:
            c = filtered(s) if keep else s
            return c[0] if len(c) == 1 else cb(c)

        return one(maybe_inline)
    if kind == "plain":
        # a builder's own form for one child, when it has one, saves wrapping it in a list
        direct = getattr(builder, f"{name}_one", None) if size == 1 else None
        return (cb, direct) if direct is not None else one(cb)
    if kind == "pick":
        direct = getattr(builder, f"{name}_one", None)
        if size == 2 and len(keep) == 1 and direct is not None:
            # a statement and its terminator, a list after its newline: the driver
            # builds the node from the kept value in place (see _Reduce)
            return _picker(cb, keep), (keep[0], direct)
        return one(_picker(cb, keep))
    if size == 1:
        # one spliced helper: its list (which nothing else holds) is the children
        return (lambda s: cb(filtered(s))), cb
    return one(lambda s: cb(filtered(s)))


def _picker(cb: Callable[[list[Any]], Any], picks: tuple[int, ...]) -> Callable[[list[Any]], Any]:
    """A builder call on the children at `picks` (the others are punctuation), spelt out
    for the commonest counts: `term_stmt` and the bracketed compound commands."""
    if len(picks) == 1:
        a = picks[0]
        return lambda s: cb([s[a]])
    if len(picks) == 2:
        a, b = picks
        return lambda s: cb([s[a], s[b]])
    return lambda s: cb([s[i] for i in picks])


def _get_tables() -> _Tables:
    """The tables, from the module generated from the grammar when the package was built."""
    global _tables
    if _tables is None:
        from tysh.kernel.syntax import lalr_tables as t

        if t.FORMAT != TABLES_FORMAT:
            raise AssertionError("lalr_tables.py has another layout: run "
                                 "python -m tysh.kernel.syntax.tablegen")
        spec: _Spec = (t.FORMAT, t.GRAMMAR_SHA256, t.RULES, t.STATES, t.START, t.END,
                       t.RUNS)
        with _lock:
            if _tables is None:
                _tables = _Tables(spec)
    return _tables


def _run(tables: _Tables, tokens: Iterable[Tok], scanner: Scanner) -> Any:
    """The LALR(1) shift/reduce loop over Lark's tables (as lark.parsers.lalr_parser does)."""
    rows, reductions, runs = tables.rows, tables.reductions, tables.runs
    chains = tables.chains
    stack: list[_Row] = [tables.start]
    values: list[Any] = []
    row = tables.start
    tokens = iter(tokens)
    for tok in tokens:
        ttype = tok[0]
        while True:
            try:
                act = row[ttype]
            except KeyError:  # (a row holds no entry for a token its state refuses)
                raise _syntax_error(scanner, tok, stack, values) from None
            if act >= 0:
                if act in runs:
                    # a run of tokens that only grows a list (see tablegen.token_runs):
                    # read to its end, and go on in the state after its last reduction
                    origin, kinds = runs[act]
                    head = rows[act]
                    run = [tok]
                    for tok in tokens:
                        if tok[0] not in kinds:
                            break
                        run.append(tok)
                    else:
                        end = len(scanner.text)
                        tok = ("$END", "", end, end)
                    ttype = tok[0]
                    row = rows[stack[-1][origin]]
                    if ttype not in head:
                        raise _run_error(scanner, tok, stack, values, run, head, row)
                    stack.append(row)
                    values.append(run)
                    if ttype == "$END":
                        break
                    continue
                row = rows[act]
                stack.append(row)
                values.append(tok)
                break
            size, origin, fn, one = reductions[act]
            if one is not None:
                if one is _GROW:
                    v = values.pop()
                    values[-1].append(v)
                    del stack[-1]
                    row = rows[stack[-2][origin]]
                    stack[-1] = row
                    continue
                if one.__class__ is tuple:
                    k, take = one
                    v = values.pop()
                    values[-1] = take(v if k else values[-1])
                    del stack[-1]
                    row = rows[stack[-2][origin]]
                    stack[-1] = row
                    continue
                # a chain of reductions of one symbol (simple_command -> pipeline ->
                # and_or …): each leaves the state below as it is, so the state it ends
                # in and the builders it calls depend only on that state, the first
                # reduction and the lookahead, and are found once per such triple
                below = stack[-2]
                key = (id(below), act, ttype)
                chain = chains.get(key)
                if chain is None:
                    chain = chains[key] = _unit_chain(tables, below, act, ttype)
                fns, row = chain
                if fns:
                    v = values[-1]
                    for f in fns:
                        v = f(v)
                    values[-1] = v
                stack[-1] = row
                continue
            if size:
                s = values[-size:]
                del values[-size:]
                del stack[-size:]
            else:
                s = []
            values.append(fn(s))
            row = rows[stack[-1][origin]]
            stack.append(row)
    end_state = tables.end
    while True:
        at_end = row.get("$END")
        if at_end is None:
            end = len(scanner.text)
            raise _syntax_error(scanner, ("$END", "", end, end), stack, values)
        act = at_end
        size, origin, fn, one = reductions[act]
        if one is not None:
            if one is _GROW:
                v = values.pop()
                values[-1].append(v)
                del stack[-1]
            elif one.__class__ is tuple:
                k, take = one
                v = values.pop()
                values[-1] = take(v if k else values[-1])
                del stack[-1]
            else:
                # a chain of reductions of one symbol, as in the loop above (the end
                # state has no actions, so a chain stops there)
                below = stack[-2]
                key = (id(below), act, "$END")
                chain = chains.get(key)
                if chain is None:
                    chain = chains[key] = _unit_chain(tables, below, act, "$END")
                fns, row = chain
                if fns:
                    v = values[-1]
                    for f in fns:
                        v = f(v)
                    values[-1] = v
                if row is end_state:
                    return values[-1]
                stack[-1] = row
                continue
            row = rows[stack[-2][origin]]
            if row is end_state:
                return values[-1]
            stack[-1] = row
            continue
        if size:
            s = values[-size:]
            del values[-size:]
            del stack[-size:]
        else:
            s = []
        value = fn(s)
        row = rows[stack[-1][origin]]
        if row is end_state:
            return value
        stack.append(row)
        values.append(value)


# Whether `_run_lists` reads statements itself (the tests turn it off to compare it
# with the tables).
_LISTS_INLINE = True

# How many tokens of the statements before the one being read `_run_lists` keeps (it
# needs the last statement's; the tests set 0).
_LISTS_KEEP = 4096

# The tokens a simple command is made of, and those that start one.
_COMMAND_PARTS = frozenset({"WORD", "ASSIGN", "REDIR", "DECL_ASSIGN"})
_COMMAND_START = frozenset({"WORD", "ASSIGN", "REDIR"})

# `_run_lists`' states: where a newline may come, and what it has read last.
_L_BEGIN = 0  # the start of the text: a newline may come
_L_NEXT = 1  # a statement may start (after a newline)
_L_COMMAND = 2  # in a simple command
_L_JOIN = 3  # after | && ||: a newline may come, then a command
_L_JOINED = 4  # after | && || and a newline: a command
_L_ENDED = 5  # after ; or &: a newline may come, or a statement
_L_MADE = 6  # a compound command has been read: the token after it is in hand

# What the readers below are given at the end of the tokens.
_EOF: Tok = ("$END", "", -1, -1)


class _Refused(Exception):
    """A token the statement readers leave to the tables (it is the last one `seen`
    holds, unless the tokens ended)."""


def _run_lists(tokens: Iterable[Tok], scanner: Scanner) -> Any:
    """`_run` for most texts: their statements are read straight from the tokens, the
    nodes made as the tables' builders make them (simple commands, pipelines and lists
    here; compound commands by `_compound`).

    At the first token these readers do not take (`!`, `time`, `|&`, `function`, any
    error), the statements before the one it is in are kept, and `_run` reads the rest
    of the text from the start of that statement: the statements a script's tail
    holds, or the error it has, are the same whatever statements come before it
    (`start` and the tail of `stmt_list` accept the same statements, and no opener of a
    compound command, which is what a syntax error's message looks for, is among
    them). Every token is read as the tables would read it, one after another, so an
    error the lexer raises is raised where it would be.

    The tables are loaded only when they are to read something: most scripts never
    need them, and loading them is a tenth of the shell's start-up."""
    if not _LISTS_INLINE:
        return _run(_tables or _get_tables(), tokens, scanner)
    new = _new
    parts = _COMMAND_PARTS
    starts = _COMMAND_START
    seen: list[Tok] = _Seen()
    stmts: list[ast.Statement] = []
    mark = 0  # where the statement being read starts in `seen`
    begin = 0  # where the simple command being read starts in `seen`
    pipe: list[ast.Command] = []  # the commands before it in its pipeline
    first: ast.Pipeline | None = None  # the first pipeline of its and-or list
    rest: list[tuple[str, ast.Pipeline]] = []  # the pipelines after && and ||
    op = ""  # the && or || before the pipeline being read
    made: Any = None  # the compound command just read
    state = _L_BEGIN
    tokens = iter(tokens)
    try:
        for tok in tokens:
            ty = tok[0]
            if state != _L_COMMAND:
                if ty in starts:
                    if state == _L_ENDED or state == _L_NEXT or state == _L_BEGIN:
                        mark = len(seen)
                    begin = len(seen)
                    seen.append(tok)
                    state = _L_COMMAND
                    continue
                if ty == "_NL" and (state == _L_ENDED or state == _L_JOIN
                                    or state == _L_BEGIN):
                    seen.append(tok)
                    if state == _L_JOIN:
                        state = _L_JOINED
                    else:
                        mark = len(seen)
                        state = _L_NEXT
                    continue
                if state == _L_ENDED or state == _L_NEXT or state == _L_BEGIN:
                    mark = len(seen)
                seen.append(tok)
                made, tok = _compound(tok, tokens, seen)
                state = _L_MADE
                if tok is _EOF:
                    break
                ty = tok[0]
            elif ty in parts:
                seen.append(tok)
                continue
            # the end of a command
            if ty == "PIPE":
                pipe.append(made if state == _L_MADE else _Builder.simple_command(seen[begin:]))
                seen.append(tok)
                state = _L_JOIN
                continue
            if ty == "AND_IF" or ty == "OR_IF" or ty == "_SEMI" or ty == "_NL" or ty == "_AMP":
                cmd = made if state == _L_MADE else _Builder.simple_command(seen[begin:])
                p = new(Pipeline)
                if pipe:
                    pipe.append(cmd)
                    p.commands = tuple(pipe)
                    p.pos = pipe[0].pos
                    pipe = []
                else:
                    p.commands = (cmd,)
                    p.pos = cmd.pos
                p.negated = False
                p.timed = 0
                seen.append(tok)
                if first is None:
                    first = p
                else:
                    rest.append((op, p))
                if ty == "AND_IF" or ty == "OR_IF":
                    op = tok[1]
                    state = _L_JOIN
                    continue
                ao = new(AndOr)
                ao.first = first
                ao.pos = first.pos
                if rest:
                    ao.rest = tuple(rest)
                    rest = []
                else:
                    ao.rest = ()
                first = None
                st = new(Statement)
                st.body = ao
                st.background = ty == "_AMP"
                st.pos = ao.pos
                stmts.append(st)
                if mark > _LISTS_KEEP:
                    # the tokens before this statement are never read again (the one
                    # they could be read for, a newline where a statement should start,
                    # is refused as it is after any statement)
                    del seen[:mark]
                mark = len(seen)
                state = _L_NEXT if ty == "_NL" else _L_ENDED
                continue
            seen.append(tok)
            raise _Refused
    except _Refused:
        # the tables read on from the statement the refused token is in (a newline where
        # one should start, from the statement before it: the tables refuse it there)
        if not stmts or mark == len(seen) - 1 and seen[-1][0] == "_NL":
            return _run(_tables or _get_tables(), _replay(seen, 0, tokens), scanner)
        tail: ast.Script = _run(_tables or _get_tables(), _replay(seen, mark, tokens), scanner)
        script = new(Script)
        script.statements = (*stmts, *tail.statements)
        script.pos = stmts[0].pos
        return script
    if state == _L_COMMAND or state == _L_MADE:
        cmd = made if state == _L_MADE else _Builder.simple_command(seen[begin:])
        p = new(Pipeline)
        if pipe:
            pipe.append(cmd)
            p.commands = tuple(pipe)
            p.pos = pipe[0].pos
        else:
            p.commands = (cmd,)
            p.pos = cmd.pos
        p.negated = False
        p.timed = 0
        if first is None:
            first = p
        else:
            rest.append((op, p))
        ao = new(AndOr)
        ao.first = first
        ao.rest = tuple(rest)
        ao.pos = first.pos
        st = new(Statement)
        st.body = ao
        st.background = False
        st.pos = ao.pos
        stmts.append(st)
    elif state == _L_JOIN or state == _L_JOINED:
        # (the text ends after | && ||: the tables say what is missing)
        return _run(_tables or _get_tables(), seen, scanner)
    script = new(Script)
    script.statements = tuple(stmts)
    script.pos = stmts[0].pos if stmts else ast.NOPOS
    return script


class _Seen(list):  # type: ignore[type-arg]
    """The tokens the statement readers have read, and how deep in compound commands
    the reader is (see `_command`)."""

    depth = 0  # (made without a Python __init__: one per text read, `$( )` bodies too)


# (each level of compound nesting is about six frames of the readers: the deepest they go
# stays well inside the default recursion limit, for a parse outside any run)
_DEEPEST = 50


def _replay(seen: list[Tok], start: int, tokens: Iterator[Tok]) -> Iterator[Tok]:
    """The tokens `seen` holds from `start`, then the ones `tokens` has left."""
    yield from seen[start:] if start else seen
    yield from tokens


# Each reader below is given the token it starts at (already in `seen`) or the first
# token after it, and the tokens; it gives back what it read and the token after it
# (not yet in `seen`), and raises _Refused at a token the tables are to read.


def _refuse(tok: Tok, seen: list[Tok]) -> NoReturn:
    if tok is not _EOF:
        seen.append(tok)
    raise _Refused


def _take(tok: Tok, ty: str, tokens: Iterator[Tok], seen: list[Tok]) -> Tok:
    """The token after `tok`, which must be a `ty`."""
    if tok[0] != ty:
        _refuse(tok, seen)
    seen.append(tok)
    return next(tokens, _EOF)


def _body(tok: Tok, tokens: Iterator[Tok], seen: list[Tok], empty: bool = False
          ) -> tuple[ast.Script, Tok]:
    """`_NL? stmt_list` (`compound_list`; `case_body` when it may be `empty`)."""
    if tok[0] == "_NL":
        seen.append(tok)
        tok = next(tokens, _EOF)
    stmts: list[ast.Statement] = []
    while tok[0] in _STATEMENT_START:
        ao, tok = _and_or(tok, tokens, seen)
        ty = tok[0]
        st = _new(Statement)
        st.body = ao
        st.background = ty == "_AMP"
        st.pos = ao.pos
        stmts.append(st)
        if ty == "_SEMI" or ty == "_AMP":
            seen.append(tok)
            tok = next(tokens, _EOF)
            if tok[0] == "_NL":
                seen.append(tok)
                tok = next(tokens, _EOF)
        elif ty == "_NL":
            seen.append(tok)
            tok = next(tokens, _EOF)
        else:
            break
    if not stmts and not empty:
        _refuse(tok, seen)
    return _Builder.start_one(tuple(stmts)), tok


def _and_or(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[ast.AndOr, Tok]:
    first, tok = _pipeline(tok, tokens, seen)
    ao = _new(AndOr)
    ao.first = first
    ao.pos = first.pos
    rest: list[tuple[str, ast.Pipeline]] = []
    while tok[0] == "AND_IF" or tok[0] == "OR_IF":
        seen.append(tok)
        op = tok[1]
        tok = next(tokens, _EOF)
        if tok[0] == "_NL":
            seen.append(tok)
            tok = next(tokens, _EOF)
        p, tok = _pipeline(tok, tokens, seen)
        rest.append((op, p))
    ao.rest = tuple(rest)
    return ao, tok


def _pipeline(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[ast.Pipeline, Tok]:
    cmd, tok = _command(tok, tokens, seen)
    p = _new(Pipeline)
    p.negated = False
    p.pos = cmd.pos
    p.timed = 0
    if tok[0] != "PIPE":
        p.commands = (cmd,)
        return p, tok
    cmds = [cmd]
    while tok[0] == "PIPE":
        seen.append(tok)
        tok = next(tokens, _EOF)
        if tok[0] == "_NL":
            seen.append(tok)
            tok = next(tokens, _EOF)
        cmd, tok = _command(tok, tokens, seen)
        cmds.append(cmd)
    p.commands = tuple(cmds)
    return p, tok


def _command(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[ast.Command, Tok]:
    if tok[0] in _COMMAND_START:
        c = [tok]
        seen.append(tok)
        parts = _COMMAND_PARTS
        for tok in tokens:
            if tok[0] not in parts:
                break
            c.append(tok)
            seen.append(tok)
        else:
            tok = _EOF
        return _Builder.simple_command(c), tok
    seen.append(tok)
    # the readers recurse once per compound command inside another: past _DEEPEST the
    # tables, which keep their own stack, read the statement
    depth: int = seen.depth  # type: ignore[attr-defined]
    if depth >= _DEEPEST:
        raise _Refused
    seen.depth = depth + 1  # type: ignore[attr-defined]
    got = _compound(tok, tokens, seen)
    seen.depth = depth  # type: ignore[attr-defined]
    return got


def _compound(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[ast.Command, Tok]:
    """A compound command and its redirections, or a function definition, from its
    first token (in `seen`)."""
    ty = tok[0]
    if ty == "FUNCNAME":
        # FUNCNAME FUNC_PARENS _NL? _compound REDIR*
        parens = next(tokens, _EOF)
        after = _take(parens, "FUNC_PARENS", tokens, seen)
        if after[0] == "_NL":
            seen.append(after)
            after = next(tokens, _EOF)
        read = _COMPOUNDS.get(after[0])
        if read is None:
            _refuse(after, seen)
        seen.append(after)
        body, after = read(after, tokens, seen)
        c = [tok, parens, body]
        while after[0] == "REDIR":
            seen.append(after)
            c.append(after)
            after = next(tokens, _EOF)
        return _BUILD.function_def(c), after
    read = _COMPOUNDS.get(ty)
    if read is None:
        _refuse(_EOF, seen)  # (the token is in `seen` already)
    node, after = read(tok, tokens, seen)
    if after[0] != "REDIR":
        return node, after
    c = [node]
    while after[0] == "REDIR":
        seen.append(after)
        c.append(after)
        after = next(tokens, _EOF)
    return _BUILD.compound_command(c), after


def _if(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """IF compound_list _THEN compound_list elif_part* else_part? _FI"""
    cond, t = _body(next(tokens, _EOF), tokens, seen)
    body, t = _body(_take(t, "_THEN", tokens, seen), tokens, seen)
    c: list[Any] = [tok, cond, body]
    while t[0] == "ELIF":
        seen.append(t)
        elif_tok = t
        cond, t = _body(next(tokens, _EOF), tokens, seen)
        body, t = _body(_take(t, "_THEN", tokens, seen), tokens, seen)
        c.append(_BUILD.elif_part([elif_tok, cond, body]))
    if t[0] == "_ELSE":
        seen.append(t)
        body, t = _body(next(tokens, _EOF), tokens, seen)
        c.append(_BUILD.else_part([body]))
    return _BUILD.if_clause(c), _take(t, "_FI", tokens, seen)


def _while(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """(WHILE | UNTIL) compound_list _DO compound_list _DONE"""
    cond, t = _body(next(tokens, _EOF), tokens, seen)
    body, t = _body(_take(t, "_DO", tokens, seen), tokens, seen)
    after = _take(t, "_DONE", tokens, seen)
    c = [tok, cond, body]
    return (_BUILD.while_clause(c) if tok[0] == "WHILE" else _BUILD.until_clause(c)), after


def _loop(t: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """_for_body: _DO compound_list _DONE | brace_group"""
    if t[0] == "LBRACE":
        seen.append(t)
        return _brace(t, tokens, seen)
    body, t = _body(_take(t, "_DO", tokens, seen), tokens, seen)
    return body, _take(t, "_DONE", tokens, seen)


def _for(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """FOR WORD _for_head_end _for_body | FOR WORD _NL? _IN WORD* _for_head_end _for_body"""
    var = next(tokens, _EOF)
    if var[0] != "WORD":
        _refuse(var, seen)
    seen.append(var)
    word: ast.Word = var[1]
    name = word.literal_text()
    if name is None or not _VALID_NAME.match(name) or len(word.parts) != 1:
        _refuse(_EOF, seen)  # (the tables raise the error, where they find it)
    t = next(tokens, _EOF)
    items: list[Tok] | None = None
    if t[0] == "_NL":
        seen.append(t)
        t = next(tokens, _EOF)
        if t[0] == "_IN":
            items = []
    elif t[0] == "_IN":
        items = []
    elif t[0] == "_SEMI":
        seen.append(t)
        t = next(tokens, _EOF)
        if t[0] == "_NL":
            seen.append(t)
            t = next(tokens, _EOF)
    if items is not None:
        seen.append(t)
        t = next(tokens, _EOF)
        while t[0] == "WORD":
            seen.append(t)
            items.append(t)
            t = next(tokens, _EOF)
        t = _semi_nl(t, tokens, seen)
    body, t = _loop(t, tokens, seen)
    if items is None:
        return _BUILD.for_all([tok, var, body]), t
    return _BUILD.for_in([tok, var, *items, body]), t


def _arith_for(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """ARITH_FOR _SEMI? _NL? _for_body"""
    body, t = _loop(_semi_nl(next(tokens, _EOF), tokens, seen), tokens, seen)
    return _BUILD.arith_for([tok, body]), t


def _semi_nl(t: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> Tok:
    """_SEMI? _NL?: the token after them."""
    if t[0] == "_SEMI":
        seen.append(t)
        t = next(tokens, _EOF)
    if t[0] == "_NL":
        seen.append(t)
        t = next(tokens, _EOF)
    return t


def _brace(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """LBRACE compound_list _RBRACE"""
    body, t = _body(next(tokens, _EOF), tokens, seen)
    return _BUILD.brace_group([tok, body]), _take(t, "_RBRACE", tokens, seen)


def _subshell(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """LPAREN compound_list _RPAREN"""
    body, t = _body(next(tokens, _EOF), tokens, seen)
    return _BUILD.subshell([tok, body]), _take(t, "_RPAREN", tokens, seen)


def _arith(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """ARITH_CMD"""
    return _BUILD.arith_command([tok]), next(tokens, _EOF)


def _case(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """CASE WORD _NL? _IN _NL? case_item* last_case_item? _ESAC, where
    case_item: pattern_list _RPAREN case_body CASE_TERM _NL?,
    last_case_item: pattern_list _RPAREN case_body and
    pattern_list: LPAREN? WORD (PIPE WORD)*"""
    word = next(tokens, _EOF)
    if word[0] != "WORD":
        _refuse(word, seen)
    seen.append(word)
    t = next(tokens, _EOF)
    if t[0] == "_NL":
        seen.append(t)
        t = next(tokens, _EOF)
    t = _take(t, "_IN", tokens, seen)
    if t[0] == "_NL":
        seen.append(t)
        t = next(tokens, _EOF)
    c: list[Any] = [tok, word]
    while t[0] != "_ESAC":
        pats: list[Tok] = []
        if t[0] == "LPAREN":
            seen.append(t)
            pats.append(t)
            t = next(tokens, _EOF)
        while True:
            if t[0] != "WORD":
                _refuse(t, seen)
            seen.append(t)
            pats.append(t)
            t = next(tokens, _EOF)
            if t[0] != "PIPE":
                break
            seen.append(t)
            pats.append(t)
            t = next(tokens, _EOF)
        patterns = _BUILD.pattern_list(pats)
        body, t = _body(_take(t, "_RPAREN", tokens, seen), tokens, seen, True)
        if t[0] != "CASE_TERM":
            c.append(_BUILD.last_case_item([patterns, body]))
            break
        seen.append(t)
        c.append(_BUILD.case_item([patterns, body, t]))
        t = next(tokens, _EOF)
        if t[0] == "_NL":
            seen.append(t)
            t = next(tokens, _EOF)
    return _BUILD.case_clause(c), _take(t, "_ESAC", tokens, seen)


def _cond(tok: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """DBRACK_OPEN cond_or _DBRACK_CLOSE"""
    expr, t = _cond_or(next(tokens, _EOF), tokens, seen)
    return _BUILD.cond_command([tok, expr]), _take(t, "_DBRACK_CLOSE", tokens, seen)


def _cond_or(t: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """cond_and (OR_IF cond_and)*, to the left"""
    return _cond_chain(t, tokens, seen, "OR_IF", _cond_and, _BUILD.cond_or)


def _cond_and(t: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """cond_not (AND_IF cond_not)*, to the left"""
    return _cond_chain(t, tokens, seen, "AND_IF", _cond_not, _BUILD.cond_and)


def _cond_chain(t: Tok, tokens: Iterator[Tok], seen: list[Tok], op_type: str,
                operand: Callable[[Tok, Iterator[Tok], list[Tok]], tuple[Any, Tok]],
                build: Callable[[list[Any]], Any]) -> tuple[Any, Tok]:
    """operand (op_type operand)*, each joined to the left by `build`."""
    left, t = operand(t, tokens, seen)
    while t[0] == op_type:
        seen.append(t)
        op = t
        right, t = operand(next(tokens, _EOF), tokens, seen)
        left = build([left, op, right])
    return left, t


def _cond_not(t: Tok, tokens: Iterator[Tok], seen: list[Tok]) -> tuple[Any, Tok]:
    """BANG cond_not | LPAREN cond_or _RPAREN | COND_UNOP WORD | WORD COND_BINOP WORD
    | WORD"""
    ty = t[0]
    if ty == "BANG":
        seen.append(t)
        inner, after = _cond_not(next(tokens, _EOF), tokens, seen)
        return _BUILD.cond_not([t, inner]), after
    if ty == "LPAREN":
        seen.append(t)
        inner, after = _cond_or(next(tokens, _EOF), tokens, seen)
        return _BUILD.cond_group([t, inner]), _take(after, "_RPAREN", tokens, seen)
    if ty == "COND_UNOP":
        seen.append(t)
        word = next(tokens, _EOF)
        after = _take(word, "WORD", tokens, seen)
        return _BUILD.cond_unary([t, word]), after
    if ty != "WORD":
        _refuse(t, seen)
    seen.append(t)
    after = next(tokens, _EOF)
    if after[0] != "COND_BINOP":
        return _BUILD.cond_word([t]), after
    seen.append(after)
    right = next(tokens, _EOF)
    return _BUILD.cond_binary([t, after, right]), _take(right, "WORD", tokens, seen)


_COMPOUNDS: dict[str, Callable[[Tok, Iterator[Tok], list[Tok]], tuple[Any, Tok]]] = {
    "IF": _if, "WHILE": _while, "UNTIL": _while, "FOR": _for, "ARITH_FOR": _arith_for,
    "LBRACE": _brace, "LPAREN": _subshell, "ARITH_CMD": _arith, "CASE": _case,
    "DBRACK_OPEN": _cond,
}
# The tokens a statement the readers take starts with.
_STATEMENT_START = _COMMAND_START | frozenset(_COMPOUNDS) | {"FUNCNAME"}


# The most reductions of one symbol `_unit_chain` puts in one chain (the tests set 1 to
# compare chains with reducing one step at a time).
_CHAIN_MAX = 64


def _unit_chain(tables: _Tables, below: _Row, act: int, ttype: str
                ) -> tuple[tuple[Callable[[Any], Any], ...], _Row]:
    """The reductions of one symbol the driver makes one after another from reduction
    `act`, over state `below`, with lookahead `ttype`: the functions they apply to the
    top value (none for a rule that leaves it as it is) and the state they end in, the
    first whose action on `ttype` is not such a reduction."""
    rows, reductions = tables.rows, tables.reductions
    fns: list[Callable[[Any], Any]] = []
    steps = 0
    while True:
        _size, origin, _fn, one = reductions[act]
        if one is not _SAME:
            fns.append(one)
        row = rows[below[origin]]
        steps += 1
        nxt = row.get(ttype)
        if steps >= _CHAIN_MAX or nxt is None or nxt >= 0:
            return tuple(fns), row
        one = reductions[nxt][3]
        if one is None or one is _GROW or one.__class__ is tuple:
            return tuple(fns), row
        act = nxt


def _run_error(scanner: Scanner, tok: Tok, stack: list[_Row], values: list[Any],
               run: list[Tok], head: _Row, goto: _Row) -> TyshSyntaxError:
    """The error for a token no state of a run accepts after it, with the stack the
    parser would have had reading the run one token at a time: the run's first state,
    or the goto state and the state after the run's last token."""
    if len(run) == 1:
        return _syntax_error(scanner, tok, [*stack, head], [*values, run[0]])
    last = _get_tables().rows[goto[run[-1][0]]]
    return _syntax_error(scanner, tok, [*stack, goto, last], [*values, run[:-1], run[-1]])


def parse_scanner(scanner: Scanner) -> ast.Script:
    """Parse the tokens of one scanner: a whole script, or a `$( )` body (the function
    a `lexer.Source` is given to parse nested bodies with)."""
    result = _run_lists(scanner.tokens(), scanner)
    assert isinstance(result, ast.Script)
    return result


# The compound commands a syntax error may be inside: how each is shown, and the words
# that may continue it, in the order they are looked for.
_OPENERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "IF": ("if", ("_THEN", "_FI")),
    "ELIF": ("elif", ("_THEN",)),
    "WHILE": ("while", ("_DO", "_DONE")),
    "UNTIL": ("until", ("_DO", "_DONE")),
    "FOR": ("for", ("_IN", "_DO", "_DONE")),
    "ARITH_FOR": ("for", ("_DO", "_DONE")),
    "CASE": ("case", ("_IN", "_ESAC")),
    "LBRACE": ("{", ("_RBRACE",)),
    "LPAREN": ("(", ("_RPAREN",)),
    "DBRACK_OPEN": ("[[", ("_DBRACK_CLOSE",)),
}
_OPENING = frozenset({"_THEN", "_DO", "_IN"})


def _accepts(tables: _Tables, stack: list[_Row], ttype: str) -> bool:
    """Whether the parser, in the state `stack` leaves it, would shift a `ttype` token:
    its reductions are replayed on a copy of the state stack (the LALR tables' merged
    lookaheads alone would also name words only some other context accepts)."""
    stack = list(stack)
    row = stack[-1]
    while True:
        act = row.get(ttype)
        if act is None:
            return False
        if act >= 0:
            return True
        size, origin, _fn, _one = tables.reductions[act]
        if size:
            del stack[-size:]
        goto = stack[-1].get(origin)
        if goto is None:
            return False
        row = tables.rows[goto]
        stack.append(row)


def _expected(scanner: Scanner, stack: list[_Row], values: list[Any]) -> str:
    """`: expected 'done' to close 'for' at 1:1` for the innermost compound command
    left open where the error is, or "" outside any."""
    tables = _get_tables()
    for v in reversed(values):
        if v.__class__ is not tuple or v[0] not in _OPENERS:
            continue
        shown, continuations = _OPENERS[v[0]]
        for term in continuations:
            if _accepts(tables, stack, term):
                line, col = scanner.src.line_col(v[2])
                how = "for" if term in _OPENING else "to close"
                return f": expected {_SHOWN[term]} {how} '{shown}' at {line}:{col}"
        if v[0] != "ELIF":  # an `elif` that is complete: look at its `if`
            return ""
    return ""


def _syntax_error(scanner: Scanner, tok: Tok, stack: list[_Row],
                  values: list[Any]) -> TyshSyntaxError:
    ttype, _value, start, end = tok
    want = _expected(scanner, stack, values)
    if ttype == "$END":
        if scanner.nested and scanner.close_offset >= 0:
            return scanner.error(f"unexpected ')'{want}", scanner.close_offset)
        stop = len(scanner.text.rstrip())
        if not want:
            want = ": a command is missing"
        return scanner.error(f"unexpected end of input{want}", max(stop - 1, 0),
                             incomplete=True)
    text = scanner.text[start:end]
    if ttype == "WORD":
        shown = f"word '{text}'"
    else:
        shown = _SHOWN.get(ttype) or f"'{text}'"
    hint = "" if want else _HINTS.get(ttype, "")
    return scanner.error(f"unexpected {shown}{want}{hint}", start)


# ---------------------------------------------------------------------------
# The tree builder
# ---------------------------------------------------------------------------
#
# Each method receives a rule's children: built nodes, and tokens as (type, value, start,
# end) tuples whose value is the AST fragment the lexer made, or the ast.Pos of a keyword.


def _npos(x: Any) -> ast.Pos:
    """The position of the first thing a rule matched: a node, or a keyword token."""
    if isinstance(x, tuple):
        v = x[1]
        return v if isinstance(v, ast.Pos) else getattr(v, "pos", ast.NOPOS)
    p = getattr(x, "pos", ast.NOPOS)
    return p if isinstance(p, ast.Pos) else ast.NOPOS


def _script(stmts: tuple[ast.Statement, ...]) -> ast.Script:
    return Script(stmts, stmts[0].pos if stmts else ast.NOPOS)


@frozen
class _Else(Record):
    body: ast.Script


def _with_redirects(cmd: ast.Command, redirects: tuple[ast.Redirect, ...]) -> ast.Command:
    if not redirects:
        return cmd
    if isinstance(cmd, ast.FunctionDef):
        return replace(cmd, body=_with_redirects(cmd.body, redirects))
    return replace(cmd, redirects=cmd.redirects + redirects)


_new: Any = object.__new__


class _Builder:
    """Rule callbacks, named after the rules (or their `-> alias`) in tysh.lark. A
    `name_one` method, where there is one, builds the rule's node from its one child for
    a form of the rule that has one symbol, or keeps one of two (the driver calls it in
    place, no list made)."""

    @staticmethod
    def start_one(stmts: tuple[ast.Statement, ...]) -> ast.Script:
        script = _new(Script)  # (as stmt_list_one makes its nodes; one per parse and body)
        script.statements = stmts
        script.pos = stmts[0].pos if stmts else ast.NOPOS
        return script  # type: ignore[no-any-return]

    compound_list_one = case_body_one = start_one

    # The nodes of a statement of one pipeline of one command are made as their
    # __init__ would make them (a value record's __init__ only stores its fields) without
    # calling their classes, which costs about half again as much: every command of a
    # script goes through these.

    @staticmethod
    def stmt_list_one(ao: ast.AndOr) -> tuple[ast.Statement, ...]:
        st = _new(Statement)
        st.body = ao
        st.background = False
        st.pos = ao.pos
        return (st,)

    @staticmethod
    def and_or_one(first: ast.Pipeline) -> ast.AndOr:
        ao = _new(AndOr)
        ao.first = first
        ao.rest = ()
        ao.pos = first.pos
        return ao  # type: ignore[no-any-return]

    @staticmethod
    def pipeline_one(cmd: ast.Command) -> ast.Pipeline:
        p = _new(Pipeline)
        p.commands = (cmd,)
        p.negated = False
        p.pos = cmd.pos
        p.timed = 0
        return p  # type: ignore[no-any-return]

    def start(self, c: list[Any]) -> ast.Script:
        return _script(c[0] if c else ())

    def compound_list(self, c: list[Any]) -> ast.Script:
        return _script(c[0])

    def case_body(self, c: list[Any]) -> ast.Script:
        return _script(c[0] if c else ())

    def stmt_list(self, c: list[Any]) -> tuple[ast.Statement, ...]:
        last = c[-1]
        if last.__class__ is ast.AndOr:
            c[-1] = Statement(last, False, last.pos)
        return tuple(c)

    @staticmethod
    def stmt_fg_one(ao: ast.AndOr) -> ast.Statement:
        st = _new(Statement)  # (as stmt_list_one makes it)
        st.body = ao
        st.background = False
        st.pos = ao.pos
        return st  # type: ignore[no-any-return]

    def stmt_fg(self, c: list[Any]) -> ast.Statement:
        return self.stmt_fg_one(c[0])

    def stmt_bg(self, c: list[Any]) -> ast.Statement:
        ao: ast.AndOr = c[0]
        return Statement(ao, True, ao.pos)

    def and_or(self, c: list[Any]) -> ast.AndOr:
        first: ast.Pipeline = c[0]
        if len(c) == 1:
            return AndOr(first, (), first.pos)
        rest = tuple((c[k][1], c[k + 1]) for k in range(1, len(c), 2))
        return AndOr(first, rest, first.pos)

    def pipeline(self, c: list[Any]) -> ast.Pipeline:
        first = c[0]
        if len(c) == 1:
            return Pipeline((first,), False, first.pos)
        if type(first) is tuple:
            # `time p`, `time ! p`, `! time p`: the TIME token among the prefixes
            time_at = 0 if first[0] == "TIME" else 1
            tok = c[time_at]
            if type(tok) is tuple and tok[0] == "TIME":
                return _timed(self.pipeline(c[:time_at] + c[time_at + 1:]), tok[1])
        negated = isinstance(first, tuple)  # the BANG token
        items = c[1:] if negated else c
        cmds: list[ast.Command] = [items[0]]
        for k in range(1, len(items), 2):
            op = items[k]
            if op[0] == "PIPE_AMP":
                # `a |& b` is `a 2>&1 | b`, the dup applied after a's own redirections.
                pos: ast.Pos = op[1]
                dup = ast.Redirect(">&", ast.Word((ast.Lit("1"),), pos), 2, pos)
                cmds[-1] = _with_redirects(cmds[-1], (dup,))
            cmds.append(items[k + 1])
        return Pipeline(tuple(cmds), negated, _npos(first))

    @staticmethod
    def simple_command(c: list[Any]) -> ast.SimpleCommand:
        """A command of words only (most are) without the lists and tuples of the
        assignments and redirections it has none of; any other through `simple_command_of`."""
        words: list[ast.Word] = []
        for tok in c:
            if tok[0] != "WORD":
                return _Builder.simple_command_of(c)
            words.append(tok[1])
        cmd = _new(SimpleCommand)  # (as stmt_list_one makes its nodes)
        cmd.assigns = ()
        cmd.words = tuple(words)
        cmd.redirects = ()
        cmd.pos = c[0][1].pos
        cmd.arg_assigns = ()
        return cmd  # type: ignore[no-any-return]

    @staticmethod
    def simple_command_of(c: list[Any]) -> ast.SimpleCommand:
        """The command of any run of words, assignments and redirections."""
        assigns: list[ast.Assign] = []
        words: list[ast.Word] = []
        redirects: list[ast.Redirect] = []
        arg_assigns: list[tuple[int, ast.Assign]] = []
        for ty, value, _s, _e in c:
            if ty == "WORD":
                words.append(value)
            elif ty == "REDIR":
                redirects.append(value)
            elif ty == "ASSIGN":
                assigns.append(value)
            else:  # DECL_ASSIGN
                arg_assigns.append((len(words), value[1]))
                words.append(value[0])
        cmd = _new(SimpleCommand)  # (as stmt_list_one makes its nodes)
        cmd.assigns = tuple(assigns)
        cmd.words = tuple(words)
        cmd.redirects = tuple(redirects)
        cmd.pos = c[0][1].pos
        cmd.arg_assigns = tuple(arg_assigns)
        return cmd  # type: ignore[no-any-return]

    def compound_command(self, c: list[Any]) -> ast.Command:
        cmd: ast.Command = c[0]
        if len(c) == 1:
            return cmd
        return _with_redirects(cmd, tuple(t[1] for t in c[1:]))

    def function_def(self, c: list[Any]) -> ast.FunctionDef:
        k = 1 if c[0][0] == "FUNCTION" else 0
        name, name_pos = c[k][1]
        pos = c[0][1] if k else name_pos
        k += 1
        if isinstance(c[k], tuple) and c[k][0] == "FUNC_PARENS":
            k += 1
        body: ast.Command = c[k]
        redirects = tuple(t[1] for t in c[k + 1:])
        return ast.FunctionDef(name, _with_redirects(body, redirects), pos)

    def brace_group(self, c: list[Any]) -> ast.BraceGroup:
        return ast.BraceGroup(c[1], (), c[0][1])

    def subshell(self, c: list[Any]) -> ast.Subshell:
        return ast.Subshell(c[1], (), c[0][1])

    def if_clause(self, c: list[Any]) -> ast.If:
        clauses = [ast.IfClause(c[1], c[2])]
        else_body: ast.Script | None = None
        for x in c[3:]:
            if isinstance(x, _Else):
                else_body = x.body
            else:
                clauses.append(x)
        return ast.If(tuple(clauses), else_body, (), c[0][1])

    def elif_part(self, c: list[Any]) -> ast.IfClause:
        return ast.IfClause(c[1], c[2])

    def else_part(self, c: list[Any]) -> _Else:
        return _Else(c[0])

    def while_clause(self, c: list[Any]) -> ast.While:
        return ast.While(c[1], c[2], False, (), c[0][1])

    def until_clause(self, c: list[Any]) -> ast.While:
        return ast.While(c[1], c[2], True, (), c[0][1])

    @staticmethod
    def _for_var(tok: Any) -> str:
        word: ast.Word = tok[1]
        name = word.literal_text()
        if name is None or not _VALID_NAME.match(name) or len(word.parts) != 1:
            raise TyshSyntaxError(f"not a valid name for a for-loop variable: {name or '…'}",
                                  word.pos.line, word.pos.col)
        return name

    def for_all(self, c: list[Any]) -> ast.For:
        return ast.For(self._for_var(c[1]), None, _loop_body(c[2]), (), c[0][1])

    def for_in(self, c: list[Any]) -> ast.For:
        items = tuple(t[1] for t in c[2:-1])
        return ast.For(self._for_var(c[1]), items, _loop_body(c[-1]), (), c[0][1])

    def arith_for(self, c: list[Any]) -> ast.ArithFor:
        init, cond, step, pos = c[0][1]
        return ast.ArithFor(init, cond, step, _loop_body(c[1]), (), pos)

    def case_clause(self, c: list[Any]) -> ast.Case:
        return ast.Case(c[1][1], tuple(c[2:]), (), c[0][1])

    def case_item(self, c: list[Any]) -> ast.CaseItem:
        return ast.CaseItem(c[0], c[1], c[2][1])

    def last_case_item(self, c: list[Any]) -> ast.CaseItem:
        return ast.CaseItem(c[0], c[1], ";;")

    def pattern_list(self, c: list[Any]) -> tuple[ast.Word, ...]:
        return tuple(t[1] for t in c if t[0] == "WORD")

    def cond_command(self, c: list[Any]) -> ast.CondCommand:
        return ast.CondCommand(c[1], (), c[0][1])

    def cond_or(self, c: list[Any]) -> ast.CondOr:
        return ast.CondOr(c[0], c[2])

    def cond_and(self, c: list[Any]) -> ast.CondAnd:
        return ast.CondAnd(c[0], c[2])

    def cond_not(self, c: list[Any]) -> ast.CondNot:
        return ast.CondNot(c[1])

    def cond_group(self, c: list[Any]) -> ast.CondExpr:
        expr: ast.CondExpr = c[1]
        return expr

    def cond_unary(self, c: list[Any]) -> ast.CondUnary:
        return ast.CondUnary(c[0][1], c[1][1])

    def cond_binary(self, c: list[Any]) -> ast.CondBinary:
        return ast.CondBinary(c[1][1], c[0][1], c[2][1])

    def cond_word(self, c: list[Any]) -> ast.CondWord:
        return ast.CondWord(c[0][1])

    def arith_command(self, c: list[Any]) -> ast.ArithCommand:
        word, pos = c[0][1]
        return ast.ArithCommand(word, (), pos)


def _loop_body(body: ast.Script | ast.BraceGroup) -> ast.Script:
    """A loop's `do … done` body, or the brace group that stands for it (the same
    thing: a brace group without redirections only groups)."""
    return body.body if isinstance(body, ast.BraceGroup) else body


def _timed(p: ast.Pipeline, pos: ast.Pos) -> ast.Pipeline:
    """`time [-p] PIPELINE`: the lexer gives `-p` as the first command's name."""
    timed = 1
    head = p.commands[0]
    if type(head) is ast.SimpleCommand and head.words and head.words[0].parts \
            and len(head.words[0].parts) == 1 and head.words[0].parts[0] == ast.Lit("-p"):
        timed = 2
        head = replace(head, words=head.words[1:],
                            arg_assigns=tuple((k - 1, a) for k, a in head.arg_assigns))
    return Pipeline((head, *p.commands[1:]), p.negated, pos, timed)


# The builder the statement readers call (its methods keep no state).
_BUILD = _Builder()
