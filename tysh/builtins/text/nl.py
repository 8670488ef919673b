"""nl (GNU coreutils 9.1): number lines of files, with GNU's logical pages: a line that is
exactly the delimiter three, two or one times (`\\:\\:\\:`, `\\:\\:`, `\\:`) starts a header,
body or footer section, prints as an empty line and restarts the numbering (unless -p)."""

from __future__ import annotations

from tysh.builtins._common.lines import line_batches, lines_json
from tysh.builtins._common.operands import InputStatus, iter_inputs
from tysh.kernel.base.hints import Any
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal


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


@value_record
class NlArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to read; - is stdin")
    body_numbering: str = param(
        default="t", aliases=["-b"],
        help="which lines to number: a (all), t (non-empty), n (none), pBRE (matching BRE)",
    )
    number_format: Literal["ln", "rn", "rz"] = param(
        default="rn", aliases=["-n"], help="ln left aligned, rn right aligned, rz zero padded"
    )
    number_width: int = param(
        default=6, aliases=["-w"], help="digits of the line numbers", min=1, max=(1 << 31) - 1,
        range_error="invalid line number field width: '{value}': Numerical result out of range")
    number_separator: str = param(
        default="\t", aliases=["-s"], help="text after each line number"
    )
    starting_line_number: int = param(default=1, aliases=["-v"], help="first line number")
    line_increment: int = param(default=1, aliases=["-i"], help="line number increment")
    header_numbering: str = param(
        default="n", aliases=["-h"], help="numbering style of header lines (as -b)"
    )
    footer_numbering: str = param(
        default="n", aliases=["-f"], help="numbering style of footer lines (as -b)"
    )
    section_delimiter: str = param(
        default="\\:", aliases=["-d"],
        help="the two characters that mark sections (one: the second is ':'; empty: none)",
    )
    join_blank_lines: int = param(
        default=1, aliases=["-l"], help="with style a, number only every Nth of adjacent empty lines"
    )
    no_renumber: bool = param(
        default=False, aliases=["-p"], help="do not restart numbering at section delimiters"
    )


_Style = tuple[str, Any]  # the style and, for p, its compiled pattern (kernel.text.engine)


def _style(ctx: Context, text: str, what: str) -> _Style | None:
    """A numbering style (a, t, n or pBRE); None after reporting an error."""
    if text.startswith("p"):
        import re

        try:
            from tysh.kernel.text import engine

            return "p", engine.compile(
                bre_to_python(text[1:]).encode("utf-8", "surrogateescape"))
        except re.error as e:
            ctx.error(f"invalid regular expression: {e}")
            return None
    if text not in ("a", "t", "n"):
        ctx.error(f"invalid {what} numbering style: '{text}'")
        return None
    return text, None


def _nl_body(a: NlArgs, ctx: Context) -> int:
    styles: list[_Style] = []
    for text, what in ((a.header_numbering, "header"), (a.body_numbering, "body"),
                       (a.footer_numbering, "footer")):
        st = _style(ctx, text, what)
        if st is None:
            return 1
        styles.append(st)
    if a.number_width < 1:
        ctx.error(f"invalid line number field width: '{a.number_width}': "
                  "Numerical result out of range")
        return 1
    if a.join_blank_lines < 1:
        ctx.error(f"invalid line number of blank lines: '{a.join_blank_lines}': "
                  "Numerical result out of range")
        return 1
    w = a.number_width
    fmt = {"ln": "%-{w}d", "rn": "%{w}d", "rz": "%0{w}d"}[a.number_format].format(w=w)
    sep = a.number_separator.encode("utf-8", "surrogateescape")
    blank = b" " * (w + len(sep))
    delim = a.section_delimiter.encode("utf-8", "surrogateescape")
    if len(a.section_delimiter) == 1:
        delim += b":"
    # delimiter line -> the section it starts (0 header, 1 body, 2 footer)
    sections = {delim * 3: 0, delim * 2: 1, delim: 2} if delim else {}
    n = a.starting_line_number
    step = a.line_increment
    join = a.join_blank_lines
    kind, pattern = styles[1]
    blanks = 0
    status = InputStatus()
    for _name, f in iter_inputs(ctx, a.files, status):
        for batch in line_batches(f, ctx=ctx):
            buf: list[bytes] = []
            for line in batch:
                section = sections.get(line) if sections else None
                if section is not None:
                    kind, pattern = styles[section]
                    if not a.no_renumber:
                        n = a.starting_line_number
                    buf.append(b"\n")
                    continue
                if kind == "a" and join > 1 and not line:
                    blanks += 1
                    number = blanks == join
                else:
                    number = kind == "a" or (kind == "t" and bool(line)) or (
                        pattern is not None and pattern.search(line) is not None
                    )
                if number:
                    blanks = 0
                    buf.append((fmt % n).encode() + sep + line + b"\n")
                    n += step
                else:
                    buf.append(blank + line + b"\n")
            ctx.stdout.write(b"".join(buf))
    return 1 if status.failed else 0


@tool(
    "nl", kind="read",
    args=NlArgs,
    description="number the lines of files; --json gives an array of lines",
    examples=[
        ("number non-empty lines", "nl notes.txt"),
        ("number every line, zero padded", "nl -ba -nrz -w3 notes.txt"),
    ],
)
def nl(args: NlArgs, ctx: Context) -> ToolReturn:
    return lines_json(ctx, _nl_body, args)


TOOLS = [nl]
