"""expr: GNU's error messages and exit status 2, its typed output. Results and statuses
checked against GNU expr are tests/conformance/pins/tools/expr.cases."""

from __future__ import annotations

import json

import pytest

from tysh import Kernel


def run(script: str, files: dict[str, str] | None = None) -> tuple[str, str, int]:
    res = Kernel.isolated(files=files or {}).execute(script)
    return res.text_out(), res.err, res.code


EXPR_ERRORS = [
    ("expr 5 + x", "expr: non-integer argument\n"),
    ("expr 1 +", "expr: syntax error: missing argument after '+'\n"),
    ("expr 1 2", "expr: syntax error: unexpected argument '2'\n"),
    ("expr \\( 1", "expr: syntax error: expecting ')' after '1'\n"),
    ("expr 5 / 0", "expr: division by zero\n"),
    ("expr abc : 'a\\('", "expr: Unmatched ( or \\(\n"),
    ("expr", "expr: missing operand\nTry 'expr --help' for more information.\n"),
]


@pytest.mark.parametrize(("script", "err"), EXPR_ERRORS)
def test_expr_invalid_expression_reports_like_gnu_with_status_2(script: str, err: str) -> None:
    out, got, code = run(script)
    assert (out, got, code) == ("", err, 2)


def test_expr_json_gives_number_or_string() -> None:
    assert json.loads(run("expr --json 3 + 4")[0]) == 7
    assert json.loads(run("expr --json abc : '\\(a\\)'")[0]) == "a"
