"""expr (GNU coreutils 9.1): evaluate an expression given as separate words.

expr is verbatim: its operands are words like `*`, `(`, `-5` and `--`
that must reach the expression parser in order, untouched; the kernel still lifts
`--json`. The grammar is GNU's recursive descent, with its `evaluate` flag so that the
untaken side of `|` and `&` is parsed but never raises (`expr 1 \\| 1 / 0` is 1).
Integers are Python ints (C truncating division) up to calc.bigint's cap, past which
a number is out of range, as in a GNU expr built without big numbers. Status: 0 when
the result is neither null nor 0, 1 when it is, 2 for an invalid expression, 3 for a
number out of range."""

from __future__ import annotations

from tysh.builtins._common.fileinfo import q
from tysh.builtins.calc.bigint import MAX_BITS, TooLarge, itos, stoi
from tysh.kernel.base.hints import Protocol
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.values import to_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

_INTEGER = LazyRegex(r"-?[0-9]+")
_NULL = LazyRegex(r"-?0*")

Value = int | str


class ExprError(Exception):
    """An invalid expression: GNU's message, exit status 2."""

    status = 2


class ExprRange(ExprError):
    """A number past calc.bigint's cap (GNU without big numbers: ERANGE, status 3)."""

    status = 3


class _Words(Protocol):
    words: list[Any] | None


def _as_int(v: Value) -> int | None:
    if isinstance(v, int):
        return v
    if not _INTEGER.fullmatch(v):
        return None
    try:
        return stoi(v)
    except TooLarge:
        shown = v if len(v) <= 40 else v[:40] + "..."
        raise ExprRange(f"{shown}: Numerical result out of range") from None


def _null(v: Value) -> bool:
    """GNU's null(): 0, the empty string, or a string of zeros with an optional '-'."""
    if isinstance(v, int):
        return v == 0
    return v == "" or (v != "-" and _NULL.fullmatch(v) is not None)


def _text(v: Value) -> str:
    return itos(v) if isinstance(v, int) else v


def _arith(op: str, a: Value, b: Value) -> int:
    x, y = _as_int(a), _as_int(b)
    if x is None or y is None:
        raise ExprError("non-integer argument")
    if op in "+-*":
        r = x + y if op == "+" else x - y if op == "-" else x * y
        if r.bit_length() > MAX_BITS:
            raise ExprRange(f"{op}: Numerical result out of range")
        return r
    if y == 0:
        raise ExprError("division by zero")
    quo = abs(x) // abs(y)
    if (x < 0) != (y < 0):
        quo = -quo
    return quo if op == "/" else x - quo * y


def _compare(op: str, a: Value, b: Value) -> int:
    x, y = _as_int(a), _as_int(b)
    if x is None or y is None:
        sa, sb = _text(a), _text(b)
        c = (sa > sb) - (sa < sb)
    else:
        c = (x > y) - (x < y)
    return int({"<": c < 0, "<=": c <= 0, "=": c == 0, "==": c == 0,
                "!=": c != 0, ">=": c >= 0, ">": c > 0}[op])


def _match(s: Value, pattern: Value) -> Value:
    """STRING : REGEX — a BRE anchored at the start (GNU's re_match)."""
    from tysh.kernel.text.regex import RegexError, compile_text

    try:
        rx = compile_text(_text(pattern), False, False, "space")
    except RegexError as e:
        raise ExprError(e.message) from None
    m = rx.match(_text(s))
    if rx.groups:
        return (m.group(1) or "") if m else ""
    return m.end() if m else 0


class _Parser:
    """GNU expr's eval … eval7 over the word list."""

    def __init__(self, words: Sequence[str]) -> None:
        self.w = list(words)
        self.i = 0

    def more(self) -> bool:
        return self.i < len(self.w)

    def next_is(self, *tokens: str) -> str | None:
        if self.i < len(self.w) and self.w[self.i] in tokens:
            self.i += 1
            return self.w[self.i - 1]
        return None

    def parse(self) -> Value:
        v = self.e_or(True)
        if self.more():
            raise ExprError(f"syntax error: unexpected argument {q(self.w[self.i])}")
        return v

    def e_or(self, ev: bool) -> Value:
        left = self.e_and(ev)
        while self.next_is("|"):
            right = self.e_and(ev and _null(left))
            if _null(left):
                left = 0 if _null(right) else right
        return left

    def e_and(self, ev: bool) -> Value:
        left = self.e_cmp(ev)
        while self.next_is("&"):
            right = self.e_cmp(ev and not _null(left))
            if _null(left) or _null(right):
                left = 0
        return left

    def e_cmp(self, ev: bool) -> Value:
        left = self.e_add(ev)
        while op := self.next_is("<", "<=", "=", "==", "!=", ">=", ">"):
            right = self.e_add(ev)
            left = _compare(op, left, right) if ev else 0
        return left

    def e_add(self, ev: bool) -> Value:
        left = self.e_mul(ev)
        while op := self.next_is("+", "-"):
            right = self.e_mul(ev)
            left = _arith(op, left, right) if ev else 0
        return left

    def e_mul(self, ev: bool) -> Value:
        left = self.e_colon(ev)
        while op := self.next_is("*", "/", "%"):
            right = self.e_colon(ev)
            left = _arith(op, left, right) if ev else 0
        return left

    def e_colon(self, ev: bool) -> Value:
        left = self.e_unary(ev)
        while self.next_is(":"):
            right = self.e_unary(ev)
            left = _match(left, right) if ev else 0
        return left

    def e_unary(self, ev: bool) -> Value:
        if self.next_is("+"):
            if not self.more():
                raise ExprError(f"syntax error: missing argument after {q(self.w[self.i - 1])}")
            self.i += 1
            return self.w[self.i - 1]
        if self.next_is("length"):
            return len(_text(self.e_unary(ev)))
        if self.next_is("match"):
            subject = self.e_unary(ev)
            pattern = self.e_unary(ev)
            return _match(subject, pattern) if ev else 0
        if self.next_is("index"):
            s, chars = _text(self.e_unary(ev)), _text(self.e_unary(ev))
            hits = [k for k in (s.find(c) for c in set(chars)) if k >= 0]
            return min(hits) + 1 if hits else 0
        if self.next_is("substr"):
            s = _text(self.e_unary(ev))
            pos, n = _as_int(self.e_unary(ev)), _as_int(self.e_unary(ev))
            if pos is None or n is None or pos < 1 or n < 1 or pos > len(s):
                return ""
            return s[pos - 1:pos - 1 + n]
        return self.e_primary(ev)

    def e_primary(self, ev: bool) -> Value:
        if not self.more():
            raise ExprError(f"syntax error: missing argument after {q(self.w[self.i - 1])}")
        if self.next_is("("):
            v = self.e_or(ev)
            if not self.more():
                raise ExprError(f"syntax error: expecting ')' after {q(self.w[self.i - 1])}")
            if not self.next_is(")"):
                raise ExprError(f"syntax error: expecting ')' instead of {q(self.w[self.i])}")
            return v
        if self.next_is(")"):
            raise ExprError("syntax error: unexpected ')'")
        self.i += 1
        return self.w[self.i - 1]


@tool(
    "expr", kind="compute",
    verbatim=True,
    description="evaluate an expression: integer arithmetic, comparisons, | &, "
                "STRING : REGEX, match substr index length (GNU expr)",
    examples=[
        ("arithmetic (quote the *)", "expr 5 \\* 3"),
        ("increment a counter", "i=$(expr $i + 1)"),
        ("regex capture", "expr 'file.tar.gz' : '\\(.*\\)\\.gz'"),
        ("string length", "expr length hello"),
    ],
)
def expr(args: _Words, ctx: Context) -> ToolReturn:
    words = [w if type(w) is str else to_text(w) for w in (args.words or ())]
    if words and words[0] == "--":
        words = words[1:]
    if not words:
        ctx.error("missing operand")
        ctx.stderr.write(b"Try 'expr --help' for more information.\n")
        return 2
    try:
        v = _Parser(words).parse()
    except ExprError as e:
        ctx.error(str(e))
        return e.status
    status = 1 if _null(v) else 0
    text = _text(v)
    if ctx.json:
        return Outcome(status, OutputData.text(text, rich_json=_value(text)))
    ctx.stdout.write(text.encode("utf-8", "surrogateescape") + b"\n")
    return Outcome(status, OutputData.value(lambda: _value(text)))


def _value(text: str) -> int | str:
    """A number when the text is one as written (`007` stays a string); past 4,000
    digits a string, as Python's JSON encoder cannot write such an int."""
    canonical = _INTEGER.fullmatch(text) and len(text) < 4000 and text == itos(stoi(text))
    return stoi(text) if canonical else text


TOOLS = [expr]
