"""Checks before anything runs: problems an embedder can
show an agent with positions, so a script with errors is refused as a whole.

Only what is certain from the source is reported: argv is checked against a schema only
when every word of the command is fixed text; a command is unknown only when it may not
run (external commands off, or not on the allow-list), no function of that name is
defined anywhere in the script, and the script sources no file (which could define it).

A problem is an "error" (the script is refused) only when its command certainly runs:
on every path from the start — not after `&&`/`||`, not in a branch of `if`/`case`, a
loop body or an `elif` condition, not after a statement that may leave (`exit`,
`return`, `exec`, `break`, `continue`), and outside functions unless the function is
itself certainly called. Anywhere else it is a "warning" that `validate()` lists and
the run ignores, so `command -v rg >/dev/null && rg x || grep x` runs. A command that
fails before (under `set -e`) is not taken into account: its problem is still an error."""

from __future__ import annotations

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.base.hints import Any
from tysh.kernel.base.record import Record, frozen
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.walk import local_nodes, static_word


@frozen
class Problem(Record):
    """One problem: where (1-based line and column), what, its kind — "syntax"
    "unknown-command" "usage" "control" "pattern" —, the status running it would give,
    and its severity: "error" (the command certainly runs: the script is refused) or
    "warning" (it may not run: the script runs and meets it only if it does)."""

    line: int
    col: int
    message: str
    kind: str
    code: int = 2
    severity: str = "error"

    def format(self) -> str:
        return f"{self.line}:{self.col}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "col": self.col, "message": self.message,
                "kind": self.kind, "code": self.code, "severity": self.severity}


TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    # (kind, tool) for a command name: kind is "function" "builtin" "tool" "external"
    # or None when nothing of that name exists.
    Resolver = Callable[[str], tuple[str | None, Any]]

LOOP_TYPES = (ast.While, ast.For, ast.ArithFor)
SOURCE_COMMANDS = frozenset({"source", "."})
# commands after which the rest of the enclosing list may not run
LEAVING_COMMANDS = frozenset({"exit", "return", "exec", "break", "continue", "logout"})


def syntax_problem(e: TyshSyntaxError) -> Problem:
    return Problem(e.line, e.col, e.message, "syntax", 2)


class _Validator:
    """One pass over the tree. Whether a command name is a function (defined anywhere in
    the script), may come from a sourced file, or is a function certainly called is
    known only at the end, so problems are kept with what they depend on and sorted
    out then."""

    def __init__(self, resolve: Resolver, allow_external: bool, functions: set[str],
                 unknown: Callable[[str], str] | None = None) -> None:
        self.resolve = resolve
        self.allow_external = allow_external
        self.unknown = unknown
        self.functions = functions
        self.sources = False
        # (the command name it depends on, the problem, whether it certainly runs where
        # it is, the function whose body holds it)
        self.problems: list[tuple[str | None, Problem, bool, str | None]] = []
        # the names each function body (None: the script itself) certainly calls
        self.calls: dict[str | None, set[str]] = {}
        self._kinds: dict[str, tuple[str | None, Any]] = {}
        self.certain = True
        self.func: str | None = None
        # whether the statement being checked holds a command that may leave the list
        # it is in (anywhere in it, a function body or a `$(…)` included, to err on the
        # side of running): one named in LEAVING_COMMANDS, or a computed name
        self.leaves = False

    def add(self, pos: ast.Pos, message: str, kind: str, code: int = 2,
            name: str | None = None) -> None:
        self.problems.append((name, Problem(pos.line, pos.col, message, kind, code),
                              self.certain, self.func))

    def result(self) -> list[Problem]:
        called: set[str] = set()
        todo = [n for n in self.calls.get(None, ()) if n in self.functions]
        while todo:
            f = todo.pop()
            if f not in called:
                called.add(f)
                todo += [n for n in self.calls.get(f, ()) if n in self.functions]
        out = []
        for name, p, certain, func in self.problems:
            if name is not None and (name in self.functions
                                     or (p.kind == "unknown-command" and self.sources)):
                continue
            if not certain or (func is not None and func not in called):
                p = p.evolve(severity="warning")
            out.append(p)
        return sorted(out, key=lambda p: (p.line, p.col))

    def script(self, s: ast.Script, loops: int, funcs: int, certain: bool | None = None) -> None:
        """Check a list of statements; `certain`: whether its first statement certainly
        runs (None: as the enclosing command)."""
        outer = self.certain
        saw = self.leaves
        live = outer if certain is None else certain
        for st in s.statements:
            self.certain = live
            self.leaves = False
            self.pipeline(st.body.first, loops, funcs)
            self.certain = False
            for _, p in st.body.rest:
                self.pipeline(p, loops, funcs)
            if self.leaves:
                live = False
                saw = True
        self.certain = outer
        self.leaves = saw

    def pipeline(self, pl: Any, loops: int, funcs: int) -> None:
        for cmd in pl.commands:
            self.command(cmd, loops, funcs)

    def command(self, c: Any, loops: int, funcs: int) -> None:
        if isinstance(c, ast.SimpleCommand):
            self.simple(c, loops, funcs)
        elif isinstance(c, ast.FunctionDef):
            self.functions.add(c.name)
            outer = self.certain, self.func
            self.certain, self.func = True, c.name
            try:
                self.command(c.body, 0, funcs + 1)
            finally:
                self.certain, self.func = outer
            return
        elif isinstance(c, LOOP_TYPES):
            if isinstance(c, ast.While):
                self.script(c.cond, loops + 1, funcs)  # bash allows `while break`
            self.script(c.body, loops + 1, funcs, False)
        elif isinstance(c, ast.If):
            for i, clause in enumerate(c.clauses):
                self.script(clause.cond, loops, funcs, None if i == 0 else False)
                self.script(clause.body, loops, funcs, False)
            if c.else_body is not None:
                self.script(c.else_body, loops, funcs, False)
        elif isinstance(c, (ast.BraceGroup, ast.Subshell)):
            self.script(c.body, loops, funcs)
        elif isinstance(c, ast.Case):
            for item in c.items:
                self.script(item.body, loops, funcs, False)
        # `$(…)` in this command's own words and redirects: scripts of their own, run in
        # a subshell where an enclosing loop cannot be broken
        for n in local_nodes(c):
            if isinstance(n, ast.CmdSub):
                self.script(n.body, 0, funcs)

    def simple(self, c: ast.SimpleCommand, loops: int, funcs: int) -> None:
        if not c.words:
            return
        name = static_word(c.words[0])
        if name is None or name in LEAVING_COMMANDS:
            self.leaves = True
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
        if self.certain:
            self.calls.setdefault(self.func, set()).add(name)
        if name in self.functions:
            return
        got = self._kinds.get(name)
        if got is None:
            got = self._kinds[name] = self.resolve(name)
        kind, tool = got
        if kind is None:
            if not self.allow_external:
                message = (self.unknown(name) if self.unknown is not None else
                           f"{name}: command not found (external commands are disabled)")
                self.add(c.words[0].pos if c.words[0].pos.line else c.pos,
                         message, "unknown-command", 127, name)
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


class _Noted(set[str]):
    """The function names the checks know, noting in `asked` every name looked up."""

    __slots__ = ("asked",)

    def __init__(self, names: set[str] | frozenset[str], asked: set[str]) -> None:
        super().__init__(names)
        self.asked = asked

    def __contains__(self, name: object) -> bool:
        self.asked.add(name)  # type: ignore[arg-type]
        return set.__contains__(self, name)


def validate_script(
    script: ast.Script,
    resolve: Resolver,
    *,
    allow_external: bool,
    known_functions: set[str] | frozenset[str] = frozenset(),
    unknown: Callable[[str], str] | None = None,
    asked: set[str] | None = None,
) -> list[Problem]:
    """Every problem certain from the source, in source order. `allow_external`: every
    program may run (an unknown name may be one); `unknown(name)`: the message for a
    name that runs nothing (the allow-list's own wording). `asked` receives every
    command name whose meaning the result depends on (what `known_functions` and
    `resolve` say of any other name does not change it)."""
    if asked is None:
        v = _Validator(resolve, allow_external, set(known_functions), unknown)
    else:
        noted = asked

        def resolve_noted(name: str) -> tuple[str | None, Any]:
            noted.add(name)
            return resolve(name)

        v = _Validator(resolve_noted, allow_external, _Noted(known_functions, asked), unknown)
    v.script(script, 0, 0)
    return v.result()


def errors(problems: list[Problem]) -> list[Problem]:
    """The problems that refuse a script (its warnings left out)."""
    return [p for p in problems if p.severity == "error"]


def refusal_text(problems: list[Problem]) -> str:
    """The `err` of a refused script: one `tysh: L:C: message` line per problem."""
    return "".join(f"tysh: {p.format()}\n" for p in problems)

