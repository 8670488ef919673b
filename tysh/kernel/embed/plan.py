"""What a script would do, read from its syntax tree alone: for each statement
the commands with their literal arguments, what each command is and the operations its
schema declares, redirect targets, and variables read and written — so an embedder can
approve a script before it runs. Nothing is executed: a `$(…)` is listed as commands of
its own (marked `in_substitution`), never run, and a function body's commands are listed
under the statement that defines the function (marked `in_function`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from tysh.kernel.base.hints import Any
from tysh.kernel.base.record import Record, as_plain, frozen
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.walk import children, static_word

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ARITH_ASSIGN = re.compile(
    r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*(?:<<|>>|[-+*/%&|^])?=(?!=)"
    r"|([A-Za-z_][A-Za-z0-9_]*)\s*(?:\+\+|--)|(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)"
)
DECLARATION_COMMANDS = frozenset({"local", "export", "declare", "typeset", "readonly"})
# options of `read` / `mapfile` that take a value (the next word is not a variable)
_READ_VALUE_OPTS = frozenset("pdnNtui")
_MAPFILE_VALUE_OPTS = frozenset("dnOsuCc")
_ASSIGNING_OPS = frozenset({":=", "="})


@frozen
class PlannedCommand(Record):
    """One command: `args` holds each argument's fixed text, or None where it is
    computed at run time (an expansion, a glob). `kind` is "function" "builtin" "tool"
    "external", "assignment" for a bare `x=1`, or None (unknown, or a computed name)."""

    name: str | None
    args: tuple[str | None, ...]
    kind: str | None
    operations: tuple[str, ...] = ()
    line: int = 0
    col: int = 0
    in_function: str | None = None
    in_substitution: bool = False


@frozen
class PlannedRedirect(Record):
    """`op` as written (">" ">>" "<" "<<" …); `target` is the fixed file name or fd,
    None when computed or a here-document."""

    op: str
    fd: int | None
    target: str | None
    line: int = 0
    col: int = 0
    in_function: str | None = None
    in_substitution: bool = False


@frozen
class StatementPlan(Record):
    line: int
    col: int
    commands: tuple[PlannedCommand, ...]
    redirects: tuple[PlannedRedirect, ...]
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    background: bool = False

    def to_json(self) -> dict[str, Any]:
        """Plain dicts, lists, strings, numbers and None: ready for `json.dumps`."""
        return as_plain(self)  # type: ignore[no-any-return]


Resolver = Callable[[str], tuple[str | None, Any]]


def _arith_text(word: ast.Word) -> str:
    out: list[str] = []
    stack: list[Any] = [word]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Lit, ast.Quoted)):
            out.append(n.text)
        elif not isinstance(n, ast.CmdSub):
            kids = children(n)
            kids.reverse()
            stack.extend(kids)
    return " ".join(out)


class _Planner:
    def __init__(self, resolve: Resolver, functions: set[str]) -> None:
        self.resolve = resolve
        self.functions = functions
        self._kinds: dict[str, tuple[str | None, tuple[str, ...]]] = {}

    def kind_of(self, name: str) -> tuple[str | None, tuple[str, ...]]:
        got = self._kinds.get(name)
        if got is None:
            if name in self.functions:
                got = ("function", ())
            else:
                kind, tool = self.resolve(name)
                schema = getattr(tool, "schema", None)
                ops = tuple(schema.operations) if schema is not None else ()
                got = (kind, ops)
            self._kinds[name] = got
        return got

    def statement(self, st: ast.Statement) -> StatementPlan:
        commands: list[PlannedCommand] = []
        redirects: list[PlannedRedirect] = []
        reads: set[str] = set()
        writes: set[str] = set()
        # (node, enclosing function, inside a substitution)
        stack: list[tuple[Any, str | None, bool]] = [(st, None, False)]
        while stack:
            n, fn, sub = stack.pop()
            if isinstance(n, ast.SimpleCommand):
                commands.append(self.command(n, fn, sub, writes))
                for a in n.assigns:
                    writes.add(a.name)
                for _, a in n.arg_assigns:
                    writes.add(a.name)
            elif isinstance(n, ast.Redirect):
                target = None if isinstance(n.target, ast.HereDoc) else static_word(n.target)
                redirects.append(
                    PlannedRedirect(n.op, n.fd, target, n.pos.line, n.pos.col, fn, sub))
            elif isinstance(n, ast.ParamExp):
                if n.name[:1].isalpha() or n.name[:1] == "_":
                    reads.add(n.name)
                    if n.op in _ASSIGNING_OPS:
                        writes.add(n.name)
            elif isinstance(n, ast.For):
                writes.add(n.var)
            elif isinstance(n, ast.FunctionDef):
                writes.add(n.name + "()")
                fn = n.name
            elif isinstance(n, ast.CmdSub):
                sub = True
            elif isinstance(n, (ast.ArithSub, ast.ArithCommand)):
                self.arith(n.expr, reads, writes)
            elif isinstance(n, ast.ArithFor):
                for w in (n.init, n.cond, n.step):
                    if w is not None:
                        self.arith(w, reads, writes)
            kids = children(n)
            kids.reverse()
            stack.extend((k, fn, sub) for k in kids)
        return StatementPlan(
            line=st.pos.line,
            col=st.pos.col,
            commands=tuple(commands),
            redirects=tuple(redirects),
            reads=tuple(sorted(reads)),
            writes=tuple(sorted(writes)),
            background=st.background,
        )

    @staticmethod
    def arith(word: ast.Word, reads: set[str], writes: set[str]) -> None:
        text = _arith_text(word)
        for m in _ARITH_ASSIGN.finditer(text):
            writes.add(next(g for g in m.groups() if g))
        reads.update(_NAME.findall(text))

    def command(
        self, c: ast.SimpleCommand, fn: str | None, sub: bool, writes: set[str]
    ) -> PlannedCommand:
        pos = c.pos
        if not c.words:
            return PlannedCommand(None, (), "assignment", (), pos.line, pos.col, fn, sub)
        name = static_word(c.words[0])
        args = tuple(static_word(w) for w in c.words[1:])
        kind: str | None = None
        operations: tuple[str, ...] = ()
        if name is not None:
            kind, operations = self.kind_of(name)
            writes.update(_written_names(name, args))
        return PlannedCommand(name, args, kind, operations, pos.line, pos.col, fn, sub)


def _written_names(name: str, args: tuple[str | None, ...]) -> list[str]:
    """Variables a builtin assigns through its literal arguments."""
    found: list[str] = []
    if name in DECLARATION_COMMANDS or name == "unset":
        found = [a.split("=", 1)[0].split("[", 1)[0].rstrip("+")
                 for a in args if a and a[0] not in "-+"]
    elif name == "read":
        found = _after_options(args, _READ_VALUE_OPTS, "a")
    elif name in ("mapfile", "readarray"):
        found = _after_options(args, _MAPFILE_VALUE_OPTS, "") or ["MAPFILE"]
    elif name == "printf":
        for i, a in enumerate(args[:-1]):
            if a == "-v":
                found.append(args[i + 1] or "")
    elif name == "getopts" and len(args) >= 2:
        found.append(args[1] or "")
    return [n for n in found if _NAME.fullmatch(n)]


def _after_options(args: tuple[str | None, ...], valued: frozenset[str], named: str) -> list[str]:
    """The operands of `read`-like commands, plus the value of a naming option (`-a`)."""
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a is not None and a.startswith("-") and len(a) > 1 and not out:
            last = a[-1]
            if last in valued or (named and last in named):
                if last in named and i + 1 < len(args):
                    out.append(args[i + 1] or "")
                i += 2
                continue
        elif a is not None:
            out.append(a)
        i += 1
    return out


def plan_script(script: ast.Script, resolve: Resolver,
                known_functions: set[str] | frozenset[str] = frozenset()) -> list[StatementPlan]:
    """One StatementPlan per top-level statement, in source order."""
    functions = set(known_functions)
    stack: list[Any] = [script]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.FunctionDef):
            functions.add(n.name)
        stack.extend(children(n))
    planner = _Planner(resolve, functions)
    return [planner.statement(st) for st in script.statements]
