"""Build the LALR(1) tables of `grammar/tysh.lark` with Lark and write them out as the
module `lalr_tables.py`, which ships with the package: the shell never analyses its
grammar at run time, and never writes a table cache anywhere.

After editing the grammar:

    python -m tysh.kernel.syntax.tablegen           # rewrite lalr_tables.py
    python -m tysh.kernel.syntax.tablegen --check   # status 1 when it is stale

(a test runs the check). Lark numbers its states differently from run to run (it walks
sets of strings), so the tables are renumbered canonically before they are written: the
same grammar always gives the same file.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections import deque
from typing import TYPE_CHECKING, Any

from tysh.kernel.syntax.parser import TABLES_FORMAT

if TYPE_CHECKING:
    from lark import Lark

GRAMMAR_PATH = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "grammar", "tysh.lark"
)
TABLES_PATH = os.path.join(os.path.dirname(__file__), "lalr_tables.py")



def grammar_text() -> str:
    with open(GRAMMAR_PATH, encoding="utf-8") as f:
        return f.read()


def grammar_digest(grammar: str) -> str:
    return hashlib.sha256(grammar.encode("utf-8")).hexdigest()


def build_lark(grammar: str | None = None) -> Lark:
    """A Lark LALR parser for the grammar (for table generation, and for tests that
    compare `Lark.parse` with the parser's own driver). Nothing is cached on disk."""
    from lark import Lark

    from tysh.kernel.syntax.larklexer import LarkShellLexer

    return Lark(grammar_text() if grammar is None else grammar, parser="lalr",
                lexer=LarkShellLexer, maybe_placeholders=False, propagate_positions=False)


def spec_from_lark(lark: Lark, grammar: str) -> tuple[Any, ...]:
    """The tables as plain data, canonically numbered:
    (format, grammar digest, rules, states, start state, end state, runs), where a rule
    is the recipe `rule_recipe` gives and states[k] is a dict from symbol to action: n ≥ 0
    shifts (or goes) to state n, n < 0 reduces by rule ~n; `runs` is what `token_runs`
    finds. States are numbered breadth first from the start state, symbols in sorted
    order; rules in the grammar's order."""
    from lark.parsers.lalr_analysis import Shift

    table = lark.parser.parser.parser.parse_table
    rule_index = {rule: k for k, rule in enumerate(lark.rules)}
    # plain str throughout: Lark names some generated rules with Tokens (a str subclass)
    rules = tuple(
        rule_recipe(str(r.origin.name), None if r.alias is None else str(r.alias),
                    bool(r.options.expand1),
                    tuple((str(sym.name), bool(sym.is_term)) for sym in r.expansion))
        for r in lark.rules
    )
    start = table.start_states["start"]
    number = {start: 0}
    order = [start]
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for sym in sorted(table.states[state]):
            action, arg = table.states[state][sym]
            if action is Shift and arg not in number:
                number[arg] = len(order)
                order.append(arg)
                queue.append(arg)
    states = []
    for state in order:
        row = table.states[state]
        acts: dict[str, int] = {}
        for sym in sorted(row):
            action, arg = row[sym]
            acts[str(sym)] = number[arg] if action is Shift else ~rule_index[arg]
        states.append(acts)
    return (TABLES_FORMAT, grammar_digest(grammar), rules, tuple(states), 0,
            number[table.end_states["start"]], token_runs(rules, states))


def token_runs(rules: tuple[tuple[Any, ...], ...], states: list[dict[str, int]]
               ) -> dict[int, tuple[str, tuple[str, ...]]]:
    """The states where the parser may read a run of tokens without its tables: for a
    repetition helper over terminals (`X: a | b | X a | X b`, what `(a | b)+` becomes),
    the states reached by shifting its first token, each mapped to (X, its terminals).

    In such a state the parser reduces `X: a` on every lookahead it accepts, goes to
    goto(below, X), shifts a next terminal of X, reduces `X: X a` back to the same goto
    state, and so on: the tokens of the run only grow X's list. `parser._run` then
    appends them to the list without a shift and a reduction each. That is the same
    work only when, as checked here for every state involved: the state after the first
    token and each state after a later one reduce by X's rule for it on every lookahead
    they accept, all accept the same lookaheads, those include every terminal of X, and
    every goto on X shifts each terminal of X to the state that reduces `X: X a`.
    (With the same lookaheads everywhere, the one test of the token after the run
    stands for the test each state would make.)"""
    by_origin: dict[str, dict[int, tuple[str, int]]] = {}
    for k, (origin, _name, kind, size, keep) in enumerate(rules):
        if kind == "splice_all" and size == 1:
            by_origin.setdefault(origin, {})[~k] = ("first", 0)
        elif kind == "grow1" and size == 2 and keep == (1,):
            by_origin.setdefault(origin, {})[~k] = ("more", 0)
    runs: dict[int, tuple[str, tuple[str, ...]]] = {}
    for origin, reductions in sorted(by_origin.items()):
        if {kind for kind, _ in reductions.values()} != {"first", "more"}:
            continue
        # each state that reduces only by one of origin's rules, and which rule
        reducing = {n: next(iter(set(row.values()))) for n, row in enumerate(states)
                    if len(set(row.values())) == 1 and next(iter(row.values())) in reductions}
        if not reducing:
            continue
        lookaheads = {frozenset(states[n]) for n in reducing}
        if len(lookaheads) != 1:
            continue
        follow = next(iter(lookaheads))
        gotos = [row[origin] for row in states if origin in row]
        # the terminals of the run: what a goto state shifts to a `X: X a` state
        terms = {t for g in gotos for t, a in states[g].items()
                 if a >= 0 and reducing.get(a) is not None
                 and reductions[reducing[a]][0] == "more"}
        heads = {n for n, r in reducing.items() if reductions[r][0] == "first"}
        if not terms or not terms <= follow or any(
                states[g].get(t, -1) not in reducing
                or reductions[reducing[states[g][t]]][0] != "more"
                for g in gotos for t in terms):
            continue
        for n in sorted(heads):
            runs[n] = (origin, tuple(sorted(terms)))
    return runs


def rule_recipe(origin: str, alias: str | None, expand1: bool,
                expansion: tuple[tuple[str, bool], ...]) -> tuple[Any, ...]:
    """How the parser builds a rule's value, decided here once rather than at every
    start-up: (origin, builder name, kind, number of symbols, kept children).

    The rule's symbols are (name, is_terminal) pairs; an `_underscored` symbol is
    spliced (a nonterminal) or dropped (a terminal), as Lark's tree builder does. The
    kept children are indexes into the popped symbols; for the kinds that splice some of
    them they are (index, spliced) pairs. The kinds:

    - grow1, grow: a left-recursive repetition helper; the first child's list grows by
      the one kept child (grow1) or by the kept children (grow);
    - splice_all, splice_pick, splice_filter: a helper whose value is the list of its
      children: all of them, the kept ones, or the kept ones with helpers spliced in;
    - inline: a `?rule`: its one child stands for it, more go to the builder (all the
      children, or the kept ones with helpers spliced in);
    - plain, pick, filter: the builder called on all, the kept, or the spliced
      children."""
    keep: list[tuple[int, bool]] = []
    for idx, (name, is_term) in enumerate(expansion):
        if not is_term:
            keep.append((idx, name[0] == "_"))
        elif name[0] != "_":
            keep.append((idx, False))
    size = len(expansion)
    spliced = any(exp for _, exp in keep)
    plain = not spliced and len(keep) == size
    name = alias or origin
    picks = tuple(i for i, _ in keep)
    if origin[0] == "_":
        if keep and keep[0] == (0, True):
            rest = keep[1:]
            if len(rest) == 1 and not rest[0][1]:
                return (origin, name, "grow1", size, (rest[0][0],))
            return (origin, name, "grow", size, tuple(rest))
        if plain:
            return (origin, name, "splice_all", size, ())
        if not spliced:
            return (origin, name, "splice_pick", size, picks)
        return (origin, name, "splice_filter", size, tuple(keep))
    if expand1 and not alias:
        return (origin, name, "inline", size, () if plain else tuple(keep))
    if plain:
        return (origin, name, "plain", size, ())
    if not spliced:
        return (origin, name, "pick", size, picks)
    return (origin, name, "filter", size, tuple(keep))


def module_source(spec: tuple[Any, ...]) -> str:
    fmt, digest, rules, states, start, end, runs = spec
    out = [
        '"""The LALR(1) tables of grammar/tysh.lark, generated by',
        "`python -m tysh.kernel.syntax.tablegen` (see there). Do not edit: regenerate.\"\"\"",
        "",
        "# fmt: off",
        "# ruff: noqa",
        f"FORMAT = {fmt!r}",
        f"GRAMMAR_SHA256 = {digest!r}",
        "RULES = (",
        *(f"    {r!r}," for r in rules),
        ")",
        "STATES: tuple[dict[str, int], ...] = (",
        *(f"    {s!r}," for s in states),
        ")",
        f"START = {start!r}",
        f"END = {end!r}",
        f"RUNS = {runs!r}",
        "",
    ]
    return "\n".join(out)


def generate() -> str:
    grammar = grammar_text()
    return module_source(spec_from_lark(build_lark(grammar), grammar))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    src = generate()
    try:
        with open(TABLES_PATH, encoding="utf-8") as f:
            current = f.read()
    except OSError:
        current = ""
    if args == ["--check"]:
        if current != src:
            print(f"{TABLES_PATH} is stale: run python -m tysh.kernel.syntax.tablegen",
                  file=sys.stderr)
            return 1
        return 0
    if args:
        print("usage: python -m tysh.kernel.syntax.tablegen [--check]", file=sys.stderr)
        return 2
    if current != src:
        with open(TABLES_PATH, "w", encoding="utf-8") as f:
            f.write(src)
    return 0


if __name__ == "__main__":
    sys.exit(main())
