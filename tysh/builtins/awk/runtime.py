"""awk's run-time state: the current record and its fields, the special variables, the
input sources (main input, `getline < file`, `cmd | getline`), the output streams
(`print > file`, `>>`, `| cmd`) and the built-in functions the compiled program calls.

$0 is split into fields lazily, on the first field or NF access, so `{print}` and
`/re/` never split. Text is str throughout: input bytes are decoded with
surrogateescape and output encoded the same way, so any byte passes through unchanged.
Files go through `ctx.fs`; commands (`system`, pipes) run as shell script text in a
forked interpreter when the session offers one (a subshell, as `sh -c` would), else
word-split and run through `ctx.shell.run_argv`."""

from __future__ import annotations

import codecs
import io
import math
import time

from tysh.builtins.awk.format import sprintf as _sprintf
from tysh.builtins.awk.values import (
    NUM_START,
    NUMERIC_MATCH,
    UNINIT,
    Arr,
    StrNum,
    fmt_int,
    fmt_special,
    str2num,
    strnum,
)
from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import DOTALL, LazyRegex, compile_pattern
from tysh.kernel.fs.api import FsError
from tysh.kernel.text.regex import RegexError, compile_text
from tysh.kernel.tools.context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    import re
    from collections.abc import Callable, Iterator
    from typing import IO, Any

    from tysh.kernel.text import engine
else:
    engine = LazyModule(globals(), "engine", "tysh.kernel.text.engine")

CHUNK = 1 << 16


class AwkError(TyshError):
    """A fatal run-time error: the message follows gawk's (`division by zero`)."""

    status = 2


class AwkExit(Exception):  # noqa: N818 - control flow, not an error
    def __init__(self, code: int | None) -> None:
        self.code = code


class NextRecord(Exception):  # noqa: N818
    pass


def clean_rest(s: str) -> bool:
    """Whether str.split() splits s as awk's default FS would: ASCII, and no whitespace
    but blank, tab and newline (memchr scans beat a regex class over a whole chunk)."""
    return s.isascii() and "\r" not in s and "\x0b" not in s and "\x0c" not in s and \
        "\x1c" not in s and "\x1d" not in s and "\x1e" not in s and "\x1f" not in s


_BLANKS = LazyRegex(r"[ \t\n]+")


def split_default(line: str) -> list[str]:
    """Fields under FS=" ": runs of blanks/tabs/newlines separate, ends stripped."""
    if clean_rest(line):
        return line.split()
    s = line.strip(" \t\n")
    return _BLANKS.split(s) if s else []


_AWK_ESC = LazyRegex(r"\\([0-7]{1,3}|.)", DOTALL)
_ESC_CHARS = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b",
              "/": "/", '"': '"'}


def _regex_escapes(src: str) -> str:
    """awk's escapes in a regex (`\\/`, `\\"`, `\\ddd`, `\\n`…) → the literal character,
    escaped for the ERE when it is special; other `\\c` stay for the translator."""
    if "\\" not in src:
        return src

    def rep(m: re.Match[str]) -> str:
        b = m.group(1)
        if b[0] in "01234567":
            ch = chr(int(b, 8) & 0xFF)
        elif b in _ESC_CHARS:
            ch = _ESC_CHARS[b]
        else:
            return m.group()
        return "\\" + ch if ch in "\\^$.[]|()*+?{}" else ch

    return _AWK_ESC.sub(rep, src)


_re_cache: dict[str, re.Pattern[str]] = {}


def awk_regex(src: str) -> re.Pattern[str]:
    """An awk ERE (literal or dynamic) as a compiled Python regex; `.` matches newline
    and `^` `$` anchor the whole string, as in awk. Cached."""
    rx = _re_cache.get(src)
    if rx is None:
        try:
            rx = compile_text(_regex_escapes(src), True, False, "space")
        except RegexError as e:
            raise AwkError(f"fatal: invalid regexp /{src}/: {e.message}") from None
        if len(_re_cache) > 1000:
            _re_cache.clear()
        _re_cache[src] = rx
    return rx


_elem_cache: dict[str, str] = {}


def _element(p: str) -> str:
    """A split() element that may be numeric: as a StrNum when it looks numeric (the
    answer is kept for the next line's equal element)."""
    v = StrNum(p) if p[:1] in NUM_START and NUMERIC_MATCH(p) else p
    if len(_elem_cache) >= 4096:
        _elem_cache.clear()
    _elem_cache[p] = v
    return v


_templates: dict[str, str] = {}
_KEYS: list[str] = [str(k) for k in range(1, 65)]


def _repl_template(repl: str) -> str:
    """sub/gsub replacement text (`&` is the match, `\\&` a literal &, `\\\\` a
    backslash) as a Python `re` template, so the substitution runs in the C engine."""
    if "&" not in repl and "\\" not in repl:
        return repl
    out: list[str] = []
    i, n = 0, len(repl)
    while i < n:
        c = repl[i]
        if c == "\\" and i + 1 < n and repl[i + 1] in "&\\":
            out.append("&" if repl[i + 1] == "&" else "\\\\")
            i += 2
            continue
        out.append("\\g<0>" if c == "&" else "\\\\" if c == "\\" else c)
        i += 1
    return "".join(out)


_empty_ok: dict[re.Pattern[str], bool] = {}


def _can_match_empty(rx: re.Pattern[str]) -> bool:
    got = _empty_ok.get(rx)
    if got is None:
        try:
            from re import _parser  # type: ignore[attr-defined,unused-ignore]

            got = _parser.parse(rx.pattern, rx.flags).getwidth()[0] == 0
        except Exception:  # noqa: BLE001 - private API; assume the careful path
            got = True
        if len(_empty_ok) > 1000:
            _empty_ok.clear()
        _empty_ok[rx] = got
    return got


_META = frozenset("\\^$.[]|()*+?{}")


def make_sub(src: str, repl: str, glob: bool) -> Callable[[str], tuple[str, int]]:
    """sub/gsub with a constant regex and replacement, as one callable (text → (new text,
    count)) built once per run. A regex with no special character and a replacement
    without `&` or `\\` is plain text: str.replace finds the same leftmost non-overlapping
    matches without the regex engine."""
    t = _repl_template(repl)
    if src and t == repl and _META.isdisjoint(src):
        if glob:
            def lit_all(s: str) -> tuple[str, int]:
                n = s.count(src)
                return (s.replace(src, repl), n) if n else (s, 0)
            return lit_all

        def lit_one(s: str) -> tuple[str, int]:
            return (s.replace(src, repl, 1), 1) if src in s else (s, 0)
        return lit_one
    from functools import partial

    rx = awk_regex(src)
    if not glob:
        return partial(rx.subn, t, count=1)
    if _can_match_empty(rx):
        return partial(_gsub, rx, t)
    return partial(rx.subn, t)


class _Output:
    """A buffered output stream: stdout, a file, or a pipe to a command (run at close)."""

    def __init__(self, raw: IO[bytes] | None, threshold: int, cmd: str | None = None) -> None:
        self.raw = raw
        self.buf: list[str] = []
        self.threshold = threshold
        self.cmd = cmd
        self.pending: list[str] = []  # a pipe's whole input

    def write(self, s: str) -> None:
        buf = self.buf
        buf.append(s)
        if len(buf) >= self.threshold:
            self.flush()

    def flush(self) -> None:
        if self.buf:
            data = "".join(self.buf)
            self.buf.clear()
            if self.raw is None:
                self.pending.append(data)
            else:
                self.raw.write(data.encode("utf-8", "surrogateescape"))
        if self.raw is not None and hasattr(self.raw, "flush"):
            try:
                self.raw.flush()
            except ValueError:
                pass


class _Reader:
    """Records from one byte stream, split by the current RS."""

    def __init__(self, f: IO[bytes], rt: Runtime, main: bool = False) -> None:
        self.f = f
        self.rt = rt
        self.main = main
        self.read = getattr(f, "read1", None) or f.read
        self.dec = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self.rest = ""
        self.eof = False
        self.pending: list[str] = []
        self.pos = 0

    def _fill(self) -> str | None:
        if self.eof:
            return None
        data = self.read(CHUNK)
        if not data:
            self.eof = True
            text = self.dec.decode(b"", final=True)
        else:
            text = self.dec.decode(data)
        rt = self.rt
        if self.main and rt.default_fs:
            # str.split() is right for this text when it has no other whitespace
            clean = clean_rest(text)
            rt.splitter = str.split if clean and (self.rest == "" or clean_rest(self.rest)) \
                else split_default
        return text

    def batches(self) -> Iterator[list[str]]:
        while True:
            b = self.batch()
            if b is None:
                return
            yield b

    def batch(self) -> list[str] | None:
        """The next complete records (at least one), or None at the end."""
        if self.pending:
            out = self.pending[self.pos:] if self.pos else self.pending
            self.pending, self.pos = [], 0
            if out:
                return out
        rs = self.rt.RS
        while True:
            text = self._fill()
            if text is None:
                return None
            buf = self.rest + text if self.rest else text
            if self.eof:
                self.rest = ""
                recs = self._split_final(buf, rs)
                return recs if recs else None
            recs, self.rest = self._split(buf, rs)
            if recs:
                return recs

    def _split(self, buf: str, rs: str) -> tuple[list[str], str]:
        if rs == "\n" or len(rs) == 1:
            recs = buf.split(rs)
            rest = recs.pop()
            return recs, rest
        if rs == "":
            # paragraph mode: hold back the tail (it may continue) and trailing newlines
            seps = list(_PARA_SEP.finditer(buf))
            m = seps[-1] if seps else None
            if m is None:
                return [], buf
            head = buf[:m.start()].lstrip("\n")
            return ([r for r in _PARA_SEP.split(head)] if head else []), buf[m.start():]
        rx = self.rt.rs_regex
        found = list(rx.finditer(buf))
        if not found:
            return [], buf
        last = found[-1]
        head = buf[:last.start()]
        recs = rx.split(head) if rx.groups == 0 else [head]
        return recs, buf[last.end():]

    def _split_final(self, buf: str, rs: str) -> list[str]:
        if not buf:
            return []
        if rs == "":
            s = buf.strip("\n")
            return _PARA_SEP.split(s) if s else []
        if len(rs) == 1:
            recs = buf.split(rs)
            if recs[-1] == "":
                recs.pop()
            return recs
        recs = self.rt.rs_regex.split(buf)
        if recs and recs[-1] == "":
            recs.pop()
        return recs

    def one(self) -> str | None:
        """One record (for getline)."""
        if self.pos < len(self.pending):
            r = self.pending[self.pos]
            self.pos += 1
            return r
        b = self.batch()
        if b is None:
            return None
        self.pending, self.pos = b, 1
        return b[0]


_PARA_SEP = LazyRegex(r"\n\n+")
_ASSIGN_OPERAND = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class _FirstRandom:
    """A runtime's `rng`, made at its first use: the generator (and the `random` module,
    with the hashlib it loads) only for a program that calls rand() or srand(). It then
    stands in the instance's own attributes, so later reads are plain ones."""

    def __get__(self, rt: Runtime, owner: type | None = None) -> random.Random:
        import random

        rng = rt.__dict__["rng"] = random.Random(1)  # as if gawk's srand(1) had run
        return rng


class Runtime:
    """State of one awk run, reached from the compiled program as `R`."""

    rng = _FirstRandom()

    def __init__(self, ctx: Context, operands: list[str], assign: Callable[[str, str], None]) -> None:
        self.ctx = ctx
        self.line = ""
        self.fields: list[str] | None = []
        self.NR = 0.0
        self.FNR = 0.0
        self.FS = " "
        self.OFS = " "
        self.ORS = "\n"
        self.RS = "\n"
        self.rs_regex: re.Pattern[str] = compile_pattern("\n")
        self.SUBSEP = "\x1c"
        self.FILENAME: Any = UNINIT
        self.RSTART = 0.0
        self.RLENGTH = -1.0
        self.CONVFMT = "%.6g"
        self.OFMT = "%.6g"
        self.ARGC: Any = 0.0
        self.ARGV = Arr()
        self.ENVIRON = Arr()
        self.splitter: Callable[[str], list[str]] = split_default
        self.default_fs = True
        self.assign = assign
        self.operands = operands
        self.stdout = _Output(ctx.stdout, 1 if ctx.isatty else 512)
        self.outputs: dict[str, _Output] = {}
        self.inputs: dict[str, _Reader] = {}
        self.cmd_status: dict[str, int] = {}
        self.seed = 1.0
        self.gen: Iterator[str] | None = None
        self.skip_file = False
        self.exit_code = 0
        self.open_failed = False
        self.ticks = 0
        self.split_cache: dict[str, Callable[[str], list[str]]] = {}
        self.main_done = False

    def tick(self) -> None:
        """Called once per loop iteration: lets a cancel or deadline stop a loop."""
        self.ticks += 1
        if not self.ticks & 0x3FFF:
            self.ctx.shell.check_boundary()

    # -- conversions ---------------------------------------------------------------------
    def n2s(self, f: float) -> str:
        if f.is_integer():
            return fmt_int(f)
        return self._fmt(self.CONVFMT, f)

    def n2o(self, f: float) -> str:
        if f.is_integer():
            return fmt_int(f)
        return self._fmt(self.OFMT, f)

    def _fmt(self, fmt: str, f: float) -> str:
        if f - f != 0.0:
            return fmt_special(f)
        if fmt == "%.6g":
            return format(f, ".6g")
        try:
            return _sprintf(fmt, [f], self.tostr)
        except TyshError:
            return format(f, ".6g")

    def tostr(self, v: Any) -> str:
        if v.__class__ is float:
            return fmt_int(v) if v.is_integer() else self._fmt(self.CONVFMT, v)
        if isinstance(v, dict):
            raise AwkError("fatal: attempt to use array in a scalar context")
        return v  # type: ignore[no-any-return]

    def tostr_o(self, v: Any) -> str:
        if v.__class__ is float:
            return fmt_int(v) if v.is_integer() else self._fmt(self.OFMT, v)
        if isinstance(v, dict):
            raise AwkError("fatal: attempt to use array in a scalar context")
        return v  # type: ignore[no-any-return]

    def key(self, v: Any) -> str:
        """An array subscript."""
        if v.__class__ is float:
            return fmt_int(v) if v.is_integer() else self._fmt(self.CONVFMT, v)
        return str(v) if v.__class__ is StrNum else v

    # -- fields ----------------------------------------------------------------------------
    def split(self) -> list[str]:
        fl = self.fields = self.splitter(self.line)
        return fl

    def f(self, i: int) -> str:
        """Field i as a string (i >= 0)."""
        if i == 0:
            return self.line
        fl = self.fields
        if fl is None:
            fl = self.fields = self.splitter(self.line)
        return fl[i - 1] if i <= len(fl) else ""

    def fp(self, i: int) -> str:
        """Field i as a string (i >= 1, a constant in the program)."""
        fl = self.fields
        if fl is None:
            fl = self.fields = self.splitter(self.line)
        return fl[i - 1] if i <= len(fl) else ""

    def fidx(self, v: Any) -> int:
        x = v if v.__class__ is float else str2num(v)
        if x != x or x < 0:
            shown = fmt_int(float(int(x))) if x == x and x != -math.inf else x
            raise AwkError(f"fatal: attempt to access field {shown}")
        if x > 10_000_000:
            raise AwkError("fatal: field index too large")
        return int(x)

    def getnf(self) -> float:
        fl = self.fields
        if fl is None:
            fl = self.split()
        return float(len(fl))

    def set0(self, s: str) -> None:
        self.line = s
        self.fields = None

    def setf(self, i: int, v: Any) -> Any:
        s = self.tostr(v)
        if i == 0:
            self.line = s
            self.fields = None
            return v
        fl = self.fields
        if fl is None:
            fl = self.split()
        if i > len(fl):
            fl.extend([""] * (i - len(fl)))
        fl[i - 1] = s
        self.line = self.OFS.join(fl)
        return v

    def set_NF(self, v: Any) -> Any:
        n = int(v if v.__class__ is float else str2num(v))
        if n < 0:
            raise AwkError("fatal: NF set to negative value")
        fl = self.fields
        if fl is None:
            fl = self.split()
        if n < len(fl):
            del fl[n:]
        else:
            fl.extend([""] * (n - len(fl)))
        self.line = self.OFS.join(fl)
        return v

    # -- special variables -------------------------------------------------------------
    def set_FS(self, v: Any) -> Any:
        if self.fields is None:
            self.split()  # the current record keeps the old FS
        fs = self.tostr(v)
        self.FS = v
        self.splitter = self.make_splitter(fs)
        self.default_fs = self.splitter is split_default
        return v

    def make_splitter(self, fs: str, for_split: bool = False) -> Callable[[str], list[str]]:
        para = self.RS == "" and not for_split
        if fs == "":
            return list  # gawk: each character is a field
        if fs == " ":
            return split_default
        if len(fs) == 1:  # a single character other than space is literal, even `\`
            if para and fs != "\n":
                import re

                rx = re.compile(re.escape(fs) + "|\n")
                return lambda s: rx.split(s) if s else []
            if fs == "\t" or fs not in "^$.[]|()*+?{}":
                return lambda s: s.split(fs) if s else []
            fs = "\\" + fs
        rx = awk_regex(fs)
        if para:
            rx = engine.compile(f"(?:{rx.pattern})|\n", rx.flags)
        return lambda s: rx.split(s) if s else []

    def set_RS(self, v: Any) -> Any:
        rs = self.tostr(v)
        self.RS = rs
        if len(rs) > 1:
            self.rs_regex = awk_regex(rs)
        self.splitter = self.make_splitter(self.tostr(self.FS))
        self.default_fs = self.splitter is split_default
        return v

    def set_CONVFMT(self, v: Any) -> Any:
        self.CONVFMT = self.tostr(v)
        return v

    def set_OFMT(self, v: Any) -> Any:
        self.OFMT = self.tostr(v)
        return v

    def set_OFS(self, v: Any) -> Any:
        self.OFS = self.tostr(v)
        return v

    def set_ORS(self, v: Any) -> Any:
        self.ORS = self.tostr(v)
        return v

    def set_SUBSEP(self, v: Any) -> Any:
        self.SUBSEP = self.tostr(v)
        return v

    def set_NR(self, v: Any) -> Any:
        self.NR = v if v.__class__ is float else str2num(v)
        return v

    def set_FNR(self, v: Any) -> Any:
        self.FNR = v if v.__class__ is float else str2num(v)
        return v

    def set_FILENAME(self, v: Any) -> Any:
        self.FILENAME = v
        return v

    def set_RSTART(self, v: Any) -> Any:
        self.RSTART = v
        return v

    def set_RLENGTH(self, v: Any) -> Any:
        self.RLENGTH = v
        return v

    def set_ARGC(self, v: Any) -> Any:
        self.ARGC = v
        return v

    # -- main input --------------------------------------------------------------------
    def _open(self, name: str) -> IO[bytes] | None:
        ctx = self.ctx
        if name in ("-", "/dev/stdin", "/dev/fd/0"):
            return ctx.stdin
        try:
            path = ctx.path(name)
            if ctx.fs.is_dir(path):
                ctx.stderr.write(f"awk: warning: command line argument `{name}' is a directory: "
                                 "skipped\n".encode("utf-8", "surrogateescape"))
                return None
            return ctx.fs.open(path, "rb")
        except FsError as e:
            raise AwkError(f"fatal: cannot open file '{name}' for reading: {e.reason}") from None

    def records(self) -> Iterator[str]:
        """Every record of the main input, counting NR and FNR; operands are read in
        order of ARGV (which the program may change), `var=value` operands assign."""
        for rdr in self.sources():
            self.skip_file = False
            while True:
                recs = rdr.batch()
                if recs is None:
                    break
                for rec in recs:
                    self.NR += 1.0
                    self.FNR += 1.0
                    yield rec
                    if self.skip_file:
                        break
                if self.skip_file:
                    break

    def batches(self) -> Iterator[list[str]]:
        """The main input as lists of records, for a program without a plain `getline`
        or `nextfile`; the main loop counts NR and FNR itself."""
        for rdr in self.sources():
            while True:
                recs = rdr.batch()
                if recs is None:
                    break
                yield recs

    def sources(self) -> Iterator[_Reader]:
        i = 1
        used = False
        while True:
            argc = int(str2num(self.ARGC) if self.ARGC.__class__ is not float else self.ARGC)
            if i >= argc:
                if used:
                    return
                name = "-"
            else:
                a = self.ARGV.get(fmt_int(float(i)))
                i += 1
                if a is None:
                    continue
                name = self.tostr(a)
                if name == "":
                    continue
                eq = name.find("=")
                if eq > 0 and _ASSIGN_OPERAND.match(name[:eq]):
                    self.assign(name[:eq], name[eq + 1:])
                    continue
            used = True
            f = self._open(name)
            if f is None:
                continue
            self.FILENAME = "" if name == "-" and i > argc else name
            self.FNR = 0.0
            try:
                yield _Reader(f, self, main=True)
            finally:
                if f is not self.ctx.stdin:
                    f.close()
            if i > argc:
                return

    def getline_main(self) -> tuple[float, str]:
        if self.gen is None:
            if self.main_done:
                return 0.0, ""
            self.gen = self.records()
        try:
            rec = next(self.gen)
        except StopIteration:
            return 0.0, ""
        return 1.0, rec

    def getline_file(self, name: str) -> tuple[float, str]:
        rdr = self.inputs.get(name)
        if rdr is None:
            if name in self.outputs:
                self.outputs[name].flush()
            try:
                if name in ("-", "/dev/stdin", "/dev/fd/0"):
                    f = self.ctx.stdin
                else:
                    f = self.ctx.fs.open(self.ctx.path(name), "rb")
            except (FsError, OSError):
                return -1.0, ""
            rdr = _Reader(f, self)
            self.inputs[name] = rdr
        r = rdr.one()
        if r is None:
            return 0.0, ""
        return 1.0, r

    def getline_cmd(self, cmd: str) -> tuple[float, str]:
        key = "\0cmd:" + cmd
        rdr = self.inputs.get(key)
        if rdr is None:
            self.flush_all()
            out = io.BytesIO()
            status = self.run_command(cmd, io.BytesIO(b""), out)
            self.cmd_status[key] = status
            out.seek(0)
            rdr = _Reader(out, self)
            self.inputs[key] = rdr
        r = rdr.one()
        if r is None:
            return 0.0, ""
        return 1.0, r  # gawk and mawk leave NR alone here (POSIX would count it)

    # -- output ------------------------------------------------------------------------
    def out(self, kind: str, target: Any) -> _Output:
        name = self.tostr(target)
        o = self.outputs.get(name)
        if o is not None:
            return o
        ctx = self.ctx
        if kind == "|":
            # gawk and mawk flush before starting the command; what is printed while the
            # pipe is open stays buffered, so the command's output comes first
            # (`{print | "sort"} END {print "total"}` ends with the total)
            self.flush_all()
            o = _Output(None, 1 << 30, cmd=name)
        elif name in ("/dev/stdout", "-"):
            o = self.stdout
        elif name == "/dev/stderr":
            o = _Output(ctx.stderr, 1)
        else:
            try:
                f = ctx.fs.open(ctx.path(name), "ab" if kind == ">>" else "wb")
            except FsError as e:
                raise AwkError(f"fatal: can't redirect to `{name}' ({e.reason})") from None
            o = _Output(f, 512)
        self.outputs[name] = o
        return o

    def close(self, target: Any, how: Any = None) -> float:
        name = self.tostr(target)
        status = -1.0
        o = self.outputs.pop(name, None)
        if o is not None:
            status = self._close_out(o)
        rdr = self.inputs.pop(name, None)
        if rdr is not None:
            if rdr.f is not self.ctx.stdin:
                rdr.f.close()
            status = 0.0
        key = "\0cmd:" + name
        if self.inputs.pop(key, None) is not None:
            status = float(self.cmd_status.pop(key, 0))
        return status

    def _close_out(self, o: _Output, at_exit: bool = False) -> float:
        o.flush()
        if o.cmd is not None:
            if not at_exit:  # gawk's close() flushes stdout first; its exit closes pipes first
                self.stdout.flush()
            data = "".join(o.pending).encode("utf-8", "surrogateescape")
            return float(self.run_command(o.cmd, io.BytesIO(data), self.ctx.stdout))
        if o is not self.stdout and o.raw is not self.ctx.stderr and o.raw is not None:
            o.raw.close()
        return 0.0

    def flush_all(self) -> None:
        self.stdout.flush()
        for o in self.outputs.values():
            if o.cmd is None:
                o.flush()

    def gl_simple(self) -> float:
        st, rec = self.getline_main()
        if st > 0:
            self.set0(rec)
        return st

    def gl_file(self, name: str) -> float:
        st, rec = self.getline_file(name)
        if st > 0:
            self.set0(rec)
        return st

    def gl_cmd(self, cmd: str) -> float:
        st, rec = self.getline_cmd(cmd)
        if st > 0:
            self.set0(rec)
        return st

    def fflush(self, target: Any = None) -> float:
        if target is None:
            self.flush_all()
            return 0.0
        o = self.outputs.get(self.tostr(target))
        if o is None:
            return -1.0
        if o.cmd is None:
            o.flush()
        return 0.0

    def finish(self) -> None:
        for name in list(self.outputs):
            o = self.outputs.pop(name)
            self._close_out(o, at_exit=True)
        for rdr in self.inputs.values():
            if rdr.f is not self.ctx.stdin:
                rdr.f.close()
        self.inputs.clear()
        self.stdout.flush()

    # -- commands ----------------------------------------------------------------------
    def run_command(self, cmd: str, stdin: IO[bytes], stdout: IO[bytes]) -> int:
        from tysh.kernel.base.control import ControlFlow, ExitShell
        from tysh.kernel.base.limits import Cancelled

        try:
            return self.ctx.shell.fork().run_source(cmd + "\n", stdin, stdout, self.ctx.stderr)
        except Cancelled:
            raise
        except ExitShell as e:
            return int(e.status)
        except ControlFlow:
            return 0
        except TyshError as e:
            self.ctx.stderr.write(f"sh: {e.message}\n".encode("utf-8", "surrogateescape"))
            return 2

    def system(self, cmd: Any) -> float:
        self.flush_all()
        self.ctx.stderr.flush()
        return float(self.run_command(self.tostr(cmd), self.ctx.stdin, self.ctx.stdout))

    # -- built-in functions ------------------------------------------------------------
    def substr(self, s: str, m: float, n: float | None = None) -> str:
        """gawk's substr: start and length are truncated; a start below 1 is 1."""
        if m != m:
            return ""
        start = 1 if m < 1 else (len(s) + 1 if m > len(s) else int(m))
        if n is None:
            return s[start - 1:]
        if n != n or n < 1:
            return ""
        end = start + (int(n) if n < len(s) + 1 else len(s) + 1)
        return s[start - 1:end - 1]

    def asplit(self, s: str, arr: Arr, sep: Any = None, sep_re: re.Pattern[str] | None = None) -> float:
        if sep_re is not None:
            parts = sep_re.split(s) if s else []
        elif sep is None:
            parts = self.splitter(s) if self.RS != "" else self.make_splitter(
                self.tostr(self.FS), True)(s)
        else:
            sep_s = self.tostr(sep)
            sp = self.split_cache.get(sep_s)
            if sp is None:
                sp = self.split_cache[sep_s] = self.make_splitter(sep_s, True)
            parts = sp(s)
        arr.clear()
        n = len(parts)
        if n > len(_KEYS):
            _KEYS.extend(str(k) for k in range(len(_KEYS) + 1, n + 1))
        # a numeric string starts below ":" (blank, sign, dot, digit): most words are
        # ruled out by one comparison; candidates are looked up in a small cache
        got = _elem_cache.get
        arr.update(zip(_KEYS, [p if p >= ":" else got(p) or _element(p) for p in parts],
                       strict=False))
        return float(n)

    def sub(self, rx: re.Pattern[str], repl: Any, target: str, glob: bool) -> tuple[str, int]:
        rs = self.tostr(repl)
        t = _templates.get(rs)
        if t is None:
            t = _repl_template(rs)
            if len(_templates) > 256:
                _templates.clear()
            _templates[rs] = t
        if not glob:
            return rx.subn(t, target, 1)
        if _can_match_empty(rx):
            return _gsub(rx, t, target)
        return rx.subn(t, target)

    def match(self, s: str, rx: re.Pattern[str], arr: Arr | None = None) -> float:
        m = rx.search(s)
        if arr is not None:
            arr.clear()
        if m is None:
            self.RSTART, self.RLENGTH = 0.0, -1.0
            return 0.0
        self.RSTART = float(m.start() + 1)
        self.RLENGTH = float(m.end() - m.start())
        if arr is not None:
            for g in range(rx.groups + 1):
                if m.group(g) is not None:
                    arr[str(g)] = strnum(m.group(g))
        return self.RSTART

    def srand(self, *args: Any) -> float:
        prev = self.seed
        seed = str2num(self.tostr(args[0])) if args else float(int(time.time()))
        self.seed = seed
        self.rng.seed(seed)
        return prev

    def sprintf(self, fmt: Any, *args: Any) -> str:
        return _sprintf(self.tostr(fmt), args, self.tostr)


def _gsub(rx: re.Pattern[str], r: Any, s: str) -> tuple[str, int]:
    """Global substitution with awk's empty-match rule: an empty match right after a
    non-empty one is not a match (gsub(/x*/, "-", "abxd") gives "-a-b-d-")."""
    out: list[str] = []
    pos = 0
    n = 0
    last_end = -1
    plain = "\\" not in r
    for m in rx.finditer(s):
        st, en = m.span()
        if st == en and st == last_end:
            continue
        out.append(s[pos:st])
        out.append(r if plain else m.expand(r))
        pos = en
        last_end = en
        n += 1
    if not n:
        return s, 0
    out.append(s[pos:])
    return "".join(out), n
