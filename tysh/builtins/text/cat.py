"""cat, tac, rev and tee: whole-stream copies and per-line rewrites (GNU coreutils 9.1)."""

from __future__ import annotations

from tysh.builtins._common.args import by_args
from tysh.builtins._common.lines import (
    Kept,
    LineSplit,
    chunks,
    kept_return,
    lines_json,
    slurp,
    unkept,
)
from tysh.builtins._common.operands import (
    InputStatus,
    copy_inputs,
    is_output,
    iter_inputs,
    open_output,
)
from tysh.kernel.base.hints import Protocol
from tysh.kernel.base.record import MutableRecord, Record, mutable, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.hostio import output_file
from tysh.kernel.text.literal import lazy_bytes
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import IO

# ---------------------------------------------------------------------------- cat


@value_record
class CatArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to read; - is stdin")
    number: bool = param(default=False, aliases=["-n"], help="number all output lines")
    number_nonblank: bool = param(
        default=False, aliases=["-b"], help="number non-empty output lines (overrides -n)"
    )
    squeeze_blank: bool = param(default=False, aliases=["-s"], help="squeeze repeated empty lines")
    show_ends: bool = param(default=False, aliases=["-E"], help="display $ at the end of each line")
    show_tabs: bool = param(default=False, aliases=["-T"], help="display TAB as ^I")
    show_nonprinting: bool = param(
        default=False, aliases=["-v"], help="use ^ and M- notation, except for LFD and TAB"
    )
    show_all: bool = param(default=False, aliases=["-A"], help="equivalent to -vET")
    show_ends_nonprinting: bool = param(default=False, aliases=["-e"], help="equivalent to -vE")
    show_tabs_nonprinting: bool = param(default=False, aliases=["-t"], help="equivalent to -vT")
    unbuffered: bool = param(default=False, aliases=["-u"], help="ignored")


def _caret_table() -> list[bytes]:
    """GNU `cat -v` notation for every byte value."""
    out: list[bytes] = []
    for b in range(256):
        prefix = b""
        c = b
        if c >= 128:
            prefix, c = b"M-", c - 128
        if c < 32:
            out.append(prefix + b"^" + bytes([c + 64]))
        elif c == 127:
            out.append(prefix + b"^?")
        else:
            out.append(prefix + bytes([c]))
    return out


_CARET = _caret_table()
_NONPRINT_RE = lazy_bytes(rb"[\x00-\x08\x0a-\x1f\x7f-\xff]")
_NONPRINT_TAB_RE = lazy_bytes(rb"[\x00-\x1f\x7f-\xff]")


def _caret(m: re.Match[bytes]) -> bytes:
    return _CARET[m.group()[0]]


@mutable
class _CatState(MutableRecord):
    """Numbering and squeezing carry across files, as GNU cat's do."""

    line_no: int = 0
    at_bol: bool = True
    blank_run: int = 0


def _cat_lines(
    f: IO[bytes], out: IO[bytes], st: _CatState, *, number: bool, nonblank: bool,
    squeeze: bool, ends: bool, tabs: bool, nonprint: bool,
) -> None:
    if number and not (nonblank or squeeze or ends or tabs or nonprint):
        _cat_numbered(f, out, st)
        return
    end = b"$\n" if ends else b"\n"
    rewrite = _NONPRINT_TAB_RE if tabs and nonprint else _NONPRINT_RE if nonprint else None
    split = LineSplit(f)
    for lines in split:
        buf: list[bytes] = []
        for line in lines:
            if st.at_bol:
                if not line:
                    st.blank_run += 1
                    if squeeze and st.blank_run > 1:
                        continue
                    if number and not nonblank:
                        st.line_no += 1
                        buf.append(b"%6d\t" % st.line_no)
                    buf.append(end)
                    continue
                st.blank_run = 0
                if number:
                    st.line_no += 1
                    buf.append(b"%6d\t" % st.line_no)
            st.at_bol = True
            if rewrite is not None:
                line = rewrite.sub(_caret, line)
            elif tabs:
                line = line.replace(b"\t", b"^I")
            buf.append(line)
            buf.append(end)
        if buf:
            out.write(b"".join(buf))
    rest = split.rest
    if rest:
        if st.at_bol:
            st.blank_run = 0
            if number:
                st.line_no += 1
                out.write(b"%6d\t" % st.line_no)
        if rewrite is not None:
            rest = rewrite.sub(_caret, rest)
        elif tabs:
            rest = rest.replace(b"\t", b"^I")
        out.write(rest)
        st.at_bol = False


def _cat_numbered(f: IO[bytes], out: IO[bytes], st: _CatState) -> None:
    """`cat -n` alone: each batch of lines numbered by one comprehension."""
    split = LineSplit(f)
    for lines in split:
        head = b""
        if not st.at_bol:
            head = lines.pop(0) + b"\n"
            st.at_bol = True
        start = st.line_no + 1
        st.line_no += len(lines)
        out.write(head + b"".join(
            [b"%6d\t%s\n" % pair for pair in zip(range(start, st.line_no + 1), lines, strict=True)]
        ))
    rest = split.rest
    if rest:
        if st.at_bol:
            st.line_no += 1
            rest = b"%6d\t" % st.line_no + rest
        out.write(rest)
        st.at_bol = False


def _copies(args: CatArgs) -> bool:
    """Whether no option changes the bytes (-u is ignored): cat is a plain copy."""
    return not (args.number or args.number_nonblank or args.squeeze_blank or args.show_ends
                or args.show_tabs or args.show_nonprinting or args.show_all
                or args.show_ends_nonprinting or args.show_tabs_nonprinting)


_copies_of = by_args(_copies)


def _cat_body(args: CatArgs, ctx: Context) -> int:
    if _copies_of(args):
        return copy_inputs(ctx, args.files, ctx.stdout)
    status = InputStatus()
    nonprint = (
        args.show_nonprinting or args.show_all or args.show_ends_nonprinting
        or args.show_tabs_nonprinting
    )
    ends = args.show_ends or args.show_all or args.show_ends_nonprinting
    tabs = args.show_tabs or args.show_all or args.show_tabs_nonprinting
    number = args.number or args.number_nonblank
    st = _CatState()
    out = ctx.stdout
    target = output_file(unkept(out))
    for name, f in iter_inputs(ctx, args.files, status):
        if target is not None and is_output(ctx, name, f, target):
            status.failed = True
            continue
        _cat_lines(
            f, out, st, number=number, nonblank=args.number_nonblank,
            squeeze=args.squeeze_blank, ends=ends, tabs=tabs, nonprint=nonprint,
        )
    return 1 if status.failed else 0


def _cat_filter(args: CatArgs, data: bytes) -> bytes | None:
    """ToolFilter: a plain copy of stdin is its input."""
    return data if args.files in ((), ("-",)) and _copies_of(args) else None


@tool(
    "cat", kind="read",
    args=CatArgs,
    description="concatenate files to standard output; --json gives an array of lines",
    examples=[
        ("print two files", "cat a.txt b.txt"),
        ("number the lines", "cat -n notes.txt"),
        ("squeeze blank lines and show line ends", "cat -sE notes.txt"),
    ],
    filter=_cat_filter,
)
def cat(args: CatArgs, ctx: Context) -> ToolReturn:
    if _copies_of(args) and not ctx.json:  # `lines_json` of `_cat_body`'s copy, directly
        if not ctx.keeps_value:
            return copy_inputs(ctx, args.files, ctx.stdout)
        kept = Kept(ctx.stdout)
        return kept_return(copy_inputs(ctx, args.files, kept), kept)  # type: ignore[arg-type]
    return lines_json(ctx, _cat_body, args)


# ---------------------------------------------------------------------------- tac


@value_record
class TacArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to read; - is stdin")
    separator: str = param(
        default="\n", aliases=["-s"], help="use STRING as the record separator"
    )
    before: bool = param(
        default=False, aliases=["-b"], help="attach the separator before each record, not after"
    )
    regex: bool = param(
        default=False, aliases=["-r"], help="the separator is a basic regular expression"
    )


def reverse_records(data: bytes, sep: bytes) -> bytes:
    """Records in reverse order; a last record without separator stays unterminated
    and runs into the next one (`a\\nb\\nc` → `cb\\na\\n`), as GNU tac does."""
    parts = data.split(sep)
    if len(parts) == 1:
        return data
    last = parts.pop()
    parts.reverse()
    return last + sep.join(parts) + sep


def reverse_split(texts: list[bytes], seps: list[bytes], before: bool) -> bytes:
    """Reverse records given as the texts between separators (one more than `seps`) and
    the separators themselves; -b (`before`) glues each separator to the record after it
    (the text before the first separator then comes last, unterminated)."""
    if not seps:
        return texts[0]
    if before:
        recs = [s + t for s, t in zip(seps, texts[1:], strict=True)]
        recs.reverse()
        return b"".join(recs) + texts[0]
    recs = [t + s for t, s in zip(texts, seps, strict=False)]
    recs.reverse()
    return texts[-1] + b"".join(recs)


def _tac_regex(data: bytes, rx: re.Pattern[bytes], before: bool) -> bytes:
    """tac -r: GNU searches backwards, so separators are taken from the end: the last
    position where a non-empty match starts, then the last one ending before it, ..."""
    import re

    probe = re.compile(b"(?=" + rx.pattern + b")", rx.flags)
    starts = [m.start() for m in probe.finditer(data)]
    limit = len(data)
    spans: list[tuple[int, int]] = []
    for start in reversed(starts):
        if start >= limit:
            continue
        m = rx.match(data, start, limit)
        if m is not None and m.end() > start:
            spans.append((start, m.end()))
            limit = start
    spans.reverse()
    texts: list[bytes] = []
    pos = 0
    for a, b in spans:
        texts.append(data[pos:a])
        pos = b
    texts.append(data[pos:])
    return reverse_split(texts, [data[a:b] for a, b in spans], before)


def _tac_body(args: TacArgs, ctx: Context) -> int:
    if not args.separator:
        ctx.error("separator cannot be empty")
        return 1
    sep = args.separator.encode("utf-8", "surrogateescape")
    rx: re.Pattern[bytes] | None = None
    if args.regex:
        import re

        from tysh.kernel.text.regex import RegexError, translate

        try:
            source = translate(args.separator, mode="space_m").source
            rx = re.compile(source.encode("utf-8", "surrogateescape"), re.M | re.S)
        except (RegexError, re.error) as e:
            ctx.error(str(e))
            return 1
    status = InputStatus()
    for _name, f in iter_inputs(ctx, args.files, status):
        data = slurp(ctx, f, sep=sep)
        if not data:
            continue
        if rx is not None:
            ctx.stdout.write(_tac_regex(data, rx, args.before))
        elif args.before:
            parts = data.split(sep)
            ctx.stdout.write(reverse_split(parts, [sep] * (len(parts) - 1), True))
        else:
            ctx.stdout.write(reverse_records(data, sep))
    return 1 if status.failed else 0


@tool(
    "tac", kind="read",
    args=TacArgs,
    description="print files with their lines in reverse order; --json gives an array of lines",
    examples=[("last line first", "tac log.txt")],
)
def tac(args: TacArgs, ctx: Context) -> ToolReturn:
    return lines_json(ctx, _tac_body, args)


# ---------------------------------------------------------------------------- rev


@value_record
class RevArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to read; - is stdin")


def _rev_text(block: bytes) -> bytes:
    text = block.decode("utf-8", "surrogateescape")
    return "\n".join(s[::-1] for s in text.split("\n")).encode("utf-8", "surrogateescape")


def _rev_body(args: RevArgs, ctx: Context) -> int:
    status = InputStatus()
    for _name, f in iter_inputs(ctx, args.files, status):
        split = LineSplit(f, ctx=ctx)
        for lines in split:
            ctx.stdout.write(_rev_text(b"\n".join(lines)) + b"\n")
        if split.rest:
            ctx.stdout.write(_rev_text(split.rest))
    return 1 if status.failed else 0


@tool(
    "rev", kind="read",
    args=RevArgs,
    description="reverse the characters of every line; --json gives an array of lines",
    examples=[("reverse each line", "rev names.txt")],
)
def rev(args: RevArgs, ctx: Context) -> ToolReturn:
    return lines_json(ctx, _rev_body, args)


# ---------------------------------------------------------------------------- tee


@value_record
class TeeArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to write")
    append: bool = param(default=False, aliases=["-a"], help="append to the files, do not overwrite")
    ignore_interrupts: bool = param(default=False, aliases=["-i"], help="ignored")
    output_error: bool | str = param(
        default=False, aliases=["-p"], param_type="bool",
        choices=["warn", "warn-nopipe", "exit", "exit-nopipe"],
        help="keep writing to files when stdout is a broken pipe (-p: warn-nopipe); "
        "=warn also reports it, =exit stops at the first write error, =exit-nopipe at the "
        "first one that is not a pipe's",
    )


@tool(
    "tee", kind="write",
    args=TeeArgs,
    description="copy standard input to standard output and to files; --json gives an array of lines",
    examples=[
        ("save and show", "make 2>&1 | tee build.log"),
        ("append to a log", "echo done | tee -a log.txt"),
    ],
    operations=["fs.create", "fs.overwrite"],
)
def tee(args: TeeArgs, ctx: Context) -> ToolReturn:
    return lines_json(ctx, _tee_body, args)


def _tee_body(args: TeeArgs, ctx: Context) -> int:
    failed = False
    sinks: list[tuple[str, _Sink]] = []
    for name in args.files:
        try:
            sinks.append((name, open_output(ctx, name, append=args.append)))
        except FsError as e:
            ctx.error(f"{name}: {e.reason}")
            failed = True
    out: IO[bytes] | None = ctx.stdout
    try:
        for chunk in chunks(ctx.stdin):
            if out is not None:
                try:
                    out.write(chunk)
                except BrokenPipeError:
                    if not args.output_error or args.output_error == "exit":
                        raise
                    if args.output_error == "warn":
                        ctx.error("standard output: Broken pipe")
                        failed = True
                    out = None
            for i, (name, sink) in enumerate(sinks):
                try:
                    sink.write(chunk)
                except OSError as e:
                    ctx.error(f"{name}: {e.strerror or e}")
                    failed = True
                    sinks[i] = (name, _Dropped())
                    if args.output_error in ("exit", "exit-nopipe"):
                        return 1
    finally:
        for name, sink in sinks:
            try:
                sink.close()
            except OSError as e:
                ctx.error(f"{name}: {e.strerror or e}")
                failed = True
    return 1 if failed else 0


class _Sink(Protocol):
    def write(self, data: bytes, /) -> int: ...

    def close(self) -> None: ...


class _Dropped:
    """A sink that failed once: GNU tee stops writing to it and carries on."""

    def write(self, data: bytes) -> int:
        return len(data)

    def close(self) -> None:
        pass


TOOLS = [cat, tac, rev, tee]
