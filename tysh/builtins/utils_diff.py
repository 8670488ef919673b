"""diff (GNU diffutils 3.8): normal and unified output, -q/-s, -r over directories, -N,
the -i/-w/-b/-B comparisons, `-` for stdin; status 0 same, 1 different, 2 trouble.

The matching itself is utils_diffseq (GNU's algorithm, so hunks are GNU's); this module
reads the inputs, walks directories and renders. Time stamps in headers are the file's
mtime in the session's TZ, to the precision FileStat carries (a float, so the last
digits of the nanoseconds may differ from GNU's)."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

import attrs

from tysh.builtins.files_common import local_time
from tysh.builtins.utils_diffseq import Change, diff_changes
from tysh.kernel.context import Context
from tysh.kernel.fs import FsError
from tysh.kernel.output import OutputData
from tysh.kernel.record import MutableRecord, Record
from tysh.kernel.tooldef import Outcome, ToolReturn, tool
from tysh.kernel.typed_args import param

_NO_NL = b"\\ No newline at end of file\n"
_SPACE_RUN = re.compile(rb"[ \t\v\f\r]+")


@attrs.frozen(repr=False, eq=False)
class DiffArgs(Record):
    paths: tuple[str, ...] = param(positional=True, default=(),
                                   help="FILE1 FILE2 (files or directories; - is stdin)")
    u: bool = param(default=False, aliases=["-u"],
                    help="unified format with 3 lines of context")
    unified: int | None = param(default=None, aliases=["-U"],
                                help="unified format with NUM lines of context (-U NUM)")
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


@attrs.define(repr=False, eq=False)
class _Run(MutableRecord):
    args: DiffArgs
    ctx: Context
    context: int | None  # unified context width; None: normal format
    switches: str
    out: list[bytes] = attrs.field(factory=list)
    data: list[dict[str, object]] = attrs.field(factory=list)
    status: int = 0

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
        if name == "-":
            return self.ctx.stdin.read(), time.time()
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
        if self.context is None:
            self.out.append(_normal(changes, ignorable, la, lb))
        else:
            self.out.append(f"--- {na}\t{self.stamp(ta)}\n+++ {nb}\t{self.stamp(tb)}\n"
                            .encode(*enc))
            self.out.append(b"".join(_unified(h, la, lb) for h in hunks))

    def stamp(self, t: float) -> str:
        dt = local_time(self.ctx, t)
        ns = round((t - int(t)) * 1e9)
        if ns >= 1_000_000_000:
            ns = 999_999_999
        return dt.strftime("%Y-%m-%d %H:%M:%S") + f".{ns:09d} " + dt.strftime("%z")

    # -- directories ------------------------------------------------------------------
    def kind(self, name: str) -> str | None:
        if name == "-":
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
    return "".join(" " + w for w in words)


@tool(
    "diff",
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
    if args.unified is not None and args.unified < 0:
        ctx.error(f"invalid context length '{args.unified}'")
        return 2
    context = args.unified if args.unified is not None else (3 if args.u else None)
    run = _Run(args, ctx, context, _switches(args))
    na, nb = args.paths
    ka, kb = run.kind(na), run.kind(nb)
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
    if ctx.json:
        return Outcome(code=run.status, output=OutputData.text("", rich_json=run.data))
    return run.status


def _base(name: str) -> str:
    return name.rstrip("/").rsplit("/", 1)[-1] or name


TOOLS = [diff]
