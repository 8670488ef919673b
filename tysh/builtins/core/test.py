"""test and [: evaluate a conditional expression (the engine is kernel/text/testexpr.py).

Both are raw_argv: their operands look like options and belong to the expression."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.kernel.base.values import to_json_text
from tysh.kernel.text.testexpr import BINARY, TestError, evaluate, plain_truth
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Outcome, Tool, tool


def _run_test(argv: list[str], ctx: Context, json_ok: bool = False) -> int | Outcome:
    # `test --json EXPR`: the answer as JSON (`true`/`false`, also the typed value) with
    # the usual status; `--json` stays an operand where bash reads it as one (alone, or
    # before a binary operator: `test --json = "$x"`)
    as_json = json_ok and len(argv) > 1 and argv[0] == "--json" and argv[1] not in BINARY
    if as_json:
        argv = argv[1:]
    try:
        ok = evaluate(argv, ctx)
    except TestError as e:
        if as_json:
            ctx.stdout.write(to_json_text({"error": e.message, "code": 2}).encode() + b"\n")
        ctx.error(e.message)
        return 2
    if not as_json:
        return 0 if ok else 1
    ctx.stdout.write(b"true\n" if ok else b"false\n")
    return Outcome(0 if ok else 1, data=ok)


def _direct_test(argv: list[str]) -> int | None:
    """`test`'s status without a Context when the expression is one `plain_truth`
    decides (None: the tool runs as usual; `--json` always does)."""
    if argv and argv[0] == "--json":
        return None
    got = plain_truth(argv)
    return None if got is None else (0 if got else 1)


def _direct_bracket(argv: list[str]) -> int | None:
    """`[`'s status without a Context, as `_direct_test` (a missing `]` runs the tool,
    which reports it)."""
    if not argv or argv[-1] != "]":
        return None
    got = plain_truth(argv, len(argv) - 1)
    return None if got is None else (0 if got else 1)


@tool(
    "test", kind="shell",
    raw_argv=True,
    direct=_direct_test,
    description="evaluate a conditional expression: file tests, string and integer comparisons",
    examples=[("is it a file?", "test -f notes.txt && echo yes"), ("compare numbers", "test 3 -lt 5")],
)
def test(args: RawArgs, ctx: Context) -> int | Outcome:
    return _run_test(texts(args.positional), ctx, json_ok=True)


@tool(
    "[", kind="shell",
    raw_argv=True,
    direct=_direct_bracket,
    description="evaluate a conditional expression (like test; the last argument must be ])",
    examples=[("string equality", '[ "$a" = "$b" ] && echo same')],
)
def bracket(args: RawArgs, ctx: Context) -> int | Outcome:
    argv = texts(args.positional)
    if not argv or argv[-1] != "]":
        ctx.error("missing `]'")
        return 2
    return _run_test(argv[:-1], ctx)


TOOLS: list[Tool] = [test, bracket]
