"""tysh: a typed, sh-shaped shell kernel.

The public API is re-exported here lazily so `import tysh` stays cheap for the CLI."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Kernel": "tysh.kernel.kernel",
    "Limits": "tysh.kernel.limits",
    "ExecResult": "tysh.kernel.output",
    "OutputData": "tysh.kernel.output",
    "OutputNode": "tysh.kernel.output",
    "apply_output_format": "tysh.kernel.output",
    "ToolSchema": "tysh.kernel.schema",
    "ParamSchema": "tysh.kernel.schema",
    "Example": "tysh.kernel.schema",
    "ArgBinding": "tysh.kernel.schema",
    "tool": "tysh.kernel.tooldef",
    "Tool": "tysh.kernel.tooldef",
    "Outcome": "tysh.kernel.tooldef",
    "param": "tysh.kernel.typed_args",
    "Context": "tysh.kernel.context",
    "TyshSyntaxError": "tysh.kernel.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'tysh' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(mod), name)
