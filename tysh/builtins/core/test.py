"""test and [: evaluate a conditional expression (the engine is kernel/text/testexpr.py).

Both are raw_argv: their operands look like options and belong to the expression."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool


def _run_test(argv: list[str], ctx: Context) -> int:
    from tysh.kernel.text.testexpr import TestError, evaluate

    try:
        return 0 if evaluate(argv, ctx) else 1
    except TestError as e:
        ctx.error(e.message)
        return 2


@tool(
    "test", kind="shell",
    raw_argv=True,
    description="evaluate a conditional expression: file tests, string and integer comparisons",
    examples=[("is it a file?", "test -f notes.txt && echo yes"), ("compare numbers", "test 3 -lt 5")],
)
def test(args: RawArgs, ctx: Context) -> int:
    return _run_test(texts(args.positional), ctx)


@tool(
    "[", kind="shell",
    raw_argv=True,
    description="evaluate a conditional expression (like test; the last argument must be ])",
    examples=[("string equality", '[ "$a" = "$b" ] && echo same')],
)
def bracket(args: RawArgs, ctx: Context) -> int:
    argv = texts(args.positional)
    if not argv or argv[-1] != "]":
        ctx.error("missing `]'")
        return 2
    return _run_test(argv[:-1], ctx)


TOOLS: list[Tool] = [test, bracket]
