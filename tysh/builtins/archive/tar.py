"""tar (GNU tar 1.34): create, list and extract tar archives, optionally gzipped.

Archives are read and written with Python's tarfile in stream mode (`w|`, `r|*`), so
they never need a seekable file and gzip is recognised on extraction without -z; every
file is reached through `ctx.fs`. Written archives use the GNU format, as GNU tar does.

The first operand may be an old-style bundle (`tar czf a.tgz dir`): when no mode option
was given and it is made of tar's letters, its letters are options and those taking a
value (f, C) take the next operands in order. The binder keeps option values out of the
operands, so typed binding (with --help and --json) serves this; no raw_argv is needed.

Extraction is guarded as GNU guards it: leading `/` is stripped with GNU's notice,
members whose names hold `..` are refused, an existing file is unlinked before it is
replaced (never written through a symlink) and symlinks are made after every other
member, so no member can be written through a link the archive itself planted."""

from __future__ import annotations

import posixpath
import time

from tysh.builtins._common.lines import VALUE_ITEMS
from tysh.builtins._common.operands import CHUNK
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import MutableRecord, Record, field, mutable, replace, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO, Any

if TYPE_CHECKING:
    import tarfile

_OLD_STYLE = LazyRegex(r"[cxtfzvCOkp]+")
_VALUE_LETTERS = {"f": "file", "C": "directory"}
_FLAG_LETTERS = {"c": "create", "x": "extract", "t": "list", "z": "gzip", "v": "verbose",
                 "O": "to_stdout", "k": "keep_old_files", "p": "preserve_permissions"}
_FAILED = "Exiting with failure status due to previous errors"
_FATAL = "Error is not recoverable: exiting now"


@value_record
class TarArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(),
                                   help="files to archive, or members to list or extract")
    create: bool = param(default=False, aliases=["-c"], help="create a new archive")
    extract: bool = param(default=False, aliases=["-x", "--get"],
                          help="extract files from an archive")
    list: bool = param(default=False, aliases=["-t"], help="list the contents of an archive")
    file: str | None = param(default=None, aliases=["-f"],
                             help="use archive file ARCHIVE (- is stdin/stdout, the default)")
    gzip: bool = param(default=False, aliases=["-z", "--gunzip", "--ungzip"],
                       help="filter the archive through gzip (detected on extraction)")
    verbose: bool = param(default=False, aliases=["-v"], help="list the files processed")
    directory: str | None = param(default=None, aliases=["-C"],
                                  help="change to directory DIR first")
    to_stdout: bool = param(default=False, aliases=["-O"], help="extract files to standard output")
    exclude: tuple[str, ...] = param(default=(), glob_passthrough=True,
                                    help="exclude files matching PATTERN")
    keep_old_files: bool = param(default=False, aliases=["-k"],
                                 help="don't replace existing files when extracting")
    strip_components: int = param(default=0,
                                  help="strip NUMBER leading components from names on extraction",
                                  min=0, range_error="{value}: Invalid number of elements")
    preserve_permissions: bool = param(default=False, aliases=["-p", "--same-permissions"],
                                       help="extract permissions exactly (no umask)")


@mutable
class _Run(MutableRecord):
    ctx: Context
    args: TarArgs
    failed: bool = False
    warned: set[str] = field(factory=set)
    names: list[str] = field(factory=list)  # what --json reports
    listed: list[Any] = field(factory=list)  # the TarInfo of each member -t listed

    def say(self, message: str) -> None:
        self.ctx.stderr.write(f"tar: {message}\n".encode("utf-8", "surrogateescape"))

    def fail(self, message: str) -> None:
        self.say(message)
        self.failed = True

    def once(self, message: str) -> None:
        if message not in self.warned:
            self.warned.add(message)
            self.say(message)


def _old_style(args: TarArgs) -> TarArgs:
    """Apply a leading old-style bundle (`czf a.tgz`) to the args."""
    if args.create or args.extract or args.list or not args.files:
        return args
    first = args.files[0]
    if not _OLD_STYLE.fullmatch(first) or not any(c in first for c in "cxt"):
        return args
    rest = list(args.files[1:])
    changes: dict[str, Any] = {}
    for c in first:
        if c in _VALUE_LETTERS:
            if rest:
                changes[_VALUE_LETTERS[c]] = rest.pop(0)
        else:
            changes[_FLAG_LETTERS[c]] = True
    changes["files"] = tuple(rest)
    return replace(args, **changes)


def _usage(ctx: Context, message: str) -> int:
    ctx.stderr.write(f"tar: {message}\nTry 'tar --help' or 'tar --usage' for more "
                     "information.\n".encode())
    return 2


@tool(
    "tar", kind="write",
    args=TarArgs,
    operations=["fs.create", "fs.overwrite"],
    description="create, list or extract tar archives, gzipped with -z (GNU tar); --json "
                '-t gives [{"path","name","type","size","mode","mtime"}], -c/-x one '
                '{"path"} per member',
    examples=[
        ("archive a directory, gzipped", "tar czf project.tgz project"),
        ("list an archive in detail", "tar tvf project.tgz"),
        ("extract into another directory", "tar xf project.tgz -C /tmp/out"),
        ("extract one file to stdout", "tar xOf project.tgz project/README"),
    ],
)
def tar(args: TarArgs, ctx: Context) -> ToolReturn:
    args = _old_style(args)
    modes = sum((args.create, args.extract, args.list))
    if modes == 0:
        return _usage(ctx, "You must specify one of the '-Acdtrux', '--delete' or "
                           "'--test-label' options")
    if modes > 1:
        return _usage(ctx, "You may not specify more than one '-Acdtrux', '--delete' or  "
                           "'--test-label' option")
    if args.strip_components < 0:
        return _usage(ctx, f"Invalid number of elements: '{args.strip_components}'")
    run = _Run(ctx, args)
    code = _create(run) if args.create else _read(run)
    if code == 0 and run.failed:
        run.say(_FAILED)
        code = 2
    if ctx.json:
        return Outcome(code=code, output=OutputData.text("", rich_json=_value(run)))
    if len(run.names) > VALUE_ITEMS:
        return code  # too many members for a value: none is kept
    return Outcome(code=code, output=OutputData.value(lambda: _value(run)))


def _value(run: _Run) -> list[dict[str, Any]]:
    """-t: the listing's file records; -c/-x: one {"path"} per member written, the name
    as -v shows it."""
    if run.args.list:
        return _listing(run)
    return [{"path": name} for name in run.names]


# ------------------------------------------------------------------ names and patterns

def _excluded(name: str, patterns: tuple[str, ...]) -> bool:
    """GNU's default --exclude matching (unanchored, leading-dir): the pattern against any
    run of whole components of the name (`*` matches `/` too)."""
    if not patterns:
        return False
    from fnmatch import fnmatchcase

    parts = name.strip("/").split("/")
    runs = ["/".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1)]
    return any(fnmatchcase(r, p.rstrip("/")) for p in patterns for r in runs)


def _safe_name(run: _Run, name: str) -> str | None:
    """The member name to extract under the target: leading `/` stripped (with GNU's
    notice), None for a name holding `..`."""
    parts = name.split("/")
    if ".." in parts:
        if parts[0] == "..":
            run.once("Removing leading `../' from member names")
        run.fail(f"{name}: Member name contains '..'")
        return None
    if name.startswith("/"):
        run.once("Removing leading `/' from member names")
        name = name.lstrip("/")
    return name


def _strip(name: str, n: int) -> str:
    if not n:
        return name
    parts = [p for p in name.split("/") if p]
    return "/".join(parts[n:])


# ------------------------------------------------------------------ create

def _open_out(run: _Run) -> IO[bytes] | None:
    ctx, name = run.ctx, run.args.file
    if name is None or name == "-":
        if ctx.isatty:
            run.say("Refusing to write archive contents to terminal (missing -f option?)")
            run.say(_FATAL)
            return None
        return ctx.stdout
    try:
        return ctx.fs.open(ctx.path(name), "wb")
    except FsError as e:
        run.say(f"{name}: Cannot open: {e.reason}")
        run.say(_FATAL)
        return None


def _create(run: _Run) -> int:
    import tarfile

    from tysh.builtins.archive.gzip import GzipWriter

    args, ctx = run.args, run.ctx
    if not args.files:
        return _usage(ctx, "Cowardly refusing to create an empty archive")
    base = ctx.path(args.directory) if args.directory else ctx.cwd
    if args.directory and not ctx.fs.is_dir(base):
        run.say(f"{args.directory}: Cannot open: No such file or directory")
        run.say(_FATAL)
        return 2
    out = _open_out(run)
    if out is None:
        return 2
    to_stdout = out is ctx.stdout
    archive_path = None if to_stdout or args.file is None else \
        posixpath.normpath(ctx.path(args.file))
    sink: Any = GzipWriter(out) if args.gzip else out
    listing = ctx.stderr if to_stdout else ctx.stdout
    try:
        with tarfile.open(fileobj=sink, mode="w|", format=tarfile.GNU_FORMAT) as tf:
            for operand in args.files:
                name = operand if operand == "/" else operand.rstrip("/") or operand
                if name.startswith("/"):
                    run.once("Removing leading `/' from member names")
                path = ctx.path(operand) if operand.startswith("/") else \
                    base.rstrip("/") + "/" + operand
                _add(run, tf, name.lstrip("/") or "/", operand, path, archive_path, listing)
        if args.gzip:
            sink.close()
    finally:
        if not to_stdout:
            out.close()
    return 0


def _owner(uid: int, gid: int) -> tuple[str, str]:
    """The user and group names tar records (empty when unknown, as GNU leaves them)."""
    user = group = ""
    try:
        import pwd

        user = pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        pass
    try:
        import grp

        group = grp.getgrgid(gid).gr_name
    except (ImportError, KeyError):
        pass
    return user, group


def _add(run: _Run, tf: tarfile.TarFile, name: str, shown: str, path: str,
         archive_path: str | None, listing: IO[bytes]) -> None:
    import tarfile

    ctx, args = run.ctx, run.args
    if _excluded(name, args.exclude):
        return
    try:
        st = ctx.fs.stat(path, follow=False)
    except FsError as e:
        run.fail(f"{shown}: Cannot stat: {e.reason}")
        return
    if archive_path is not None and posixpath.normpath(path) == archive_path:
        run.say(f"{shown}: file is the archive; not dumped")
        return
    info = tarfile.TarInfo(name)
    info.mode = st.mode & 0o7777
    info.mtime = int(st.mtime)
    info.uid, info.gid = st.uid, st.gid
    info.uname, info.gname = _owner(st.uid, st.gid)
    if st.kind == "directory":
        info.type = tarfile.DIRTYPE
        _verbose(run, listing, name.rstrip("/") + "/")
        tf.addfile(info)
        try:
            children = sorted(ctx.fs.listdir(path))
        except FsError as e:
            run.fail(f"{shown}: Cannot open: {e.reason}")
            return
        prefix = "" if name == "/" else name.rstrip("/") + "/"
        for child in children:
            _add(run, tf, prefix + child, shown.rstrip("/") + "/" + child,
                 path.rstrip("/") + "/" + child, archive_path, listing)
        return
    if st.kind == "symlink":
        info.type = tarfile.SYMTYPE
        try:
            info.linkname = ctx.fs.readlink(path)
        except (FsError, NotImplementedError) as e:
            run.fail(f"{shown}: Cannot readlink: {getattr(e, 'reason', 'Operation not supported')}")
            return
        _verbose(run, listing, name)
        tf.addfile(info)
        return
    if st.kind != "file":
        run.say(f"{shown}: socket ignored" if st.kind == "socket" else
                f"{shown}: file type not supported; ignored")
        return
    try:
        src = ctx.fs.open(path, "rb")
    except FsError as e:
        run.fail(f"{shown}: Cannot open: {e.reason}")
        return
    with src:
        info.size = st.size
        _verbose(run, listing, name)
        try:
            tf.addfile(info, src)
        except OSError:
            run.fail(f"{shown}: File shrank while tar was reading it")


def _verbose(run: _Run, listing: IO[bytes], name: str) -> None:
    run.names.append(name)
    if run.args.verbose and not run.ctx.json:
        listing.write(name.encode("utf-8", "surrogateescape") + b"\n")


# ------------------------------------------------------------------ list and extract

def _members(run: _Run, tf: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    """The members to act on: operands select (a member or what is under it), --exclude
    drops; unmatched operands are reported afterwards."""
    wanted = {w.rstrip("/") or w: False for w in run.args.files}
    for m in tf:
        name = m.name
        if _excluded(name, run.args.exclude):
            continue
        if wanted:
            hit = False
            for w in wanted:
                if name == w or name.startswith(w + "/"):
                    wanted[w] = True
                    hit = True
            if not hit:
                continue
        yield m
    for w, seen in wanted.items():
        if not seen:
            run.fail(f"{w}: Not found in archive")


def _display(m: tarfile.TarInfo) -> str:
    return m.name + "/" if m.isdir() and not m.name.endswith("/") else m.name


def _read(run: _Run) -> int:
    import tarfile
    import zlib

    ctx, args = run.ctx, run.args
    name = args.file
    if name is None or name == "-":
        src: IO[bytes] = ctx.stdin
    else:
        try:
            src = ctx.fs.open(ctx.path(name), "rb")
        except FsError as e:
            run.say(f"{name}: Cannot open: {e.reason}")
            run.say(_FATAL)
            return 2
    target = ctx.path(args.directory) if args.directory else ctx.cwd
    if args.extract and not args.to_stdout and args.directory and not ctx.fs.is_dir(target):
        run.say(f"{args.directory}: Cannot open: No such file or directory")
        run.say(_FATAL)
        return 2
    ex = _Extractor(run, target)
    try:
        try:
            tf = tarfile.open(fileobj=src, mode="r|*")
        except tarfile.ReadError:
            run.say("This does not look like a tar archive")
            run.fail(_FAILED)
            run.failed = False
            return 2
        with tf:
            for m in _members(run, tf):
                if args.list:
                    run.names.append(_display(m))
                    run.listed.append(m)
                    if not ctx.json:
                        ctx.stdout.write(_list_line(m, args.verbose))
                else:
                    ex.member(tf, m)
        ex.finish()
    except (tarfile.ReadError, EOFError, zlib.error, OSError) as e:
        if isinstance(e, FsError):
            raise
        run.say("Unexpected EOF in archive")
        run.say(_FATAL)
        return 2
    finally:
        if src is not ctx.stdin:
            src.close()
    return 0


def _list_line(m: tarfile.TarInfo, verbose: bool) -> bytes:
    name = _display(m)
    if not verbose:
        return name.encode("utf-8", "surrogateescape") + b"\n"
    import stat as stat_mod

    kind = {b"5": stat_mod.S_IFDIR, b"2": stat_mod.S_IFLNK, b"3": stat_mod.S_IFCHR,
            b"4": stat_mod.S_IFBLK, b"6": stat_mod.S_IFIFO}.get(m.type, stat_mod.S_IFREG)
    modes = stat_mod.filemode(kind | m.mode)
    if m.islnk():
        modes = "h" + modes[1:]
    user = m.uname or str(m.uid)
    group = m.gname or str(m.gid)
    size = str(m.size)
    pad = len(user) + 1 + len(group) + 1 + len(size)
    width = max(19, pad)
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(m.mtime))
    line = f"{modes} {user}/{group} {size:>{width - pad + len(size)}} {stamp} {name}"
    if m.issym():
        line += f" -> {m.linkname}"
    elif m.islnk():
        line += f" link to {m.linkname}"
    return line.encode("utf-8", "surrogateescape") + b"\n"


# a member's type in the one file-record vocabulary (a hard link is a file, with a target)
_KINDS = {b"0": "file", b"\0": "file", b"7": "file", b"1": "file", b"5": "directory",
          b"2": "symlink", b"3": "char", b"4": "block", b"6": "fifo"}


def _listing(run: _Run) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for m in run.listed:
        stripped = m.name.rstrip("/")
        row: dict[str, Any] = {"path": m.name, "name": stripped.rsplit("/", 1)[-1] or "/",
                               "type": _KINDS.get(m.type, "unknown"),
                               "size": m.size, "mode": f"{m.mode:04o}", "mtime": m.mtime}
        if m.issym() or m.islnk():
            row["target"] = m.linkname
        rows.append(row)
    return rows


@mutable
class _Extractor(MutableRecord):
    """Writes members under `target`; directory times and symlinks wait for the end."""

    run: _Run
    target: str
    dir_times: list[tuple[str, int, int]] = field(factory=list)
    links: list[tuple[str, str, str]] = field(factory=list)

    def _dest(self, m: tarfile.TarInfo) -> tuple[str, str] | None:
        run = self.run
        if run.args.verbose and not run.ctx.json:
            out = run.ctx.stderr if run.args.to_stdout else run.ctx.stdout
            out.write(_display(m).encode("utf-8", "surrogateescape") + b"\n")
        safe = _safe_name(run, m.name)
        if safe is None:
            return None
        rel = _strip(safe, run.args.strip_components).rstrip("/")
        if not rel or rel == ".":
            return None
        run.names.append(_display(m))
        return rel, self.target.rstrip("/") + "/" + rel

    def member(self, tf: tarfile.TarFile, m: tarfile.TarInfo) -> None:
        run, fs = self.run, self.run.ctx.fs
        if run.args.to_stdout:
            if run.args.verbose and not run.ctx.json:
                run.ctx.stderr.write(_display(m).encode("utf-8", "surrogateescape") + b"\n")
            if m.isfile():
                run.names.append(m.name)
                f = tf.extractfile(m)
                if f is not None:
                    while chunk := f.read(CHUNK):
                        run.ctx.stdout.write(chunk)
            return
        got = self._dest(m)
        if got is None:
            return
        rel, dest = got
        mode = m.mode & (0o7777 if run.args.preserve_permissions
                         else 0o777 & ~run.ctx.shell.umask)
        try:
            if m.isdir():
                if not fs.is_dir(dest):
                    self._clear(rel, dest)
                    fs.mkdir(dest, parents=True)
                self.dir_times.append((dest, mode, int(m.mtime)))
                return
            parent = dest.rsplit("/", 1)[0]
            if parent and not fs.is_dir(parent):
                fs.mkdir(parent, parents=True)
            if m.issym():
                self.links.append((rel, dest, m.linkname))
                return
            if not self._clear(rel, dest):
                return
            if m.islnk():
                self._hardlink(m, rel, dest)
                return
            if not m.isfile():
                run.say(f"{rel}: Cannot create special file: Operation not permitted")
                return
            f = tf.extractfile(m)
            with fs.open(dest, "wb") as out:
                while f is not None and (chunk := f.read(CHUNK)):
                    out.write(chunk)
            self._stamp(dest, mode, int(m.mtime))
        except FsError as e:
            run.fail(f"{rel}: Cannot open: {e.reason}")

    def _clear(self, rel: str, dest: str) -> bool:
        """Unlink what is at dest before replacing it (so a symlink there is replaced, not
        followed); with -k an existing file is an error and is kept."""
        fs = self.run.ctx.fs
        try:
            st = fs.stat(dest, follow=False)
        except FsError:
            return True
        if self.run.args.keep_old_files:
            self.run.fail(f"{rel}: Cannot open: File exists")
            return False
        if st.kind == "directory":
            self.run.fail(f"{rel}: Cannot open: Is a directory")
            return False
        fs.remove(dest)
        return True

    def _hardlink(self, m: tarfile.TarInfo, rel: str, dest: str) -> None:
        run, fs = self.run, self.run.ctx.fs
        safe = _safe_name(run, m.linkname)
        if safe is None:
            return
        to = _strip(safe, run.args.strip_components)
        src = self.target.rstrip("/") + "/" + to
        try:
            fs.link(src, dest)
        except FsError:
            try:
                fs.copy_file(src, dest)
            except FsError as e:
                run.fail(f"{rel}: Cannot hard link to '{to}': {e.reason}")

    def _stamp(self, path: str, mode: int, mtime: int) -> None:
        fs = self.run.ctx.fs
        try:
            fs.chmod(path, mode)
            fs.touch(path, mtime)
        except (FsError, NotImplementedError):
            pass

    def finish(self) -> None:
        run, fs = self.run, self.run.ctx.fs
        for rel, dest, target in self.links:
            try:
                if not self._clear(rel, dest):
                    continue
                fs.symlink(target, dest)
            except (FsError, NotImplementedError) as e:
                reason = getattr(e, "reason", "Operation not supported")
                run.fail(f"{rel}: Cannot create symlink to '{target}': {reason}")
        for dest, mode, mtime in reversed(self.dir_times):
            self._stamp(dest, mode, mtime)


TOOLS = [tar]
