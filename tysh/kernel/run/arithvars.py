"""The commonest arithmetic of loops (`i < 100`, `x + i`, `i++`, `i += 2`) evaluated
straight on the interpreter's variable frames.

An expression evaluated on every iteration of a loop spends most of its time in the
calls that read and store its variables through the `ArithHost` interface. For an
expression of one of the shapes here — one operator between two plain variables or
decimal numbers, an increment or decrement of a plain variable, or `+=`/`-=` of one —
`loop_fn` gives a closure that reads the frames itself, as `Interpreter.lookup` and
`Interpreter.assign` would, for the case they answer at once: no nameref, each variable
set to text whose number arithmetic already knows (`arith.INT_TEXTS`), a store into a
writable global while no function runs. Anything else — an unset or non-numeric
variable, a nameref, an array, a readonly target, a function's frames — runs the
general closure the text compiled to, before anything has been stored, so the result,
faults and side effects are the general path's.
"""

from __future__ import annotations

from tysh.kernel.base.cache import compile_cached
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.expand import arith

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from tysh.kernel.run.interpreter import Interpreter

    LoopFn = Callable[[Interpreter], int]

_OPERAND = r"([A-Za-z_][A-Za-z0-9_]*|0|[1-9][0-9]{0,17})"
_BINARY = LazyRegex(rf"[ \t\n]*{_OPERAND}[ \t\n]*(\+|-|\*|<=?|>=?|==|!=)[ \t\n]*{_OPERAND}"
                    r"[ \t\n]*")
_POST = LazyRegex(r"[ \t\n]*([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*(\+\+|--)[ \t\n]*")
_PRE = LazyRegex(r"[ \t\n]*(\+\+|--)[ \t\n]*([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*")
_UPDATE = LazyRegex(rf"[ \t\n]*([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*(\+|-)=[ \t\n]*{_OPERAND}"
                    r"[ \t\n]*")

# The code of each shape, put together from these pieces and compiled once per shape.
# A variable is found as Interpreter.lookup finds it (the innermost frame, then the
# globals when a function called from the top level runs); a deeper search, and every
# value not known as a number, is left to the general closure `fn`.
_READ = """\
        {x}var = frames[-1].get({X})
        if {x}var is None and len(frames) == 2:
            {x}var = frames[0].get({X})
        if {x}var is None:
            return fn(interp)
        {x} = {x}var.value
        {x} = ints.get({x}) if type({x}) is str else None
        if {x} is None:
            return fn(interp)
"""
_WRAP = "        r = r if _MIN <= r <= _MAX else wrap(r)\n"
# the operators computed inline, each as arith computes it (arith.OPERATOR_CODE)
_RESULT = {
    op: f"        r = {arith.OPERATOR_CODE[op][0]}\n" + (_WRAP if arith.OPERATOR_CODE[op][1] else "")
    for op in ("+", "-", "*", "<", "<=", ">", ">=", "==", "!=")
}
# the store Interpreter.assign makes at once (a writable global of text while no
# function runs), of the text arith.int_text makes; `avar` is the target, read above
_STORE = """\
        if len(frames) != 1 or avar.readonly or avar.case:
            return fn(interp)
        s = str(r)
        if len(ints) > _SIZE:
            ints.clear()
        ints[s] = r
        avar.value = s
"""
_HEAD = """\
def make(fn, A, B):
    def loop_fn(interp):
        st = interp.state
        if st.refs:
            return fn(interp)
        frames = st.frames
"""

_MAKERS: dict[tuple[str, ...], Callable[..., LoopFn]] = {}


def _maker(key: tuple[str, ...], body: str) -> Callable[..., LoopFn]:
    make = _MAKERS.get(key)
    if make is None:
        env: dict[str, Any] = {"ints": arith.INT_TEXTS, "_SIZE": arith.INT_TEXTS_SIZE,
                               "_MIN": -(1 << 63), "_MAX": (1 << 63) - 1,
                               "wrap": arith.wrap}
        source = _HEAD + body + "    return loop_fn\n"
        exec(compile_cached(source, f"<loop arith {' '.join(key)}>"), env)
        make = _MAKERS[key] = env["make"]
    return make


def _operand(x: str, text: str) -> tuple[str, str, Any]:
    """(kind, code reading it into `x`, the value bound to its name in the code)."""
    if text[0].isdigit():
        return "num", "", int(text)
    return "var", _READ.format(x=x, X=x.upper()), text


def loop_fn(text: str, fn: arith.Fn) -> LoopFn:
    """What evaluates `text` (compiled by arith to `fn`) on the interpreter it is given:
    a closure for the shapes above, else `fn` itself. Faults come from `fn`, as
    ArithError or ExpansionError, exactly as from `fn` called alone."""
    m = _BINARY.fullmatch(text)
    if m is not None:
        left, op, right = m.group(1), m.group(2), m.group(3)
        ka, read_a, a = _operand("a", left)
        kb, read_b, b = _operand("b", right)
        if ka == "num" and kb == "num":
            return fn
        code = read_a + read_b + ("        a = A\n" if ka == "num" else "") + (
            "        b = B\n" if kb == "num" else "") + _RESULT[op] + "        return r\n"
        return _maker(("bin", op, ka, kb), code)(fn, a, b)
    m = _POST.fullmatch(text)
    post = m is not None
    if m is not None:
        name, delta = m.group(1), m.group(2)
    else:
        m = _PRE.fullmatch(text)
        if m is not None:
            delta, name = m.group(1), m.group(2)
    if m is not None:
        sign = "+" if delta == "++" else "-"
        code = (_READ.format(x="a", X="A") + f"        r = a {sign} 1\n" + _WRAP + _STORE
                + ("        return a\n" if post else "        return r\n"))
        return _maker(("post" if post else "pre", sign), code)(fn, name, None)
    m = _UPDATE.fullmatch(text)
    if m is not None:
        name, sign, right = m.group(1), m.group(2), m.group(3)
        kb, read_b, b = _operand("b", right)
        code = (_READ.format(x="a", X="A") + read_b
                + ("        b = B\n" if kb == "num" else "")
                + f"        r = a {sign} b\n" + _WRAP + _STORE + "        return r\n")
        return _maker(("update", sign, kb), code)(fn, name, b)
    return fn
