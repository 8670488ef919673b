"""Helpers shared by the text builtins: chunked reading, GNU count syntax, file headers
and the `--json` shape of line-oriented tools.

Every tool here works on bytes so input that is not UTF-8 passes through unchanged;
decoding (with surrogateescape) happens only where characters matter."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from typing import IO

import attrs

from tysh.kernel.base.record import MutableRecord
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.tool import Outcome, ToolReturn

# Large reads for throughput; read1 returns early on pipes, so streaming stays prompt.
BIG = 1 << 20


def chunks(f: IO[bytes], size: int = BIG) -> Iterator[bytes]:
    """The stream's bytes in chunks as they arrive (read1 where the stream has it)."""
    read = getattr(f, "read1", None) or f.read
    while True:
        chunk = read(size)
        if not chunk:
            return
        yield chunk


@attrs.define(repr=False, eq=False)
class LineSplit(MutableRecord):
    """Iterates the complete lines (without terminator), one list per chunk read; once
    drained, `rest` holds a final unterminated line (b"" if the stream ended with one).
    For tools that treat that line apart (cat's state carries into the next file)."""

    f: IO[bytes]
    sep: bytes = b"\n"
    size: int = BIG
    rest: bytes = b""

    def __iter__(self) -> Iterator[list[bytes]]:
        rest = b""
        sep = self.sep
        for chunk in chunks(self.f, self.size):
            if rest:
                chunk = rest + chunk
            lines = chunk.split(sep)
            rest = lines.pop()
            if lines:
                yield lines
        self.rest = rest


def line_batches(f: IO[bytes], sep: bytes = b"\n") -> Iterator[list[bytes]]:
    """Lists of lines without their terminator, one list per chunk read; the last line
    may have lacked a terminator (tools that always terminate lines don't care)."""
    split = LineSplit(f, sep)
    yield from split
    if split.rest:
        yield [split.rest]


def read_all(f: IO[bytes]) -> bytes:
    return b"".join(chunks(f))


_POWERS = {"K": 1, "k": 1, "M": 2, "m": 2, "G": 3, "T": 4, "P": 5, "E": 6, "Z": 7, "Y": 8}
# GNU's xstrtoumax suffixes for head/tail: b (512), or a power letter alone or with iB
# (binary, 1024**p) or with B (decimal, 1000**p); only k and m may be lower case
_COUNT_RE = re.compile(r"(\d+)(?:(b)|([KkMmGTPEZY])(B|iB)?)?")


def parse_count(text: str) -> int | None:
    """A GNU count: digits with an optional multiplier suffix (`5`, `2K`, `1kB`, `1MiB`, `3b`)."""
    m = _COUNT_RE.fullmatch(text)
    if not m:
        return None
    n = int(m.group(1))
    if m.group(2):
        return n * 512
    if m.group(3):
        # typeshed types int ** int as Any (a negative power gives a float); this one is >= 1
        unit: int = (1000 if m.group(4) == "B" else 1024) ** _POWERS[m.group(3)]
        return n * unit
    return n


def display_name(name: str) -> str:
    return "standard input" if name == "-" else name


@attrs.define(repr=False, eq=False)
class Headers(MutableRecord):
    """`==> NAME <==` headers between files, a blank line before all but the first."""

    ctx: Context
    show: bool
    first: bool = True

    def emit(self, name: str) -> None:
        if not self.show:
            return
        prefix = b"" if self.first else b"\n"
        self.first = False
        self.ctx.stdout.write(
            prefix + f"==> {display_name(name)} <==\n".encode("utf-8", "surrogateescape")
        )


def split_lines_text(text: str) -> list[str]:
    """Lines of a text without terminators (a final newline does not add an empty line)."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def lines_json(
    ctx: Context, body: Callable[[Context], int], shape: Callable[[str], object] | None = None
) -> ToolReturn:
    """Run a line-oriented tool body; under `--json` capture its text and return it as an
    array of lines (or `shape(text)`), otherwise let it stream to stdout."""
    if not ctx.json:
        return body(ctx)
    buf = io.BytesIO()
    code = body(attrs.evolve(ctx, stdout=buf))
    raw = buf.getvalue()
    text = raw.decode("utf-8", "replace")
    data = shape(text) if shape is not None else split_lines_text(text)
    return Outcome(code=code, output=OutputData.text(text, rich_json=data))
