"""Typed use of the public API, checked by mypy --strict (tests/test_public_api.py)."""

from __future__ import annotations

from typing import assert_type

import attrs

from tysh import (
    Context,
    ExecResult,
    Kernel,
    Limits,
    MemoryFileSystem,
    OutputData,
    Tool,
    param,
    tool,
)


@attrs.frozen
class GreetArgs:
    name: str = param(positional=True, default="world")


@tool("greet", args=GreetArgs, description="say hello")
def greet(args: GreetArgs, ctx: Context) -> int:
    ctx.write(f"hello {args.name}\n")
    return 0


k = Kernel(fs=MemoryFileSystem(), limits=Limits(timeout=5.0))
k.register(greet)
assert_type(greet, Tool)
assert_type(k.execute("greet"), ExecResult)
r = k.execute("echo hi")
assert_type(r.code, int)
assert_type(r.output, OutputData | None)
