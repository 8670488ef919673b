"""Checks before anything runs: problems an embedder can
show an agent with positions, so a script with errors is refused as a whole.

Only what is certain from the source is reported: argv is checked against a schema only
when every word of the command is fixed text; a command is unknown only when external
commands are off, no function of that name is defined anywhere in the script, and the
script sources no file (which could define it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.base.record import Record
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.walk import local_nodes, static_word

if TYPE_CHECKING:
    pass


@attrs.frozen(repr=False, eq=False)
class Problem(Record):
    """One problem: where (1-based line and column), what, its kind — "syntax"
    "unknown-command" "usage" "control" "pattern" — and the status running it would give."""

    line: int
    col: int
    message: str
    kind: str
    code: int = 2

    def format(self) -> str:
        return f"{self.line}:{self.col}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


# (kind, tool) for a command name: kind is "function" "builtin" "tool" "external" or
# None when nothing of that name exists.
Resolver = Callable[[str], tuple[str | None, Any]]

LOOP_TYPES = (ast.While, ast.For, ast.ArithFor)
SOURCE_COMMANDS = frozenset({"source", "."})


def syntax_problem(e: TyshSyntaxError) -> Problem:
    return Problem(e.line, e.col, e.message, "syntax", 2)


class _Validator:
    """One pass over the tree. Whether a command name is a function (defined anywhere in
    the script) or may come from a sourced file is known only at the end, so problems
    are kept with the command name they depend on and filtered then."""

    def __init__(self, resolve: Resolver, allow_external: bool, functions: set[str]) -> None:
        self.resolve = resolve
        self.allow_external = allow_external
        self.functions = functions
        self.sources = False
        self.problems: list[tuple[str | None, Problem]] = []
        self._kinds: dict[str, tuple[str | None, Any]] = {}

    def add(self, pos: ast.Pos, message: str, kind: str, code: int = 2,
            name: str | None = None) -> None:
        self.problems.append((name, Problem(pos.line, pos.col, message, kind, code)))

    def result(self) -> list[Problem]:
        out = [
            p for name, p in self.problems
            if name is None or (name not in self.functions
                                and not (p.kind == "unknown-command" and self.sources))
        ]
        return sorted(out, key=lambda p: (p.line, p.col))

    def script(self, s: ast.Script, loops: int, funcs: int) -> None:
        for st in s.statements:
            for pl in (st.body.first, *(p for _, p in st.body.rest)):
                for cmd in pl.commands:
                    self.command(cmd, loops, funcs)

    def command(self, c: Any, loops: int, funcs: int) -> None:
        if isinstance(c, ast.SimpleCommand):
            self.simple(c, loops, funcs)
        elif isinstance(c, ast.FunctionDef):
            self.functions.add(c.name)
            self.command(c.body, 0, funcs + 1)
            return
        elif isinstance(c, LOOP_TYPES):
            if isinstance(c, ast.While):
                self.script(c.cond, loops + 1, funcs)  # bash allows `while break`
            self.script(c.body, loops + 1, funcs)
        elif isinstance(c, ast.If):
            for clause in c.clauses:
                self.script(clause.cond, loops, funcs)
                self.script(clause.body, loops, funcs)
            if c.else_body is not None:
                self.script(c.else_body, loops, funcs)
        elif isinstance(c, (ast.BraceGroup, ast.Subshell)):
            self.script(c.body, loops, funcs)
        elif isinstance(c, ast.Case):
            for item in c.items:
                self.script(item.body, loops, funcs)
        # `$(…)` in this command's own words and redirects: scripts of their own, run in
        # a subshell where an enclosing loop cannot be broken
        for n in local_nodes(c):
            if isinstance(n, ast.CmdSub):
                self.script(n.body, 0, funcs)

    def simple(self, c: ast.SimpleCommand, loops: int, funcs: int) -> None:
        if not c.words:
            return
        name = static_word(c.words[0])
        if name is None:
            return
        if name in ("break", "continue") and loops == 0:
            self.add(c.pos, f"{name}: only meaningful in a `for', `while', or `until' loop",
                     "control", 1)
            return
        if name == "return" and funcs == 0:
            self.add(c.pos, "return: can only `return' from a function or sourced script",
                     "control", 1)
            return
        if name in SOURCE_COMMANDS:
            self.sources = True
        if name in self.functions:
            return
        got = self._kinds.get(name)
        if got is None:
            got = self._kinds[name] = self.resolve(name)
        kind, tool = got
        if kind is None:
            if not self.allow_external:
                self.add(c.words[0].pos if c.words[0].pos.line else c.pos,
                         f"{name}: command not found (external commands are disabled)",
                         "unknown-command", 127, name)
            return
        if tool is None or kind in ("function", "external") or not hasattr(tool, "schema"):
            return
        words = [static_word(w) for w in c.words[1:]]
        if any(w is None for w in words):
            return
        self.check_argv(c.pos, tool, [w for w in words if w is not None], name)

    def check_argv(self, pos: ast.Pos, tool: Any, argv: list[str], name: str) -> None:
        from tysh.kernel.base.argv import classify
        from tysh.kernel.bind.binder import BindError, RangeViolation
        from tysh.kernel.bind.fast import bind_and_convert

        try:
            targs, _leaf, instance = bind_and_convert(tool, classify(argv))
        except BindError as e:
            for v in e.violations:
                # a number out of its declared range is the tool's own refusal at run
                # time (status 1, as GNU), not a usage error to refuse the script for
                if type(v) is not RangeViolation:
                    self.add(pos, v, "usage", 2, name)
            return
        except Exception:  # noqa: BLE001 — a check never fails louder than the run would
            return
        if getattr(targs, "help", False) or instance is None:
            return
        check = tool.leaf(targs.path).check
        if check is not None:
            for msg in check(instance):
                self.add(pos, msg.split("\n", 1)[0].rstrip(":"), "pattern", 2, name)


def validate_script(
    script: ast.Script,
    resolve: Resolver,
    *,
    allow_external: bool,
    known_functions: set[str] | frozenset[str] = frozenset(),
) -> list[Problem]:
    """Every problem certain from the source, in source order."""
    v = _Validator(resolve, allow_external, set(known_functions))
    v.script(script, 0, 0)
    return v.result()


def refusal_text(problems: list[Problem]) -> str:
    """The `err` of a refused script: one `tysh: L:C: message` line per problem."""
    return "".join(f"tysh: {p.format()}\n" for p in problems)
