"""diff (GNU diffutils 3.8): normal, unified (-u/-U), context (-c/-C) and side-by-side
(-y, -W, --suppress-common-lines) output, --label, -q/-s, -r over directories, -N, the
-i/-w/-b/-B comparisons, `-` for stdin; status 0 same, 1 different, 2 trouble.

The matching itself is compare.diffseq (GNU's algorithm, so hunks are GNU's); this module
reads the inputs, walks directories and renders. Time stamps in headers are the file's
mtime in the session's TZ, to the precision FileStat carries (a float, so the last
digits of the nanoseconds may differ from GNU's)."""

from __future__ import annotations

import time

from tysh.builtins._common.fileinfo import local_time
from tysh.builtins._common.lines import VALUE_ITEMS
from tysh.builtins._common.operands import is_stdin
from tysh.builtins.compare.diffseq import Change, diff_changes
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import MutableRecord, Record, field, mutable, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Sequence

    _SPACE_RUN: re.Pattern[bytes]
else:  # (a bytes pattern: LazyRegex's methods are declared for text)
    _SPACE_RUN = LazyRegex(rb"[ \t\v\f\r]+")

_NO_NL = b"\\ No newline at end of file\n"


@value_record
class DiffArgs(Record):
    paths: tuple[str, ...] = param(positional=True, default=(),
                                   help="FILE1 FILE2 (files or directories; - is stdin)")
    u: bool = param(default=False, aliases=["-u"],
                    help="unified format with 3 lines of context")
    unified: int | None = param(default=None, aliases=["-U"],
                                help="unified format with NUM lines of context (-U NUM)",
                                min=0, range_error="invalid context length '{value}'")
    c: bool = param(default=False, aliases=["-c"],
                    help="context format with 3 lines of context")
    context: int | None = param(default=None, aliases=["-C"],
                                help="context format with NUM lines of context (-C NUM)",
                                min=0, range_error="invalid context length '{value}'")
    normal: bool = param(default=False, help="normal format (the default)")
    side_by_side: bool = param(default=False, aliases=["-y"], help="output in two columns")
    width: int = param(default=130, aliases=["-W"],
                       help="at most NUM print columns with -y (default 130)",
                       min=1, range_error="invalid width '{value}'")
    suppress_common_lines: bool = param(default=False,
                                        help="with -y, leave out the lines both files share")
    label: tuple[str, ...] = param(default=(), repeatable=True,
                                   help="use LABEL instead of the file name in headers "
                                        "(once for each file)")
    color: str | None = param(default=None, choices=("never", "auto", "always"),
                              help="accepted; the output is never coloured")
    new_file: bool = param(default=False, aliases=["-N"],
                           help="treat absent files as empty")
    ignore_case: bool = param(default=False, aliases=["-i"], help="ignore case differences")
    ignore_all_space: bool = param(default=False, aliases=["-w"], help="ignore all white space")
    ignore_space_change: bool = param(default=False, aliases=["-b"],
                                      help="ignore changes in the amount of white space")
    ignore_blank_lines: bool = param(default=False, aliases=["-B"],
                                     help="ignore changes whose lines are all blank")
    text: bool = param(default=False, aliases=["-a"], help="treat all files as text")
    recursive: bool = param(default=False, aliases=["-r"],
                            help="recursively compare subdirectories")
    brief: bool = param(default=False, aliases=["-q"], help="report only whether files differ")
    report_identical_files: bool = param(default=False, aliases=["-s"],
                                         help="report when two files are the same")


class _Trouble(Exception):
    """A file that cannot be read: reported, status 2."""


@mutable
class _Run(MutableRecord):
    args: DiffArgs
    ctx: Context
    context: int | None  # context width of -u/-c; None: normal format
    switches: str
    style: str = "normal"  # "normal", "unified" or "context"
    out: list[bytes] = field(factory=list)
    data: list[dict[str, object]] = field(factory=list)
    status: int = 0
    stdin: tuple[bytes, float] | None = None  # read once: `diff - /dev/stdin` is one file

    def trouble(self, msg: str) -> None:
        self.ctx.error(msg)
        self.status = 2

    def flush(self) -> None:
        if self.out and not self.ctx.json:
            self.ctx.stdout.write(b"".join(self.out))
        self.out.clear()

    # -- reading ----------------------------------------------------------------------
    def read(self, name: str, absent: bool) -> tuple[bytes, float]:
        if absent:
            return b"", 0.0
        if is_stdin(name):
            if self.stdin is None:
                self.stdin = (self.ctx.stdin.read(), time.time())
            return self.stdin
        path = self.ctx.path(name)
        try:
            st = self.ctx.fs.stat(path)
            with self.ctx.fs.open(path, "rb") as f:
                return f.read(), st.mtime
        except FsError as e:
            raise _Trouble(f"{name}: {e.reason}") from None

    def keys(self, lines: list[bytes]) -> Sequence[object]:
        a = self.args
        if not (a.ignore_case or a.ignore_all_space or a.ignore_space_change):
            return lines
        out: list[object] = []
        for line in lines:
            nl = line.endswith(b"\n")
            body = line[:-1] if nl else line
            if a.ignore_case:
                body = body.lower()
            if a.ignore_all_space:
                body = _SPACE_RUN.sub(b"", body)
            elif a.ignore_space_change:
                body = _SPACE_RUN.sub(b" ", body).rstrip(b" ")
            out.append((body, nl))
        return out

    # -- one pair of files ------------------------------------------------------------
    def files(self, na: str, nb: str, absent_a: bool = False, absent_b: bool = False,
              header: bool = False) -> None:
        try:
            da, ta = self.read(na, absent_a)
            db, tb = self.read(nb, absent_b)
        except _Trouble as e:
            self.trouble(str(e))
            return
        if da == db and not (absent_a or absent_b):
            if self.style == "side" and not self.args.brief:  # -y shows the same lines too
                lines = _lines(da)
                self.out.append(_side_by_side([], [], lines, lines, self.args.width,
                                              self.args.suppress_common_lines))
            if self.args.report_identical_files:
                self.out.append(f"Files {na} and {nb} are identical\n".encode(
                    "utf-8", "surrogateescape"))
            return
        binary = not self.args.text and (b"\0" in da[:32768] or b"\0" in db[:32768])
        la, lb = _lines(da), _lines(db)
        changes = diff_changes(la, lb, self.keys(la), self.keys(lb), self.context or 0)
        if self.args.ignore_blank_lines:
            ignorable = [all(x == b"\n" for x in (*la[c[0]:c[0] + c[2]], *lb[c[1]:c[1] + c[3]]))
                         for c in changes]
        else:
            ignorable = [False] * len(changes)
        if all(ignorable):
            if self.style == "side" and not self.args.brief:
                self.out.append(_side_by_side(changes, ignorable, la, lb, self.args.width,
                                              self.args.suppress_common_lines))
            if self.args.report_identical_files:
                self.out.append(f"Files {na} and {nb} are identical\n".encode(
                    "utf-8", "surrogateescape"))
            return
        self.status = max(self.status, 1)
        enc = "utf-8", "surrogateescape"
        if self.args.brief or binary:
            word = "Files" if self.args.brief else "Binary files"
            self.out.append(f"{word} {na} and {nb} differ\n".encode(*enc))
            self.data.append({"old": na, "new": nb, "binary": binary, "hunks": []})
            return
        if header:
            self.out.append(f"diff{self.switches} {na} {nb}\n".encode(*enc))
        ctx_lines = 3 if self.context is None else self.context
        hunks = _hunks(changes, ignorable, ctx_lines, len(la), len(lb))
        self.data.append({"old": na, "new": nb,
                          "hunks": [_hunk_json(h, la, lb) for h in hunks]})
        labels = self.args.label
        head_a = labels[0] if labels else None
        head_b = labels[1] if len(labels) > 1 else None
        if self.style == "normal":
            self.out.append(_normal(changes, ignorable, la, lb))
        elif self.style == "side":
            self.out.append(_side_by_side(changes, ignorable, la, lb, self.args.width,
                                          self.args.suppress_common_lines))
        elif self.style == "context":
            ha = head_a if head_a is not None else f"{na}\t{self.stamp(ta, ctime=True)}"
            hb = head_b if head_b is not None else f"{nb}\t{self.stamp(tb, ctime=True)}"
            self.out.append(f"*** {ha}\n--- {hb}\n".encode(*enc))
            self.out.append(b"".join(_context(h, la, lb) for h in hunks))
        else:
            ha = head_a if head_a is not None else f"{na}\t{self.stamp(ta)}"
            hb = head_b if head_b is not None else f"{nb}\t{self.stamp(tb)}"
            self.out.append(f"--- {ha}\n+++ {hb}\n".encode(*enc))
            self.out.append(b"".join(_unified(h, la, lb) for h in hunks))

    def stamp(self, t: float, ctime: bool = False) -> str:
        dt = local_time(self.ctx, t)
        if ctime:  # the context format's header time: `Tue Nov 14 22:13:20 2023`
            return dt.strftime("%a %b ") + f"{dt.day:2d}" + dt.strftime(" %H:%M:%S %Y")
        ns = round((t - int(t)) * 1e9)
        if ns >= 1_000_000_000:
            ns = 999_999_999
        return dt.strftime("%Y-%m-%d %H:%M:%S") + f".{ns:09d} " + dt.strftime("%z")

    # -- directories ------------------------------------------------------------------
    def kind(self, name: str) -> str | None:
        if is_stdin(name):
            return "file"
        try:
            return self.ctx.fs.stat(self.ctx.path(name)).kind
        except FsError:
            return None

    def dirs(self, da: str, db: str, absent_a: bool = False, absent_b: bool = False) -> None:
        try:
            ea = set() if absent_a else set(self.ctx.fs.listdir(self.ctx.path(da)))
            eb = set() if absent_b else set(self.ctx.fs.listdir(self.ctx.path(db)))
        except FsError as e:
            self.trouble(f"{e.path}: {e.reason}")
            return
        for name in sorted(ea | eb, key=lambda s: s.encode("utf-8", "surrogateescape")):
            pa, pb = _join(da, name), _join(db, name)
            ka = self.kind(pa) if name in ea else None
            kb = self.kind(pb) if name in eb else None
            if ka is None or kb is None:
                present, where = (pa, da) if ka is not None else (pb, db)
                kind = ka or kb
                if self.args.new_file:
                    if kind == "directory":
                        if self.args.recursive:
                            self.dirs(pa, pb, ka is None, kb is None)
                        else:
                            self.out.append(f"Only in {where}: {name}\n".encode(
                                "utf-8", "surrogateescape"))
                    else:
                        self.files(pa, pb, ka is None, kb is None, header=True)
                    continue
                del present
                self.out.append(f"Only in {where}: {name}\n".encode("utf-8", "surrogateescape"))
                self.status = max(self.status, 1)
            elif ka == "directory" and kb == "directory":
                if self.args.recursive:
                    self.dirs(pa, pb)
                else:
                    self.out.append(f"Common subdirectories: {pa} and {pb}\n".encode(
                        "utf-8", "surrogateescape"))
            elif ka == "directory" or kb == "directory":
                self.out.append(
                    f"File {pa} is a {_kind_word(ka)} while file {pb} is a {_kind_word(kb)}\n"
                    .encode("utf-8", "surrogateescape"))
                self.status = max(self.status, 1)
            else:
                self.files(pa, pb, header=True)
            self.flush()


def _kind_word(kind: str | None) -> str:
    return {"directory": "directory", "file": "regular file"}.get(kind or "", "file")


def _join(d: str, name: str) -> str:
    return d + name if d.endswith("/") else d + "/" + name


def _lines(data: bytes) -> list[bytes]:
    if not data:
        return []
    parts = data.split(b"\n")
    last = parts.pop()
    lines = [p + b"\n" for p in parts]
    if last:
        lines.append(last)
    return lines


def _emit(prefix: bytes, line: bytes) -> bytes:
    return prefix + line if line.endswith(b"\n") else prefix + line + b"\n" + _NO_NL


def _range(start: int, count: int) -> str:
    return f"{start + 1}" if count == 1 else f"{start + 1},{start + count}"


def _normal(changes: list[Change], ignorable: list[bool], la: list[bytes],
            lb: list[bytes]) -> bytes:
    out: list[bytes] = []
    for (l0, l1, d, i), skip in zip(changes, ignorable, strict=True):
        if skip:
            continue
        if d and i:
            out.append(f"{_range(l0, d)}c{_range(l1, i)}\n".encode())
        elif d:
            out.append(f"{_range(l0, d)}d{l1}\n".encode())
        else:
            out.append(f"{l0}a{_range(l1, i)}\n".encode())
        out.extend(_emit(b"< ", x) for x in la[l0:l0 + d])
        if d and i:
            out.append(b"---\n")
        out.extend(_emit(b"> ", x) for x in lb[l1:l1 + i])
    return b"".join(out)


Hunk = tuple[int, int, int, int, list[Change]]  # a start, a end, b start, b end, changes


def _hunks(changes: list[Change], ignorable: list[bool], context: int, na: int,
           nb: int) -> list[Hunk]:
    """GNU's find_hunk: changes closer than 2*context+1 lines (context for an ignorable
    one) share a hunk; a hunk of only ignorable changes is dropped."""
    out: list[Hunk] = []
    k = 0
    while k < len(changes):
        group = [changes[k]]
        flags = [ignorable[k]]
        k += 1
        while k < len(changes):
            top0 = group[-1][0] + group[-1][2]
            thresh = context if ignorable[k] else 2 * context + 1
            if changes[k][0] - top0 < thresh:
                group.append(changes[k])
                flags.append(ignorable[k])
                k += 1
            else:
                break
        if all(flags):
            continue
        first, last = group[0], group[-1]
        a0 = max(0, first[0] - context)
        b0 = max(0, first[1] - context)
        a1 = min(na, last[0] + last[2] + context)
        b1 = min(nb, last[1] + last[3] + context)
        out.append((a0, a1, b0, b1, group))
    return out


def _uni_range(start: int, count: int) -> str:
    if count == 0:
        return f"{start},0"
    return f"{start + 1}" if count == 1 else f"{start + 1},{count}"


def _unified(h: Hunk, la: list[bytes], lb: list[bytes]) -> bytes:
    a0, a1, b0, b1, group = h
    out = [f"@@ -{_uni_range(a0, a1 - a0)} +{_uni_range(b0, b1 - b0)} @@\n".encode()]
    i = a0
    for l0, l1, d, n in group:
        out.extend(_emit(b" ", x) for x in la[i:l0])
        out.extend(_emit(b"-", x) for x in la[l0:l0 + d])
        out.extend(_emit(b"+", x) for x in lb[l1:l1 + n])
        i = l0 + d
    out.extend(_emit(b" ", x) for x in la[i:a1])
    return b"".join(out)


def _half(line: bytes, bound: int) -> tuple[bytes, int]:
    """GNU's print_half_line (tab stops of 8, the C locale): the part of `line` that
    fits in `bound` columns, and the column it ends at."""
    body = line[:-1] if line.endswith(b"\n") else line
    if len(body) <= bound and body.isascii() and all(32 <= c < 127 for c in body):
        return body, len(body)  # the common case: printable, short enough
    out = bytearray()
    inpos = outpos = 0
    for c in body:
        if c == 9:
            spaces = 8 - inpos % 8
            if inpos == outpos and outpos + spaces < bound:
                outpos += spaces
                out.append(c)
            inpos += spaces
        elif c == 13:
            out.append(c)
            inpos = outpos = 0
        elif c == 8:
            if inpos and inpos - 1 < outpos:
                inpos -= 1
                outpos = inpos
                out.append(c)
            elif inpos:
                inpos -= 1
        elif 32 <= c < 127:
            inpos += 1
            if inpos <= bound:
                outpos = inpos
                out.append(c)
        elif inpos < bound:  # other control and non-ASCII bytes take no column
            out.append(c)
    return bytes(out), outpos


def _tab_to(col: int, to: int) -> tuple[bytes, int]:
    """Tabs, then spaces, from column `col` to column `to` (GNU's tab_from_to)."""
    tabs = 0
    nxt = col + 8 - col % 8
    while nxt <= to:
        tabs += 1
        col = nxt
        nxt += 8
    return b"\t" * tabs + b" " * max(0, to - col), to


def _side_by_side(changes: list[Change], ignorable: list[bool], la: list[bytes],
                  lb: list[bytes], width: int, suppress: bool) -> bytes:
    """GNU's -y: each line of both files in two columns, `|` changed, `<` only in the
    first, `>` only in the second, a blank gutter for common lines."""
    off = (width + 8 + 3) // 16 * 8
    hw = max(0, min(off - 3, width - off))
    c2o = off if hw else width
    gutter = (hw + c2o - 1) // 2
    out: list[bytes] = []

    def row(left: bytes | None, sep: str, right: bytes | None) -> None:
        parts: list[bytes] = []
        col = 0
        newline = False
        if left is not None:
            newline = left.endswith(b"\n")
            text, col = _half(left, hw)
            parts.append(text)
        if sep != " ":
            pad, col = _tab_to(col, gutter)
            parts.append(pad)
            col += 1
            if sep == "|" and right is not None and newline != right.endswith(b"\n"):
                sep = "/" if newline else "\\"
            parts.append(sep.encode())
        if right is not None:
            newline = newline or right.endswith(b"\n")
            if right[:1] != b"\n":
                pad, col = _tab_to(col, c2o)
                parts.append(pad)
                parts.append(_half(right, hw)[0])
        if newline:
            parts.append(b"\n")
        out.append(b"".join(parts))

    i = j = 0
    for (l0, l1, d, n), skip in zip(changes, ignorable, strict=True):
        if skip:
            continue
        if not suppress:
            for x, y in zip(la[i:l0], lb[j:l1], strict=False):
                row(x, " ", y)
        for k in range(max(d, n)):
            if k < d and k < n:
                row(la[l0 + k], "|", lb[l1 + k])
            elif k < d:
                row(la[l0 + k], "<", None)
            else:
                row(None, ">", lb[l1 + k])
        i, j = l0 + d, l1 + n
    if not suppress:
        for x, y in zip(la[i:], lb[j:], strict=False):
            row(x, " ", y)
    return b"".join(out)


def _ctx_range(start: int, end: int) -> str:
    """GNU's context-format range: `A,B`, one number for one line, the line before for none."""
    return f"{end}" if end <= start + 1 else f"{start + 1},{end}"


def _context(h: Hunk, la: list[bytes], lb: list[bytes]) -> bytes:
    """One context-format hunk: the old lines (`-` deleted, `!` changed), then the new
    (`+` added, `!` changed); a side with no changes shows only its range."""
    a0, a1, b0, b1, group = h
    out = [f"***************\n*** {_ctx_range(a0, a1)} ****\n".encode()]
    if any(d for _l0, _l1, d, _n in group):
        i = a0
        for l0, _l1, d, n in group:
            out.extend(_emit(b"  ", x) for x in la[i:l0])
            out.extend(_emit(b"! " if n else b"- ", x) for x in la[l0:l0 + d])
            i = l0 + d
        out.extend(_emit(b"  ", x) for x in la[i:a1])
    out.append(f"--- {_ctx_range(b0, b1)} ----\n".encode())
    if any(n for _l0, _l1, _d, n in group):
        j = b0
        for _l0, l1, d, n in group:
            out.extend(_emit(b"  ", x) for x in lb[j:l1])
            out.extend(_emit(b"! " if d else b"+ ", x) for x in lb[l1:l1 + n])
            j = l1 + n
        out.extend(_emit(b"  ", x) for x in lb[j:b1])
    return b"".join(out)


def _text(line: bytes) -> str:
    return line.rstrip(b"\n").decode("utf-8", "surrogateescape")


def _hunk_json(h: Hunk, la: list[bytes], lb: list[bytes]) -> dict[str, object]:
    a0, a1, b0, b1, group = h
    lines: list[dict[str, str]] = []
    i = a0
    for l0, l1, d, n in group:
        lines += [{"tag": " ", "text": _text(x)} for x in la[i:l0]]
        lines += [{"tag": "-", "text": _text(x)} for x in la[l0:l0 + d]]
        lines += [{"tag": "+", "text": _text(x)} for x in lb[l1:l1 + n]]
        i = l0 + d
    lines += [{"tag": " ", "text": _text(x)} for x in la[i:a1]]
    return {"old_start": a0 + 1 if a1 > a0 else a0, "old_count": a1 - a0,
            "new_start": b0 + 1 if b1 > b0 else b0, "new_count": b1 - b0, "lines": lines}


def _switches(a: DiffArgs) -> str:
    """The option words GNU repeats in `diff -r a/x b/x` headers, in a fixed order."""
    words = [w for w, on in (
        ("-u", a.u), ("-N", a.new_file), ("-i", a.ignore_case), ("-w", a.ignore_all_space),
        ("-b", a.ignore_space_change), ("-B", a.ignore_blank_lines), ("-a", a.text),
        ("-r", a.recursive), ("-s", a.report_identical_files)) if on]
    if a.unified is not None:
        words.insert(0, f"-U {a.unified}")
    if a.c:
        words.insert(0, "-c")
    if a.side_by_side:
        words.insert(0, "-y")
    if a.context is not None:
        words.insert(0, f"-C {a.context}")
    return "".join(" " + w for w in words)


@tool(
    "diff", kind="read",
    args=DiffArgs,
    description=(
        "compare files line by line (GNU diff: normal or -u unified output, -r for "
        "directories); status 0 same, 1 different, 2 trouble; --json gives "
        '[{"old","new","hunks":[{"old_start","old_count","new_start","new_count",'
        '"lines":[{"tag":"-"|"+"|" ","text"}]}]}] per differing file pair'
    ),
    examples=[
        ("unified diff of two files", "diff -u old.txt new.txt"),
        ("compare two trees, absent files as empty", "diff -r -N -u a b"),
        ("just say whether they differ", "diff -q a.conf b.conf"),
    ],
)
def diff(args: DiffArgs, ctx: Context) -> ToolReturn:
    if len(args.paths) != 2:
        if len(args.paths) < 2:
            after = f" after '{args.paths[0]}'" if args.paths else ""
            ctx.error(f"missing operand{after}")
        else:
            ctx.error(f"extra operand '{args.paths[2]}'")
        ctx.error("Try 'diff --help' for more information.")
        return 2
    for width in (args.unified, args.context):
        if width is not None and width < 0:
            ctx.error(f"invalid context length '{width}'")
            return 2
    unified = args.u or args.unified is not None
    contextual = args.c or args.context is not None
    if sum((unified, contextual, args.normal, args.side_by_side)) > 1:
        ctx.error("conflicting output style options")
        ctx.error("Try 'diff --help' for more information.")
        return 2
    if unified:
        context: int | None = args.unified if args.unified is not None else 3
    elif contextual:
        context = args.context if args.context is not None else 3
    else:
        context = None
    style = ("unified" if unified else "context" if contextual
             else "side" if args.side_by_side else "normal")
    run = _Run(args, ctx, context, _switches(args), style=style)
    na, nb = args.paths
    ka, kb = run.kind(na), run.kind(nb)
    if na == nb == "-":  # GNU: standard input against itself is the same file
        if args.report_identical_files:
            ctx.write("Files - and - are identical\n")
        return Outcome(code=0, output=OutputData.text("", rich_json=[]) if ctx.json
                       else OutputData.value(list))
    if ka is None and not (args.new_file and kb is not None):
        run.trouble(f"{na}: No such file or directory")
    elif kb is None and not (args.new_file and ka is not None):
        run.trouble(f"{nb}: No such file or directory")
    elif ka == "directory" and kb == "directory":
        run.dirs(na, nb)
    elif ka == "directory" and kb is not None:
        run.files(_join(na, _base(nb)), nb)
    elif kb == "directory" and ka is not None:
        run.files(na, _join(nb, _base(na)))
    else:
        run.files(na, nb, ka is None, kb is None)
    run.flush()
    data = run.data
    if ctx.json:
        return Outcome(code=run.status, output=OutputData.text("", rich_json=data))
    if sum(len(d["hunks"]) for d in data) > VALUE_ITEMS:  # type: ignore[misc, arg-type]
        return run.status  # too many hunks for a value: none is kept
    return Outcome(code=run.status, output=OutputData.value(lambda: data))


def _base(name: str) -> str:
    return name.rstrip("/").rsplit("/", 1)[-1] or name


TOOLS = [diff]
