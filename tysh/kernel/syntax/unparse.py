"""Print a syntax tree back as shell source, in bash's canonical layout (`declare -f`, `type`).

The layout follows bash's own command printer: a function prints as `name () ` / `{ ` /
the body indented by four spaces / `}`; statements inside a function end with `;` and a
newline (the last one without `;`); `if …; then`, `while …; do`, `for x in …;` + `do` on
its own line, `case … in ` with `pat)` lines and `;;`; outside a function (inside `$( )`)
a list stays on one line joined by `; `. Here-document bodies follow the command line.

The tree does not keep the source text, so quoting is rebuilt: unquoted text prints as
is, a one-character literal as `\\c`, longer literal text in single quotes (`$'…'` is
printed decoded, as bash 5.2 does), double-quoted regions as `"…"`. A here-document's
delimiter is not kept either: it prints as `EOF` (or `EOF1`, … when the body holds that
line). Nothing here raises: a node it does not know prints as its repr.
"""

from __future__ import annotations

from tysh.kernel.syntax import ast

__all__ = ["function_source", "command_source", "script_source", "word_source"]

_INDENT = 4
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_DQ_SPECIAL = frozenset('$`"\\\n')


def function_source(name: str, fn: ast.FunctionDef) -> str:
    """`declare -f NAME`'s text for `fn`, without a final newline."""
    try:
        return _Printer(in_function=1).top_function(name, fn)
    except Exception as e:  # never fail a `declare -f` over a printer gap
        return f"{name} () \n{{ \n    # tysh: cannot print this body ({type(e).__name__})\n}}"


def script_source(script: ast.Script) -> str:
    """A script as one line of source (statements joined by `; `), as inside `$( )`."""
    try:
        p = _Printer(in_function=0)
        p.script(script)
        p.flush_heredocs("")
        return p.text()
    except Exception:
        return repr(script)


def command_source(cmd: ast.Command) -> str:
    return script_source(ast.Script((ast.Statement(ast.AndOr(ast.Pipeline((cmd,)))),)))


def word_source(word: ast.Word) -> str:
    try:
        return _word(word)
    except Exception:
        return repr(word)


# ---------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------


def _word(w: ast.Word, dq: bool = False) -> str:
    return _parts(w.parts, dq)


def _parts(parts: tuple[ast.WordPart, ...], dq: bool) -> str:
    out: list[str] = []
    for k, p in enumerate(parts):
        nxt = parts[k + 1] if k + 1 < len(parts) else None
        out.append(_part(p, dq, nxt))
    return "".join(out)


def _starts_name(p: ast.WordPart | None) -> bool:
    if isinstance(p, (ast.Lit, ast.Quoted)):
        return bool(p.text) and p.text[0] in _NAME_CHARS
    return False


def _part(p: ast.WordPart, dq: bool, nxt: ast.WordPart | None) -> str:
    if isinstance(p, ast.Lit):
        return p.text
    if isinstance(p, ast.Quoted):
        return _dq_text(p.text) if dq else _single(p.text)
    if isinstance(p, ast.DQ):
        return '"' + _parts(p.parts, True) + '"'
    if isinstance(p, ast.ParamExp):
        return _param(p, dq, _starts_name(nxt))
    if isinstance(p, ast.CmdSub):
        body = script_source(p.body)
        return "$(" + (" " if body.startswith("(") else "") + body + ")"
    if isinstance(p, ast.ArithSub):
        return "$((" + _arith(p.expr) + "))"
    if isinstance(p, ast.ProcSub):
        return p.direction + "(" + script_source(p.body) + ")"
    return repr(p)


def _single(text: str) -> str:
    """Literal text outside double quotes: `\\c` for one character, else '…'."""
    if len(text) == 1 and text not in _NAME_CHARS and text.isprintable():
        return "\\" + text
    if not text:
        return "''"
    pieces = text.split("'")
    return "\\'".join(f"'{s}'" if s else "" for s in pieces)


def _dq_text(text: str) -> str:
    """Literal text inside "…": escape what would otherwise be live there."""
    out: list[str] = []
    for k, ch in enumerate(text):
        if ch in '$`"':
            out.append("\\" + ch)
        elif ch == "\\":
            last = k + 1 == len(text)
            nxt_special = not last and text[k + 1] in _DQ_SPECIAL
            out.append("\\\\" if nxt_special or last else "\\")
        else:
            out.append(ch)
    return "".join(out)


def _heredoc_text(parts: tuple[ast.WordPart, ...]) -> str:
    out: list[str] = []
    for p in parts:
        if isinstance(p, ast.Quoted):
            t = p.text
            t = t.replace("\\", "\\\\").replace("$", "\\$").replace("`", "\\`")
            out.append(t)
        else:
            out.append(_part(p, True, None))
    return "".join(out)


def _arith(w: ast.Word) -> str:
    out: list[str] = []
    for p in w.parts:
        if isinstance(p, (ast.Lit, ast.Quoted)):
            out.append(p.text)
        elif isinstance(p, ast.DQ):
            out.append('"' + _parts(p.parts, True) + '"')
        else:
            out.append(_part(p, False, None))
    return "".join(out)


def _param(p: ast.ParamExp, dq: bool, glued: bool) -> str:
    plain = (p.index is None and not p.length and not p.indirect and not p.op
             and p.arg is None and p.arg2 is None)
    if plain and not p.braced and not (glued and p.name[:1] in _NAME_CHARS):
        return "$" + p.name
    if p.op == "bad":
        return "${" + p.name + "}"
    head = "${" + ("#" if p.length else "")
    if p.op in ("!*", "!@"):
        return head + "!" + p.name + p.op[1] + "}"
    head += ("!" if p.indirect else "") + p.name
    if p.index is not None:
        head += "[" + _index(p.index) + "]"
    op = p.op
    arg = "" if p.arg is None else _word(p.arg, dq)
    if op in ("/", "//", "/#", "/%"):
        body = op + arg + ("" if p.arg2 is None else "/" + _word(p.arg2, dq))
    elif op == ":":
        body = ":" + arg + ("" if p.arg2 is None else ":" + _word(p.arg2, dq))
    else:
        body = op + arg
    return head + body + "}"


def _index(w: ast.Word) -> str:
    if len(w.parts) == 1 and isinstance(w.parts[0], ast.Quoted) and w.parts[0].text in ("@", "*"):
        return w.parts[0].text
    return _arith(w)


def assign_head(a: ast.Assign) -> str:
    """`name=`, `name[sub]+=`: an assignment up to its value, as written."""
    head = a.name + ("" if a.index is None else "[" + _index(a.index) + "]")
    return head + ("+=" if a.append else "=")


def assign_source(a: ast.Assign) -> str:
    """An assignment as written (an array literal with its elements unexpanded)."""
    return _assign(a)


def _assign(a: ast.Assign) -> str:
    head = assign_head(a)
    if isinstance(a.value, ast.ArrayLit):
        elems = [("" if e.key is None else "[" + _index(e.key) + ("]+=" if e.append else "]="))
                 + _word(e.value) for e in a.value.elements]
        return head + "(" + " ".join(elems) + ")"
    return head + _word(a.value)


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------


class _Printer:
    """bash's print_cmd.c state machine: indentation, the indent of the next command
    being skipped (it continues a line), and here-documents waiting for the line's end."""

    def __init__(self, in_function: int) -> None:
        self.buf: list[str] = []
        self.indentation = 0
        self.skip_indent = 0
        self.in_function = in_function
        self.connection = 0
        self.deferred: list[ast.Redirect] = []
        self.was_heredoc = False

    def text(self) -> str:
        return "".join(self.buf)

    def put(self, s: str) -> None:
        if s:
            self.buf.append(s)

    def last_char(self) -> str:
        for s in reversed(self.buf):
            if s:
                return s[-1]
        return ""

    def semicolon(self) -> None:
        if self.last_char() not in ("&", "\n", ""):
            self.put(";")

    def newline(self, s: str) -> None:
        self.put("\n")
        self.indent()
        self.put(s)

    def indent(self) -> None:
        self.put(" " * self.indentation)

    # --- top level ----------------------------------------------------------

    def top_function(self, name: str, fn: ast.FunctionDef) -> str:
        self.put(f"{name} () \n{{ \n")
        self.indentation = _INDENT
        redirects: tuple[ast.Redirect, ...] = ()
        body = fn.body
        if isinstance(body, ast.BraceGroup):
            redirects = body.redirects
            self.script(body.body)
        else:
            self.command(body)
        self.flush_heredocs("")
        self.indentation = 0
        self.put("\n}")
        if redirects:
            self.put(" ")
            self.redirects(redirects)
            self.flush_heredocs("")
        return self.text()

    # --- lists --------------------------------------------------------------

    def start_node(self) -> None:
        if self.skip_indent:
            self.skip_indent -= 1
        else:
            self.indent()

    def script(self, s: ast.Script) -> None:
        stmts = s.statements
        if not stmts:
            return
        if len(stmts) == 1 and not stmts[0].background:
            self.and_or(stmts[0].body)
            return
        self.start_node()
        self.connection += 1
        for k, st in enumerate(stmts):
            if k == 0:
                self.skip_indent += 1
            self.and_or(st.body)
            more = k + 1 < len(stmts)
            if st.background:
                self.flush_heredocs(" &")
                if more:
                    self.put(" ")
                    self.skip_indent += 1
            elif more:
                if not self.deferred:
                    if not self.was_heredoc:
                        self.put(";")
                    else:
                        self.was_heredoc = False
                else:
                    self.flush_heredocs("" if self.in_function else ";")
                if self.in_function:
                    self.put("\n")
                else:
                    self.put(" ")
                    self.skip_indent += 1
        self.flush_heredocs("")
        self.connection -= 1

    def and_or(self, ao: ast.AndOr) -> None:
        if not ao.rest:
            self.pipeline(ao.first)
            return
        self.start_node()
        self.connection += 1
        self.skip_indent += 1
        self.pipeline(ao.first)
        for op, pl in ao.rest:
            self.flush_heredocs(f" {op} ")
            self.skip_indent += 1
            self.pipeline(pl)
        self.flush_heredocs("")
        self.connection -= 1

    def pipeline(self, pl: ast.Pipeline) -> None:
        prefix = ""
        if pl.timed:
            prefix += "time -p " if pl.timed == 2 else "time "
        if pl.negated:
            prefix += "! "
        if len(pl.commands) == 1 and not prefix:
            self.command(pl.commands[0])
            return
        self.start_node()
        self.put(prefix)
        self.skip_indent += 1
        if len(pl.commands) == 1:
            self.command(pl.commands[0])
            return
        self.connection += 1
        for k, cmd in enumerate(pl.commands):
            if k:
                self.flush_heredocs(" |")
                self.put(" ")
                self.skip_indent += 1
            self.command(cmd)
        self.flush_heredocs("")
        self.connection -= 1

    def flush_heredocs(self, cstring: str) -> None:
        """bash's print_deferred_heredocs: the connector, then any pending bodies."""
        shown = bool(cstring) and (cstring[0] != ";" or len(cstring) > 1)
        if shown:
            self.put(cstring)
        if self.deferred:
            for r in self.deferred:
                self.heredoc_body(r)
            if shown:
                self.put(" ")
            self.deferred = []
            self.was_heredoc = True

    # --- commands -------------------------------------------------------------

    def command(self, cmd: ast.Command) -> None:
        self.start_node()
        if isinstance(cmd, ast.SimpleCommand):
            self.simple(cmd)
            return
        if isinstance(cmd, ast.BraceGroup):
            self.group(cmd.body)
        elif isinstance(cmd, ast.Subshell):
            self.put("( ")
            self.skip_indent += 1
            self.script(cmd.body)
            self.flush_heredocs("")
            self.put(" )")
        elif isinstance(cmd, ast.If):
            self.if_(cmd.clauses, cmd.else_body)
        elif isinstance(cmd, ast.While):
            self.put("until " if cmd.until else "while ")
            self.skip_indent += 1
            self.script(cmd.cond)
            self.flush_heredocs("")
            self.semicolon()
            self.put(" do\n")
            self.body_then("done", cmd.body)
        elif isinstance(cmd, ast.For):
            items = ('"$@"',) if cmd.items is None else tuple(_word(w) for w in cmd.items)
            self.put(f"for {cmd.var} in " + " ".join(items) + ";")
            self.newline("do\n")
            self.body_then("done", cmd.body)
        elif isinstance(cmd, ast.ArithFor):
            parts = ["" if w is None else _arith(w).lstrip() for w in (cmd.init, cmd.cond, cmd.step)]
            self.put("for ((" + "; ".join(parts) + "))")
            self.newline("do\n")
            self.body_then("done", cmd.body)
        elif isinstance(cmd, ast.Case):
            self.case(cmd)
        elif isinstance(cmd, ast.CondCommand):
            self.put("[[ " + _cond(cmd.expr) + " ]]")
        elif isinstance(cmd, ast.ArithCommand):
            self.put("((" + _arith(cmd.expr) + "))")
        elif isinstance(cmd, ast.FunctionDef):
            self.nested_function(cmd)
        else:
            self.put(repr(cmd))
        redirects = getattr(cmd, "redirects", ())
        if isinstance(redirects, tuple) and redirects:
            self.put(" ")
            self.redirects(redirects)

    def body_then(self, closer: str, body: ast.Script) -> None:
        self.indentation += _INDENT
        self.script(body)
        self.flush_heredocs("")
        self.indentation -= _INDENT
        self.semicolon()
        self.newline(closer)

    def group(self, body: ast.Script) -> None:
        self.put("{ ")
        if not self.in_function:
            self.skip_indent += 1
        else:
            self.put("\n")
            self.indentation += _INDENT
        self.script(body)
        self.flush_heredocs("")
        if self.in_function:
            self.put("\n")
            self.indentation -= _INDENT
            self.indent()
        else:
            self.semicolon()
            self.put(" ")
        self.put("}")

    def if_(self, clauses: tuple[ast.IfClause, ...], else_body: ast.Script | None) -> None:
        first = clauses[0]
        self.put("if ")
        self.skip_indent += 1
        self.script(first.cond)
        self.semicolon()
        self.put(" then\n")
        self.indentation += _INDENT
        self.script(first.body)
        self.flush_heredocs("")
        self.semicolon()
        self.put("\n")
        self.indentation -= _INDENT
        if len(clauses) > 1 or else_body is not None:
            self.indent()
            self.put("else\n")
            self.indentation += _INDENT
            if len(clauses) > 1:
                self.start_node()
                self.if_(clauses[1:], else_body)
            elif else_body is not None:
                self.script(else_body)
            self.flush_heredocs("")
            self.semicolon()
            self.put("\n")
            self.indentation -= _INDENT
        self.indent()
        self.put("fi")

    def case(self, cmd: ast.Case) -> None:
        self.put(f"case {_word(cmd.word)} in ")
        self.indentation += _INDENT
        for item in cmd.items:
            self.newline("")
            self.put(" | ".join(_word(w) for w in item.patterns) + ")\n")
            self.indentation += _INDENT
            self.script(item.body)
            self.indentation -= _INDENT
            self.flush_heredocs("")
            self.newline(item.terminator)
        self.indentation -= _INDENT
        self.newline("esac")

    def nested_function(self, fn: ast.FunctionDef) -> None:
        self.put(f"function {fn.name} () \n")
        self.indent()
        self.put("{ \n")
        self.in_function += 1
        self.indentation += _INDENT
        redirects: tuple[ast.Redirect, ...] = ()
        if isinstance(fn.body, ast.BraceGroup):
            redirects = fn.body.redirects
            self.script(fn.body.body)
        else:
            self.command(fn.body)
        self.flush_heredocs("")
        self.indentation -= _INDENT
        self.in_function -= 1
        if redirects:
            self.newline("} ")
            self.redirects(redirects)
        else:
            self.newline("}")

    def simple(self, cmd: ast.SimpleCommand) -> None:
        words = [_word(w) for w in cmd.words]
        for k, a in cmd.arg_assigns:
            if 0 <= k < len(words):
                words[k] = _assign(a)
        self.put(" ".join([_assign(a) for a in cmd.assigns] + words))
        if cmd.redirects:
            if cmd.assigns or cmd.words:
                self.put(" ")
            self.redirects(cmd.redirects)

    # --- redirections -----------------------------------------------------------

    def redirects(self, rs: tuple[ast.Redirect, ...]) -> None:
        heredocs: list[ast.Redirect] = []
        texts: list[str] = []
        for r in rs:
            if isinstance(r.target, ast.HereDoc):
                texts.append(_redirect_head(r, _delimiter(r.target)))
                heredocs.append(r)
            else:
                texts.append(_redirect_head(r, ""))
        self.put(" ".join(texts))
        if heredocs:
            if self.connection:
                self.deferred.extend(heredocs)
            else:
                for r in heredocs:
                    self.heredoc_body(r)

    def heredoc_body(self, r: ast.Redirect) -> None:
        doc = r.target
        if not isinstance(doc, ast.HereDoc):
            return
        delim = _delimiter(doc)
        if doc.quoted:
            body = "".join(p.text if isinstance(p, (ast.Lit, ast.Quoted)) else _part(p, True, None)
                           for p in doc.body.parts)
        else:
            body = _heredoc_text(doc.body.parts)
        self.put("\n" + body + delim + "\n")


def _delimiter(doc: ast.HereDoc) -> str:
    lines = set("".join(p.text for p in doc.body.parts
                        if isinstance(p, (ast.Lit, ast.Quoted))).split("\n"))
    delim = "EOF"
    n = 0
    while delim in lines:
        n += 1
        delim = f"EOF{n}"
    return delim


def _redirect_head(r: ast.Redirect, delim: str) -> str:
    op = r.op
    fd = r.fd
    if r.fd_var is not None:
        head = "{" + r.fd_var + "}" + op
        if isinstance(r.target, ast.HereDoc):
            return head + (f"'{delim}'" if r.target.quoted else delim)
        return head + _word(r.target)
    if isinstance(r.target, ast.HereDoc):
        shown = f"'{delim}'" if r.target.quoted else delim
        return ("" if fd in (None, 0) else str(fd)) + op + shown
    target = _word(r.target)
    if op in (">&", "<&"):
        default = 1 if op == ">&" else 0
        if target == "-":
            return f"{default if fd is None else fd}>&-"
        return f"{default if fd is None else fd}{op}{target}"
    if op in ("&>", "&>>"):
        return f"{op} {target}"
    default = 0 if op.startswith("<") else 1
    prefix = "" if fd is None or fd == default else str(fd)
    return f"{prefix}{op} {target}"


# ---------------------------------------------------------------------------
# [[ … ]]
# ---------------------------------------------------------------------------


def _cond(e: ast.CondExpr) -> str:
    if isinstance(e, ast.CondWord):
        return _word(e.word)
    if isinstance(e, ast.CondUnary):
        return f"{e.op} {_word(e.operand)}"
    if isinstance(e, ast.CondBinary):
        return f"{_word(e.left)} {e.op} {_word(e.right)}"
    if isinstance(e, ast.CondNot):
        inner = _cond(e.operand)
        if isinstance(e.operand, (ast.CondAnd, ast.CondOr)):
            inner = f"( {inner} )"
        return "! " + inner
    if isinstance(e, ast.CondAnd):
        left, right = _cond(e.left), _cond(e.right)
        if isinstance(e.left, ast.CondOr):
            left = f"( {left} )"
        if isinstance(e.right, (ast.CondOr, ast.CondAnd)):
            right = f"( {right} )"
        return f"{left} && {right}"
    if isinstance(e, ast.CondOr):
        left, right = _cond(e.left), _cond(e.right)
        if isinstance(e.right, ast.CondOr):
            right = f"( {right} )"
        return f"{left} || {right}"
    return repr(e)
