"""The loop arithmetic read and stored straight on the frames (run/arithvars.py) gives
what the general closures give: the same output, messages, status and variables, for
every shape it takes and every kind of variable, at the top level and in functions."""

from __future__ import annotations

import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh import Kernel
from tysh.kernel.run import arithvars, plan

_DIR = tempfile.mkdtemp(prefix="tysh-loop-arith-")

_OPERANDS = ["a", "b", "i", "u", "0", "1", "7", "100", "999999999999999999", "RANDOM"]
_EXPRS = st.one_of(
    st.builds(lambda x, op, y, sp: f"{x}{sp}{op}{sp}{y}", st.sampled_from(_OPERANDS),
              st.sampled_from(["+", "-", "*", "<", "<=", ">", ">=", "==", "!="]),
              st.sampled_from(_OPERANDS), st.sampled_from(["", " ", "\t"])),
    st.builds(lambda n, op, pre: f"{op}{n}" if pre else f"{n}{op}",
              st.sampled_from(["a", "b", "i", "u", "r", "RANDOM"]),
              st.sampled_from(["++", "--"]), st.booleans()),
    st.builds(lambda n, op, y: f"{n} {op}= {y}", st.sampled_from(["a", "i", "u", "r"]),
              st.sampled_from(["+", "-"]), st.sampled_from(_OPERANDS)),
    st.sampled_from(["a<<1", "a**2", "a/b", "(a)+1", "a[1]+1", "a+b+1", "0x10+a", "010+a",
                     "a = 1", "1+1"]),
)
_VALUES = ["5", "-3", "0", "", "1+2", "b", "x y", "9223372036854775807", "010", "0x1f",
           "(1 2)", "([k]=3)"]
_ATTRS = ["", "readonly ", "declare -i ", "declare -u ", "declare -n ", "local "]
_WHERE = ["top", "function", "nested"]


def _script(expr: str, values: list[str], attrs: list[str], where: str, unset: bool) -> str:
    setup = ["RANDOM=7"]
    for name, value, attr in zip(["a", "b", "i", "r"], values, attrs, strict=True):
        if attr == "declare -n ":
            setup.append(f"declare -n {name}=a")
        elif value.startswith("(") and attr not in ("readonly ", "declare -u "):
            kind = "-A" if "[k]" in value else "-a"
            setup.append(f"declare {kind} {name}={value}")
        elif attr == "local ":
            setup.append(f"{name}={value!r}")
        else:
            setup.append(f"{attr}{name}={value!r}")
    if unset:
        setup.append("set -u")
    body = (f"v=$(({expr})); echo \"v $? [$v]\"\n"
            f"for ((c=0; c<2; {expr})); do c=$((c+1)); done; echo \"step $?\"\n"
            f"for ((c=0; {expr}; c++)); do [ $c -ge 2 ] && break; done; echo \"cond $?\"\n"
            "declare -p a b i r u v 2>&1; echo $?")
    if where == "function":
        body = f"f() {{\n{body}\n}}\nf; echo \"f $?\""
    elif where == "nested":
        locals_ = " ".join(f"local {n}=2;" for n, t in zip("abir", attrs, strict=True)
                           if t == "local ")
        body = f"g() {{\n{locals_} {body}\n}}\nf() {{ g; }}\nf; echo \"f $?\""
    return "\n".join(setup) + "\n" + body + "\n"


def _run(src: str) -> tuple[int, str, str]:
    r = Kernel(cwd=_DIR).execute(src)
    return r.code, r.out, r.err


def _agree(src: str) -> None:
    plan._PLANS.clear()
    fast = _run(src)
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(arithvars, "loop_fn", lambda text, fn: fn)
        mp.setattr(plan, "loop_fn", lambda text, fn: fn)
        plan._PLANS.clear()
        slow = _run(src)
    finally:
        mp.undo()
        plan._PLANS.clear()
    assert fast == slow, src


# each case the closures hand to the general one, for each shape that stores
@pytest.mark.parametrize("expr", ["a++", "--a", "a += 2", "a -= i", "a + 1", "i < a"])
@pytest.mark.parametrize("setup,where", [
    ("a=5 i=1", "top"), ("readonly a=5 i=1", "top"), ("declare -u a=5 i=1", "top"),
    ("declare -l a=5 i=1", "top"), ("declare -i a=5 i=1", "top"),
    ("t=5 i=1; declare -n a=t", "top"), ("a=(5 6) i=1", "top"),
    ("declare -A a=([0]=5) i=1", "top"), ("a=x i=1", "top"), ("a=1+4 i=1", "top"),
    ("i=1", "top"), ("set -u; i=1", "top"), ("a=05 i=1", "top"),
    ("a=9223372036854775807 i=1", "top"),
    ("a=5 i=1", "function"), ("a=5 i=1", "nested"), ("readonly a=5 i=1", "function"),
    ("a=5 i=1", "local"), ("a=5 i=1", "caller-local"), ("a=5 i=1", "prefix"),
])
def test_every_guard_hands_over_to_the_general_closure(expr: str, setup: str,
                                                       where: str) -> None:
    body = (f"v=$(({expr})); echo \"v $? [$v]\"\n"
            f"for ((c=0; c<2; {expr})); do c=$((c+1)); done; echo \"step $?\"\n"
            "declare -p a i v 2>&1")
    if where == "function":
        body = f"f() {{\n{body}\n}}\nf; echo \"f $?\""
    elif where == "nested":
        body = f"g() {{\n{body}\n}}\nf() {{ g; }}\nf; echo \"f $?\""
    elif where == "caller-local":
        body = f"g() {{\n{body}\n}}\nf() {{ local a=9; g; declare -p a; }}\nf"
    elif where == "local":
        body = f"f() {{\nlocal a=7\n{body}\n}}\nf; echo \"f $?\"; declare -p a"
    elif where == "prefix":
        body = f"f() {{\n{body}\n}}\na=3 f; echo \"f $?\"; declare -p a"
    _agree(f"{setup}\n{body}\n")


@settings(max_examples=300, deadline=None)
@given(expr=_EXPRS, values=st.lists(st.sampled_from(_VALUES), min_size=4, max_size=4),
       attrs=st.lists(st.sampled_from(_ATTRS), min_size=4, max_size=4),
       where=st.sampled_from(_WHERE), unset=st.booleans())
def test_loop_arithmetic_equals_the_general_closures(expr: str, values: list[str],
                                                     attrs: list[str], where: str,
                                                     unset: bool) -> None:
    _agree(_script(expr, values, attrs, where, unset))


@pytest.mark.parametrize("text,shaped", [
    ("i<100", True), (" x + i ", True), ("i++", True), ("--i", True), ("i += 2", True),
    ("x -= y", True), ("2*3", False), ("a<<1", False), ("a[1]+1", False), ("010+a", False),
    ("a+b+c", False), ("1234567890123456789+a", False),
])
def test_the_shapes_taken(text: str, shaped: bool) -> None:
    from tysh.kernel.expand import arith

    fn = arith.compile_expr(text)
    assert (arithvars.loop_fn(text, fn) is not fn) == shaped
