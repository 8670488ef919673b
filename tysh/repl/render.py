"""Rendering for a terminal: structured output as rich tables and trees, JSON pretty
printed, errors in red with the caret under a syntax error.

Only the REPL installs this (as `Registry.render_output`), and the kernel calls it only
when the command's stdout is a terminal, so pipes, redirects and `$(…)` keep the canonical
text. rich is imported on the first structured result, not at startup."""

from __future__ import annotations

import io
import os
from typing import IO, Any

from tysh.kernel.base.values import to_text
from tysh.kernel.tools.output import OutputData, OutputNode

RED = "\x1b[31m"
BOLD_RED = "\x1b[1;31m"
RESET = "\x1b[0m"

_ENTRY_STYLE = {"directory": "bold blue", "executable": "bold green", "symlink": "cyan"}


def _width(stream: IO[bytes]) -> int:
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return 100


def _console(width: int) -> Any:
    from rich.console import Console

    return Console(file=io.StringIO(), force_terminal=True, width=width,
                   color_system="256", highlight=False, soft_wrap=False)


def renderable(out: OutputData) -> Any | None:
    """A rich renderable for structured output, or None when plain text is best."""
    if out.is_simple_text():
        return None
    if out.headers is not None:
        from rich import box
        from rich.table import Table

        table = Table(box=box.ROUNDED, header_style="bold", show_lines=False)
        for h in out.headers:
            table.add_column(h)
        n = len(out.headers)
        for node in out.root:
            cells = [node.label(), *(to_text(c) for c in node.cells)]
            cells = (cells + [""] * n)[:n]
            table.add_row(*cells, style=_ENTRY_STYLE.get(node.entry_type))
        return table
    if out.is_tree():
        from rich.tree import Tree

        def add(parent: Any, node: OutputNode) -> None:
            branch = parent.add(_label(node))
            for c in node.children:
                add(branch, c)

        if len(out.root) == 1:
            tree = Tree(_label(out.root[0]))
            for c in out.root[0].children:
                add(tree, c)
        else:
            tree = Tree(".", hide_root=True)
            for r in out.root:
                add(tree, r)
        return tree
    if not any(n.entry_type in _ENTRY_STYLE for n in out.root):
        return None
    from rich.text import Text

    text = Text(no_wrap=True)
    for node in out.root:
        label = "\t".join([node.label(), *(to_text(c) for c in node.cells)])
        text.append(label, style=_ENTRY_STYLE.get(node.entry_type))
        text.append("\n")
    text.rstrip()
    return text


def _label(node: OutputNode) -> Any:
    from rich.text import Text

    return Text(node.label(), style=_ENTRY_STYLE.get(node.entry_type, ""))


def render_to_text(kind: str, value: Any, width: int = 100) -> str | None:
    """The terminal text (with ANSI styles) for a result, or None to print it plainly."""
    if kind == "output":
        assert isinstance(value, OutputData)
        r = renderable(value)
        if r is None:
            return None
    elif kind == "json":
        from rich.json import JSON

        from tysh.kernel.base.values import to_json_text

        r = JSON(to_json_text(value), indent=2)
    else:
        return None
    console = _console(width)
    console.print(r)
    text: str = console.file.getvalue()
    return text


def render_output(kind: str, value: Any, stream: IO[bytes]) -> bool:
    """The kernel's hook: write `value` rendered for the terminal; False to fall back."""
    try:
        text = render_to_text(kind, value, _width(stream))
    except Exception:  # noqa: BLE001 — a rendering fault falls back to canonical text
        return False
    if text is None:
        return False
    stream.write(text.encode("utf-8", "surrogateescape"))
    return True


def format_syntax_error(message: str, color: bool) -> str:
    """A syntax error's text (message, source line, caret) in red on a terminal."""
    if not color:
        return message + "\n"
    lines = message.split("\n")
    out = [BOLD_RED + lines[0] + RESET]
    if len(lines) >= 3:
        out.append(lines[1])
        out.append(BOLD_RED + lines[2] + RESET)
    else:
        out.extend(lines[1:])
    return "\n".join(out) + "\n"


class RedStderr(io.RawIOBase):
    """fd 2 for in-process tools, in red on a terminal. External commands still get the
    real fd (through `fileno`) and color their own messages."""

    def __init__(self, fd: int = 2) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        data = bytes(b)
        if not data:
            return 0
        os.write(self._fd, RED.encode() + data + RESET.encode())
        return len(data)
