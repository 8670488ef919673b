"""The test/[ expression evaluator: POSIX argument-count rules, bash's grammar and messages."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.text.testexpr import TestError, evaluate
from tysh.kernel.tools.context import Context


class FakeShell:
    def __init__(self, cwd: str, variables: dict[str, Any] | None = None) -> None:
        self._cwd = cwd
        self.vars = variables or {}

    @property
    def cwd(self) -> str:
        return self._cwd

    def get_var(self, name: str) -> Any:
        return self.vars.get(name)

    def var_is_set(self, name: str) -> bool:
        base, _, key = name.partition("[")
        v = self.vars.get(base)
        if not key:
            return v is not None
        key = key.rstrip("]")
        return isinstance(v, list) and int(key) < len(v) or isinstance(v, dict) and key in v


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    (tmp_path / "f.txt").write_text("content\n")
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "d").mkdir()
    (tmp_path / "run.sh").write_text("#!/bin/sh\n")
    (tmp_path / "run.sh").chmod(0o755)
    os.symlink("f.txt", tmp_path / "link")
    shell = FakeShell(str(tmp_path), {"set": "1", "empty": "", "arr": ["a", "b"], "rec": {"k": 1}})
    return Context(
        name="test", stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.BytesIO(),
        fs=LocalFileSystem(), shell=shell,  # type: ignore[arg-type]
    )


def t(ctx: Context, *argv: str) -> bool:
    return evaluate(list(argv), ctx)


def err(ctx: Context, *argv: str) -> str:
    with pytest.raises(TestError) as e:
        evaluate(list(argv), ctx)
    return e.value.message


def test_no_arguments_is_false(ctx: Context) -> None:
    assert t(ctx) is False


def test_one_argument_is_true_when_non_empty(ctx: Context) -> None:
    assert t(ctx, "x") and not t(ctx, "") and t(ctx, "-f") and t(ctx, "!") and t(ctx, "-n")


def test_two_arguments_negation_of_one(ctx: Context) -> None:
    assert t(ctx, "!", "") and not t(ctx, "!", "x")


def test_two_arguments_with_a_non_operator_is_a_unary_operator_error(ctx: Context) -> None:
    assert err(ctx, "a", "b") == "a: unary operator expected"
    assert err(ctx, "1", "-eq") == "1: unary operator expected"


def test_string_comparisons(ctx: Context) -> None:
    assert t(ctx, "abc", "=", "abc") and t(ctx, "abc", "==", "abc")
    assert t(ctx, "abc", "!=", "abd") and not t(ctx, "x", "=", "y")
    assert t(ctx, "apple", "<", "banana") and t(ctx, "b", ">", "a") and t(ctx, "B", "<", "a")


def test_operands_that_look_like_operators_in_three_arguments(ctx: Context) -> None:
    assert t(ctx, "-n", "=", "-n") and t(ctx, "!", "=", "!") and not t(ctx, "x", "=", "-n")


def test_integer_comparisons(ctx: Context) -> None:
    assert t(ctx, "3", "-eq", "3") and t(ctx, "3", "-ne", "4") and t(ctx, "-2", "-lt", "1")
    assert t(ctx, "5", "-le", "5") and t(ctx, "10", "-gt", "9") and not t(ctx, "7", "-ge", "8")
    assert t(ctx, "0", "-gt", "-5")


def test_integers_allow_blanks_and_sign_but_are_decimal(ctx: Context) -> None:
    assert t(ctx, " 12 ", "-eq", "12") and t(ctx, "+5", "-eq", "5")
    assert not t(ctx, "010", "-eq", "8")
    assert err(ctx, "5", "-eq", "0x5") == "0x5: integer expression expected"


def test_bad_integer_is_an_error(ctx: Context) -> None:
    assert err(ctx, "abc", "-eq", "1") == "abc: integer expression expected"
    assert err(ctx, "", "-eq", "0") == ": integer expression expected"


def test_empty_and_nonempty(ctx: Context) -> None:
    assert t(ctx, "-z", "") and t(ctx, "-n", "x") and not t(ctx, "-z", "x")
    assert not t(ctx, "-n", "")


def test_file_tests(ctx: Context) -> None:
    assert t(ctx, "-f", "f.txt") and t(ctx, "-d", "d") and not t(ctx, "-e", "nope")
    assert t(ctx, "-e", "d") and t(ctx, "-s", "f.txt") and not t(ctx, "-s", "empty.txt")
    assert not t(ctx, "-f", "d") and not t(ctx, "-d", "f.txt") and t(ctx, "-a", "f.txt")


def test_empty_path_does_not_exist(ctx: Context) -> None:
    assert not t(ctx, "-e", "") and not t(ctx, "-d", "")


def test_symlink_tests_do_not_follow(ctx: Context) -> None:
    assert t(ctx, "-L", "link") and t(ctx, "-h", "link") and not t(ctx, "-L", "f.txt")
    assert t(ctx, "-f", "link")


def test_permission_tests(ctx: Context) -> None:
    assert t(ctx, "-r", "f.txt") and t(ctx, "-w", "f.txt") and t(ctx, "-x", "run.sh")
    assert not t(ctx, "-x", "f.txt") and not t(ctx, "-r", "missing")


def test_absolute_paths(ctx: Context, tmp_path: Path) -> None:
    assert t(ctx, "-f", str(tmp_path / "f.txt"))


def test_special_file_kinds_are_false_for_regular_files(ctx: Context) -> None:
    for op in ("-p", "-S", "-b", "-c", "-u", "-g", "-k"):
        assert not t(ctx, op, "f.txt")


def test_owned_by_me(ctx: Context) -> None:
    assert t(ctx, "-O", "f.txt") and t(ctx, "-G", "f.txt")


def test_newer_older_and_same_file(ctx: Context, tmp_path: Path) -> None:
    old = time.time() - 100
    os.utime(tmp_path / "empty.txt", (old, old))
    assert t(ctx, "f.txt", "-nt", "empty.txt") and t(ctx, "empty.txt", "-ot", "f.txt")
    assert t(ctx, "f.txt", "-nt", "missing") and not t(ctx, "missing", "-nt", "f.txt")
    assert t(ctx, "missing", "-ot", "f.txt")
    assert t(ctx, "f.txt", "-ef", "link") and not t(ctx, "f.txt", "-ef", "empty.txt")


def test_variable_is_set(ctx: Context) -> None:
    assert t(ctx, "-v", "set") and t(ctx, "-v", "empty") and not t(ctx, "-v", "nope")
    assert t(ctx, "-v", "arr[1]") and not t(ctx, "-v", "arr[5]") and t(ctx, "-v", "rec[k]")


def test_terminal_test_reads_the_context(ctx: Context) -> None:
    assert not t(ctx, "-t", "1")
    ctx.isatty = True
    assert t(ctx, "-t", "1")


def test_three_arguments_and_or(ctx: Context) -> None:
    assert not t(ctx, "a", "-a", "") and t(ctx, "a", "-o", "") and t(ctx, "-x", "-a", "-y")


def test_three_arguments_negation_and_parens(ctx: Context) -> None:
    assert t(ctx, "!", "-z", "x") and t(ctx, "(", "a", ")") and not t(ctx, "(", "", ")")


def test_three_arguments_without_operator_is_an_error(ctx: Context) -> None:
    assert err(ctx, "a", "b", "c") == "b: binary operator expected"


def test_four_arguments_negation_and_parens(ctx: Context) -> None:
    assert t(ctx, "!", "a", "=", "b") and t(ctx, "(", "-n", "x", ")")
    assert not t(ctx, "!", "a", "=", "a")


def test_longer_expressions_with_and_or_precedence(ctx: Context) -> None:
    assert t(ctx, "a", "-a", "", "-o", "b")
    assert not t(ctx, "", "-o", "a", "-a", "")
    assert t(ctx, "-f", "f.txt", "-a", "-d", "d")


def test_nested_parentheses_and_repeated_negation(ctx: Context) -> None:
    assert t(ctx, "(", "(", "a", ")", ")")
    assert t(ctx, "!", "!", "a", "-a", "b")
    assert t(ctx, "(", "1", "-eq", "1", ")", "-a", "!", "(", "x", "=", "y", ")")


def test_too_many_arguments(ctx: Context) -> None:
    assert err(ctx, "-n", "a", "b", "c", "d", "e") == "too many arguments"
    assert err(ctx, "a", "=", "a", "=") == "too many arguments"
    assert err(ctx, "1", "-eq", "1", ")") == "too many arguments"


def test_unclosed_parenthesis(ctx: Context) -> None:
    assert err(ctx, "(", "1", "-eq", "1") == "`)' expected"
    assert err(ctx, "(", "a", "-a", "b", "c") == "`)' expected, found c"


def test_missing_operand_at_the_end(ctx: Context) -> None:
    assert err(ctx, "a", "-a", "b", "-o") == "argument expected"


def test_shell_option_test_reads_the_option_letters(ctx: Context) -> None:
    ctx.shell.vars["-"] = "ehB"  # type: ignore[attr-defined]
    assert t(ctx, "-o", "errexit") and not t(ctx, "-o", "nounset") and not t(ctx, "-o", "bogus")


def test_shell_option_test_prefers_shellopts(ctx: Context) -> None:
    ctx.shell.vars["SHELLOPTS"] = "braceexpand:pipefail"  # type: ignore[attr-defined]
    assert t(ctx, "-o", "pipefail") and not t(ctx, "-o", "errexit")


def test_dash_o_between_operands_is_still_or(ctx: Context) -> None:
    assert t(ctx, "", "-o", "x") and t(ctx, "-n", "", "-o", "-n", "x")


def test_plain_truth_agrees_with_evaluate_wherever_it_answers() -> None:
    """Every expression of up to four words over a pool of operands and operators:
    plain_truth (no Context) answers exactly as evaluate does, or leaves it to it."""
    import itertools

    from tysh.kernel.text.testexpr import TestError, evaluate, plain_truth

    pool = ["", "a", "b", "1", "02", "-3", "x1", "!", "(", ")", "=", "!=", "<", "-lt",
            "-eq", "-z", "-n", "-a", "-o", "-f"]
    answered = 0
    for n in range(5):
        for argv in itertools.product(pool, repeat=n):
            got = plain_truth(argv)
            if got is None:
                continue
            answered += 1
            try:
                want = evaluate(argv, None)  # type: ignore[arg-type]  # must not need one
            except TestError:
                raise AssertionError(f"{argv}: plain {got}, evaluate fails") from None
            assert got == want, argv
    assert answered > 4000
