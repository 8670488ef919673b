"""Shell arithmetic: C operators and precedence on 64-bit signed integers."""

from __future__ import annotations

import sys
import time

import pytest

from tysh.kernel.base.errors import ExpansionError
from tysh.kernel.expand import arith, words

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _expand_host import FakeHost, P, Q, W  # noqa: E402


def ev(text: str, **vars: object) -> int:
    return arith.evaluate(text, FakeHost(dict(vars)))


@pytest.mark.parametrize(
    "text,value",
    [
        ("1+2", 3),
        ("7-10", -3),
        ("6*7", 42),
        ("17/5", 3),
        ("17%5", 2),
        ("2**10", 1024),
        ("2+3*4", 14),
        ("(2+3)*4", 20),
        ("2**3**2", 512),
        ("10-4-3", 3),
        ("-7/2", -3),
        ("-7%3", -1),
        ("7/-2", -3),
        ("7%-3", 1),
        ("1<<4", 16),
        ("256>>2", 64),
        ("12&10", 8),
        ("12|3", 15),
        ("12^10", 6),
        ("~0", -1),
        ("~5", -6),
        ("!0", 1),
        ("!5", 0),
        ("3&&0", 0),
        ("0||2", 1),
        ("1&&2", 1),
        ("0||0", 0),
        ("1<2", 1),
        ("2<=1", 0),
        ("3>=3", 1),
        ("3==3", 1),
        ("3!=3", 0),
        ("1 ? 100 : 200", 100),
        ("0 ? 100 : 200", 200),
        ("-2**2", 4),
        ("0x1F", 31),
        ("010", 8),
        ("2#1011", 11),
        ("16#ff", 255),
        ("36#z", 35),
        ("64#_", 63),
        ("", 0),
        ("  ", 0),
        ("1, 2, 3", 3),
        ("9223372036854775807 + 1", -9223372036854775808),
        ("2**64", 0),
        ("-(-9223372036854775807-1)", -9223372036854775808),
        ("1 + 2 * 3 - 4 / 2", 5),
        ("5 & 3 == 3", 1),
    ],
)
def test_operators_and_precedence(text: str, value: int) -> None:
    assert ev(text) == value


def test_names_read_variables_and_unset_is_zero() -> None:
    assert ev("x*y", x="6", y="7") == 42
    assert ev("unset_var+1") == 1
    assert ev("e+1", e="") == 1


def test_variable_holding_an_expression_is_evaluated() -> None:
    assert ev("x*3", x="1+2") == 9
    assert ev("x", x="010") == 8


def test_self_referencing_variable_is_a_clean_error() -> None:
    with pytest.raises(ExpansionError, match="recursion"):
        ev("x", x="x")


def test_assignments_store_text_in_the_host() -> None:
    h = FakeHost({"x": "5"})
    for text, want in [
        ("x+=3", "8"),
        ("x-=1", "7"),
        ("x*=2", "14"),
        ("x/=3", "4"),
        ("x%=3", "1"),
        ("x<<=3", "8"),
    ]:
        arith.evaluate(text, h)
        assert h.vars["x"] == want


def test_increment_and_decrement_pre_and_post() -> None:
    h = FakeHost({"i": "5"})
    got = [arith.evaluate(t, h) for t in ["i++", "i", "++i", "i", "i--", "--i"]]
    assert got == [5, 6, 7, 7, 7, 5]


def test_comma_and_assignment_chain() -> None:
    h = FakeHost()
    assert arith.evaluate("a=2, b=a*3, a+b", h) == 8
    assert (h.vars["a"], h.vars["b"]) == ("2", "6")
    assert arith.evaluate("c = d = 4", h) == 4 and h.vars["c"] == "4"


def test_short_circuit_skips_side_effects() -> None:
    h = FakeHost({"x": "0"})
    arith.evaluate("0 && (x=1)", h)
    arith.evaluate("1 || (x=2)", h)
    arith.evaluate("1 ? 0 : (x=3)", h)
    assert h.vars["x"] == "0"


def test_array_elements_read_and_write() -> None:
    h = FakeHost({"a": ["10", "20", "30"], "m": {"k": "7"}})
    assert arith.evaluate("a[1] + a[-1]", h) == 50
    assert arith.evaluate("a[5]", h) == 0
    arith.evaluate("a[1] += 5", h)
    assert h.vars["a"][1] == "25"
    assert arith.evaluate("m[k] * 2", h) == 14


@pytest.mark.parametrize("text", ["5/0", "5%0", "x/=0"])
def test_division_by_zero_is_an_error_with_status_1(text: str) -> None:
    with pytest.raises(ExpansionError, match="division by 0") as ei:
        ev(text, x="1")
    assert ei.value.status == 1


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("1+", "operand expected"),
        ("(1+2", "missing `)'"),
        ("1 2", "syntax error"),
        ("3=4", "assignment to non-variable"),
        ("09", "value too great for base"),
        ("2**-1", "exponent less than 0"),
        ("1 $ 2", "invalid arithmetic operator"),
        ("65#1", "invalid arithmetic base"),
    ],
)
def test_syntax_errors_have_bash_like_messages(text: str, fragment: str) -> None:
    with pytest.raises(ExpansionError) as ei:
        ev(text)
    assert fragment in ei.value.message
    assert ei.value.status == 1 and not ei.value.fatal


def test_nounset_makes_unset_names_an_error() -> None:
    with pytest.raises(ExpansionError, match="unbound variable"):
        arith.evaluate("nope + 1", FakeHost(nounset=True))


def test_eval_arith_word_rereads_expanded_text_as_expression() -> None:
    h = FakeHost({"x": "1+2"})
    word = W(P("x"), Q("*3"))
    assert words.eval_arith_word(word, h) == 7


def test_compiled_expressions_are_cached_and_fast() -> None:
    h = FakeHost({"x": "0", "i": "0"})
    assert arith.compile_expr("x+i") is arith.compile_expr("x+i")
    start = time.perf_counter()
    for i in range(1000):
        h.vars["i"] = str(i)
        h.vars["x"] = str(arith.evaluate("x+i", h))
    assert h.vars["x"] == str(sum(range(1000)))
    assert time.perf_counter() - start < 0.5
