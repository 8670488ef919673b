"""Helpers shared by the text builtins: chunked reading, GNU count syntax, file headers
and the `--json` shape of line-oriented tools.

Every tool here works on bytes so input that is not UTF-8 passes through unchanged;
decoding (with surrogateescape) happens only where characters matter."""

from __future__ import annotations

import io

from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import MutableRecord, mutable
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import STREAMED, OutputData
from tysh.kernel.tools.tool import Outcome, ToolReturn

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import IO, Any, TypeVar

    A = TypeVar("A")

# Reads large enough that the per-call cost vanishes (GNU cat reads 128 KiB), small enough
# that the chunks in flight in a pipeline (each stage's read, the copy it writes) stay a
# small part of a short run's memory; read1 returns early on pipes, so streaming stays
# prompt.
BIG = 1 << 18


def chunks(f: IO[bytes], size: int = BIG) -> Iterator[bytes]:
    """The stream's bytes in chunks as they arrive (read1 where the stream has it)."""
    read = getattr(f, "read1", None) or f.read
    while True:
        chunk = read(size)
        if not chunk:
            return
        yield chunk


def split_chunk(rest: list[bytes], chunk: bytes, sep: bytes) -> tuple[list[bytes], list[bytes]]:
    """The lines a chunk holding a separator completes, the first of them begun by the
    pieces `rest` held, and the pieces of the line its last separator begins."""
    if rest:
        rest.append(chunk)
        chunk = b"".join(rest)
    lines = chunk.split(sep)
    last = lines.pop()
    return lines, [last] if last else []


@mutable
class LineSplit(MutableRecord):
    """Iterates the complete lines (without terminator), one list per chunk read; once
    drained, `rest` holds a final unterminated line (b"" if the stream ended with one).
    For tools that treat that line apart (cat's state carries into the next file)."""

    f: IO[bytes]
    sep: bytes = b"\n"
    size: int = BIG
    rest: bytes = b""
    # the command whose memory budget a long line is charged to while it gathers
    ctx: Context | None = None

    def __iter__(self) -> Iterator[list[bytes]]:
        # a line longer than a chunk is gathered as a list of pieces (joined once when
        # its end arrives), so an endless line costs linear time, not quadratic, and
        # is charged to the memory budget as it grows
        rest: list[bytes] = []
        held = 0
        ctx = self.ctx
        sep = self.sep
        # (a one-byte separator is looked for as its byte value: `bytes in bytes` first
        # tries the needle as an integer, and the error that raises costs more than the
        # search)
        mark: int | bytes = sep[0] if len(sep) == 1 else sep
        f = self.f
        size = self.size
        read = getattr(f, "read1", None) or f.read  # (`chunks`, without a generator)
        while True:
            chunk = read(size)
            if not chunk:
                break
            if mark not in chunk:
                rest.append(chunk)
                if ctx is not None:
                    ctx.hold(2 * len(chunk))  # the pieces, and the line they become
                    held += 2 * len(chunk)
                continue
            lines, rest = split_chunk(rest, chunk, sep)
            if lines:
                yield lines
            if held:
                ctx.unhold(held)  # type: ignore[union-attr]
                held = 0
        self.rest = b"".join(rest)


def line_batches(f: IO[bytes], sep: bytes = b"\n",
                 ctx: Context | None = None) -> Iterator[list[bytes]]:
    """Lists of lines without their terminator, one list per chunk read; the last line
    may have lacked a terminator (tools that always terminate lines don't care). With
    `ctx`, a line longer than a chunk is charged to its memory budget as it gathers."""
    split = LineSplit(f, sep, ctx=ctx)
    yield from split
    if split.rest:
        yield [split.rest]


def whole_lines(data: bytes, sep: bytes = b"\n") -> list[bytes]:
    """The lines of a whole input in memory (a filter's), as LineSplit gives them with
    its `rest`: without terminators, a last unterminated line included."""
    lines = data.split(sep)
    if not lines[-1]:
        lines.pop()
    return lines


def joined_lines(lines: list[bytes], sep: bytes = b"\n") -> bytes:
    """The lines, each ended by `sep`, as one bytes object."""
    return sep.join(lines) + sep if lines else b""


def read_all(f: IO[bytes]) -> bytes:
    return b"".join(chunks(f))


# What a line costs in memory beyond its bytes once a tool holds it in a list (a bytes
# object's header and a list slot), for charging the memory budget.
LINE_BYTES = 64


def slurp(ctx: Context, f: IO[bytes], per_line: int = LINE_BYTES, sep: bytes = b"\n") -> bytes:
    """The whole stream, for a tool that needs all of its input at once: each chunk is
    charged to the memory budget as it arrives (its bytes and `per_line` for each line
    it holds), with a stop for a cancel or a deadline between chunks. Past the budget
    the tool ends with `NAME: memory limit of … exceeded` (status 1)."""
    pieces: list[bytes] = []
    stop = ctx.shell.check_boundary
    for chunk in chunks(f):
        ctx.hold(len(chunk) + per_line * chunk.count(sep))
        pieces.append(chunk)
        stop()
    if len(pieces) == 1:
        return pieces[0]
    return b"".join(pieces)


def slurp_text(ctx: Context, f: IO[bytes], per_line: int = LINE_BYTES) -> str:
    """`slurp`, decoded (surrogateescape); the text is charged too."""
    data = slurp(ctx, f, per_line)
    ctx.hold(len(data))
    return data.decode("utf-8", "surrogateescape")


class HeldBuffer(io.BytesIO):
    """An in-memory stdout a tool keeps to reshape (`--json`), charged as it grows."""

    def __init__(self, ctx: Context) -> None:
        super().__init__()
        self._ctx = ctx

    def write(self, b: Any) -> int:
        self._ctx.hold(len(b))
        return super().write(b)


_POWERS = {"K": 1, "k": 1, "M": 2, "m": 2, "G": 3, "T": 4, "P": 5, "E": 6, "Z": 7, "Y": 8}
# GNU's xstrtoumax suffixes for head/tail: b (512), or a power letter alone or with iB
# (binary, 1024**p) or with B (decimal, 1000**p); only k and m may be lower case
_COUNT_RE = LazyRegex(r"(\d+)(?:(b)|([KkMmGTPEZY])(B|iB)?)?")


def parse_count(text: str) -> int | None:
    """A GNU count: digits with an optional multiplier suffix (`5`, `2K`, `1kB`, `1MiB`, `3b`)."""
    if text.isdecimal():  # digits alone (what `\d+` matches), the commonest count
        return int(text)
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


@mutable
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


# What a tool keeps of its own output for its typed value in text mode (`r.data`
# without `--json`): at most this many bytes, the default `max_output_bytes`, so a value
# never holds more than a harness would see of the text. Past it the value is absent
# (None), as a partial value would read as the whole (docs/embedding.md, "Typed values").
VALUE_BYTES = 1 << 20
# The most items a value computed rather than kept (`seq`'s numbers) may hold; past it the
# value is absent as above.
VALUE_ITEMS = 100_000


class _Ended:
    """The stream of a Kept whose tool is done: writing to it is an error."""

    __slots__ = ()

    def write(self, b: Any) -> int:
        raise ValueError("write to the output of a command that has ended")

    def flush(self) -> None:
        pass


_ENDED: Any = _Ended()


class Kept:
    """A tool's stdout that passes every write through and keeps a copy of the first
    VALUE_BYTES, for the typed value a text-mode run still has; past that it keeps
    nothing more and `over` is True. `mark()` gives the offset where the next write
    lands, so a tool can split the copy at file boundaries. With `keep` False (nobody
    can read the value: `ctx.keeps_value`) nothing is copied and the value is None."""

    __slots__ = ("stream", "buf", "over", "shape")

    def __init__(self, stream: IO[bytes], keep: bool = True) -> None:
        self.stream = stream
        self.buf: bytearray | None = bytearray() if keep else None
        self.over = not keep
        # what `value` makes of the kept text; None: its lines
        self.shape: Callable[[str], object] | None = None

    def write(self, b: Any) -> int:
        n: int = self.stream.write(b)
        buf = self.buf
        if buf is not None:
            if len(buf) + len(b) > VALUE_BYTES:
                self.buf = None
                self.over = True
            else:
                buf += b
        return n

    def flush(self) -> None:
        self.stream.flush()

    def mark(self) -> int:
        return len(self.buf) if self.buf is not None else 0

    def text(self, start: int = 0, end: int | None = None,
             errors: str = "replace") -> str | None:
        """The kept bytes (a slice of them) as text, invalid bytes as U+FFFD (or as the
        tool's `--json` decodes them); None past the cap."""
        if self.buf is None:
            return None
        return self.buf[start:end].decode("utf-8", errors)

    def detach(self) -> None:
        """The tool is done writing: let go of the stream, which the value never reads
        (a result holding the value must not hold the command's output stream, which
        the kernel may then reuse)."""
        self.stream = _ENDED

    def value(self) -> object:
        """The typed value: `shape` of the kept text, or its lines; None past the cap."""
        text = self.text()
        if text is None:
            return None
        shape = self.shape
        return shape(text) if shape is not None else split_lines_text(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def kept_value(kept: Kept, shape: Callable[[str], object] | None = None) -> OutputData:
    """The typed value of a tool that wrote through `kept`: the lines it wrote (or
    `shape` of its text), computed when first read; None past the cap. (A result
    holds it: the bound method keeps fewer objects alive than a closure would.)"""
    kept.shape = shape
    kept.stream = _ENDED  # (detach)
    return OutputData(None, STREAMED, kept.value)  # OutputData.value, one call less


def kept_return(code: int, kept: Kept, shape: Callable[[str], object] | None = None
                ) -> ToolReturn:
    """What a tool that wrote through `kept` returns: status `code` and its value
    (`kept_value`); the value alone stands for status 0, one object less."""
    kept.shape = shape
    kept.stream = _ENDED  # (kept_value, inline)
    output = OutputData(None, STREAMED, kept.value)
    return output if code == 0 else Outcome(code, output)


def unkept(out: object) -> object:
    """The stream a Kept passes its writes to (`out` itself when it is no Kept): the
    one to ask what it is (`hostio.output_file`), which a Kept answers only through
    `__getattr__` — and, for a stream in memory, through an exception."""
    return out.stream if type(out) is Kept else out


def lines_json(
    ctx: Context, body: Callable[[A, Context], int], args: A,
    shape: Callable[[str], object] | None = None,
) -> ToolReturn:
    """Run a line-oriented tool's `body(args, ctx)`; its typed value is an array of the
    lines it wrote (or `shape(text)`). Under `--json` the text is captured and replaced
    by that value; otherwise it streams to stdout and a bounded copy (`Kept`) gives the
    value."""
    if not ctx.json:
        if not ctx.keeps_value:
            return body(args, ctx)
        # the command's own Context, lent the copying stream while the body runs (a
        # copy of the Context would cost more than the body of a small `cat`)
        out = ctx.stdout
        kept = Kept(out)
        ctx.stdout = kept  # type: ignore[assignment]  # (a stream in all but name)
        try:
            code = body(args, ctx)
        finally:
            ctx.stdout = out
        return kept_return(code, kept, shape)
    buf = HeldBuffer(ctx)
    code = body(args, ctx.evolve(stdout=buf))
    raw = buf.getvalue()
    text = raw.decode("utf-8", "replace")
    data = shape(text) if shape is not None else split_lines_text(text)
    return Outcome(code=code, output=OutputData.text(text, rich_json=data))
