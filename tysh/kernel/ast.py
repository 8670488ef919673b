"""The syntax tree: frozen attrs classes produced by the parser, walked by the interpreter.

This module is the contract between `parser.py` (which builds these nodes) and
`expand.py` / `interpreter.py` (which consume them). Every node carries the source
position of its first character so errors and `Kernel.plan` can point at it.

Words are sequences of parts rather than strings because quoting decides what is
active later: a `Lit` is unquoted source text (glob, brace and tilde characters are
live), a `Quoted` is text whose characters are all literal, and `DQ` groups the parts
of a double-quoted region (so `"$@"` and `"${a[@]}"` can give one word per element).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import attrs

# Every node is `@attrs.frozen(repr=False, eq=False)` over `_Node`, which supplies
# `__eq__`, `__hash__` and `__repr__` once for all of them, with attrs' meaning (same
# class and equal fields; hash of the fields; `Name(field=value, …)`). attrs generates
# and compiles those three methods per class at import, which was about two thirds of
# the module's import time — the largest single cost of `tysh -c` after Python itself.
# The nodes are still attrs classes (fields, evolve, has, slots, frozen).

_KEYS: dict[type, Any] = {}


def _key_of(cls: type) -> Any:
    """A function from a node to its field values, built once per class."""
    names = [a.name for a in cls.__attrs_attrs__]  # type: ignore[attr-defined]
    key: Any = attrgetter(*names) if names else (lambda node: ())
    _KEYS[cls] = key
    return key


class _Node:
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        cls = self.__class__
        if other.__class__ is not cls:
            return NotImplemented
        key = _KEYS.get(cls) or _key_of(cls)
        return bool(key(self) == key(other))

    def __hash__(self) -> int:
        cls = self.__class__
        key = _KEYS.get(cls) or _key_of(cls)
        return hash((cls, key(self)))

    def __repr__(self) -> str:
        fields = ", ".join(f"{a.name}={getattr(self, a.name)!r}"
                           for a in self.__attrs_attrs__)  # type: ignore[attr-defined]
        return f"{self.__class__.__name__}({fields})"


@attrs.frozen(repr=False, eq=False)
class Pos(_Node):
    line: int = 1
    col: int = 1


NOPOS = Pos(0, 0)

# ---------------------------------------------------------------------------
# Word parts
# ---------------------------------------------------------------------------


@attrs.frozen(repr=False, eq=False)
class Lit(_Node):
    """Unquoted source text; `* ? [ { , } ~` keep their meaning here."""

    text: str


@attrs.frozen(repr=False, eq=False)
class Quoted(_Node):
    """Literal text: from '…', $'…' (already decoded), a backslash escape, or plain text inside "…"."""

    text: str


@attrs.frozen(repr=False, eq=False)
class ParamExp(_Node):
    """`$x`, `${x}` and every `${…}` operator form.

    name: a variable name, a positional digit string ("1", "10"), or a special
        parameter: "@", "*", "#", "?", "$", "!", "0", "-".
    index: for `${a[i]}` the subscript word; a subscript of exactly `@` or `*` is given
        as `Quoted("@")` / `Quoted("*")` in a one-part word (see `index_all`).
    length: `${#x}` / `${#a[@]}`.
    indirect: `${!a[@]}` / `${!a[*]}` (the keys of an array or record).
    op: "" for plain access, else one of
        ":-" "-" ":=" "=" ":?" "?" ":+" "+"   (defaults/alternatives; arg = the word)
        "#" "##" "%" "%%"                      (prefix/suffix removal; arg = the pattern)
        "/" "//" "/#" "/%"                     (substitution; arg = pattern, arg2 = replacement or None)
        ":"                                    (substring; arg = offset, arg2 = length or None)
        "^^" ",," "^" ","                      (case; arg = optional pattern or None)
    """

    name: str
    index: Word | None = None
    length: bool = False
    indirect: bool = False
    op: str = ""
    arg: Word | None = None
    arg2: Word | None = None
    braced: bool = False


@attrs.frozen(repr=False, eq=False)
class CmdSub(_Node):
    """`$(…)`: the command's output (or typed value, DESIGN §5.4)."""

    body: Script
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class ArithSub(_Node):
    """`$((…))`: `expr` holds the parts between the parentheses (like a DQ body);
    after expansion the text is evaluated as an arithmetic expression, as bash does."""

    expr: Word
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class DQ(_Node):
    """A double-quoted region: its parts are Quoted, ParamExp, CmdSub and ArithSub."""

    parts: tuple[WordPart, ...]


WordPart = Lit | Quoted | DQ | ParamExp | CmdSub | ArithSub


@attrs.frozen(repr=False, eq=False)
class Word(_Node):
    parts: tuple[WordPart, ...]
    pos: Pos = NOPOS

    def literal_text(self) -> str | None:
        """The word's text when it contains no expansion at all (quotes removed), else None."""
        out: list[str] = []
        for p in self.parts:
            if isinstance(p, (Lit, Quoted)):
                out.append(p.text)
            elif isinstance(p, DQ):
                for q in p.parts:
                    if isinstance(q, Quoted):
                        out.append(q.text)
                    else:
                        return None
            else:
                return None
        return "".join(out)


# ---------------------------------------------------------------------------
# Assignments and redirections
# ---------------------------------------------------------------------------


@attrs.frozen(repr=False, eq=False)
class ArrayElem(_Node):
    """One element of `a=( … )`; `key` is set for `[k]=v` elements."""

    value: Word
    key: Word | None = None


@attrs.frozen(repr=False, eq=False)
class ArrayLit(_Node):
    elements: tuple[ArrayElem, ...]


@attrs.frozen(repr=False, eq=False)
class Assign(_Node):
    """`name=value`, `name+=value`, `name[i]=value`, `name=( … )`."""

    name: str
    value: Word | ArrayLit
    index: Word | None = None
    append: bool = False
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class HereDoc(_Node):
    """Body of `<<WORD`: `quoted` delimiters give a literal body (one Quoted part);
    otherwise the body's parts are Quoted text and expansions as inside "…"."""

    body: Word
    quoted: bool = False
    strip_tabs: bool = False


@attrs.frozen(repr=False, eq=False)
class Redirect(_Node):
    """`fd op target`.

    op: ">" ">>" "<" "<>" ">|" "&>" "&>>" ">&" "<&" "<<" "<<-" "<<<".
    fd: the explicit fd number written before the operator, or None for the default
        (1 for output operators, 0 for input ones; both for `&>`).
    target: a Word (file name, fd number for `>&`/`<&`, here-string), or a HereDoc.
    """

    op: str
    target: Word | HereDoc
    fd: int | None = None
    pos: Pos = NOPOS


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------


@attrs.frozen(repr=False, eq=False)
class SimpleCommand(_Node):
    """`A=1 cmd args >out`.

    arg_assigns: for declaration commands (`declare typeset local export readonly`), each
        argument written as an assignment (`x=1`, `x+=1`, `a[i]=v`, `m=([k]=v …)`) is also
        given parsed, as (index into `words`, Assign), because `m=( … )` cannot be a plain
        word. `words[index]` still holds the argument as a word (for `name=( … )` its
        source text as one Quoted part), so tools that ignore `arg_assigns` see the text.
    """

    assigns: tuple[Assign, ...]
    words: tuple[Word, ...]
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS
    arg_assigns: tuple[tuple[int, Assign], ...] = ()


@attrs.frozen(repr=False, eq=False)
class BraceGroup(_Node):
    body: Script
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class Subshell(_Node):
    body: Script
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class IfClause(_Node):
    cond: Script
    body: Script


@attrs.frozen(repr=False, eq=False)
class If(_Node):
    clauses: tuple[IfClause, ...]  # the `if` clause then each `elif`
    else_body: Script | None = None
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class While(_Node):
    cond: Script
    body: Script
    until: bool = False
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class For(_Node):
    """`for var in items; do …; done`; items None means `for var` (over "$@")."""

    var: str
    items: tuple[Word, ...] | None
    body: Script
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class ArithFor(_Node):
    """`for ((init; cond; step))`; each part is an arithmetic Word or None when empty."""

    init: Word | None
    cond: Word | None
    step: Word | None
    body: Script
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class CaseItem(_Node):
    patterns: tuple[Word, ...]
    body: Script
    terminator: str = ";;"  # ";;", ";&" or ";;&"


@attrs.frozen(repr=False, eq=False)
class Case(_Node):
    word: Word
    items: tuple[CaseItem, ...]
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


# `[[ … ]]` expressions ------------------------------------------------------


@attrs.frozen(repr=False, eq=False)
class CondWord(_Node):
    """A bare word inside `[[ ]]`: true when non-empty."""

    word: Word


@attrs.frozen(repr=False, eq=False)
class CondUnary(_Node):
    op: str  # "-f" "-d" "-e" "-z" "-n" "-r" "-w" "-x" "-s" "-L" "-h" "-v" …
    operand: Word


@attrs.frozen(repr=False, eq=False)
class CondBinary(_Node):
    op: str  # "==" "=" "!=" "=~" "<" ">" "-eq" "-ne" "-lt" "-le" "-gt" "-ge" "-nt" "-ot" "-ef"
    left: Word
    right: Word


@attrs.frozen(repr=False, eq=False)
class CondNot(_Node):
    operand: CondExpr


@attrs.frozen(repr=False, eq=False)
class CondAnd(_Node):
    left: CondExpr
    right: CondExpr


@attrs.frozen(repr=False, eq=False)
class CondOr(_Node):
    left: CondExpr
    right: CondExpr


CondExpr = CondWord | CondUnary | CondBinary | CondNot | CondAnd | CondOr


@attrs.frozen(repr=False, eq=False)
class CondCommand(_Node):
    """`[[ … ]]`."""

    expr: CondExpr
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class ArithCommand(_Node):
    """`(( … ))`: status 0 when the value is non-zero."""

    expr: Word
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class FunctionDef(_Node):
    name: str
    body: Command  # a compound command (usually a BraceGroup)
    pos: Pos = NOPOS


Command = (
    SimpleCommand
    | BraceGroup
    | Subshell
    | If
    | While
    | For
    | ArithFor
    | Case
    | CondCommand
    | ArithCommand
    | FunctionDef
)

# ---------------------------------------------------------------------------
# Pipelines, lists, scripts
# ---------------------------------------------------------------------------


@attrs.frozen(repr=False, eq=False)
class Pipeline(_Node):
    commands: tuple[Command, ...]
    negated: bool = False
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class AndOr(_Node):
    """`p1 && p2 || p3`: `rest` holds ("&&" | "||", pipeline) pairs, left associative."""

    first: Pipeline
    rest: tuple[tuple[str, Pipeline], ...] = ()
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class Statement(_Node):
    body: AndOr
    background: bool = False
    pos: Pos = NOPOS


@attrs.frozen(repr=False, eq=False)
class Script(_Node):
    statements: tuple[Statement, ...]
    pos: Pos = NOPOS
