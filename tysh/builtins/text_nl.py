"""nl (GNU coreutils 9.1): number lines of files (body section only; the `\\:` section
delimiters of logical pages are not interpreted)."""

from __future__ import annotations

import re
from typing import Literal

import attrs

from tysh.builtins._io import InputStatus, iter_inputs
from tysh.builtins.text_common import line_batches, lines_json
from tysh.kernel.context import Context
from tysh.kernel.record import Record
from tysh.kernel.tooldef import ToolReturn, tool
from tysh.kernel.typed_args import param


def bre_to_python(bre: str) -> str:
    """A POSIX basic regular expression (with GNU's `\\| \\+ \\?` extensions) as a
    Python pattern: `\\( \\) \\{ \\}` group and repeat, bare `( ) { } | + ?` are literal."""
    out: list[str] = []
    i = 0
    while i < len(bre):
        c = bre[i]
        if c == "\\" and i + 1 < len(bre):
            d = bre[i + 1]
            out.append(d if d in "(){}|+?" else "\\" + d)
            i += 2
            continue
        out.append("\\" + c if c in "(){}|+?" else c)
        i += 1
    return "".join(out)


@attrs.frozen(repr=False, eq=False)
class NlArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to read; - is stdin")
    body_numbering: str = param(
        default="t", aliases=["-b"],
        help="which lines to number: a (all), t (non-empty), n (none), pBRE (matching BRE)",
    )
    number_format: Literal["ln", "rn", "rz"] = param(
        default="rn", aliases=["-n"], help="ln left aligned, rn right aligned, rz zero padded"
    )
    number_width: int = param(default=6, aliases=["-w"], help="digits of the line numbers")
    number_separator: str = param(
        default="\t", aliases=["-s"], help="text after each line number"
    )
    starting_line_number: int = param(default=1, aliases=["-v"], help="first line number")
    line_increment: int = param(default=1, aliases=["-i"], help="line number increment")


def _nl_body(a: NlArgs, ctx: Context) -> int:
    style = a.body_numbering
    pattern: re.Pattern[bytes] | None = None
    if style.startswith("p"):
        try:
            pattern = re.compile(bre_to_python(style[1:]).encode("utf-8", "surrogateescape"))
        except re.error as e:
            ctx.error(f"invalid regular expression: {e}")
            return 1
    elif style not in ("a", "t", "n"):
        ctx.error(f"invalid body numbering style: '{style}'")
        return 1
    if a.number_width < 1:
        ctx.error(f"invalid line number field width: '{a.number_width}'")
        return 1
    w = a.number_width
    fmt = {"ln": "%-{w}d", "rn": "%{w}d", "rz": "%0{w}d"}[a.number_format].format(w=w)
    sep = a.number_separator.encode("utf-8", "surrogateescape")
    blank = b" " * (w + len(sep))
    n = a.starting_line_number
    step = a.line_increment
    status = InputStatus()
    for _name, f in iter_inputs(ctx, a.files, status):
        for batch in line_batches(f):
            buf: list[bytes] = []
            for line in batch:
                if style == "a" or (style == "t" and line) or (
                    pattern is not None and pattern.search(line)
                ):
                    buf.append((fmt % n).encode() + sep + line + b"\n")
                    n += step
                else:
                    buf.append(blank + line + b"\n")
            ctx.stdout.write(b"".join(buf))
    return 1 if status.failed else 0


@tool(
    "nl",
    args=NlArgs,
    description="number the lines of files; --json gives an array of lines",
    examples=[
        ("number non-empty lines", "nl notes.txt"),
        ("number every line, zero padded", "nl -ba -nrz -w3 notes.txt"),
    ],
)
def nl(args: NlArgs, ctx: Context) -> ToolReturn:
    return lines_json(ctx, lambda c: _nl_body(args, c))


TOOLS = [nl]
