"""The hot parser runs Lark's own LALR tables for tysh.lark with a small driver loop
(`parser._run`); `Lark.parse` over the same tokens must accept exactly what it accepts,
so the grammar file stays the one definition of the syntax."""

from __future__ import annotations

import functools

import pytest
from conformance.corpus import iter_scripts
from lark.exceptions import LarkError

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.syntax.lexer import Scanner, Source
from tysh.kernel.syntax.parser import parse, parse_scanner
from tysh.kernel.syntax.tablegen import build_lark

EXTRA = [
    "if true; then echo a; elif false; then :; else echo b; fi",
    "for ((i=0; i<3; i++)); do echo $i; done | sort -r",
    "case $x in a|b) echo 1;; *) echo 2;& esac",
    "f() { local x=1; return $x; }; f || echo failed &",
    "echo hi |",
    "fi",
    "while; do done",
    "{ echo a; ",
]

_lark = functools.cache(build_lark)


def _lark_accepts(src: str) -> bool:
    try:
        scanner = Scanner(Source(src, parse_scanner))
        _lark().parse(scanner)  # type: ignore[arg-type,unused-ignore]
    except (LarkError, TyshSyntaxError):
        return False
    return True


def _tysh_accepts(src: str) -> bool:
    try:
        parse(src)
    except TyshSyntaxError:
        return False
    return True


@pytest.mark.parametrize("src", [s for _, s, _ in iter_scripts()] + EXTRA)
def test_lark_parse_and_the_table_driver_accept_the_same_scripts(src: str) -> None:
    assert _lark_accepts(src) == _tysh_accepts(src)
