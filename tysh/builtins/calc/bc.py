"""bc (POSIX bc with the GNU extensions scripts use): arbitrary-precision calculator.

Numbers are exact: an int and a count of decimal places (n / 10**s), and every operation
follows bc's scale rules and truncates, never rounds. The program is read a line at a
time like GNU bc: a line is parsed whole, then run; `quit` ends bc as soon as it is
read; a syntax error drops its line; a runtime error stops the rest of its line. -l
loads the math library (s c a l e j, scale=20); its functions are computed in Decimal
with guard digits and truncated to scale. Output lines wrap at BC_LINE_LENGTH (70)."""

from __future__ import annotations

from tysh.builtins._common.cancel import checkpoint
from tysh.builtins._common.lines import Kept
from tysh.builtins._common.operands import InputStatus, iter_inputs
from tysh.builtins.calc import bigint
from tysh.builtins.calc.bcnum import (
    DIGITS,
    ONE,
    ZERO,
    BcRuntime,
    Num,
    align,
    compare,
    divide,
    format_num,
    length,
    modulo,
    multiply,
    pow10,
    power,
    square_root,
)
from tysh.builtins.calc.bigint import stoi
from tysh.kernel.base import stop
from tysh.kernel.base.hints import Any
from tysh.kernel.base.lazyre import DOTALL, VERBOSE, LazyRegex
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.base.values import encode_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

_TOKEN = LazyRegex(r"""
    (?P<ws>[ \t\r\f\v]+|\\\n|/\*.*?\*/|\#[^\n]*)
  | (?P<num>[0-9A-Z]+(?:\.[0-9A-Z]*)?|\.[0-9A-Z]+)
  | (?P<name>[a-z][a-z0-9_]*)
  | (?P<str>"[^"]*")
  | (?P<op>\+\+|--|[-+*/%^=!<>]=|&&|\|\||[-+*/%^=<>!()\[\]{},;.\n])
""", VERBOSE | DOTALL)
_KEYWORDS = frozenset("if else while for break continue return define auto print quit halt "
                      "sqrt length scale ibase obase last limits read".split())
_RELOPS = ("==", "!=", "<", "<=", ">", ">=")
_ASSIGN = ("=", "+=", "-=", "*=", "/=", "%=", "^=")


class BcSyntax(Exception):
    """A syntax error: the line is dropped."""


class _Quit(Exception):
    pass


class _Flow(Exception):
    """break / continue / return unwinding to their statement."""

    def __init__(self, kind: str, value: Num | None = None) -> None:
        self.kind, self.value = kind, value



# ------------------------------------------------------------------------ parser
# The AST is tuples: (kind, …). Expressions and statements share the shape.

Node = tuple[Any, ...]


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.t = tokens
        self.i = 0
        self.quit = False

    def peek(self) -> str:
        return self.t[self.i][1] if self.i < len(self.t) else ""

    def kind(self) -> str:
        return self.t[self.i][0] if self.i < len(self.t) else ""

    def take(self, *vals: str) -> str | None:
        if self.i < len(self.t) and self.t[self.i][0] != "str" and self.t[self.i][1] in vals:
            self.i += 1
            return self.t[self.i - 1][1]
        return None

    def expect(self, v: str) -> None:
        if self.take(v) is None:
            raise BcSyntax()

    def skip_nl(self) -> None:
        while self.take("\n", ";"):
            pass

    def statement(self) -> Node:
        k, v = self.kind(), self.peek()
        if k == "str":
            self.i += 1
            return ("str", v[1:-1])
        if v == "{":
            self.i += 1
            body = self.block_items("}")
            return ("block", body)
        if k == "name" and v in _KEYWORDS:
            if v in ("quit",):
                self.i += 1
                self.quit = True
                return ("nop",)
            if v == "halt":
                self.i += 1
                return ("halt",)
            if v in ("break", "continue"):
                self.i += 1
                return (v,)
            if v == "return":
                self.i += 1
                if self.peek() in ("\n", ";", "}", ""):
                    return ("return", None)
                return ("return", self.expr())
            if v == "print":
                self.i += 1
                items = [self.print_item()]
                while self.take(","):
                    items.append(self.print_item())
                return ("print", items)
            if v == "if":
                self.i += 1
                self.expect("(")
                cond = self.expr()
                self.expect(")")
                self.take_newlines()
                then = self.statement()
                save = self.i
                self.take_newlines()
                if self.take("else"):
                    self.take_newlines()
                    return ("if", cond, then, self.statement())
                self.i = save
                return ("if", cond, then, None)
            if v == "while":
                self.i += 1
                self.expect("(")
                cond = self.expr()
                self.expect(")")
                self.take_newlines()
                return ("while", cond, self.statement())
            if v == "for":
                self.i += 1
                self.expect("(")
                init: Node | None = None if self.peek() == ";" else self.expr()
                self.expect(";")
                test: Node | None = None if self.peek() == ";" else self.expr()
                self.expect(";")
                step = None if self.peek() == ")" else self.expr()
                self.expect(")")
                self.take_newlines()
                return ("for", init, test, step, self.statement())
            if v == "define":
                return self.define()
        if v in ("\n", ";", "}", ""):
            return ("nop",)
        e = self.expr()
        return ("expr", e)

    def take_newlines(self) -> None:
        while self.take("\n"):
            pass

    def print_item(self) -> Node:
        if self.kind() == "str":
            self.i += 1
            return ("str", self.t[self.i - 1][1][1:-1])
        return self.expr()

    def block_items(self, end: str) -> list[Node]:
        body: list[Node] = []
        while True:
            self.skip_nl()
            if self.take(end):
                return body
            if self.i >= len(self.t):
                raise BcSyntax()
            body.append(self.statement())
            if self.peek() not in ("\n", ";", end):
                raise BcSyntax()

    def define(self) -> Node:
        self.i += 1
        if self.kind() != "name":
            raise BcSyntax()
        name = self.t[self.i][1]
        self.i += 1
        self.expect("(")
        params: list[tuple[str, bool]] = []
        while self.kind() == "name":
            pname = self.t[self.i][1]
            self.i += 1
            arr = bool(self.take("["))
            if arr:
                self.expect("]")
            params.append((pname, arr))
            if not self.take(","):
                break
        self.expect(")")
        self.take_newlines()
        self.expect("{")
        self.skip_nl()
        autos: list[tuple[str, bool]] = []
        while self.take("auto"):
            while self.kind() == "name":
                aname = self.t[self.i][1]
                self.i += 1
                arr = bool(self.take("["))
                if arr:
                    self.expect("]")
                autos.append((aname, arr))
                if not self.take(","):
                    break
            self.skip_nl()
        body = self.block_items("}")
        return ("define", name, params, autos, body)

    # expressions, lowest precedence first (GNU bc's table)
    def expr(self) -> Node:
        left = self.and_()
        while self.take("||"):
            left = ("or", left, self.and_())
        return left

    def and_(self) -> Node:
        left = self.not_()
        while self.take("&&"):
            left = ("and", left, self.not_())
        return left

    def not_(self) -> Node:
        if self.take("!"):
            return ("not", self.not_())
        return self.rel()

    def rel(self) -> Node:
        left = self.assign()
        while op := self.take(*_RELOPS):
            left = ("rel", op, left, self.assign())
        return left

    def assign(self) -> Node:
        left = self.add()
        if left[0] in ("var", "elem", "special"):
            op = self.take(*_ASSIGN)
            if op:
                return ("assign", op, left, self.assign())
        return left

    def add(self) -> Node:
        left = self.mul()
        while op := self.take("+", "-"):
            left = ("bin", op, left, self.mul())
        return left

    def mul(self) -> Node:
        left = self.power()
        while op := self.take("*", "/", "%"):
            left = ("bin", op, left, self.power())
        return left

    def power(self) -> Node:
        base = self.unary()
        if self.take("^"):
            return ("bin", "^", base, self.power())
        return base

    def unary(self) -> Node:
        if self.take("-"):
            return ("neg", self.unary())
        if op := self.take("++", "--"):
            target = self.unary()
            if target[0] not in ("var", "elem", "special"):
                raise BcSyntax()
            return ("pre", op, target)
        e = self.primary()
        if e[0] in ("var", "elem", "special") and (op := self.take("++", "--")):
            return ("post", op, e)
        return e

    def primary(self) -> Node:
        k, v = self.kind(), self.peek()
        if k == "num":
            self.i += 1
            return ("num", v)
        if v == "(":
            self.i += 1
            e = self.expr()
            self.expect(")")
            return ("paren", e)
        if v == "." and k == "op":
            self.i += 1
            return ("special", "last")
        if k != "name":
            raise BcSyntax()
        self.i += 1
        if v in ("scale", "ibase", "obase", "last") and self.peek() != "(":
            return ("special", v)
        if v in ("sqrt", "length", "scale"):
            self.expect("(")
            e = self.expr()
            self.expect(")")
            return ("builtin", v, e)
        if v in _KEYWORDS:
            raise BcSyntax()
        if self.take("("):
            args: list[Node] = []
            if not self.take(")"):
                while True:
                    if self.kind() == "name" and self.t[self.i + 1][1:] == ("[",) \
                            and self.i + 2 < len(self.t) and self.t[self.i + 2][1] == "]":
                        args.append(("arrayref", self.t[self.i][1]))
                        self.i += 3
                    else:
                        args.append(self.expr())
                    if self.take(")"):
                        break
                    self.expect(",")
            return ("call", v, args)
        if self.take("["):
            idx = self.expr()
            self.expect("]")
            return ("elem", v, idx)
        return ("var", v)


def tokenize(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise BcSyntax()
        pos = m.end()
        kind = m.lastgroup or ""
        if kind != "ws":
            out.append((kind, m.group()))
    return out


# ------------------------------------------------------------------------ interpreter

_MATHLIB = frozenset("scaelj")


class _Interp:
    def __init__(self, ctx: Context, mathlib: bool) -> None:
        self.ctx = ctx
        self.scale = 20 if mathlib else 0
        self.ibase = 10
        self.obase = 10
        self.last = ZERO
        self.mathlib = mathlib
        self.globals: dict[str, Num] = {}
        self.arrays: dict[str, dict[int, Num]] = {}
        self.funcs: dict[str, Node] = {}
        self.frames: list[tuple[dict[str, Num], dict[str, dict[int, Num]]]] = []
        self.col = 0
        self.out: list[str] = []
        self.json_text: list[str] = []
        try:
            ll = int(ctx.shell.exported_env().get("BC_LINE_LENGTH", "70"))
        except ValueError:
            ll = 70
        self.line_length = ll if ll == 0 or ll > 1 else 70
        self.func_name = "(main)"

    # output ------------------------------------------------------------
    def write(self, s: str) -> None:
        self.out.append(s)
        nl = s.rfind("\n")
        self.col = len(s) - nl - 1 if nl >= 0 else self.col + len(s)

    def write_num(self, a: Num) -> None:
        text = format_num(a, self.obase)
        ll = self.line_length
        if ll:
            pieces: list[str] = []
            col = self.col
            room = ll - 2  # GNU: ll-2 digits, then `\` newline
            while col + len(text) > room:
                cut = room - col
                pieces.append(text[:cut] + "\\\n")
                text = text[cut:]
                col = 0
            pieces.append(text)
            text = "".join(pieces)
        self.write(text)

    def flush(self) -> None:
        if self.out and self.ctx.json:  # --json: the printed lines, collected
            self.json_text.append("".join(self.out))
            self.out.clear()
        if self.out:
            self.ctx.stdout.write("".join(self.out).encode("utf-8", "surrogateescape"))
            self.out.clear()

    def warn(self, msg: str) -> None:
        self.flush()
        self.ctx.stderr.write(encode_text(f"Runtime warning (func={self.func_name}): {msg}\n"))

    # variables ---------------------------------------------------------
    def lookup_scope(self, name: str) -> dict[str, Num]:
        if self.frames and name in self.frames[-1][0]:
            return self.frames[-1][0]
        return self.globals

    def array(self, name: str) -> dict[int, Num]:
        if self.frames and name in self.frames[-1][1]:
            return self.frames[-1][1][name]
        return self.arrays.setdefault(name, {})

    def get(self, node: Node) -> Num:
        if node[0] == "var":
            return self.lookup_scope(node[1]).get(node[1], ZERO)
        if node[0] == "elem":
            return self.array(node[1]).get(self.index(node[2]), ZERO)
        name = node[1]
        if name == "scale":
            return Num(self.scale, 0)
        if name == "ibase":
            return Num(self.ibase, 0)
        if name == "obase":
            return Num(self.obase, 0)
        return self.last

    def index(self, e: Node) -> int:
        i = self.eval(e).trunc_int()
        if i < 0 or i > 16777215:
            raise BcRuntime("Array index out of bounds")
        return i

    def set(self, node: Node, v: Num) -> None:
        if node[0] == "var":
            self.lookup_scope(node[1])[node[1]] = v
        elif node[0] == "elem":
            self.array(node[1])[self.index(node[2])] = v
        else:
            name = node[1]
            i = v.trunc_int()
            if name == "scale":
                if i < 0:
                    raise BcRuntime("negative scale")
                self.scale = i
            elif name == "ibase":
                self.ibase = min(max(i, 2), 16)
            elif name == "obase":
                if i < 2:
                    raise BcRuntime("obase too small")
                self.obase = i
            else:
                self.last = v

    # evaluation ----------------------------------------------------------
    def number(self, text: str) -> Num:
        base = self.ibase
        whole, _, frac = text.partition(".")
        if len(text) == 1:
            return Num(DIGITS.index(text) if text in DIGITS else 15, 0)
        if len(text) > bigint.MAX_DIGITS + 1:
            raise BcRuntime(str(bigint.TooLarge()))
        if base == 10 and whole.isdigit() and whole.isascii():
            val = stoi(whole)
        else:
            val = 0
            for k, ch in enumerate(whole, 1):
                val = val * base + min(DIGITS.index(ch) if ch in DIGITS else 15, 15)
                if not k & 1023:
                    stop.check()
        if not frac:
            return Num(val, 0)
        if base == 10:
            return Num(val * pow10(len(frac))
                       + stoi("".join(c if c.isdigit() else "9" for c in frac)), len(frac))
        num, den = 0, 1
        for ch in frac:
            num = num * base + min(DIGITS.index(ch) if ch in DIGITS else 15, 15)
            den *= base
        s = len(frac)
        return Num(val * pow10(s) + num * pow10(s) // den, s)

    def truth(self, e: Node) -> bool:
        return self.eval(e).n != 0

    def eval(self, e: Node) -> Num:
        k = e[0]
        if k == "num":
            return self.number(e[1])
        if k in ("var", "elem", "special"):
            return self.get(e)
        if k == "paren":
            return self.eval(e[1])
        if k == "bin":
            a, b = self.eval(e[2]), self.eval(e[3])
            return self.binop(e[1], a, b)
        if k == "neg":
            a = self.eval(e[1])
            return Num(-a.n, a.s)
        if k == "rel":
            c = compare(self.eval(e[2]), self.eval(e[3]))
            op = e[1]
            ok = {"==": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0,
                  ">": c > 0, ">=": c >= 0}[op]
            return ONE if ok else ZERO
        if k == "not":
            return ZERO if self.truth(e[1]) else ONE
        if k == "and":
            return ONE if self.truth(e[1]) and self.truth(e[2]) else ZERO
        if k == "or":
            return ONE if self.truth(e[1]) or self.truth(e[2]) else ZERO
        if k == "assign":
            op, target = e[1], e[2]
            v = self.eval(e[3])
            if op != "=":
                v = self.binop(op[0], self.get(target), v)
            self.set(target, v)
            return self.get(target) if target[0] == "special" else v
        if k in ("pre", "post"):
            old = self.get(e[2])
            new = self.binop("+" if e[1] == "++" else "-", old, ONE)
            self.set(e[2], new)
            return new if k == "pre" else old
        if k == "builtin":
            a = self.eval(e[2])
            if e[1] == "sqrt":
                return square_root(a, self.scale)
            if e[1] == "length":
                return Num(length(a), 0)
            return Num(a.s, 0)
        if k == "call":
            return self.call(e[1], e[2])
        raise BcSyntax()

    def binop(self, op: str, a: Num, b: Num) -> Num:
        if op in "+-":
            x, y, s = align(a, b)
            return Num(x + y if op == "+" else x - y, s)
        if op == "*":
            return multiply(a, b, self.scale)
        if op == "/":
            return divide(a, b, self.scale)
        if op == "%":
            return modulo(a, b, self.scale)
        return power(a, b, self.scale, self.warn)

    def call(self, name: str, args: list[Node]) -> Num:
        fn = self.funcs.get(name)
        if fn is None:
            if self.mathlib and name in _MATHLIB:
                from tysh.builtins.calc.bcmath import mathlib_call

                vals = [self.eval(a) for a in args]
                want = 2 if name == "j" else 1
                if len(vals) != want:
                    raise BcRuntime("Parameter number mismatch")
                return mathlib_call(name, vals, self.scale)
            raise BcRuntime(f"Function {name} not defined.")
        _, _, params, autos, body = fn
        if len(args) != len(params):
            raise BcRuntime("Parameter number mismatch")
        scalars: dict[str, Num] = {}
        arrays: dict[str, dict[int, Num]] = {}
        for (pname, is_arr), a in zip(params, args, strict=True):
            if is_arr:
                if a[0] != "arrayref":
                    raise BcRuntime("Parameter type mismatch")
                arrays[pname] = dict(self.array(a[1]))
            else:
                if a[0] == "arrayref":
                    raise BcRuntime("Parameter type mismatch")
                scalars[pname] = self.eval(a)
        for aname, is_arr in autos:
            if is_arr:
                arrays[aname] = {}
            else:
                scalars[aname] = ZERO
        self.frames.append((scalars, arrays))
        saved, self.func_name = self.func_name, name
        if len(self.frames) > 2000:
            raise BcRuntime("Function call nesting too deep")
        try:
            self.run_list(body)
        except _Flow as f:
            if f.kind == "return":
                return f.value if f.value is not None else ZERO
            raise
        finally:
            self.frames.pop()
            self.func_name = saved
        return ZERO

    def run_list(self, stmts: list[Node]) -> None:
        for s in stmts:
            self.run(s)

    def run(self, s: Node) -> None:
        k = s[0]
        if k == "expr":
            e = s[1]
            v = self.eval(e)
            if e[0] != "assign":
                self.write_num(v)
                self.write("\n")
                self.last = v
        elif k == "str":
            self.write(_unescape(s[1], False))
        elif k == "print":
            for item in s[1]:
                if item[0] == "str":
                    self.write(_unescape(item[1], True))
                else:
                    v = self.eval(item)
                    self.write_num(v)
                    self.last = v
        elif k == "block":
            self.run_list(s[1])
        elif k == "if":
            if self.truth(s[1]):
                self.run(s[2])
            elif s[3] is not None:
                self.run(s[3])
        elif k == "while":
            while self.truth(s[1]):
                checkpoint(self.ctx)
                try:
                    self.run(s[2])
                except _Flow as f:
                    if f.kind == "break":
                        break
                    if f.kind != "continue":
                        raise
        elif k == "for":
            if s[1] is not None:
                self.eval(s[1])
            while s[2] is None or self.truth(s[2]):
                checkpoint(self.ctx)
                try:
                    self.run(s[4])
                except _Flow as f:
                    if f.kind == "break":
                        break
                    if f.kind != "continue":
                        raise
                if s[3] is not None:
                    self.eval(s[3])
        elif k in ("break", "continue"):
            raise _Flow(k)
        elif k == "return":
            if not self.frames:
                raise BcRuntime("Return from main program.")
            raise _Flow("return", None if s[1] is None else self.eval(s[1]))
        elif k == "halt":
            raise _Quit()
        elif k == "define":
            self.funcs[s[1]] = s


_ESCAPES = {"n": "\n", "t": "\t", "a": "\a", "b": "\b", "f": "\f", "r": "\r",
            "q": '"', "\\": "\\", "e": "\\"}
_ESCAPE = LazyRegex(r"\\(.)", DOTALL)


def _unescape(s: str, escapes: bool) -> str:
    if not escapes or "\\" not in s:
        return s
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), s)


def _chunks(text: str) -> Iterator[tuple[int, list[tuple[str, str]]]]:
    """The token lists of whole statements, one source line (or more while a block,
    a string or a comment is open) at a time, with the line number for errors."""
    lines = text.split("\n")
    buf = ""
    lineno = 0
    start = 1
    for lineno, line in enumerate(lines, 1):
        buf += line + "\n"
        if buf.count('"') % 2 or buf.count("/*") > buf.count("*/") or buf.endswith("\\\n"):
            continue
        try:
            toks = tokenize(buf)
        except BcSyntax:
            yield (-lineno, [])
            buf, start = "", lineno + 1
            continue
        depth = sum(1 if v in ("{", "(") else -1 if v in ("}", ")") else 0
                    for kind, v in toks if kind == "op")
        if depth > 0:
            continue
        _ = start
        yield (lineno, toks)
        buf, start = "", lineno + 1
    if buf.strip():
        try:
            yield (lineno, tokenize(buf))
        except BcSyntax:
            yield (-lineno, [])


def run_program(interp: _Interp, text: str, source: str) -> bool:
    """Run one source; False when bc must stop (quit, halt)."""
    ctx = interp.ctx
    for lineno, toks in _chunks(text):
        if lineno < 0:
            interp.flush()
            ctx.stderr.write(encode_text(f"({source}) {-lineno}: syntax error\n"))
            continue
        p = _Parser(toks)
        stmts: list[Node] = []
        try:
            while p.i < len(p.t):
                p.skip_nl()
                if p.i >= len(p.t):
                    break
                stmts.append(p.statement())
                if p.peek() not in ("\n", ";", ""):
                    raise BcSyntax()
        except (BcSyntax, IndexError):
            interp.flush()
            ctx.stderr.write(encode_text(f"({source}) {lineno}: syntax error\n"))
            if p.quit:
                return False
            continue
        if p.quit:
            return False
        try:
            interp.run_list(stmts)
        except BcRuntime as e:
            interp.flush()
            ctx.stderr.write(encode_text(f"Runtime error (func={interp.func_name}): {e}\n"))
            interp.func_name = "(main)"
            interp.frames.clear()
        except _Flow:
            pass
        except _Quit:
            interp.flush()
            return False
        except RecursionError:
            interp.flush()
            ctx.stderr.write(b"Runtime error (func=(main)): Function call nesting too deep\n")
            interp.frames.clear()
        interp.flush()
    return True


@value_record
class BcArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(),
                                   help="program files, run before stdin")
    mathlib: bool = param(default=False, aliases=["-l"],
                          help="load the math library (s c a l e j) and set scale=20")
    quiet: bool = param(default=False, aliases=["-q"], help="no banner (bc never prints one here)")
    standard: bool = param(default=False, aliases=["-s"], help="accepted; GNU extensions stay on")
    warn: bool = param(default=False, aliases=["-w"], help="accepted for compatibility")


@tool(
    "bc", kind="compute",
    args=BcArgs,
    description="arbitrary-precision calculator language (POSIX bc with GNU extensions; -l math library)",
    examples=[
        ("decimal division", "echo 'scale=2; 3/4' | bc"),
        ("math library", "echo 's(1)' | bc -l"),
        ("to hexadecimal", "echo 'obase=16; 255' | bc"),
    ],
)
def bc(args: BcArgs, ctx: Context) -> ToolReturn:
    import sys

    kept = None if ctx.json else Kept(ctx.stdout, ctx.keeps_value)
    interp = _Interp(ctx if kept is None else ctx.evolve(stdout=kept), args.mathlib)
    status = InputStatus()
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20000))
    try:
        for name, f in iter_inputs(ctx, list(args.files), status):
            text = f.read().decode("utf-8", "surrogateescape")
            if not run_program(interp, text, name if args.files else "standard_in"):
                break
        else:
            if args.files and not status.failed:
                text = ctx.stdin.read().decode("utf-8", "surrogateescape")
                run_program(interp, text, "standard_in")
    finally:
        interp.flush()
        sys.setrecursionlimit(old_limit)
    code = 1 if status.failed else 0
    if kept is None:
        return Outcome(code, OutputData.text("", rich_json=_lines("".join(interp.json_text))))

    def value() -> list[str] | None:
        text = kept.text(errors="surrogateescape")
        return None if text is None else _lines(text)

    return Outcome(code, OutputData.value(value))


def _lines(text: str) -> list[str]:
    """The lines bc printed, long numbers joined again (no `\\` line breaks)."""
    return text.replace("\\\n", "").splitlines()


TOOLS = [bc]
