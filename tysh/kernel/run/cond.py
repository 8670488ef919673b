"""`[[ … ]]`: conditional expressions with patterns, `=~` regexes and file tests.

Operands are expanded without splitting or globbing; the right side of `==`/`!=` is a
pattern (quoted parts literal) and the right side of `=~` a POSIX extended regex (quoted
parts literal). A successful `=~` sets BASH_REMATCH. File and string tests share their
tables with the `test` builtin so the two never disagree."""

from __future__ import annotations

import io

from tysh.kernel.base.errors import ExpansionError
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import DOTALL, IGNORECASE, LazyRegex
from tysh.kernel.base.values import AssocArray, array_get, byte_view, from_byte_view
from tysh.kernel.syntax import ast

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from tysh.kernel.expand import pattern
    from tysh.kernel.run.interpreter import Interpreter
    from tysh.kernel.text import engine, testexpr
else:  # loaded by the first `==`, `=~` or test operator (an import in a function that
    # runs on every evaluation costs more than the comparison itself)
    pattern = LazyModule(globals(), "pattern", "tysh.kernel.expand.pattern")
    testexpr = LazyModule(globals(), "testexpr", "tysh.kernel.text.testexpr")
    engine = LazyModule(globals(), "engine", "tysh.kernel.text.engine")

# `-v` operands: a name, or a name and a subscript
_VAR_REF = LazyRegex(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?", DOTALL)

_INT_OPS = {
    "-eq": lambda a, b: a == b,
    "-ne": lambda a, b: a != b,
    "-lt": lambda a, b: a < b,
    "-le": lambda a, b: a <= b,
    "-gt": lambda a, b: a > b,
    "-ge": lambda a, b: a >= b,
}


def eval_cond(interp: Interpreter, e: ast.CondExpr) -> bool:
    t = type(e)
    if t is ast.CondAnd:
        assert isinstance(e, ast.CondAnd)
        return eval_cond(interp, e.left) and eval_cond(interp, e.right)
    if t is ast.CondOr:
        assert isinstance(e, ast.CondOr)
        return eval_cond(interp, e.left) or eval_cond(interp, e.right)
    if t is ast.CondNot:
        assert isinstance(e, ast.CondNot)
        inner = e.operand
        if type(inner) in _PRIMARIES:  # `set -x` shows `[[ ! -z x ]]` as one test
            return not _primary(interp, inner, "! ")
        return not eval_cond(interp, inner)
    return _primary(interp, e, "")


_PRIMARIES = (ast.CondWord, ast.CondUnary, ast.CondBinary)


def _primary(interp: Interpreter, e: ast.CondExpr, neg: str) -> bool:
    if type(e) is ast.CondWord:
        assert isinstance(e, ast.CondWord)
        text = interp.expand_word_text(e.word)
        if "xtrace" in interp.state.options:
            _trace(interp, f"{neg}-n {_quote(text)}")
        return text != ""
    if type(e) is ast.CondUnary:
        assert isinstance(e, ast.CondUnary)
        return _unary(interp, e.op, e.operand, neg)
    assert isinstance(e, ast.CondBinary)
    return _binary(interp, e, neg)


def _quote(text: str) -> str:
    from tysh.kernel.run.xtrace import quote

    return quote(text)


def _trace(interp: Interpreter, test: str) -> None:
    """`set -x`: one line per test of the expression, its operands expanded."""
    from tysh.kernel.run.xtrace import trace_line

    trace_line(interp, interp.cur_fds, f"[[ {test} ]]")


def _unary(interp: Interpreter, op: str, word: ast.Word, neg: str = "") -> bool:
    text = interp.expand_word_text(word)
    if "xtrace" in interp.state.options:
        _trace(interp, f"{neg}{op} {_quote(text)}")
    if op == "-z":
        return text == ""
    if op == "-n":
        return text != ""
    if op == "-v":
        return var_is_set(interp, text)
    if op == "-o":
        return text in interp.state.options
    fn = testexpr.UNARY.get(op)
    if fn is None:
        raise ExpansionError(f"{op}: unary operator expected", status=2)
    return bool(fn(_ctx(interp), text))


def var_is_set(interp: Interpreter, text: str) -> bool:
    """`-v NAME`, `-v NAME[KEY]`: whether the variable or element is set. An array's
    name alone stands for its element 0 (`declare -a a` leaves `a` unset); the key of
    an associative array is expanded (`'m[$k]'`), an index is arithmetic."""
    m = _VAR_REF.fullmatch(text)
    if m is None:
        return False
    v = interp.state.get(m.group(1))
    if m.group(2) is None:
        if isinstance(v, list):
            return bool(v) and v[0] is not None
        if type(v) is AssocArray:
            return "0" in v
        return v is not None
    key = m.group(2)
    if type(v) is AssocArray:
        return interp.subscript_text(key) in v
    if isinstance(v, dict):
        return key in v
    if isinstance(v, list):
        if key in ("@", "*"):
            return any(x is not None for x in v)
        return array_get(v, interp.eval_arith_text(key)) is not None
    return v is not None and key in ("0", "@", "*")


def _binary(interp: Interpreter, e: ast.CondBinary, neg: str = "") -> bool:
    op = e.op
    left = interp.expand_word_text(e.left)
    traced = "xtrace" in interp.state.options
    if op in ("==", "=", "!="):
        pat = interp.expand_pattern(e.right)
        if traced:
            _trace(interp, f"{neg}{_quote(left)} {op} {pat}")
        hit = pattern.match(pat, left, nocase="nocasematch" in interp.state.shopt,
                    octets=not left.isascii() and interp.state.byte_locale())
        return hit if op != "!=" else not hit
    if op == "=~":
        if traced:
            _trace(interp, f"{neg}{_quote(left)} {op} {_regex_source(interp, e.right)}")
        return _regex(interp, left, e.right)
    right = interp.expand_word_text(e.right)
    if traced:
        _trace(interp, f"{neg}{_quote(left)} {op} {_quote(right)}")
    if op == "<":
        return left < right
    if op == ">":
        return left > right
    f = _INT_OPS.get(op)
    if f is not None:
        return bool(f(interp.eval_arith_text(left or "0"), interp.eval_arith_text(right or "0")))
    fn = testexpr.BINARY.get(op)
    if fn is None:
        raise ExpansionError(f"{op}: binary operator expected", status=2)
    return bool(fn(_ctx(interp), left, right))


def _regex_source(interp: Interpreter, word: ast.Word) -> str:
    """The regex text: unquoted parts as written/expanded, quoted parts escaped."""
    from tysh.kernel.expand.words import expand_regex

    return expand_regex(word, interp)


def _regex(interp: Interpreter, left: str, right: ast.Word) -> bool:
    source = _regex_source(interp, right)
    st = interp.state
    octets = not left.isascii() and st.byte_locale()
    if octets:  # the C locale: `.` and brackets match one byte
        source, left = byte_view(source), byte_view(left)
    rx = _compile(source, "nocasematch" in st.shopt)
    m = rx.search(left)
    if m is None:
        st.set("BASH_REMATCH", [])
        return False
    groups = [m.group(0), *(g if g is not None else "" for g in m.groups())]
    st.set("BASH_REMATCH", [from_byte_view(g) for g in groups] if octets else groups)
    return True


_cache: dict[tuple[str, bool], Any] = {}


def _compile(source: str, nocase: bool = False) -> Any:
    """A `[[ =~ ]]` ERE on the engine that cannot freeze the shell (kernel.text.engine);
    `nocase` under `shopt -s nocasematch`."""
    rx = _cache.get((source, nocase))
    if rx is not None:
        return rx
    import re

    flags = IGNORECASE if nocase else 0
    try:
        from tysh.kernel.text.regex import translate

        py = translate(source, extended=True, mode="space").source
        rx = engine.compile(py, flags)
    except Exception:  # noqa: BLE001 — fall back to Python's dialect, then report
        try:
            rx = engine.compile(source, flags)
        except re.error as err:
            raise ExpansionError(f"{source}: invalid regular expression: {err}", status=2) from None
    if len(_cache) > 512:
        _cache.clear()
    _cache[source, nocase] = rx
    return rx


def _ctx(interp: Interpreter) -> Any:
    from tysh.kernel.base.streams import NULL_IO
    from tysh.kernel.tools.context import Context

    fds = interp.cur_fds
    return Context(
        "[[",
        fds.get(0) or NULL_IO,
        fds.get(1) or io.BytesIO(),
        fds.get(2) or io.BytesIO(),
        interp.fs,
        interp,
    )
