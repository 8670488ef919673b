"""Wrong uses of the DSL's class form that mypy --strict must reject, one per marked line
(tests/embed/test_values_typing.py)."""

from __future__ import annotations

from tysh import Args, Context, define_tool
from tysh import values as s


class A(Args):
    query = s.string(required=True)
    limit = s.integer(minimum=1)


class B(Args):
    other = s.string()


def run(args: A, ctx: Context) -> int:
    n: int = args.limit  # E: assignment
    return n + len(args.query)


def run_b(args: B, ctx: Context) -> int:
    return 0


define_tool("a", parameters=A, execute=run)
define_tool("b", parameters=A, execute=run_b)  # E: arg-type
