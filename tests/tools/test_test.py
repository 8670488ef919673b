"""test / [ and true / false / : (the status builtins), called through the binder, and test's
integer range against bash. The bash-pinned `-N` case is in
tests/conformance/pins/tools/test.cases."""

from __future__ import annotations

from pathlib import Path

import pytest
import reference
from harness_posix import FakeShell, run

from tysh.builtins import get_builtin
from tysh.builtins.core import noop as noop_mod
from tysh.builtins.core import test as test_mod
from tysh.kernel.embed.kernel import Kernel

STATUS_TOOLS = [*test_mod.TOOLS, *noop_mod.TOOLS]


@pytest.fixture
def sh(tmp_path: Path) -> FakeShell:
    return FakeShell(str(tmp_path))


def test_status_builtins_are_found_by_the_lazy_registry() -> None:
    for t in STATUS_TOOLS:
        assert get_builtin(t.name) is t


def test_status_builtins_take_the_raw_argv() -> None:
    kinds = {t.name: t.schema for t in STATUS_TOOLS}
    for n in ("test", "[", "true", "false", ":"):
        assert kinds[n].raw_argv, n


def test_test_status_reflects_the_expression(sh: FakeShell, tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    assert run("test", ["-f", "f"], sh).code == 0
    assert run("test", ["-d", "f"], sh).code == 1
    assert run("test", ["0", "-gt", "-5"], sh).code == 0
    assert run("test", ["x", "=", "-n"], sh).code == 1


def test_test_error_is_status_2_with_bash_message(sh: FakeShell) -> None:
    r = run("test", ["abc", "-eq", "1"], sh)
    assert (r.code, r.err) == (2, "test: abc: integer expression expected\n")


def test_bracket_requires_the_closing_bracket(sh: FakeShell) -> None:
    r = run("[", ["a", "=", "a"], sh)
    assert (r.code, r.err) == (2, "[: missing `]'\n")
    assert run("[", ["a", "=", "a", "]"], sh).code == 0
    assert run("[", ["]"], sh).code == 1


def test_bracket_json_word_is_an_operand(sh: FakeShell) -> None:
    assert run("[", ["--json", "]"], sh).code == 0
    assert run("[", ["--json", "=", "--json", "]"], sh).code == 0


def test_test_renders_typed_operands(sh: FakeShell) -> None:
    assert run("test", [3, "-eq", "3"], sh).code == 0


def test_true_false_colon_ignore_their_arguments(sh: FakeShell) -> None:
    assert run("true", ["--bogus", "x"], sh).code == 0
    assert run("false", ["-x"], sh).code == 1
    assert run(":", ["anything", "-n"], sh).code == 0


@pytest.mark.parametrize(("expr", "status"), [
    ("99999999999999999999 -gt 1", 2),   # past intmax_t: not an integer
    ("9223372036854775808 -gt 1", 2),
    ("9223372036854775807 -gt 1", 0),
    ("-9223372036854775808 -lt 1", 0),
])
def test_test_integers_outside_intmax_are_errors(tmp_path: Path, expr: str,
                                                 status: int) -> None:
    src = f"test {expr}; echo $?"
    r = Kernel(cwd=str(tmp_path)).execute(src, binary=True)
    out = r.out if isinstance(r.out, bytes) else r.out.encode()
    assert out == f"{status}\n".encode()
    assert ("integer expression expected" in r.err) == (status == 2)
    real = reference.run_bash(src, tmp_path)
    if real is not None:
        assert (real.code, real.out) == (0, out)


def test_test_json_gives_the_answer_as_json_and_typed_data(isolated: Kernel) -> None:
    isolated.execute("touch f")
    r = isolated.execute("test --json -f f")
    assert (r.code, r.out, r.data) == (0, "true\n", True)
    r = isolated.execute("test --json -d f")
    assert (r.code, r.out, r.data) == (1, "false\n", False)
    r = isolated.execute("test --json 1 -lt")
    assert r.code == 2 and r.out.startswith('{"error":')


def test_json_stays_an_operand_where_bash_reads_one(isolated: Kernel) -> None:
    assert isolated.execute("test --json; echo $?").out == "0\n"
    assert isolated.execute('test --json = --json && echo same').out == "same\n"
    assert isolated.execute("[ --json -f f ]; echo $?").out == "2\n"
