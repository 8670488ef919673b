"""join (GNU coreutils 9.1): join lines of two sorted files on a common field.

The merge follows GNU's join loop step for step, so its output, and its order checks,
match: by default a disorder is reported (`FILE:N: is not sorted: LINE`, once per file)
only after an unpairable line has been seen, and the status is 1 at the end with
`input is not in sorted order`; --check-order stops at the first disorder. Fields split
on runs of blanks (leading blanks ignored, trailing ones leave an empty last field) or
on the -t character; keys compare as bytes (GNU in the C locale), -i ignoring case.
Both inputs are read incrementally and output is written in blocks."""

from __future__ import annotations

from tysh.builtins._common.fileinfo import q
from tysh.builtins._common.lines import VALUE_ITEMS, slurp
from tysh.builtins._common.operands import InputStatus, iter_lines, open_all
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import MutableRecord, Record, field, frozen, mutable, value_record
from tysh.kernel.text.literal import lazy_bytes
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO

_BLANKS = lazy_bytes(rb"[ \t]+")
_LIST_SEPARATORS = LazyRegex(r"[,\s]+")
_FLUSH = 2048


@value_record
class JoinArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="FILE1 FILE2 (- is stdin)")
    field_1: str | None = param(default=None, aliases=["-1"], help="join on this field of FILE1")
    field_2: str | None = param(default=None, aliases=["-2"], help="join on this field of FILE2")
    join_field: str | None = param(default=None, aliases=["-j"],
                                   help="join on this field of both files")
    separator: str | None = param(default=None, aliases=["-t"],
                                  help="use CHAR as input and output field separator")
    also: tuple[str, ...] = param(default=(), aliases=["-a"],
                                  help="also print unpairable lines from file 1 or 2")
    only: tuple[str, ...] = param(default=(), aliases=["-v"],
                                  help="like -a, but suppress joined output lines")
    empty: str | None = param(default=None, aliases=["-e"],
                              help="replace missing input fields with EMPTY")
    format: tuple[str, ...] = param(default=(), aliases=["-o"],
                                    help="output FORMAT: FILENUM.FIELD or 0, comma-separated; auto")
    ignore_case: bool = param(default=False, aliases=["-i"], help="ignore case in the join field")
    header: bool = param(default=False, help="treat the first line of each file as a header")
    check_order: bool = param(default=False, help="fail at the first unsorted input line")
    nocheck_order: bool = param(default=False, help="do not check that the input is sorted")
    zero_terminated: bool = param(default=False, aliases=["-z"],
                                  help="lines end with NUL, not newline")


@frozen
class Line(Record):
    text: bytes
    fields: list[bytes]


class _Disorder(Exception):
    """--check-order found an unsorted line: join stops."""


@mutable
class _Join(MutableRecord):
    """GNU join's state: the two inputs, what was last read from each, order warnings."""

    ctx: Context
    names: list[str]
    its: list[Iterator[bytes]]
    tab: bytes | None
    keys: list[int]  # 0-based join fields
    fold: bool
    mode: str  # "default" "on" "off"
    prev: list[Line | None] = field(factory=lambda: [None, None])
    line_no: list[int] = field(factory=lambda: [0, 0])
    warned: list[bool] = field(factory=lambda: [False, False])
    seen_unpairable: bool = False

    def split(self, text: bytes) -> list[bytes]:
        if not text:
            return []
        tab = self.tab
        if tab is None:
            body = text.lstrip(b" \t")
            return _BLANKS.split(body) if body else []
        if tab == b"\n":
            return [text]
        return text.split(tab)

    def key(self, line: Line, which: int) -> bytes:
        n = self.keys[which]
        k = line.fields[n] if n < len(line.fields) else b""
        return k.upper() if self.fold else k

    def cmp(self, a: Line, b: Line, wa: int = 0, wb: int = 1) -> int:
        ka, kb = self.key(a, wa), self.key(b, wb)
        if not ka:
            return 0 if not kb else -1
        if not kb:
            return 1
        return (ka > kb) - (ka < kb)

    def get(self, which: int, check: bool = True) -> Line | None:
        text = next(self.its[which], None)
        if text is None:
            return None
        self.line_no[which] += 1
        line = Line(text, self.split(text))
        prev = self.prev[which]
        if check and prev is not None:
            self._check(prev, line, which)
        self.prev[which] = line
        return line

    def _check(self, prev: Line, cur: Line, which: int) -> None:
        if self.mode == "off" or (self.mode == "default" and not self.seen_unpairable):
            return
        if self.warned[which] or self.cmp(prev, cur, which, which) <= 0:
            return
        text = cur.text.decode("utf-8", "surrogateescape")
        self.ctx.error(f"{self.names[which]}:{self.line_no[which]}: is not sorted: {text}")
        self.warned[which] = True
        if self.mode == "on":
            raise _Disorder


def _lines(ctx: Context, f: IO[bytes], eol: bytes) -> Iterator[bytes]:
    if eol == b"\n":
        for line in iter_lines(f, ctx):
            yield line[:-1] if line.endswith(b"\n") else line
        return
    parts = slurp(ctx, f, sep=eol).split(eol)
    if parts and parts[-1] == b"":
        parts.pop()
    yield from parts


def _usage(ctx: Context, message: str) -> int:
    ctx.error(message)
    ctx.stderr.write(b"Try 'join --help' for more information.\n")
    return 1


def _field_number(ctx: Context, text: str) -> int | None:
    t = text.strip()
    if not t.isdigit() or int(t) < 1:
        ctx.error(f"invalid field number: {q(text)}")
        return None
    return int(t) - 1


def _format(ctx: Context, specs: tuple[str, ...]) -> list[tuple[int, int]] | None:
    """-o lists: (file 0 for the join field or 1|2, 0-based field)."""
    out: list[tuple[int, int]] = []
    for spec in specs:
        for item in _LIST_SEPARATORS.split(spec.strip()):
            if item == "0":
                out.append((0, 0))
                continue
            file, dot, field = item.partition(".")
            if not dot or file not in ("1", "2"):
                ctx.error(f"invalid field specifier: {q(item)}" if not dot or not file.isdigit()
                          else f"invalid file number in field spec: {q(item)}")
                return None
            if not field.isdigit() or int(field) < 1:
                ctx.error(f"invalid field number: {q(field)}")
                return None
            out.append((int(file), int(field) - 1))
    return out


@tool(
    "join", kind="read",
    args=JoinArgs,
    description=("join lines of two sorted files on a common field (GNU join); --json gives "
                 "each output line as an array of its fields"),
    examples=[
        ("join two files on their first field", "join users.txt ages.txt"),
        ("CSV on column 2 of the first file", "join -t, -1 2 -2 1 a.csv b.csv"),
        ("lines of a.txt with no match in b.txt", "join -v 1 a.txt b.txt"),
    ],
)
def join(args: JoinArgs, ctx: Context) -> ToolReturn:
    # `-1 F` and `-2 F` look like numbers to the binder and reach the tool as operands
    files: list[str] = []
    numbered: dict[int, str | None] = {0: args.field_1, 1: args.field_2}
    words = list(args.files)
    while words:
        w = words.pop(0)
        if w in ("-1", "-2") and words:
            numbered[int(w[1]) - 1] = words.pop(0)
        elif len(w) > 2 and w[:2] in ("-1", "-2") and w[2:].isdigit():
            numbered[int(w[1]) - 1] = w[2:]
        else:
            files.append(w)
    if len(files) < 2:
        return _usage(ctx, f"missing operand after {q(files[0])}" if files
                      else "missing operand")
    if len(files) > 2:
        return _usage(ctx, f"extra operand {q(files[2])}")
    keys = [0, 0]
    for which, spec in ((0, args.join_field), (1, args.join_field),
                        (0, numbered[0]), (1, numbered[1])):
        if spec is not None:
            n = _field_number(ctx, spec)
            if n is None:
                return 1
            keys[which] = n
    tab: bytes | None = None
    if args.separator is not None:
        raw = args.separator.encode("utf-8", "surrogateescape")
        if raw == b"\\0":
            raw = b"\0"
        if len(raw) > 1:
            ctx.error(f"multi-character tab {q(args.separator)}")
            return 1
        tab = raw or b"\n"
    unpaired = [False, False]
    for spec in (*args.also, *args.only):
        if spec.strip() not in ("1", "2"):
            ctx.error(f"invalid file number: {q(spec)}")
            return 1
        unpaired[int(spec) - 1] = True
    auto = args.format == ("auto",)
    fmt: list[tuple[int, int]] | None = []
    if args.format and not auto:
        fmt = _format(ctx, args.format)
        if fmt is None:
            return 1
    mode = "on" if args.check_order else "off" if args.nocheck_order else "default"
    eol = b"\0" if args.zero_terminated else b"\n"
    opened = open_all(ctx, files, InputStatus())
    if opened is None:
        return 1
    streams: list[IO[bytes]] = opened
    state = _Join(ctx, files, [_lines(ctx, s, eol) for s in streams], tab, keys,
                  args.ignore_case, mode)
    out = _Output(ctx, state, fmt or [], auto, args.empty, tab, eol)
    try:
        _run(state, out, unpaired, not args.only, args.header)
    except _Disorder:
        out.flush()
        return 1
    finally:
        for s in streams:
            if s is not ctx.stdin:
                s.close()
    out.flush()
    code = 0
    if any(state.warned):
        ctx.error("input is not in sorted order")
        code = 1
    if ctx.json:
        return Outcome(code=code, output=OutputData.text("", rich_json=out.rows))

    def value() -> list[list[str]] | None:
        kept = out.kept
        if kept is None:
            return None
        return [[p.decode("utf-8", "surrogateescape") for p in parts] for parts in kept]

    return Outcome(code=code, output=OutputData.value(value))


@mutable
class _Output(MutableRecord):
    """GNU's prjoin: the output line for a pair (None for the missing side)."""

    ctx: Context
    state: _Join
    fmt: list[tuple[int, int]]
    auto: bool
    empty: str | None
    tab: bytes | None
    eol: bytes
    autocount: list[int] = field(factory=lambda: [0, 0])
    rows: list[list[str]] = field(factory=list)
    # text mode: the rows written, as long as there are at most VALUE_ITEMS of them
    kept: list[list[bytes]] | None = field(factory=list)
    buf: list[bytes] = field(factory=list)

    def field(self, line: Line | None, n: int) -> bytes:
        filler = b"" if self.empty is None else self.empty.encode("utf-8", "surrogateescape")
        if line is None or n >= len(line.fields):
            return filler
        return line.fields[n] or filler

    def emit(self, l1: Line | None, l2: Line | None) -> None:
        keys = self.state.keys
        parts: list[bytes] = []
        if self.fmt:
            for file, n in self.fmt:
                if file == 0:
                    parts.append(self.field(l2, keys[1]) if l1 is None else self.field(l1, keys[0]))
                else:
                    parts.append(self.field(l1 if file == 1 else l2, n))
        else:
            parts.append(self.field(l2, keys[1]) if l1 is None else self.field(l1, keys[0]))
            for which, line in ((0, l1), (1, l2)):
                count = self.autocount[which] if self.auto else (
                    len(line.fields) if line is not None else 0)
                parts.extend(self.field(line, i) for i in range(count) if i != keys[which])
        if self.ctx.json:
            self.rows.append([p.decode("utf-8", "surrogateescape") for p in parts])
            return
        kept = self.kept
        if kept is not None:
            # the fields as they are, for the typed value (the text alone cannot be
            # split back when a filler holds the separator)
            if len(kept) < VALUE_ITEMS:
                kept.append(parts)
            else:
                self.kept = None
        sep = b" " if self.tab is None else self.tab
        self.buf.append(sep.join(parts) + self.eol)
        if len(self.buf) >= _FLUSH:
            self.flush()

    def flush(self) -> None:
        if self.buf:
            self.ctx.stdout.write(b"".join(self.buf))
            self.buf.clear()


def _run(st: _Join, out: _Output, unpaired: list[bool], pairs: bool, header: bool) -> None:
    """GNU join's main loop: runs of equal keys from both sides, then the tails."""
    seq1: list[Line] = []
    seq2: list[Line] = []
    first1 = st.get(0, check=not header)
    first2 = st.get(1, check=not header)
    if first1 is not None:
        seq1.append(first1)
    if first2 is not None:
        seq2.append(first2)
    if out.auto:
        out.autocount = [len(first1.fields) if first1 else 0, len(first2.fields) if first2 else 0]
    if header and (seq1 or seq2):
        out.emit(seq1[0] if seq1 else None, seq2[0] if seq2 else None)
        st.prev = [None, None]  # a header is not compared with the first data line
        seq1 = [ln for ln in [st.get(0)] if ln is not None] if seq1 else []
        seq2 = [ln for ln in [st.get(1)] if ln is not None] if seq2 else []
    while seq1 and seq2:
        diff = st.cmp(seq1[0], seq2[0])
        if diff:
            which = 0 if diff < 0 else 1
            if unpaired[which]:
                out.emit(seq1[0], None) if which == 0 else out.emit(None, seq2[0])
            nxt = st.get(which)
            st.seen_unpairable = True
            if which == 0:
                seq1 = [nxt] if nxt is not None else []
            else:
                seq2 = [nxt] if nxt is not None else []
            continue
        eof1 = eof2 = False
        while True:
            nxt = st.get(0)
            if nxt is None:
                eof1 = True
                break
            seq1.append(nxt)
            if st.cmp(nxt, seq2[0]):
                break
        while True:
            nxt = st.get(1)
            if nxt is None:
                eof2 = True
                break
            seq2.append(nxt)
            if st.cmp(seq1[0], nxt):
                break
        if pairs:
            for a in seq1 if eof1 else seq1[:-1]:
                for b in seq2 if eof2 else seq2[:-1]:
                    out.emit(a, b)
        seq1 = [] if eof1 else [seq1[-1]]
        seq2 = [] if eof2 else [seq2[-1]]
    checktail = st.mode != "off" and not (st.warned[0] and st.warned[1])
    for which, seq, other in ((0, seq1, seq2), (1, seq2, seq1)):
        if not seq or not (unpaired[which] or checktail):
            continue
        show = unpaired[which]
        if show:
            out.emit(seq[0], None) if which == 0 else out.emit(None, seq[0])
        if other:
            st.seen_unpairable = True
        while (line := st.get(which)) is not None:
            if show:
                out.emit(line, None) if which == 0 else out.emit(None, line)
            elif st.warned[which]:
                break


TOOLS = [join]
