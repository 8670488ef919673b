"""Shell arithmetic (`$((…))`, `((…))`, `for ((…))`, array subscripts): 64-bit signed
integers with C's operators and precedence, as bash evaluates them.

Expression text is compiled once into a tree of small closures and cached by text, so a
loop that evaluates `x+i` a thousand times parses it once. Names read shell variables
through an `ArithHost`; a variable whose value is itself an expression (`x="1+2"`) is
evaluated recursively. This module evaluates text: the `$…` in an arithmetic word are
expanded before, by the expander (`words.eval_arith_word`), as bash does.
"""

from __future__ import annotations

from tysh.kernel.base.cache import compile_cached
from tysh.kernel.base.errors import ExpansionError, VarError
from tysh.kernel.base.hints import Protocol
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.syntax import ast

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any


class ArithHost(Protocol):
    """What arithmetic needs from its host: shell variables to read and assign (whole,
    or one element of an array), and whether reading an unset one is an error (`set -u`).
    Every expansion host is one."""

    @property
    def nounset(self) -> bool: ...

    def lookup(self, name: str) -> Any: ...

    def assign(self, name: str, value: Any) -> None: ...

    def assign_index(self, name: str, key: str | int, value: Any) -> None: ...


if TYPE_CHECKING:
    Fn = Callable[[ArithHost], int]

_MIN = -(1 << 63)
_MAX = (1 << 63) - 1
_MASK = (1 << 64) - 1


def wrap(v: int) -> int:
    """Reduce to a signed 64-bit integer, as C arithmetic on intmax_t does."""
    if _MIN <= v <= _MAX:
        return v
    v &= _MASK
    return v - (1 << 64) if v > _MAX else v


class ArithError(Exception):
    """Internal: a fault found while parsing or evaluating, before the text is attached."""

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.token = token


# bash's blanks in arithmetic: space, tab and newline (a carriage return is an error)
_TOKEN = LazyRegex(
    r"[ \t\n]*(?:(?P<num>[0-9][0-9A-Za-z_@#]*)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|"
    r"(?P<op><<=|>>=|\*\*|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&^|]=|[-+*/%<>!~&^|?:,=()\[\]]))"
)
_WS = LazyRegex(r"[ \t\n]*")
# blanks, then what starts a variable name (or a template's hole, which may stand for one)
_BEFORE_NAME = LazyRegex("[ \t\n]*[A-Za-z_" + "\x00" + "]")

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@_"


def parse_number(text: str) -> int:
    """Decimal, `0x` hex, leading-`0` octal, or `base#digits` (bases 2 to 64)."""
    try:
        if "#" in text:
            base_s, _, digits = text.partition("#")
            base = int(base_s)
            if not 2 <= base <= 64 or not digits:
                raise ArithError("invalid arithmetic base", text)
            value = 0
            for c in digits:
                d = _DIGITS.find(c)
                if base <= 36 and d >= 36:
                    d -= 26
                if d < 0 or d >= base:
                    raise ArithError("value too great for base", text)
                value = value * base + d
            return wrap(value)
        if len(text) > 1 and text[0] == "0":
            if text[1] in "xX":
                return wrap(int(text[2:], 16))
            return wrap(int(text, 8))
        return wrap(int(text, 10))
    except ValueError:
        if len(text) > 1 and text[0] == "0" and text[1] not in "xX" and text.isdigit():
            raise ArithError("value too great for base", text) from None
        raise ArithError("invalid number", text) from None


def _c_div(a: int, b: int) -> int:
    if b == 0:
        raise ArithError("division by 0")
    q = abs(a) // abs(b)
    return wrap(q if (a >= 0) == (b >= 0) else -q)


def _c_mod(a: int, b: int) -> int:
    if b == 0:
        raise ArithError("division by 0")
    return wrap(a - b * _c_div(a, b))


def _c_pow(a: int, b: int) -> int:
    if b < 0:
        raise ArithError("exponent less than 0")
    return wrap(pow(a, b, 1 << 64))


_BINARY: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: wrap(a + b),
    "-": lambda a, b: wrap(a - b),
    "*": lambda a, b: wrap(a * b),
    "/": _c_div,
    "%": _c_mod,
    "**": _c_pow,
    "<<": lambda a, b: wrap(a << (b & 63)),
    ">>": lambda a, b: a >> (b & 63),
    "&": lambda a, b: a & b,
    "^": lambda a, b: a ^ b,
    "|": lambda a, b: a | b,
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
}


def _fast_add(a: Fn, b: Fn) -> Fn:
    def add(h: ArithHost) -> int:
        v = a(h) + b(h)
        return v if _MIN <= v <= _MAX else wrap(v)

    return add


def _fast_sub(a: Fn, b: Fn) -> Fn:
    def sub(h: ArithHost) -> int:
        v = a(h) - b(h)
        return v if _MIN <= v <= _MAX else wrap(v)

    return sub


def _fast_lt(a: Fn, b: Fn) -> Fn:
    return lambda h: 1 if a(h) < b(h) else 0


def _fast_le(a: Fn, b: Fn) -> Fn:
    return lambda h: 1 if a(h) <= b(h) else 0


def _fast_gt(a: Fn, b: Fn) -> Fn:
    return lambda h: 1 if a(h) > b(h) else 0


def _fast_ge(a: Fn, b: Fn) -> Fn:
    return lambda h: 1 if a(h) >= b(h) else 0


def _fast_eq(a: Fn, b: Fn) -> Fn:
    return lambda h: 1 if a(h) == b(h) else 0


def _fast_ne(a: Fn, b: Fn) -> Fn:
    return lambda h: 1 if a(h) != b(h) else 0


# The commonest operators get closures without a second call to an operator function.
_FAST: dict[str, Callable[[Fn, Fn], Fn]] = {
    "+": _fast_add,
    "-": _fast_sub,
    "<": _fast_lt,
    "<=": _fast_le,
    ">": _fast_gt,
    ">=": _fast_ge,
    "==": _fast_eq,
    "!=": _fast_ne,
}

# Binary operator precedence, higher binds tighter (bash's table, C's order).
_PREC = {
    "||": 1,
    "&&": 2,
    "|": 3,
    "^": 4,
    "&": 5,
    "==": 6,
    "!=": 6,
    "<": 7,
    "<=": 7,
    ">": 7,
    ">=": 7,
    "<<": 8,
    ">>": 8,
    "+": 9,
    "-": 9,
    "*": 10,
    "/": 10,
    "%": 10,
}
_ASSIGN_OPS = frozenset(["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="])


# ---------------------------------------------------------------------------
# Variable access
# ---------------------------------------------------------------------------


_depth = [0]
_MAX_DEPTH = 64


def _text_value(host: ArithHost, text: str) -> int:
    if text.isdigit() and text.isascii() and (len(text) == 1 or text[0] != "0"):
        return wrap(int(text))
    if not text.strip(" \t\n"):
        return 0
    if _depth[0] >= _MAX_DEPTH:
        raise ArithError("expression recursion level exceeded", text.strip())
    _depth[0] += 1
    try:
        return compile_expr(text)(host)
    finally:
        _depth[0] -= 1


def _to_int(host: ArithHost, v: Any) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return wrap(v)
    if isinstance(v, str):
        return _text_value(host, v)
    if isinstance(v, float):
        return wrap(int(v))
    if isinstance(v, list):
        return _to_int(host, v[0]) if v else 0
    if isinstance(v, dict):
        return _to_int(host, v.get("0"))
    if v is None:
        return 0
    from tysh.kernel.base.values import to_text

    return _text_value(host, to_text(v))


# Decimal texts seen as variable values, so loop counters convert with one dict lookup:
# filled as texts are read, and as arithmetic writes them (`i++`, `x=$((x+i))`), so the
# next read of a counter finds the number its text was made from. Public: the loop
# arithmetic of run/arithvars.py reads and fills it as the closures here do. Only
# recent texts are worth keeping (a counter is read back right after it is written), and
# a small table keeps a long loop from growing the process by a megabyte of numbers:
# every page first touched costs a fault, which on some machines is a few µs. Each text
# is its number's decimal text (no sign but `-`, no leading zero, within 64 bits), so
# other readers of plain decimals (`test`'s counts) may take its numbers too.
INT_TEXTS: dict[str, int] = {}
INT_TEXTS_SIZE = 1024


def int_text(n: int) -> str:
    """The decimal text of a result stored in a variable, remembered for its next read."""
    s = str(n)
    if len(INT_TEXTS) > INT_TEXTS_SIZE:
        INT_TEXTS.clear()
    INT_TEXTS[s] = n
    return s


def _var_value(host: ArithHost, name: str, v: Any) -> int:
    """A variable's value `v` (as looked up) as an integer."""
    if type(v) is str:
        n = INT_TEXTS.get(v)
        if n is not None:
            return n
        if v.isdigit() and v.isascii() and (len(v) == 1 or v[0] != "0"):
            if len(v) > 18:  # may wrap: the table holds only texts that are their number
                return wrap(int(v))
            n = int(v)
            if len(INT_TEXTS) > INT_TEXTS_SIZE:
                INT_TEXTS.clear()
            INT_TEXTS[v] = n
            return n
    if v is None:
        if host.nounset:
            raise ExpansionError(f"{name}: unbound variable", status=127, fatal=True)
        return 0
    if type(v) is str:
        return _text_value(host, v)
    return _to_int(host, v)


def _elem_key(host: ArithHost, name: str, sub: Fn, raw: str) -> tuple[Any, str | int]:
    container = host.lookup(name)
    if isinstance(container, dict):
        return container, raw.strip()
    idx = sub(host)
    if isinstance(container, list) and idx < 0:
        idx += len(container)
        if idx < 0:
            raise ArithError("bad array subscript")
    return container, idx


def _read_elem(host: ArithHost, name: str, sub: Fn, raw: str) -> int:
    container, key = _elem_key(host, name, sub, raw)
    if isinstance(container, dict):
        return _to_int(host, container.get(str(key)))
    if isinstance(container, list):
        assert isinstance(key, int)
        return _to_int(host, container[key]) if 0 <= key < len(container) else 0
    if container is None:
        if host.nounset:  # as bash: an unset array, not a missing element, is an error
            raise ExpansionError(f"{name}: unbound variable", status=127, fatal=True)
        return 0
    return _to_int(host, container) if key == 0 else 0


# ---------------------------------------------------------------------------
# Parser: precedence climbing straight to closures
# ---------------------------------------------------------------------------


class _LValue:
    """What an assignment or `++`/`--` may target: `name` or `name[expr]`."""

    __slots__ = ("name", "sub", "raw")

    def __init__(self, name: str, sub: Fn | None, raw: str) -> None:
        self.name = name
        self.sub = sub
        self.raw = raw

    def reader(self) -> Fn:
        name, sub, raw = self.name, self.sub, self.raw
        if sub is None:

            def read_var(h: ArithHost) -> int:
                v = h.lookup(name)
                if type(v) is str:  # the commonest case, a known decimal, inlined
                    n = INT_TEXTS.get(v)
                    if n is not None:
                        return n
                return _var_value(h, name, v)

            return read_var
        return lambda h: _read_elem(h, name, sub, raw)

    def writer(self) -> Callable[[ArithHost, int], None]:
        name, sub, raw = self.name, self.sub, self.raw
        if sub is None:

            def set_var(h: ArithHost, v: int) -> None:
                try:
                    h.assign(name, int_text(v))
                except VarError as e:
                    raise _refused(e) from None

            return set_var

        def set_elem(h: ArithHost, v: int) -> None:
            _, key = _elem_key(h, name, sub, raw)
            try:
                h.assign_index(name, key, str(v))
            except VarError as e:
                raise _refused(e) from None

        return set_elem


def _refused(e: VarError) -> ExpansionError:
    """A store the shell refused (a readonly variable) as the fault of the expression:
    `((z++))` fails with status 1 and the script goes on, and `$((z++))` abandons its
    line as any other fault of `$((…))` does, as in bash."""
    return ExpansionError(e.message, status=1)


# What a binary operator computes from its operands `a` and `b`, for the closures
# generated here and in run/arithvars.py, as _BINARY computes it: (the expression,
# whether its result may leave 64 bits and is wrapped).
OPERATOR_CODE: dict[str, tuple[str, bool]] = {
    "+": ("a + b", True),
    "-": ("a - b", True),
    "*": ("a * b", True),
    "/": ("_c_div(a, b)", False),
    "%": ("_c_mod(a, b)", False),
    "**": ("_c_pow(a, b)", False),
    "<<": ("a << (b & 63)", True),
    ">>": ("a >> (b & 63)", False),
    "&": ("a & b", False),
    "^": ("a ^ b", False),
    "|": ("a | b", False),
    "<": ("1 if a < b else 0", False),
    "<=": ("1 if a <= b else 0", False),
    ">": ("1 if a > b else 0", False),
    ">=": ("1 if a >= b else 0", False),
    "==": ("1 if a == b else 0", False),
    "!=": ("1 if a != b else 0", False),
}


def _return_result(op: str, indent: str) -> str:
    """Generated lines that return the operator's result (see OPERATOR_CODE)."""
    expr, wraps = OPERATOR_CODE[op]
    if not wraps:
        return f"{indent}return {expr}"
    return f"{indent}r = {expr}\n{indent}return r if _MIN <= r <= _MAX else wrap(r)"


# Operators whose closures read plain variables and numbers inline (`i < 100`, `x + i`):
# what the reader closures of _LValue do, without a call per operand.
_FUSED_OPS = frozenset({"+", "-", "<", "<=", ">", ">=", "==", "!="})
_READ_INLINE = {
    "var": ("{x} = h.lookup({X})\n"
            "        {x} = (INT_TEXTS.get({x}) if type({x}) is str else None) or (\n"
            "            _var_value(h, {X}, {x}))"),
    "num": "{x} = {X}",
    "hole": "{x} = h.holes[{X}]",
}
_FUSED_MAKERS: dict[tuple[str, str, str], Callable[[Any, Any], Fn]] = {}


def _fused(op: str, left: tuple[str, Any] | None, right: tuple[str, Any] | None) -> Fn | None:
    """The closure of `left op right` for plain variables, numbers and holes (see
    _Parser._operand), or None."""
    if op not in _FUSED_OPS or left is None or right is None or (
            left[0] == "num" and right[0] == "num"):
        return None
    key = (op, left[0], right[0])
    make = _FUSED_MAKERS.get(key)
    if make is None:
        lines = ["def make(A, B):", "    def fused(h):"]
        for x, kind in (("a", key[1]), ("b", key[2])):
            lines.append("        " + _READ_INLINE[kind].format(x=x, X=x.upper()))
        lines += [_return_result(op, "        "), "    return fused"]
        env: dict[str, Any] = {"INT_TEXTS": INT_TEXTS, "_var_value": _var_value, "_MIN": _MIN,
                               "_MAX": _MAX, "wrap": wrap}
        exec(compile_cached("\n".join(lines) + "\n", f"<arith {op}>"), env)
        make = _FUSED_MAKERS[key] = env["make"]
    return make(left[1], right[1])


def _fused_post(name: str, delta: int) -> Fn:
    """`name++` / `name--` of a plain variable."""

    def post(h: ArithHost) -> int:
        v = h.lookup(name)
        a = (INT_TEXTS.get(v) if type(v) is str else None) or _var_value(h, name, v)
        n = a + delta
        if not _MIN <= n <= _MAX:
            n = wrap(n)
        s = str(n)  # int_text, inlined: a loop counter's step runs here
        if len(INT_TEXTS) > INT_TEXTS_SIZE:
            INT_TEXTS.clear()
        INT_TEXTS[s] = n
        try:
            h.assign(name, s)
        except VarError as e:
            raise _refused(e) from None
        return a

    return post


class _Parser:
    def __init__(self, text: str, holes: bool = False) -> None:
        self.text = text
        self.toks: list[tuple[str, str, int]] = []
        pos, n = 0, len(text)
        hole = 0
        while True:
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            if pos >= n:
                break
            if holes and text[pos] == _HOLE:
                self.toks.append(("hole", str(hole), pos))
                hole += 1
                pos += 1
                continue
            m = _TOKEN.match(text, pos)
            if m is None:
                raise ArithError("syntax error: invalid arithmetic operator", text[pos:].strip())
            kind = m.lastgroup or "op"
            val = m.group(kind)
            end = m.end()
            if (kind == "op" and (val == "--" or val == "++") and not (
                    self.toks and (self.toks[-1][0] == "name" or self.toks[-1][1] == "]"))
                    and not _BEFORE_NAME.match(text, end)):
                # `10--5`, `--5`: as in bash, `--` or `++` that neither follows nor comes
                # before a variable name (or an array element: `]` only ever closes a
                # subscript) is two signs, the second read with what follows
                end = m.start(kind) + 1
                val = val[0]
            self.toks.append((kind, val, m.start(kind)))
            pos = end
        self.toks.append(("end", "", n))
        self.i = 0
        # the closures of number literals, by identity, with their values (for _fused)
        self.consts: dict[int, tuple[Fn, int]] = {}
        self.holes: dict[int, tuple[Fn, int]] = {}  # ... and of a template's holes

    # token helpers
    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def take(self) -> tuple[str, str, int]:
        t = self.toks[self.i]
        self.i += 1
        return t

    def rest(self) -> str:
        return self.text[self.peek()[2] :].strip()

    def expect(self, op: str) -> None:
        kind, val, _ = self.peek()
        if kind != "op" or val != op:
            if op == ")":
                raise ArithError("missing `)'", self.rest() or None)
            raise ArithError("syntax error in expression", self.rest() or None)
        self.i += 1

    def is_op(self, *ops: str) -> bool:
        kind, val, _ = self.peek()
        return kind == "op" and val in ops

    # grammar
    def parse(self) -> Fn:
        if self.peek()[0] == "end":
            return lambda h: 0
        fn, _ = self.comma()
        if self.peek()[0] != "end":
            raise ArithError("syntax error in expression", self.rest())
        return fn

    def comma(self) -> tuple[Fn, _LValue | None]:
        fn, lv = self.assign()
        while self.is_op(","):
            self.take()
            first = fn
            second, lv = self.assign()

            def seq(h: ArithHost, a: Fn = first, b: Fn = second) -> int:
                a(h)
                return b(h)

            fn = seq
        return fn, lv

    def assign(self) -> tuple[Fn, _LValue | None]:
        fn, lv = self.ternary()
        kind, val, _ = self.peek()
        if kind == "op" and val in _ASSIGN_OPS:
            if lv is None:
                raise ArithError("attempted assignment to non-variable", self.rest())
            self.take()
            rhs, _ = self.assign()
            write = lv.writer()
            if val == "=":

                def set_(h: ArithHost) -> int:
                    v = rhs(h)
                    write(h, v)
                    return v

                return set_, None
            binop = _BINARY[val[:-1]]
            read = lv.reader()

            def update(h: ArithHost) -> int:
                v = binop(read(h), rhs(h))
                write(h, v)
                return v

            return update, None
        return fn, lv

    def ternary(self) -> tuple[Fn, _LValue | None]:
        cond, lv = self.binary(1)
        if not self.is_op("?"):
            return cond, lv
        self.take()
        yes, _ = self.comma()
        self.expect(":")
        no, _ = self.assign()

        def pick(h: ArithHost) -> int:
            return yes(h) if cond(h) else no(h)

        return pick, None

    def binary(self, min_prec: int) -> tuple[Fn, _LValue | None]:
        left, lv = self.power()
        while True:
            kind, op, _ = self.peek()
            prec = _PREC.get(op, 0) if kind == "op" else 0
            if prec < min_prec or prec == 0:
                return left, lv
            self.take()
            right, rlv = self.binary(prec + 1)
            fused = _fused(op, self._operand(left, lv), self._operand(right, rlv))
            lv = None
            if fused is not None:
                left = fused
            elif op == "&&":

                def and_(h: ArithHost, a: Fn = left, b: Fn = right) -> int:
                    return 1 if a(h) and b(h) else 0

                left = and_
            elif op == "||":

                def or_(h: ArithHost, a: Fn = left, b: Fn = right) -> int:
                    return 1 if a(h) or b(h) else 0

                left = or_
            elif op in _FAST:
                left = _FAST[op](left, right)
            else:
                f = _BINARY[op]

                def bin_(
                    h: ArithHost, a: Fn = left, b: Fn = right, f: Callable[[int, int], int] = f
                ) -> int:
                    return f(a(h), b(h))

                left = bin_

    def _operand(self, fn: Fn, lv: _LValue | None) -> tuple[str, Any] | None:
        """("var", name) for a plain variable, ("num", value) for a number literal,
        ("hole", index) for a template's hole, else None: what _fused reads inline."""
        if lv is not None and lv.sub is None:
            return "var", lv.name
        got = self.consts.get(id(fn))
        if got is not None and got[0] is fn:
            return "num", got[1]
        got = self.holes.get(id(fn))
        if got is not None and got[0] is fn:
            return "hole", got[1]
        return None

    def power(self) -> tuple[Fn, _LValue | None]:
        base, lv = self.unary()
        if not self.is_op("**"):
            return base, lv
        self.take()
        exp, _ = self.power()  # right associative

        def pow_(h: ArithHost) -> int:
            return _c_pow(base(h), exp(h))

        return pow_, None

    def unary(self) -> tuple[Fn, _LValue | None]:
        kind, val, _ = self.peek()
        if kind == "op":
            if val in ("++", "--"):
                self.take()
                operand, lv = self.unary()
                delta = 1 if val == "++" else -1
                if lv is None:
                    # `--5` is double negation and `++5` double plus, as in bash.
                    return operand, None
                read, write = lv.reader(), lv.writer()

                def pre(h: ArithHost) -> int:
                    v = wrap(read(h) + delta)
                    write(h, v)
                    return v

                return pre, None
            if val in ("-", "+", "!", "~"):
                self.take()
                operand, _ = self.unary()
                if val == "-":
                    return (lambda h: wrap(-operand(h))), None
                if val == "+":
                    return operand, None
                if val == "!":
                    return (lambda h: 0 if operand(h) else 1), None
                return (lambda h: ~operand(h)), None
        return self.postfix()

    def postfix(self) -> tuple[Fn, _LValue | None]:
        fn, lv = self.primary()
        if lv is not None and self.is_op("++", "--"):
            _, val, _ = self.take()
            delta = 1 if val == "++" else -1
            if lv.sub is None:
                return _fused_post(lv.name, delta), None
            read, write = lv.reader(), lv.writer()

            def post(h: ArithHost) -> int:
                v = read(h)
                n = v + delta
                write(h, n if _MIN <= n <= _MAX else wrap(n))
                return v

            return post, None
        return fn, lv

    def primary(self) -> tuple[Fn, _LValue | None]:
        kind, val, pos = self.take()
        if kind == "num":
            n = parse_number(val)
            const: Fn = lambda h: n  # noqa: E731 — kept by identity in self.consts
            self.consts[id(const)] = (const, n)
            return const, None
        if kind == "hole":
            k = int(val)
            # kept by identity in self.holes; the host is a _WithHoles
            hole: Fn = lambda h: h.holes[k]  # type: ignore[attr-defined]  # noqa: E731
            self.holes[id(hole)] = (hole, k)
            return hole, None
        if kind == "name":
            sub: Fn | None = None
            raw = ""
            if self.is_op("["):
                start = self.take()[2] + 1
                sub, _ = self.comma()
                end = self.peek()[2]
                self.expect("]")
                raw = self.text[start:end]
            lv = _LValue(val, sub, raw)
            return lv.reader(), lv
        if kind == "op" and val == "(":
            fn, _ = self.comma()
            self.expect(")")
            return fn, None
        self.i -= 1
        # At the end of the text bash names the operator that wanted an operand.
        tok = self.rest() or (self.toks[self.i - 1][1] if self.i else None)
        raise ArithError("syntax error: operand expected", tok)


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------

_CACHE: dict[str, Fn] = {}  # (oldest first)
_CACHE_SIZE = 2048


def compile_expr(text: str) -> Fn:
    """The closure for an expression's text, from the cache when seen before."""
    fn = _CACHE.get(text)
    if fn is not None:
        return fn
    try:
        fn = _Parser(text).parse()
    except ArithError as e:
        raise as_expansion_error(text, e) from None
    _CACHE[text] = fn
    if len(_CACHE) > _CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]
    return fn


def as_expansion_error(text: str, e: ArithError) -> ExpansionError:
    """The error a fault in evaluating `text` is reported as."""
    msg = f"{text.strip()}: {e.message}"
    if e.token is not None:
        msg += f' (error token is "{e.token}")'
    return ExpansionError(msg, status=1)


def evaluate(text: str, host: ArithHost) -> int:
    """Evaluate arithmetic text; faults raise ExpansionError (status 1, not fatal:
    the `$((…))` caller marks its own faults fatal as bash does)."""
    fn = _CACHE.get(text)
    if fn is None:
        fn = compile_expr(text)
    try:
        return fn(host)
    except ArithError as e:
        raise as_expansion_error(text, e) from None


def fixed_text_fn(word: ast.Word) -> tuple[str, Fn] | None:
    """(text, compiled closure) for an arithmetic word with nothing to expand — the
    words `words.eval_arith_word` takes as they are — else None. A caller evaluating the
    word many times (`for ((…))`) calls the closure and turns an ArithError into
    `as_expansion_error(text, e)`, exactly as `evaluate` does."""
    parts = word.parts
    p = parts[0] if len(parts) == 1 else None
    if type(p) is ast.Quoted or type(p) is ast.Lit:
        text: str = p.text
        return text, compile_expr(text)
    return None


# ---------------------------------------------------------------------------
# Templates: `$((x + $1))` compiled once for every value of `$1`
# ---------------------------------------------------------------------------

_HOLE = "\0"  # where an expansion's text goes in a template (never in a shell word)
# characters that would join a number put next to them into one longer token
_JOINS = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_@#")


class _WithHoles:
    """The host a template's closure runs with: the real host's variables, and the
    numbers its holes stand for in this evaluation. Made for every evaluation, so it
    holds the two and passes each variable access on."""

    __slots__ = ("host", "holes")

    def __init__(self, host: ArithHost, holes: list[int]) -> None:
        self.host = host
        self.holes = holes

    @property
    def nounset(self) -> bool:
        return self.host.nounset

    def lookup(self, name: str) -> Any:
        return self.host.lookup(name)

    def assign(self, name: str, value: Any) -> None:
        self.host.assign(name, value)

    def assign_index(self, name: str, key: str | int, value: Any) -> None:
        self.host.assign_index(name, key, value)


def compile_template(pieces: Sequence[str]) -> Fn | None:
    """The closure for the text `pieces` joined by holes, each hole standing for a plain
    decimal number (the value of an expansion such as `$1`), or None when the template
    cannot stand for every such text: a hole next to a character that would join the
    number to a longer token (`1$x`, `$x#1`, `$a$b`), or text that does not parse.
    Tokens are the text's either way, so the closure computes what the joined text
    would, faults included (their message names the joined text: `evaluate_template`)."""
    for k in range(1, len(pieces)):
        before, after = pieces[k - 1], pieces[k]
        if not before and k > 1 or before and before[-1] in _JOINS:
            return None
        if not after and k < len(pieces) - 1 or after and after[0] in _JOINS:
            return None
    if any(_HOLE in p for p in pieces):
        return None
    try:
        return _Parser(_HOLE.join(pieces), holes=True).parse()
    except ArithError:
        return None


def hole_number(text: str) -> int | None:
    """The number a hole takes for an expansion's text: a plain decimal (no sign, no
    leading zero, short enough to need no wrapping check beyond `wrap`), else None (the
    joined text is evaluated instead)."""
    n = INT_TEXTS.get(text)
    if n is not None:
        return n
    k = len(text)
    if 0 < k <= 19 and text.isdigit() and text.isascii() and (k == 1 or text[0] != "0"):
        return int(text) if k < 19 else wrap(int(text))  # 18 digits never need wrapping
    return None


def evaluate_one_hole(fn: Fn, text: str, pieces: Sequence[str], host: ArithHost) -> int | None:
    """A one-hole template (`$(( $1 + 1 ))`) for the expansion text `text`:
    `hole_number` and `evaluate_template` in one call, None when `text` is no plain
    number (the caller then evaluates the joined text)."""
    n = INT_TEXTS.get(text)
    if n is None:
        n = hole_number(text)
        if n is None:
            return None
    try:
        return fn(_WithHoles(host, [n]))
    except ArithError as e:
        raise as_expansion_error(pieces[0] + text + pieces[1], e) from None


def evaluate_template(fn: Fn, numbers: list[int], pieces: Sequence[str],
                      texts: Sequence[str], host: ArithHost) -> int:
    """Run a template's closure with its holes' numbers; a fault is reported as
    `evaluate` would report it for the joined text."""
    try:
        return fn(_WithHoles(host, numbers))
    except ArithError as e:
        joined = pieces[0] + "".join(t + p for t, p in zip(texts, pieces[1:], strict=True))
        raise as_expansion_error(joined, e) from None


# A one-hole template of one binary operator between the hole and a number or a plain
# variable (`$1 + 1`, `n * $x`, `$1 < max`) gets one closure that reads the expansion,
# takes its number and computes (OPERATOR_CODE), with no `_WithHoles` and no call per
# step. How the closure reads the expansion's value `v`: positional parameter K (of an
# expansion host's `positional()`) or variable K.
_HOLE_READ = {
    "pos": ("try:\n            v = h.positional()[K]\n"
            "        except IndexError:\n            v = None"),
    "var": "v = h.lookup(K)",
}
_ONE_HOLE_MAKERS: dict[tuple[str, str, bool, str], Callable[..., Any]] = {}


def _one_hole_shape(pieces: Sequence[str]) -> tuple[str, bool, str, Any] | None:
    """(operator, whether the hole is its left operand, "num" or "name", the number or
    the name) of a template that is one binary operator between its one hole and a
    number or a plain variable, by its tokens, else None."""
    if len(pieces) != 2:
        return None
    try:
        toks = _Parser(_HOLE.join(pieces), holes=True).toks
    except ArithError:
        return None
    if len(toks) != 4:
        return None
    (k1, v1, _), (k2, op, _), (k3, v3, _) = toks[0], toks[1], toks[2]
    if k2 != "op" or op not in OPERATOR_CODE:
        return None
    if k1 == "hole" and k3 in ("num", "name"):
        kind, other, hole_left = k3, v3, True
    elif k3 == "hole" and k1 in ("num", "name"):
        kind, other, hole_left = k1, v1, False
    else:
        return None
    if kind == "num":
        try:
            return op, hole_left, kind, parse_number(other)
        except ArithError:
            return None
    return op, hole_left, kind, other


def one_hole_fn(pieces: Sequence[str], read: str, key: Any,
                slow: Callable[[Any, Any], int]) -> Callable[[Any], int] | None:
    """The closure of a one-hole template (see `_one_hole_shape`) that reads its
    expansion's value itself — positional parameter `key` (0 for `$1`) when `read` is
    "pos", variable `key` when "var" — or None for a template of another shape. A value
    whose text is a plain decimal number (`hole_number`) is computed here, faults named
    by the joined text as `evaluate_one_hole` names them; any other value is handed,
    before anything else is read, to `slow(host, value)`, which must do what the
    general path does with it."""
    shape = _one_hole_shape(pieces)
    if shape is None:
        return None
    op, hole_left, kind, other = shape
    mkey = (read, op, hole_left, kind)
    make = _ONE_HOLE_MAKERS.get(mkey)
    if make is None:
        x, y = ("a", "b") if hole_left else ("b", "a")
        read_other = _READ_INLINE["var" if kind == "name" else kind].format(x=y, X="C")
        lines = [
            "def make(K, C, slow, first, rest):",
            "    def one_hole(h):",
            "        " + _HOLE_READ[read],
            "        if type(v) is not str:",
            "            return slow(h, v)",
            f"        {x} = INT_TEXTS.get(v)",
            f"        if {x} is None:",
            f"            {x} = hole_number(v)",
            f"            if {x} is None:",
            "                return slow(h, v)",
            "        try:",
            "            " + read_other.replace("\n        ", "\n            "),
            _return_result(op, "            "),
            "        except ArithError as e:",
            "            raise as_expansion_error(first + v + rest, e) from None",
            "    return one_hole",
        ]
        env: dict[str, Any] = {
            "INT_TEXTS": INT_TEXTS, "hole_number": hole_number, "_var_value": _var_value,
            "_MIN": _MIN, "_MAX": _MAX, "wrap": wrap, "_c_div": _c_div, "_c_mod": _c_mod,
            "_c_pow": _c_pow, "ArithError": ArithError,
            "as_expansion_error": as_expansion_error}
        side = "left" if hole_left else "right"
        exec(compile_cached("\n".join(lines) + "\n",
                            f"<arith hole {read} {side} {kind} {op}>"), env)
        make = _ONE_HOLE_MAKERS[mkey] = env["make"]
    fn: Callable[[Any], int] = make(key, other, slow, pieces[0], pieces[1])
    return fn
