"""`plain_args` (the planned expansion of plain words) gives exactly what `expand_args`
gives, argument by argument and kind by kind, whenever it gives anything; and
`plain_texts` gives those arguments' texts (and leaves out an empty unquoted
expansion, as `expand_args` does)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as hs

from tysh import Kernel
from tysh.kernel.base.argv import Operand, word_value
from tysh.kernel.expand.words import (
    constant_args,
    expand_args,
    plain_args,
    plain_texts,
    plain_words,
)
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.parser import parse

VALUES = ["", "a", "-n", "--", "-", "-x1", "--long", "a b", "*", "a*b", " ", "x\ty", "[a]",
          "~", "$y", "é"]
WORDS = ["a", "-n", "--", "-", "''", '""', "'a b'", "'-e'", '"-x"', '"--"', '"-"', '"a b"',
         '"%s\\n"', '"a\\"b"', "$x", '"$x"', "${x}", "$1", '"$1"', "$2", "$#", "$?", '"$y"',
         "$unset", '"$unset"', "--opt=1", "-abc"]


def _words(line: str) -> list[ast.Word]:
    cmd = parse(line).statements[0].body.first.commands[0]
    assert isinstance(cmd, ast.SimpleCommand)
    return list(cmd.words[1:])


def _shape(args: list[Any]) -> list[tuple[str, Any, Any]]:
    return [(type(a).__name__, word_value(a) if not isinstance(a, Operand) else a.value,
             a.literal if isinstance(a, Operand) else None) for a in args]


@settings(max_examples=400, deadline=None)
@given(hs.lists(hs.sampled_from(WORDS), max_size=6), hs.sampled_from(VALUES),
       hs.sampled_from(VALUES), hs.sampled_from(VALUES), hs.booleans(),
       hs.sampled_from([None, " \t\n", ":", ""]))
def test_plain_args_are_what_expand_args_makes(words: list[str], x: str, y: str, one: str,
                                                split: bool, ifs: str | None) -> None:
    k = Kernel()
    interp = k.interp
    st = interp.state
    st.set("x", x)
    st.set("y", y)
    st.positional = [one, "p2"]
    if ifs is not None:
        st.set("IFS", ifs)
    if split:
        st.options.add("sh_word_split")
    parsed = _words(": " + " ".join(words))
    plan = plain_words(parsed)
    if plan is None:  # (`""`, `"-x"`: words these planners leave to the full expansion)
        return
    got = plain_args(plan, constant_args(plan), interp, split)
    texts = plain_texts(plan, interp, split)
    want = expand_args(parsed, interp) if texts is not None else None
    if texts is not None:
        assert want is not None
        assert texts == [word_value(a) for a in want]
    if got is None:  # (or an empty unquoted expansion went: the full expansion's case)
        assert texts is None or len(texts) < len(plan[0])
        return
    assert want is not None
    assert _shape(got) == _shape(want)
