"""awk's parser: tokens → a small tuple AST, by recursive descent with awk's precedence.

Expressions are tuples whose first item names the node (`("bin", "+", a, b)`), statements
likewise (`("print", args, redir, target)`). Precedence, lowest first: assignment (right
assoc), `?:`, `||`, `&&`, `in`, `~ !~`, comparisons, concatenation, `+ -`, `* / %`, unary
`! - +`, `^` (right assoc, and `-2^2` is -4), `++ --`, `$`, grouping. Inside a print
list a bare `>` is a redirection (the `no_gt` flag), and `(a, b)` is a grouped list."""

from __future__ import annotations

from tysh.builtins.awk.lex import AwkSyntaxError, Tok, tokenize
from tysh.kernel.base.hints import Any
from tysh.kernel.base.record import MutableRecord, field, mutable

Node = tuple[Any, ...]


@mutable
class Func(MutableRecord):
    name: str
    params: list[str]
    body: list[Node]


@mutable
class Program(MutableRecord):
    begin: list[list[Node]] = field(factory=list)
    end: list[list[Node]] = field(factory=list)
    # (pattern or None, range end pattern or None, action or None for "print")
    rules: list[tuple[Node | None, Node | None, list[Node] | None]] = field(factory=list)
    funcs: dict[str, Func] = field(factory=dict)


_ASSIGN = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "^=", "**="})
_CMP = frozenset({"<", "<=", "!=", "==", ">", ">="})
# tokens that can begin an operand of implicit concatenation (not + or -: those are binary)
_CONCAT_START = frozenset({"NAME", "FUNC_NAME", "BUILTIN", "NUMBER", "STRING", "ERE", "$",
                           "(", "++", "--"})
_STMT_END = frozenset({";", "NEWLINE", "}", "EOF"})
_LVALUES = frozenset({"var", "idx", "field"})


class Parser:
    def __init__(self, src: str) -> None:
        self.toks = tokenize(src)
        self.i = 0
        self.prog = Program()
        self.calls: list[tuple[str, int]] = []
        self.func_params: set[str] = set()
        self.in_func = False
        self.loop = 0

    # -- helpers ---------------------------------------------------------------------
    @property
    def tok(self) -> Tok:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Tok:
        j = min(self.i + k, len(self.toks) - 1)
        return self.toks[j]

    def fail(self, tok: Tok | None = None) -> AwkSyntaxError:
        t = tok or self.tok
        near = {"NEWLINE": "end of line", "EOF": "end of program"}.get(t.kind)
        shown = near or ("'" + (f'"{t.value}"' if t.kind == "STRING" else
                                f"/{t.value}/" if t.kind == "ERE" else t.value) + "'")
        return AwkSyntaxError(f"syntax error at line {t.line} near {shown}")

    def next(self) -> Tok:
        t = self.toks[self.i]
        if t.kind != "EOF":
            self.i += 1
        return t

    def expect(self, kind: str) -> Tok:
        if self.tok.kind != kind:
            raise self.fail()
        return self.next()

    def nl(self) -> None:
        while self.tok.kind == "NEWLINE":
            self.i += 1

    def terms(self) -> None:
        while self.tok.kind in ("NEWLINE", ";"):
            self.i += 1

    # -- program ---------------------------------------------------------------------
    def parse(self) -> Program:
        self.terms()
        while self.tok.kind != "EOF":
            self.item()
            self.terms()
        for name, line in self.calls:
            if name not in self.prog.funcs:
                raise AwkSyntaxError(f"function `{name}' not defined (line {line})")
        return self.prog

    def item(self) -> None:
        k = self.tok.kind
        if k in ("BEGIN", "END"):
            self.next()
            self.nl()
            if self.tok.kind != "{":
                raise self.fail()
            (self.prog.begin if k == "BEGIN" else self.prog.end).append(self.block())
            return
        if k == "func":
            self.function()
            return
        pat: Node | None = None
        pat2: Node | None = None
        if k != "{":
            pat = self.expr()
            if self.tok.kind == ",":
                self.next()
                self.nl()
                pat2 = self.expr()
        if self.tok.kind == "{":
            self.prog.rules.append((pat, pat2, self.block()))
        elif self.tok.kind in _STMT_END:
            self.prog.rules.append((pat, pat2, None))
        else:
            raise self.fail()

    def function(self) -> None:
        self.next()
        t = self.next()
        if t.kind not in ("NAME", "FUNC_NAME"):
            raise self.fail(t)
        name = t.value
        if name in self.prog.funcs:
            raise AwkSyntaxError(f"function `{name}' redefined at source line {t.line}")
        self.expect("(")
        params: list[str] = []
        while self.tok.kind != ")":
            p = self.expect("NAME").value
            if p in params or p == name:
                raise self.fail()
            params.append(p)
            if self.tok.kind == ",":
                self.next()
                self.nl()
            elif self.tok.kind != ")":
                raise self.fail()
        self.next()
        self.nl()
        self.in_func, self.func_params = True, set(params)
        f = Func(name, params, [])
        self.prog.funcs[name] = f
        f.body = self.block()
        self.in_func, self.func_params = False, set()

    def block(self) -> list[Node]:
        self.expect("{")
        out: list[Node] = []
        self.terms()
        while self.tok.kind != "}":
            if self.tok.kind == "EOF":
                raise self.fail()
            out.append(self.stmt())
            self.terms()
        self.next()
        return out

    # -- statements ------------------------------------------------------------------
    def simple_end(self) -> None:
        k = self.tok.kind
        if k in (";", "NEWLINE"):
            self.next()
        elif k not in ("}", "EOF"):
            raise self.fail()

    def body(self) -> Node:
        """The statement governed by if/while/for: may follow newlines; `;` is empty."""
        self.nl()
        if self.tok.kind == ";":
            self.next()
            return ("block", [])
        return self.stmt()

    def stmt(self) -> Node:
        t = self.tok
        k = t.kind
        if k == "{":
            return ("block", self.block())
        if k == "if":
            self.next()
            self.expect("(")
            c = self.expr()
            self.expect(")")
            then = self.body()
            save = self.i
            self.terms()
            if self.tok.kind == "else":
                self.next()
                return ("if", c, then, self.body())
            self.i = save
            return ("if", c, then, None)
        if k == "while":
            self.next()
            self.expect("(")
            c = self.expr()
            self.expect(")")
            if self.tok.kind == ";":
                self.next()
                return ("while", c, ("block", []))
            self.loop += 1
            b = self.body()
            self.loop -= 1
            return ("while", c, b)
        if k == "do":
            self.next()
            self.loop += 1
            b = self.body()
            self.loop -= 1
            self.terms()
            self.expect("while")
            self.expect("(")
            c = self.expr()
            self.expect(")")
            self.simple_end()
            return ("do", b, c)
        if k == "for":
            return self.for_stmt()
        if k == ";":
            self.next()
            return ("block", [])
        node = self.simple_stmt()
        self.simple_end()
        return node

    def for_stmt(self) -> Node:
        self.next()
        self.expect("(")
        if self.tok.kind == "NAME" and self.peek().kind == "in":
            # for (k in arr) — unless it is `for ((k in a); …)`, which a ")" decides
            j = self.i + 2
            if self.toks[j].kind == "NAME" and self.toks[j + 1].kind == ")":
                var = self.next().value
                self.next()
                arr = self.next().value
                self.next()
                self.loop += 1
                b = self.body()
                self.loop -= 1
                return ("forin", ("var", var), arr, b)
        init = None if self.tok.kind == ";" else self.simple_stmt()
        self.expect(";")
        self.nl()
        cond = None if self.tok.kind == ";" else self.expr()
        self.expect(";")
        self.nl()
        incr = None if self.tok.kind == ")" else self.simple_stmt()
        self.expect(")")
        if self.tok.kind == ";":
            self.next()
            return ("for", init, cond, incr, ("block", []))
        self.loop += 1
        b = self.body()
        self.loop -= 1
        return ("for", init, cond, incr, b)

    def simple_stmt(self) -> Node:
        t = self.tok
        k = t.kind
        if k in ("print", "printf"):
            return self.print_stmt()
        if k in ("break", "continue"):
            if not self.loop:
                raise AwkSyntaxError(f"`{k}' is not allowed outside a loop (line {t.line})")
            self.next()
            return (k,)
        if k in ("next", "nextfile"):
            self.next()
            return (k,)
        if k == "exit":
            self.next()
            return ("exit", None if self.tok.kind in _STMT_END else self.expr())
        if k == "return":
            if not self.in_func:
                raise AwkSyntaxError(f"`return' used outside function context (line {t.line})")
            self.next()
            return ("return", None if self.tok.kind in _STMT_END else self.expr())
        if k == "delete":
            self.next()
            name = self.expect("NAME").value
            if self.tok.kind == "[":
                self.next()
                subs = self.expr_list()
                self.expect("]")
                return ("delete", name, subs)
            return ("delete", name, None)
        return ("expr", self.expr())

    def print_stmt(self) -> Node:
        kind = self.next().kind
        args: list[Node] = []
        if self.tok.kind == "(":
            save = self.i
            self.next()
            try:
                lst = self.expr_list(no_gt=False)
                self.expect(")")
                if self.tok.kind in _STMT_END or self.tok.kind in (">", ">>", "|"):
                    args = lst
                else:
                    raise self.fail()
            except AwkSyntaxError:
                self.i = save
                args = self.expr_list(no_gt=True)
        elif self.tok.kind not in _STMT_END and self.tok.kind not in (">", ">>", "|"):
            args = self.expr_list(no_gt=True)
        redir: str | None = None
        target: Node | None = None
        if self.tok.kind in (">", ">>", "|"):
            redir = self.next().kind
            target = self.concat(no_gt=True)
        if kind == "printf" and not args:
            raise self.fail()
        return (kind, args, redir, target)

    def expr_list(self, no_gt: bool = False) -> list[Node]:
        out = [self.expr(no_gt)]
        while self.tok.kind == ",":
            self.next()
            self.nl()
            out.append(self.expr(no_gt))
        return out

    # -- expressions -----------------------------------------------------------------
    def expr(self, no_gt: bool = False) -> Node:
        left = self.ternary(no_gt)
        k = self.tok.kind
        if k in _ASSIGN:
            if left[0] not in _LVALUES:
                raise self.fail()
            self.next()
            self.nl()
            right = self.expr(no_gt)
            return ("assign", "^=" if k == "**=" else k, left, right)
        return left

    def ternary(self, no_gt: bool) -> Node:
        c = self.or_(no_gt)
        if self.tok.kind == "?":
            self.next()
            self.nl()
            a = self.expr(no_gt)
            self.nl()
            self.expect(":")
            self.nl()
            b = self.expr(no_gt)
            return ("cond", c, a, b)
        return c

    def or_(self, no_gt: bool) -> Node:
        left = self.and_(no_gt)
        while self.tok.kind == "||":
            self.next()
            self.nl()
            left = ("or", left, self.and_(no_gt))
        return left

    def and_(self, no_gt: bool) -> Node:
        left = self.in_(no_gt)
        while self.tok.kind == "&&":
            self.next()
            self.nl()
            left = ("and", left, self.in_(no_gt))
        return left

    def in_(self, no_gt: bool) -> Node:
        left = self.match(no_gt)
        while self.tok.kind == "in":
            self.next()
            name = self.expect("NAME").value
            subs = left[1] if left[0] == "grouplist" else [left]
            left = ("in", subs, name)
        return left

    def match(self, no_gt: bool) -> Node:
        left = self.compare(no_gt)
        while self.tok.kind in ("~", "!~"):
            neg = self.next().kind == "!~"
            left = ("match", neg, left, self.compare(no_gt))
        return left

    def compare(self, no_gt: bool) -> Node:
        left = self.pipe_getline(no_gt)
        k = self.tok.kind
        if k in _CMP and not (no_gt and k == ">"):
            self.next()
            left = ("cmp", k, left, self.pipe_getline(no_gt))
        return left

    def pipe_getline(self, no_gt: bool) -> Node:
        left = self.concat(no_gt)
        while self.tok.kind == "|" and self.peek().kind == "getline":
            self.next()
            self.next()
            lv = self.opt_lvalue()
            left = ("getline", "cmd", lv, left)
        return left

    def concat(self, no_gt: bool) -> Node:
        parts = [self.additive()]
        while self.tok.kind in _CONCAT_START:
            parts.append(self.additive())
        return parts[0] if len(parts) == 1 else ("concat", parts)

    def additive(self) -> Node:
        left = self.mul()
        while self.tok.kind in ("+", "-"):
            op = self.next().kind
            left = ("bin", op, left, self.mul())
        return left

    def mul(self) -> Node:
        left = self.unary()
        while self.tok.kind in ("*", "/", "%"):
            op = self.next().kind
            left = ("bin", op, left, self.unary())
        return left

    def unary(self) -> Node:
        k = self.tok.kind
        if k == "!":
            self.next()
            return ("not", self.unary())
        if k == "-":
            self.next()
            return ("neg", self.unary())
        if k == "+":
            self.next()
            return ("pos", self.unary())
        return self.power()

    def power(self) -> Node:
        left = self.postfix()
        if self.tok.kind in ("^", "**"):
            self.next()
            # right associative, and the exponent may carry a sign: 2^-1
            if self.tok.kind in ("-", "+", "!"):
                right = self.unary()
            else:
                right = self.power()
            return ("bin", "^", left, right)
        return left

    def postfix(self) -> Node:
        k = self.tok.kind
        if k in ("++", "--"):
            self.next()
            lv = self.postfix()
            if lv[0] not in _LVALUES:
                raise self.fail()
            return ("preinc", k, lv)
        e = self.primary()
        if e[0] in _LVALUES and self.tok.kind in ("++", "--"):
            return ("postinc", self.next().kind, e)
        return e

    def opt_lvalue(self) -> Node | None:
        k = self.tok.kind
        if k == "$":
            self.next()
            return ("field", self.dollar_operand())
        if k == "NAME":
            return self.name_ref()
        return None

    def name_ref(self) -> Node:
        name = self.next().value
        if self.tok.kind == "[":
            self.next()
            subs = self.expr_list()
            self.expect("]")
            return ("idx", name, subs)
        return ("var", name)

    def dollar_operand(self) -> Node:
        k = self.tok.kind
        if k in ("++", "--"):
            self.next()
            lv = self.postfix()
            if lv[0] not in _LVALUES:
                raise self.fail()
            return ("preinc", k, lv)
        if k == "-":
            self.next()
            return ("neg", self.dollar_operand())
        if k == "+":
            self.next()
            return ("pos", self.dollar_operand())
        if k == "!":
            self.next()
            return ("not", self.dollar_operand())
        return self.primary()

    def primary(self) -> Node:
        t = self.tok
        k = t.kind
        if k == "NUMBER":
            self.next()
            return ("num", t.num)
        if k == "STRING":
            self.next()
            return ("str", t.value)
        if k == "ERE":
            self.next()
            return ("ere", t.value)
        if k == "$":
            self.next()
            return ("field", self.dollar_operand())
        if k == "NAME":
            return self.name_ref()
        if k == "(":
            self.next()
            self.nl()
            lst = self.expr_list()
            self.nl()
            self.expect(")")
            if len(lst) > 1:
                if self.tok.kind != "in":
                    raise self.fail()
                return ("grouplist", lst)
            return ("group", lst[0])
        if k == "FUNC_NAME":
            self.next()
            self.next()
            args: list[Node] = []
            self.nl()
            if self.tok.kind != ")":
                args = self.expr_list()
                self.nl()
            self.expect(")")
            self.calls.append((t.value, t.line))
            return ("call", t.value, args)
        if k == "BUILTIN":
            return self.builtin()
        if k == "getline":
            self.next()
            lv = self.opt_lvalue()
            if self.tok.kind == "<":
                self.next()
                src = self.getline_source()
                return ("getline", "file", lv, src)
            return ("getline", "simple", lv, None)
        if k in ("-", "+", "!"):
            return self.unary()
        raise self.fail()

    def getline_source(self) -> Node:
        """`getline < file`: the file is a primary (with `$`), not a concatenation."""
        return self.postfix()

    def builtin(self) -> Node:
        t = self.next()
        name = t.value
        if self.tok.kind != "(":
            if name == "length":
                return ("builtin", "length", [])
            raise self.fail()
        self.next()
        self.nl()
        args: list[Node] = []
        if self.tok.kind != ")":
            args = self.expr_list()
            self.nl()
        self.expect(")")
        lo, hi = _ARITY[name]
        if not lo <= len(args) <= hi:
            raise AwkSyntaxError(f"{len(args)} is invalid as number of arguments for {name} "
                                 f"(line {t.line})")
        if name in ("sub", "gsub") and len(args) == 3 and args[2][0] not in _LVALUES:
            # gawk: a non-lvalue target is allowed only as a literal warning; treat as a copy
            args = [args[0], args[1], ("tmp", args[2])]
        if name == "split" and args[1][0] != "var":
            raise self.fail(t)
        return ("builtin", name, args)


_ARITY = {
    "length": (0, 1), "substr": (2, 3), "index": (2, 2), "split": (2, 3), "sub": (2, 3),
    "gsub": (2, 3), "match": (2, 3), "sprintf": (1, 10_000), "sin": (1, 1), "cos": (1, 1),
    "atan2": (2, 2), "exp": (1, 1), "log": (1, 1), "sqrt": (1, 1), "int": (1, 1),
    "rand": (0, 0), "srand": (0, 1), "tolower": (1, 1), "toupper": (1, 1),
    "system": (1, 1), "close": (1, 2), "fflush": (0, 1),
}


def parse(src: str) -> Program:
    return Parser(src).parse()
