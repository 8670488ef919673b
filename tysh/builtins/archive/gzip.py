"""gzip, gunzip, zcat (GNU gzip 1.12): compress and decompress .gz files.

The header is written by hand, as GNU writes it (name and mtime unless -n, XFL 2/4 for
-9/-1, OS 3) around a raw zlib deflate stream, so `gzip -n -c` output matches GNU's byte
for byte wherever zlib's deflate agrees with gzip's (it does for typical input). Files
stream in chunks through `ctx.fs`; concatenated members decompress as one stream, and
trailing garbage after a member is ignored with GNU's warning."""

from __future__ import annotations

import struct
import time

from tysh.builtins._common.operands import CHUNK, is_stdin
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import (
    MutableRecord,
    Record,
    field,
    frozen,
    mutable,
    replace,
    value_record,
)
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO, Any

_LEVEL = LazyRegex(r"-[1-9][1-9cdfklnNqrtv]*")
_LETTERS = {"c": "stdout", "d": "decompress", "f": "force", "k": "keep", "l": "list",
            "n": "no_name", "N": "name", "q": "quiet", "r": "recursive", "t": "test",
            "v": "verbose"}
_MAGIC = b"\x1f\x8b"
_FTEXT, _FHCRC, _FEXTRA, _FNAME, _FCOMMENT = 1, 2, 4, 8, 16
# what gunzip strips, and what it puts back (GNU's known suffixes, .tgz -> .tar)
_SUFFIXES = (".gz", ".z", "-gz", "-z", "_z")
_TAR_SUFFIXES = {".tgz": ".tar", ".taz": ".tar"}
OK, ERROR, WARNING = 0, 1, 2


@value_record
class GzipArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(),
                                   help="files to (de)compress; none or - is stdin")
    stdout: bool = param(default=False, aliases=["-c", "--to-stdout"],
                         help="write on standard output, keep original files")
    decompress: bool = param(default=False, aliases=["-d", "--uncompress"], help="decompress")
    force: bool = param(default=False, aliases=["-f"],
                        help="overwrite output files, (de)compress to a terminal")
    keep: bool = param(default=False, aliases=["-k"], help="keep (don't delete) input files")
    list: bool = param(default=False, aliases=["-l"], help="list compressed file contents")
    no_name: bool = param(default=False, aliases=["-n"],
                          help="do not save or restore the original name and timestamp")
    name: bool = param(default=False, aliases=["-N"],
                       help="save or restore the original name and timestamp")
    quiet: bool = param(default=False, aliases=["-q"], help="suppress all warnings")
    recursive: bool = param(default=False, aliases=["-r"], help="operate recursively on directories")
    suffix: str = param(default=".gz", aliases=["-S"], help="use suffix SUF on compressed files")
    test: bool = param(default=False, aliases=["-t"], help="test compressed file integrity")
    verbose: bool = param(default=False, aliases=["-v"], help="verbose mode")
    fast: bool = param(default=False, help="compress faster (-1)")
    best: bool = param(default=False, help="compress better (-9)")


@mutable
class _Run(MutableRecord):
    """One invocation's settings and its accumulated exit status."""

    ctx: Context
    args: GzipArgs
    mode: str  # "compress" "decompress" "test" "list"
    to_stdout: bool
    level: int
    status: int = OK
    listed: list[dict[str, Any]] = field(factory=list)
    totals: list[int] = field(factory=lambda: [0, 0, 0])  # GNU keeps the last header size

    def fail(self, message: str) -> None:
        _say(self.ctx, message)
        self.status = ERROR

    def warn(self, message: str) -> None:
        if not self.args.quiet:
            _say(self.ctx, message)
        if self.status == OK:
            self.status = WARNING


def _say(ctx: Context, message: str) -> None:
    """gunzip and zcat are gzip under other names: GNU's messages all say `gzip:`."""
    ctx.stderr.write(f"gzip: {message}\n".encode("utf-8", "surrogateescape"))


# ------------------------------------------------------------------ the gzip format

def gzip_header(name: bytes | None, mtime: int, level: int) -> bytes:
    """GNU's member header: flags FNAME when a name is stored, XFL 2 for -9, 4 for -1, OS 3."""
    xfl = 2 if level == 9 else 4 if level == 1 else 0
    head = _MAGIC + bytes((8, _FNAME if name else 0)) + struct.pack("<I", mtime & 0xFFFFFFFF)
    head += bytes((xfl, 3))
    return head + name + b"\0" if name else head


def compress_stream(src: IO[bytes], dst: IO[bytes], name: bytes | None, mtime: int,
                    level: int) -> tuple[int, int]:
    """Deflate src into one gzip member on dst; (bytes in, bytes out)."""
    import zlib

    head = gzip_header(name, mtime, level)
    dst.write(head)
    comp = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS, 8)
    crc = 0
    size = 0
    out = len(head)
    while chunk := src.read(CHUNK):
        crc = zlib.crc32(chunk, crc)
        size += len(chunk)
        data = comp.compress(chunk)
        if data:
            dst.write(data)
            out += len(data)
    data = comp.flush() + struct.pack("<II", crc, size & 0xFFFFFFFF)
    dst.write(data)
    return size, out + len(data)


class GzipWriter:
    """A write-only stream that gzips what it is given onto `dst` (no name stored, the
    current time, as `tar -z` piping through gzip gives); close() writes the trailer."""

    def __init__(self, dst: IO[bytes], level: int = 6) -> None:
        import zlib

        self.dst = dst
        self.comp = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS, 8)
        self.crc = 0
        self.size = 0
        dst.write(gzip_header(None, int(time.time()), level))

    def write(self, data: bytes) -> int:
        import zlib

        self.crc = zlib.crc32(data, self.crc)
        self.size += len(data)
        out = self.comp.compress(data)
        if out:
            self.dst.write(out)
        return len(data)

    def close(self) -> None:
        self.dst.write(self.comp.flush() + struct.pack("<II", self.crc, self.size & 0xFFFFFFFF))


class NotGzip(Exception):
    """The input does not start with the gzip magic."""


class Corrupt(Exception):
    """A member is truncated or fails its check; the message is GNU's wording."""


@frozen
class Header(Record):
    name: bytes | None
    mtime: int
    length: int


def parse_header(buf: bytes) -> Header | None:
    """The header at the start of buf; None when buf is too short to hold all of it."""
    if len(buf) < 10:
        return None
    flags = buf[3]
    pos = 10
    if flags & _FEXTRA:
        if len(buf) < pos + 2:
            return None
        pos += 2 + struct.unpack_from("<H", buf, pos)[0]
    name: bytes | None = None
    for flag in (_FNAME, _FCOMMENT):
        if flags & flag:
            end = buf.find(b"\0", pos)
            if end < 0:
                return None
            if flag == _FNAME:
                name = buf[pos:end]
            pos = end + 1
    if flags & _FHCRC:
        pos += 2
    if len(buf) < pos:
        return None
    return Header(name, struct.unpack_from("<I", buf, 4)[0], pos)


def decompress_stream(src: Any, on_header: Any = None) -> Iterator[bytes]:
    """The decompressed bytes of every member of src. Raises NotGzip when src does not
    begin with a member, Corrupt when a member is damaged; trailing bytes that are not a
    member end the stream (the caller learns of them through `.garbage`)."""
    import zlib

    buf = b""
    members = 0
    eof = False
    while True:
        while len(buf) < 2 and not eof:
            chunk = src.read(CHUNK)
            eof = not chunk
            buf += chunk
        if not buf and not members:
            raise Corrupt("unexpected end of file")
        if not buf or (members and buf.strip(b"\0") == b"" and eof):
            return
        if buf[:2] != _MAGIC:
            if members:
                raise _Trailing()
            raise NotGzip()
        if len(buf) >= 3 and buf[2] != 8:
            raise Corrupt(f"unknown method {buf[2]} -- not supported")
        head = parse_header(buf)
        while head is None and not eof:
            chunk = src.read(CHUNK)
            eof = not chunk
            buf += chunk
            head = parse_header(buf)
        if head is None:
            raise Corrupt("unexpected end of file")
        if on_header is not None:
            on_header(head)
        buf = buf[head.length:]
        dec = zlib.decompressobj(-zlib.MAX_WBITS)
        crc = 0
        size = 0
        while True:
            if not buf:
                buf = src.read(CHUNK)
                if not buf:
                    raise Corrupt("unexpected end of file")
            try:
                data = dec.decompress(buf)
            except zlib.error:
                raise Corrupt("invalid compressed data--format violated") from None
            if data:
                crc = zlib.crc32(data, crc)
                size += len(data)
                yield data
            if dec.eof:
                buf = dec.unused_data
                break
            buf = b""
        while len(buf) < 8:
            chunk = src.read(CHUNK)
            if not chunk:
                raise Corrupt("unexpected end of file")
            buf += chunk
        want_crc, want_size = struct.unpack_from("<II", buf)
        if want_crc != crc:
            raise Corrupt("invalid compressed data--crc error")
        if want_size != size & 0xFFFFFFFF:
            raise Corrupt("invalid compressed data--length error")
        buf = buf[8:]
        members += 1
        eof = False


class _Trailing(Exception):
    """Bytes after the last member that are not another member."""


# ------------------------------------------------------------------ the tools

def _level_and_files(args: GzipArgs) -> tuple[GzipArgs, int, list[str]]:
    """-1..-9 and bundles starting with a digit (`-9c`) reach the tool as operands."""
    level = 1 if args.fast else 9 if args.best else 6
    files: list[str] = []
    flags: dict[str, Any] = {}
    for w in args.files:
        if _LEVEL.fullmatch(w):
            for c in w[1:]:
                if c.isdigit():
                    level = int(c)
                else:
                    flags[_LETTERS[c]] = True
        else:
            files.append(w)
    return (replace(args, **flags) if flags else args), level, files


def _mode(args: GzipArgs, decompress: bool) -> str:
    if args.list:
        return "list"
    if args.test:
        return "test"
    return "decompress" if decompress or args.decompress else "compress"


def _main(args: GzipArgs, ctx: Context, decompress: bool = False,
          to_stdout: bool = False) -> ToolReturn:
    args, level, files = _level_and_files(args)
    mode = _mode(args, decompress)
    run = _Run(ctx, args, mode, to_stdout or args.stdout or mode in ("test", "list"), level)
    if not files:
        files = ["-"]
    if mode == "compress" and run.to_stdout and ctx.isatty and not args.force:
        _say(ctx, "compressed data not written to a terminal. Use -f to force compression.")
        ctx.stderr.write(b"For help, type: gzip -h\n")
        return ERROR
    if not args.suffix:
        _say(ctx, "invalid suffix ''")
        return ERROR
    if mode == "list":
        ctx.stdout.write(b"         compressed        uncompressed  ratio uncompressed_name\n"
                         if not ctx.json else b"")
    for name in files:
        if is_stdin(name):
            _do_stdin(run)
        else:
            _do_path(run, name, ctx.path(name), top=True)
    if mode == "list" and len(files) > 1 and not ctx.json:
        _list_line(run, run.totals[0], run.totals[1], run.totals[2], "(totals)")
    if mode == "list":
        listed = run.listed
        return Outcome(code=run.status, output=OutputData.text("", rich_json=listed)
                       if ctx.json else OutputData.value(lambda: listed))
    return run.status


def _ratio(compressed: int, uncompressed: int, header: int) -> float:
    """GNU's ratio: the deflated bytes (header and trailer not counted) against the input."""
    if uncompressed == 0:
        return 0.0
    return (uncompressed - (compressed - header)) / uncompressed * 100


def _ratio_text(value: float) -> str:
    return f"{value:5.1f}%"


def _list_line(run: _Run, compressed: int, uncompressed: int, header: int, name: str) -> None:
    ratio = _ratio_text(_ratio(compressed, uncompressed, header))
    run.ctx.stdout.write(
        f"{compressed:19d} {uncompressed:19d} {ratio} {name}\n".encode(
            "utf-8", "surrogateescape"))


def _do_stdin(run: _Run) -> None:
    ctx = run.ctx
    if run.mode == "compress":
        mtime = 0 if run.args.no_name else int(time.time())
        compress_stream(ctx.stdin, ctx.stdout, None, mtime, run.level)
        return
    if ctx.stdin_is_terminal and not run.args.force:
        _say(ctx, "compressed data not read from a terminal. Use -f to force decompression.")
        ctx.stderr.write(b"For help, type: gzip -h\n")
        run.status = ERROR
        return
    _decompress_to(run, "stdin", ctx.stdin, ctx.stdout if run.mode == "decompress" else None)


@frozen
class _Sizes(Record):
    """What one decompression read and wrote, for -l and -v."""

    uncompressed: int
    compressed: int
    header: int  # the first member's header plus its 8-byte trailer


def _decompress_to(run: _Run, shown: str, src: Any, dst: IO[bytes] | None) -> _Sizes | None:
    """Decompress (or test, with no dst) one input; its sizes, None on failure."""
    size = 0
    counted = _Counting(src)
    heads: list[Header] = []
    try:
        for data in decompress_stream(counted, on_header=heads.append):
            size += len(data)
            if dst is not None:
                dst.write(data)
    except NotGzip:
        run.fail(f"{shown}: not in gzip format")
        return None
    except Corrupt as e:
        run.fail(f"{shown}: {e}")
        return None
    except _Trailing:
        run.warn(f"{shown}: decompression OK, trailing garbage ignored")
    sizes = _Sizes(size, counted.count, (heads[0].length if heads else 10) + 8)
    if run.mode == "list":
        name = shown if shown == "stdin" else (_strip_suffix(run, shown) or shown)
        run.listed.append({"compressed": counted.count, "uncompressed": size,
                           "ratio": round(_ratio(counted.count, size, sizes.header), 1),
                           "name": name})
        if not run.ctx.json:
            _list_line(run, counted.count, size, sizes.header, name)
        run.totals[0] += counted.count
        run.totals[1] += size
        run.totals[2] = sizes.header
    elif run.mode == "test" and run.args.verbose:
        run.ctx.stderr.write(f"{shown}:\t OK\n".encode("utf-8", "surrogateescape"))
    return sizes


class _Counting:
    """A read-only stream wrapper counting the bytes read (for -l's compressed size)."""

    def __init__(self, f: Any) -> None:
        self.f = f
        self.count = 0

    def read(self, n: int = -1) -> bytes:
        data: bytes = self.f.read(n)
        self.count += len(data)
        return data


def _strip_suffix(run: _Run, name: str) -> str | None:
    lower = name.lower()
    suf = run.args.suffix.lower()
    for s in (suf, *_SUFFIXES):
        if lower.endswith(s) and len(name) > len(s):
            return name[:-len(s)]
    for s, repl in _TAR_SUFFIXES.items():
        if lower.endswith(s) and len(name) > len(s):
            return name[:-len(s)] + repl
    return None


def _do_path(run: _Run, shown: str, path: str, top: bool) -> None:
    ctx = run.ctx
    try:
        st = ctx.fs.stat(path, follow=False)
    except FsError as e:
        if run.mode == "compress" or _strip_suffix(run, shown) is not None:
            run.fail(f"{shown}: {e.reason}")
            return
        # gunzip NAME also finds NAME.gz (GNU tries its suffixes)
        for suf in dict.fromkeys((run.args.suffix, *_SUFFIXES)):
            if ctx.fs.exists(path + suf):
                _do_path(run, shown + suf, path + suf, top)
                return
        run.fail(f"{shown}{run.args.suffix}: {e.reason}")
        return
    if st.kind == "directory":
        if not run.args.recursive:
            run.warn(f"{shown} is a directory -- ignored")
            return
        try:
            names = sorted(ctx.fs.listdir(path))
        except FsError as e:
            run.fail(f"{shown}: {e.reason}")
            return
        for n in names:
            _do_path(run, shown.rstrip("/") + "/" + n, path.rstrip("/") + "/" + n, top=False)
        return
    if st.kind == "symlink" and not run.args.force and not run.to_stdout:
        run.warn(f"{shown}: Too many levels of symbolic links")
        return
    if st.kind == "symlink":
        try:
            st = ctx.fs.stat(path)
        except FsError as e:
            run.fail(f"{shown}: {e.reason}")
            return
    if st.kind != "file":
        run.warn(f"{shown} is not a directory or a regular file - ignored")
        return
    if run.mode == "compress":
        _compress_file(run, shown, path, st.mtime, st.mode, top)
    else:
        _decompress_file(run, shown, path, st.mtime, st.mode, top)


def _compress_file(run: _Run, shown: str, path: str, mtime: float, mode: int,
                   top: bool) -> None:
    ctx = run.ctx
    suf = run.args.suffix
    if not run.to_stdout and _strip_suffix(run, shown) is not None and (
            shown.lower().endswith(suf.lower()) or top or not run.args.recursive):
        run.warn(f"{shown} already has {suf} suffix -- unchanged")
        return
    base = shown.rsplit("/", 1)[-1].encode("utf-8", "surrogateescape")
    stored = None if run.args.no_name else base
    stamp = 0 if run.args.no_name else int(mtime)
    try:
        src = ctx.fs.open(path, "rb")
    except FsError as e:
        run.fail(f"{shown}: {e.reason}")
        return
    with src:
        if run.to_stdout:
            size_in, size_out = compress_stream(src, ctx.stdout, stored, stamp, run.level)
            if run.args.verbose:
                ratio = _ratio_text(_ratio(size_out, size_in, _header_bytes(stored)))
                ctx.stderr.write(f"{shown}:\t{ratio}\n".encode("utf-8", "surrogateescape"))
            return
        out_path = path + suf
        out_shown = shown + suf
        if not _may_write(run, out_path, out_shown):
            return
        try:
            with ctx.fs.open(out_path, "wb") as dst:
                size_in, size_out = compress_stream(src, dst, stored, stamp, run.level)
        except FsError as e:
            run.fail(f"{out_shown}: {e.reason}")
            return
    _finish(run, path, out_path, mtime, mode)
    if run.args.verbose:
        ratio = _ratio_text(_ratio(size_out, size_in, _header_bytes(stored)))
        ctx.stderr.write(f"{shown}:\t{ratio} -- "
                         f"{'created' if run.args.keep else 'replaced with'} {out_shown}\n"
                         .encode("utf-8", "surrogateescape"))


def _header_bytes(stored: bytes | None) -> int:
    return 10 + (len(stored) + 1 if stored else 0) + 8


def _may_write(run: _Run, out_path: str, out_shown: str) -> bool:
    ctx = run.ctx
    if ctx.fs.exists(out_path) or ctx.fs.is_file(out_path):
        if not run.args.force:
            run.warn(f"{out_shown} already exists;\tnot overwritten")
            return False
        try:
            ctx.fs.remove(out_path)
        except FsError as e:
            run.fail(f"{out_shown}: {e.reason}")
            return False
    return True


def _finish(run: _Run, in_path: str, out_path: str, mtime: float, mode: int) -> None:
    """Give the output the input's mode and mtime, then remove the input (unless -k)."""
    fs = run.ctx.fs
    try:
        fs.chmod(out_path, mode & 0o7777)
    except (FsError, NotImplementedError):
        pass
    try:
        fs.touch(out_path, mtime)
    except (FsError, NotImplementedError):
        pass
    if not run.args.keep:
        try:
            fs.remove(in_path)
        except FsError as e:
            run.fail(f"{in_path}: {e.reason}")


def _decompress_file(run: _Run, shown: str, path: str, mtime: float, mode: int,
                     top: bool) -> None:
    ctx = run.ctx
    stripped = _strip_suffix(run, shown)
    if stripped is None and run.mode == "decompress" and not run.to_stdout:
        if top or not run.args.recursive:
            run.warn(f"{shown}: unknown suffix -- ignored")
        return
    try:
        src = ctx.fs.open(path, "rb")
    except FsError as e:
        run.fail(f"{shown}: {e.reason}")
        return
    with src:
        if run.to_stdout:
            out = ctx.stdout if run.mode == "decompress" else None
            _decompress_to(run, shown, src, out)
            return
        got: _Sizes | None
        assert stripped is not None
        probe = src.read(CHUNK)
        if probe[:2] != _MAGIC:
            run.fail(f"{shown}: not in gzip format")
            return
        first = parse_header(probe)
        restore = run.args.name and not run.args.no_name and first is not None
        out_shown = stripped
        if restore and first is not None and first.name:
            stored = first.name.decode("utf-8", "surrogateescape").rsplit("/", 1)[-1]
            out_shown = (shown.rsplit("/", 1)[0] + "/" + stored) if "/" in shown else stored
        if restore and first is not None and first.mtime:
            mtime = first.mtime
        out_path = ctx.path(out_shown)
        if not _may_write(run, out_path, out_shown):
            return
        try:
            with ctx.fs.open(out_path, "wb") as dst:
                got = _decompress_to(run, shown, _Prefixed(probe, src), dst)
        except FsError as e:
            run.fail(f"{out_shown}: {e.reason}")
            return
    if got is None:
        try:
            ctx.fs.remove(out_path)
        except FsError:
            pass
        return
    _finish(run, path, out_path, mtime, mode)
    if run.args.verbose:
        ratio = _ratio_text(_ratio(got.compressed, got.uncompressed, got.header))
        ctx.stderr.write(f"{shown}:\t{ratio} -- "
                         f"{'created' if run.args.keep else 'replaced with'} {out_shown}\n"
                         .encode("utf-8", "surrogateescape"))


class _Prefixed:
    """A stream that first returns bytes already read from it."""

    def __init__(self, head: bytes, f: IO[bytes]) -> None:
        self.head = head
        self.f = f

    def read(self, n: int = -1) -> bytes:
        if self.head:
            data, self.head = self.head, b""
            return data
        more: bytes = self.f.read(n)
        return more


_EXAMPLES_GZIP = [
    ("compress a file, replacing it with file.gz", "gzip notes.txt"),
    ("compress to stdout, keeping the file", "gzip -c notes.txt > notes.txt.gz"),
    ("decompress", "gzip -d notes.txt.gz"),
    ("list sizes and ratio", "gzip -l notes.txt.gz"),
]


@tool("gzip", kind="write", args=GzipArgs, operations=["fs.create", "fs.overwrite", "fs.remove"],
      description="compress or expand files in gzip format (GNU gzip); --json -l gives "
                  '[{"compressed","uncompressed","ratio","name"}]',
      examples=_EXAMPLES_GZIP)
def gzip(args: GzipArgs, ctx: Context) -> ToolReturn:
    return _main(args, ctx)


@tool("gunzip", kind="write", args=GzipArgs, operations=["fs.create", "fs.overwrite", "fs.remove"],
      description="decompress .gz files (gzip -d)",
      examples=[("decompress, replacing file.gz with file", "gunzip notes.txt.gz"),
                ("decompress to stdout", "gunzip -c notes.txt.gz | head")])
def gunzip(args: GzipArgs, ctx: Context) -> ToolReturn:
    return _main(args, ctx, decompress=True)


@tool("zcat", kind="read", args=GzipArgs, description="decompress .gz files to standard output (gzip -dc)",
      examples=[("show a compressed log", "zcat app.log.gz"),
                ("search a compressed file", "zcat app.log.gz | grep ERROR")])
def zcat(args: GzipArgs, ctx: Context) -> ToolReturn:
    return _main(args, ctx, decompress=True, to_stdout=True)


TOOLS = [gzip, gunzip, zcat]
