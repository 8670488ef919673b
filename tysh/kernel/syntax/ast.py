"""The syntax tree: frozen record classes produced by the parser, walked by the interpreter.

This module is the contract between `parser.py` (which builds these nodes) and
`expand.py` / `interpreter.py` (which consume them). Every node carries the source
position of its first character so errors and `Kernel.plan` can point at it.

Words are sequences of parts rather than strings because quoting decides what is
active later: a `Lit` is unquoted source text (glob, brace and tilde characters are
live), a `Quoted` is text whose characters are all literal, and `DQ` groups the parts
of a double-quoted region (so `"$@"` and `"${a[@]}"` can give one word per element).
"""

from __future__ import annotations

from tysh.kernel.base.record import Record, value_record

# Every node is a `@value_record` (see record.py): plain slotted classes whose `__eq__`,
# `__hash__` and `__repr__` come once from `Record` and whose `__init__` is compiled on
# first use, so the syntax tree neither imports attrs nor generates code at import. The
# type checker sees them frozen; at run time their `__init__` stores each field as a
# plain attribute, because the parser makes one or more nodes per token and a checked
# store would cost each of them a call.


@value_record
class Pos(Record):
    line: int = 1
    col: int = 1


NOPOS = Pos(0, 0)

# ---------------------------------------------------------------------------
# Word parts
# ---------------------------------------------------------------------------


@value_record
class Lit(Record):
    """Unquoted source text; `* ? [ { , } ~` keep their meaning here."""

    text: str


@value_record
class Quoted(Record):
    """Literal text: from '…', $'…' (already decoded), a backslash escape, or plain text inside "…"."""

    text: str


@value_record
class ParamExp(Record):
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
        "@Q" "@E" "@U" "@L" "@u" "@P" "@a" "@A" "@K" "@k"   (transformations; no arg)
        "!*" "!@"                              (`${!prefix*}`: names of set variables)
        "bad"                                  (no substitution bash knows; `name` holds
                                                the text between the braces; expanding
                                                it is an error, as in bash)
    """

    name: str
    index: Word | None = None
    length: bool = False
    indirect: bool = False
    op: str = ""
    arg: Word | None = None
    arg2: Word | None = None
    braced: bool = False


@value_record
class CmdSub(Record):
    """`$(…)` and `` `…` ``: the command's output, or the typed value a tool with typed
    substitution returns."""

    body: Script
    pos: Pos = NOPOS


@value_record
class ArithSub(Record):
    """`$((…))`: `expr` holds the parts between the parentheses (like a DQ body);
    after expansion the text is evaluated as an arithmetic expression, as bash does."""

    expr: Word
    pos: Pos = NOPOS


@value_record
class ProcSub(Record):
    """`<(…)` (direction "<") or `>(…)` (">"): the body runs with its stdout (for "<") or
    stdin (for ">") on a pipe, and the part expands to a file name for the pipe's other
    end, such as `/dev/fd/63`."""

    body: Script
    direction: str
    pos: Pos = NOPOS


@value_record
class DQ(Record):
    """A double-quoted region: its parts are Quoted, ParamExp, CmdSub and ArithSub."""

    parts: tuple[WordPart, ...]


WordPart = Lit | Quoted | DQ | ParamExp | CmdSub | ArithSub | ProcSub


@value_record
class Word(Record):
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


@value_record
class ArrayElem(Record):
    """One element of `a=( … )`; `key` is set for `[k]=v` elements, `append` for
    `[k]+=v` (the value is added to the element's)."""

    value: Word
    key: Word | None = None
    append: bool = False


@value_record
class ArrayLit(Record):
    elements: tuple[ArrayElem, ...]


@value_record
class Assign(Record):
    """`name=value`, `name+=value`, `name[i]=value`, `name=( … )`."""

    name: str
    value: Word | ArrayLit
    index: Word | None = None
    append: bool = False
    pos: Pos = NOPOS


@value_record
class HereDoc(Record):
    """Body of `<<WORD`: `quoted` delimiters give a literal body (one Quoted part);
    otherwise the body's parts are Quoted text and expansions as inside "…"."""

    body: Word
    quoted: bool = False
    strip_tabs: bool = False


@value_record
class Redirect(Record):
    """`fd op target`.

    op: ">" ">>" "<" "<>" ">|" "&>" "&>>" ">&" "<&" "<<" "<<-" "<<<".
    fd: the explicit fd number written before the operator, or None for the default
        (1 for output operators, 0 for input ones; both for `&>`).
    target: a Word (file name, fd number for `>&`/`<&`, here-string), or a HereDoc.
    fd_var: for `{name}>file` (fd None), the variable that receives the number of a
        newly allocated descriptor (or, with `>&-`/`<&-`, names the one to close).
    """

    op: str
    target: Word | HereDoc
    fd: int | None = None
    pos: Pos = NOPOS
    fd_var: str | None = None


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------


@value_record
class SimpleCommand(Record):
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


@value_record
class BraceGroup(Record):
    body: Script
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@value_record
class Subshell(Record):
    body: Script
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@value_record
class IfClause(Record):
    cond: Script
    body: Script


@value_record
class If(Record):
    clauses: tuple[IfClause, ...]  # the `if` clause then each `elif`
    else_body: Script | None = None
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@value_record
class While(Record):
    cond: Script
    body: Script
    until: bool = False
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@value_record
class For(Record):
    """`for var in items; do …; done`; items None means `for var` (over "$@")."""

    var: str
    items: tuple[Word, ...] | None
    body: Script
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@value_record
class ArithFor(Record):
    """`for ((init; cond; step))`; each part is an arithmetic Word or None when empty."""

    init: Word | None
    cond: Word | None
    step: Word | None
    body: Script
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@value_record
class CaseItem(Record):
    patterns: tuple[Word, ...]
    body: Script
    terminator: str = ";;"  # ";;", ";&" or ";;&"


@value_record
class Case(Record):
    word: Word
    items: tuple[CaseItem, ...]
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


# `[[ … ]]` expressions ------------------------------------------------------


@value_record
class CondWord(Record):
    """A bare word inside `[[ ]]`: true when non-empty."""

    word: Word


@value_record
class CondUnary(Record):
    op: str  # "-f" "-d" "-e" "-z" "-n" "-r" "-w" "-x" "-s" "-L" "-h" "-v" …
    operand: Word


@value_record
class CondBinary(Record):
    op: str  # "==" "=" "!=" "=~" "<" ">" "-eq" "-ne" "-lt" "-le" "-gt" "-ge" "-nt" "-ot" "-ef"
    left: Word
    right: Word


@value_record
class CondNot(Record):
    operand: CondExpr


@value_record
class CondAnd(Record):
    left: CondExpr
    right: CondExpr


@value_record
class CondOr(Record):
    left: CondExpr
    right: CondExpr


CondExpr = CondWord | CondUnary | CondBinary | CondNot | CondAnd | CondOr


@value_record
class CondCommand(Record):
    """`[[ … ]]`."""

    expr: CondExpr
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@value_record
class ArithCommand(Record):
    """`(( … ))`: status 0 when the value is non-zero."""

    expr: Word
    redirects: tuple[Redirect, ...] = ()
    pos: Pos = NOPOS


@value_record
class FunctionDef(Record):
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


@value_record
class Pipeline(Record):
    """`timed`: 0, or 1 for `time PIPELINE` and 2 for `time -p PIPELINE` (POSIX format)."""

    commands: tuple[Command, ...]
    negated: bool = False
    pos: Pos = NOPOS
    timed: int = 0


@value_record
class AndOr(Record):
    """`p1 && p2 || p3`: `rest` holds ("&&" | "||", pipeline) pairs, left associative."""

    first: Pipeline
    rest: tuple[tuple[str, Pipeline], ...] = ()
    pos: Pos = NOPOS


@value_record
class Statement(Record):
    body: AndOr
    background: bool = False
    pos: Pos = NOPOS


@value_record
class Script(Record):
    statements: tuple[Statement, ...]
    pos: Pos = NOPOS
