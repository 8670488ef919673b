"""tysh: a typed, sh-shaped shell kernel.

The public API: embedders and tool authors import from here; every other module path is
internal and may move. The names load on first use, so `import tysh` (and with it every
`tysh -c`) stays cheap, while a type checker sees the explicit re-exports below."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tysh.acp.log import ToolCall as ToolCall
    from tysh.acp.log import ToolCallLog as ToolCallLog
    from tysh.acp.terminal import TerminalHandler as TerminalHandler
    from tysh.acp.terminal import TyshClient as TyshClient
    from tysh.kernel.base.errors import TyshError as TyshError
    from tysh.kernel.base.errors import TyshSyntaxError as TyshSyntaxError
    from tysh.kernel.base.limits import Limits as Limits
    from tysh.kernel.bind.binder import BindError as BindError
    from tysh.kernel.bind.binder import ToolArgs as ToolArgs
    from tysh.kernel.bind.fast import bind_argv as bind_argv
    from tysh.kernel.embed.kernel import Kernel as Kernel
    from tysh.kernel.embed.validate import Problem as Problem
    from tysh.kernel.fs.api import FileStat as FileStat
    from tysh.kernel.fs.api import FileSystem as FileSystem
    from tysh.kernel.fs.api import FsError as FsError
    from tysh.kernel.fs.confined import ConfinedFileSystem as ConfinedFileSystem
    from tysh.kernel.fs.local import LocalFileSystem as LocalFileSystem
    from tysh.kernel.fs.memory import MemoryFileSystem as MemoryFileSystem
    from tysh.kernel.fs.overlay import OverlayFileSystem as OverlayFileSystem
    from tysh.kernel.tools import values as values
    from tysh.kernel.tools.context import Context as Context
    from tysh.kernel.tools.context import ShellAPI as ShellAPI
    from tysh.kernel.tools.context import ToolServerError as ToolServerError
    from tysh.kernel.tools.help import render_help as render_help
    from tysh.kernel.tools.output import ExecResult as ExecResult
    from tysh.kernel.tools.output import OutputData as OutputData
    from tysh.kernel.tools.output import OutputNode as OutputNode
    from tysh.kernel.tools.output import apply_output_format as apply_output_format
    from tysh.kernel.tools.params import param as param
    from tysh.kernel.tools.schema import ArgBinding as ArgBinding
    from tysh.kernel.tools.schema import Example as Example
    from tysh.kernel.tools.schema import ParamSchema as ParamSchema
    from tysh.kernel.tools.schema import ToolSchema as ToolSchema
    from tysh.kernel.tools.tool import Outcome as Outcome
    from tysh.kernel.tools.tool import Tool as Tool
    from tysh.kernel.tools.tool import ToolGroup as ToolGroup
    from tysh.kernel.tools.tool import tool as tool
    from tysh.kernel.tools.tool import tool_group as tool_group
    from tysh.kernel.tools.values.define import JsonTool as JsonTool
    from tysh.kernel.tools.values.define import define_tool as define_tool
    from tysh.kernel.tools.values.messages import Violation as Violation
    from tysh.kernel.tools.values.nodes import Args as Args
    from tysh.kernel.tools.values.nodes import ToolDefinitionError as ToolDefinitionError
    from tysh.kernel.tools.values.raw import RawTool as RawTool

__version__ = "0.1.0"

# name -> the module that defines it; a test keeps this table and the imports above in step.
_EXPORTS: dict[str, str] = {
    "ToolCall": "tysh.acp.log",
    "ToolCallLog": "tysh.acp.log",
    "TerminalHandler": "tysh.acp.terminal",
    "TyshClient": "tysh.acp.terminal",
    "TyshError": "tysh.kernel.base.errors",
    "TyshSyntaxError": "tysh.kernel.base.errors",
    "Limits": "tysh.kernel.base.limits",
    "BindError": "tysh.kernel.bind.binder",
    "ToolArgs": "tysh.kernel.bind.binder",
    "bind_argv": "tysh.kernel.bind.fast",
    "Kernel": "tysh.kernel.embed.kernel",
    "Problem": "tysh.kernel.embed.validate",
    "FileStat": "tysh.kernel.fs.api",
    "FileSystem": "tysh.kernel.fs.api",
    "FsError": "tysh.kernel.fs.api",
    "LocalFileSystem": "tysh.kernel.fs.local",
    "ConfinedFileSystem": "tysh.kernel.fs.confined",
    "MemoryFileSystem": "tysh.kernel.fs.memory",
    "OverlayFileSystem": "tysh.kernel.fs.overlay",
    "Context": "tysh.kernel.tools.context",
    "ShellAPI": "tysh.kernel.tools.context",
    "ToolServerError": "tysh.kernel.tools.context",
    "render_help": "tysh.kernel.tools.help",
    "ExecResult": "tysh.kernel.tools.output",
    "OutputData": "tysh.kernel.tools.output",
    "OutputNode": "tysh.kernel.tools.output",
    "apply_output_format": "tysh.kernel.tools.output",
    "param": "tysh.kernel.tools.params",
    "ArgBinding": "tysh.kernel.tools.schema",
    "Example": "tysh.kernel.tools.schema",
    "ParamSchema": "tysh.kernel.tools.schema",
    "ToolSchema": "tysh.kernel.tools.schema",
    "Outcome": "tysh.kernel.tools.tool",
    "Tool": "tysh.kernel.tools.tool",
    "ToolGroup": "tysh.kernel.tools.tool",
    "tool": "tysh.kernel.tools.tool",
    "tool_group": "tysh.kernel.tools.tool",
    "values": "tysh.kernel.tools",
    "JsonTool": "tysh.kernel.tools.values.define",
    "define_tool": "tysh.kernel.tools.values.define",
    "Violation": "tysh.kernel.tools.values.messages",
    "Args": "tysh.kernel.tools.values.nodes",
    "ToolDefinitionError": "tysh.kernel.tools.values.nodes",
    "RawTool": "tysh.kernel.tools.values.raw",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tysh' has no attribute {name!r}")
    import gc

    # Loading the kernel creates tens of thousands of objects that live as long as the
    # process (classes, functions, tables); the cyclic collector would walk them again
    # and again while they are made (a tenth of a cold start). It is paused for the
    # import only, and resumed if it was running. What the import made then goes
    # straight to the oldest generation (freeze, then unfreeze: nothing is scanned),
    # where only the rare full collection looks at it, rather than being walked by the
    # next young collections one generation at a time; cycles made meanwhile are
    # collected by the next full collection.
    paused = gc.isenabled()
    gc.disable()
    try:
        # (`__import__` and sys.modules rather than the importlib package, which is
        # itself a few milliseconds of start-up)
        __import__(module)
        found = sys.modules[module]
        # a public name may be a module itself (`values`), loaded on first use like the rest
        if hasattr(found, name):
            value = getattr(found, name)
        else:
            __import__(f"{module}.{name}")
            value = sys.modules[f"{module}.{name}"]
    finally:
        gc.freeze()
        gc.unfreeze()
        if paused:
            gc.enable()
    globals()[name] = value  # later lookups skip this function
    return value
