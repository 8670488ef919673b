"""tysh: a typed, sh-shaped shell kernel.

The public API is re-exported here lazily so `import tysh` stays cheap for the CLI."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Kernel": "tysh.kernel.embed.kernel",
    "Limits": "tysh.kernel.base.limits",
    "ExecResult": "tysh.kernel.tools.output",
    "OutputData": "tysh.kernel.tools.output",
    "OutputNode": "tysh.kernel.tools.output",
    "apply_output_format": "tysh.kernel.tools.output",
    "ToolSchema": "tysh.kernel.tools.schema",
    "ParamSchema": "tysh.kernel.tools.schema",
    "Example": "tysh.kernel.tools.schema",
    "ArgBinding": "tysh.kernel.tools.schema",
    "tool": "tysh.kernel.tools.tool",
    "Tool": "tysh.kernel.tools.tool",
    "Outcome": "tysh.kernel.tools.tool",
    "param": "tysh.kernel.tools.params",
    "Context": "tysh.kernel.tools.context",
    "TyshSyntaxError": "tysh.kernel.base.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'tysh' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(mod), name)
