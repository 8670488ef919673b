"""File-changing builtins: mkdir, rmdir, rm, cp, mv, touch, ln — GNU coreutils' behaviour
and messages, every access through ctx.fs."""

from __future__ import annotations

import posixpath

from tysh.builtins._common.fileinfo import q
from tysh.builtins.files.chmod import parse_mode
from tysh.builtins.files.timestamps import parse_date, parse_stamp
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.base.values import encode_text
from tysh.kernel.fs.api import FileStat, FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator


def _base(p: str) -> str:
    s = p.rstrip("/")
    return s.rsplit("/", 1)[-1] if s else "/"


def _ask(ctx: Context, question: str) -> bool:
    """-i: put the question on stderr and read the answer from stdin; yes starts with y."""
    ctx.stderr.write(question.encode("utf-8", "surrogateescape"))
    try:
        ctx.stderr.flush()
    except (AttributeError, ValueError):
        pass
    return ctx.stdin.readline()[:1] in (b"y", b"Y")


def _lstat(ctx: Context, path: str) -> FileStat | None:
    try:
        return ctx.fs.stat(path, follow=False)
    except FsError:
        return None


def _lstat_why(ctx: Context, path: str) -> tuple[FileStat | None, str]:
    """lstat and, when it fails, why (`file/` is `Not a directory`)."""
    try:
        return ctx.fs.stat(path, follow=False), ""
    except FsError as e:
        return None, e.reason


def _stat(ctx: Context, path: str) -> FileStat | None:
    try:
        return ctx.fs.stat(path, follow=True)
    except FsError:
        return None


def _inside(child: str, parent: str) -> bool:
    return child == parent or child.startswith(parent.rstrip("/") + "/")


# ---------------------------------------------------------------------------------------
# mkdir / rmdir


@value_record
class MkdirArgs(Record):
    dirs: tuple[str, ...] = param(default=(), positional=True, help="directories to create")
    parents: bool = param(default=False, aliases=["-p"], help="make parents; no error if existing")
    verbose: bool = param(default=False, aliases=["-v"], help="report each directory created")
    mode: str | None = param(default=None, aliases=["-m"], help="mode of the new directories")


@tool(
    "mkdir", kind="write",
    args=MkdirArgs,
    description="make directories",
    examples=[("make a nested path", "mkdir -p build/out/logs")],
    operations=["fs.create"],
)
def mkdir(args: MkdirArgs, ctx: Context) -> int:
    if not args.dirs:
        ctx.error("missing operand")
        return 1
    mode: int | None = None
    if args.mode is not None:
        try:
            mode = parse_mode(args.mode, 0o777, True)
        except ValueError:
            ctx.error(f"invalid mode {q(args.mode)}")
            return 1
    status = 0
    for d in args.dirs:
        if d == "":
            ctx.error("cannot create directory '': No such file or directory")
            status = 1
            continue
        path = ctx.path(d)
        try:
            if args.parents:
                made = _make_parents(ctx, path, d)
                if args.verbose:
                    for m in made:
                        ctx.write(f"mkdir: created directory {q(m)}\n")
            else:
                ctx.fs.mkdir(path)
                if args.verbose:
                    ctx.write(f"mkdir: created directory {q(d)}\n")
            if mode is not None:
                ctx.fs.chmod(path, mode)
        except FsError as e:
            where = e.path if args.parents else d
            ctx.error(f"cannot create directory {q(where)}: {e.reason}")
            status = 1
    return status


def _make_parents(ctx: Context, path: str, display: str) -> Iterable[str]:
    """Create each missing component, walking the path as written (`x/../y` makes x, as
    GNU does); returns the displayed names of those created (`./p`, `./p/./q`)."""
    if ctx.fs.is_dir(path):
        return []
    comps = display.split("/")
    if ".." not in comps:
        # the filesystem walks the path once, however deep (a failure is retold below
        # in GNU's words)
        try:
            made = ctx.fs.make_dirs(path)
        except FsError:
            pass
        else:
            return _created(comps, display, made)
    return _make_parents_by_name(ctx, comps, display)


def _created(comps: list[str], display: str, made: int) -> Iterator[str]:
    """The displayed names of the last `made` components of a path as written (made
    only when -v asks: a path may be a hundred thousand levels deep)."""
    real = [k for k, c in enumerate(comps) if c not in ("", ".")]
    for k in real[len(real) - made:] if made else []:
        yield display if k == real[-1] else "/".join(comps[: k + 1])


def _make_parents_by_name(ctx: Context, comps: list[str], display: str) -> list[str]:
    """mkdir -p one component at a time, by name: a path with `..` in it, and the
    exact GNU message when the filesystem's walk failed."""
    last = len(comps) - 1
    # start below the deepest existing directory: a sandbox root's ancestors are unreachable
    start = last
    while start >= 0 and not (comps[start] not in ("", ".", "..")
                              and ctx.fs.is_dir(ctx.path("/".join(comps[: start + 1])))):
        ctx.shell.check_boundary()
        start -= 1
    made: list[str] = []
    for k in range(start + 1, last + 1):
        ctx.shell.check_boundary()
        if comps[k] in ("", "."):
            continue
        shown = "/".join(comps[: k + 1])
        if not "".join(comps[k + 1:]):
            shown = display  # the last component: trailing slashes as written
        cur = ctx.path(shown)
        st = _stat(ctx, cur)
        if st is not None:
            if st.kind != "directory":
                raise FsError(shown, "Not a directory" if k < last else "File exists")
            continue
        ctx.fs.mkdir(cur)
        made.append(shown)
    return made


@value_record
class RmdirArgs(Record):
    dirs: tuple[str, ...] = param(default=(), positional=True, help="empty directories")
    parents: bool = param(default=False, aliases=["-p"], help="also remove each parent given")
    ignore_fail_on_non_empty: bool = param(default=False, help="ignore non-empty directories")
    verbose: bool = param(default=False, aliases=["-v"], help="report each removal")


@tool(
    "rmdir", kind="delete",
    args=RmdirArgs,
    description="remove empty directories",
    examples=[("remove a chain of empty folders", "rmdir -p a/b/c")],
    operations=["fs.remove"],
)
def rmdir(args: RmdirArgs, ctx: Context) -> int:
    if not args.dirs:
        ctx.error("missing operand")
        return 1
    status = 0
    for d in args.dirs:
        chain = [d]
        if args.parents:
            cur = d.rstrip("/") or "/"
            while "/" in cur.strip("/"):
                cur = cur.rsplit("/", 1)[0]
                chain.append(cur)
        for c in chain:
            if args.verbose:
                ctx.write(f"rmdir: removing directory, {q(c)}\n")
            try:
                path = ctx.path(c)
                if c.endswith("/") and (link := _lstat(ctx, path.rstrip("/"))) is not None \
                        and link.kind == "symlink":
                    raise FsError(c, "Symbolic link not followed")
                ctx.fs.rmdir(path)
            except FsError as e:
                if args.ignore_fail_on_non_empty and "not empty" in e.reason.lower():
                    break
                ctx.error(f"failed to remove {q(c)}: {e.reason}")
                status = 1
                break
    return status


# ---------------------------------------------------------------------------------------
# rm


@value_record
class RmArgs(Record):
    files: tuple[str, ...] = param(default=(), positional=True, help="files to remove")
    recursive: bool = param(default=False, aliases=["-r", "-R"], help="remove directories and their contents")
    force: bool = param(default=False, aliases=["-f"], help="ignore missing files, never prompt")
    dir: bool = param(default=False, aliases=["-d"], help="remove empty directories")
    interactive: bool = param(default=False, aliases=["-i"], help="prompt before every removal")
    verbose: bool = param(default=False, aliases=["-v"], help="report each removal")


class _Rm:
    def __init__(self, args: RmArgs, ctx: Context) -> None:
        self.a = args
        self.ctx = ctx
        self.status = 0

    def confirm(self, what: str) -> bool:
        if not self.a.interactive or self.a.force:
            return True
        self.ctx.stderr.write(encode_text(f"rm: remove {what}? "))
        try:
            self.ctx.stderr.flush()
        except (AttributeError, ValueError):
            pass
        line = self.ctx.stdin.readline()
        return line[:1] in (b"y", b"Y")

    def fail(self, display: str, reason: str) -> None:
        self.ctx.error(f"cannot remove {q(display)}: {reason}")
        self.status = 1

    def remove(self, display: str, path: str, st: FileStat) -> bool:
        """Remove one entry (a tree with -r); True when it is gone."""
        fs = self.ctx.fs
        if st.kind == "directory":
            if not self.a.recursive:
                if self.a.dir:
                    return self.rmdir(display, path)
                self.fail(display, "Is a directory")
                return False
            try:
                entries = sorted(fs.list_entries(path))
            except FsError as e:
                self.fail(display, e.reason)
                return False
            if entries and self.a.interactive and not self.a.force and not _ask(
                    self.ctx, f"rm: descend into directory {q(display)}? "):
                return False  # GNU asks before entering a non-empty directory
            ok = True
            for name, _kind in entries:
                child = path.rstrip("/") + "/" + name
                cst = _lstat(self.ctx, child)
                if cst is None:
                    continue
                ok = self.remove(display.rstrip("/") + "/" + name, child, cst) and ok
            if not ok:
                return False
            return self.rmdir(display, path)
        kind = "regular empty file" if st.kind == "file" and st.size == 0 else (
            "regular file" if st.kind == "file" else "symbolic link" if st.kind == "symlink"
            else "file")
        if not self.confirm(f"{kind} {q(display)}"):
            return False
        try:
            fs.remove(path)
        except FsError as e:
            self.fail(display, e.reason)
            return False
        if self.a.verbose:
            self.ctx.write(f"removed {q(display)}\n")
        return True

    def rmdir(self, display: str, path: str) -> bool:
        if not self.confirm(f"directory {q(display)}"):
            return False
        try:
            self.ctx.fs.rmdir(path)
        except FsError as e:
            self.fail(display, e.reason)
            return False
        if self.a.verbose:
            self.ctx.write(f"removed directory {q(display)}\n")
        return True


@tool(
    "rm", kind="delete",
    args=RmArgs,
    description="remove files or directories",
    examples=[
        ("remove files", "rm old.txt notes.bak"),
        ("remove a tree, no error if missing", "rm -rf build"),
    ],
    operations=["fs.remove"],
)
def rm(args: RmArgs, ctx: Context) -> int:
    if not args.files:
        if args.force:
            return 0
        ctx.error("missing operand")
        return 1
    r = _Rm(args, ctx)
    for f in args.files:
        base = _base(f)
        if base in (".", ".."):
            ctx.error(f"refusing to remove '.' or '..' directory: skipping {q(f)}")
            r.status = 1
            continue
        path = ctx.path(f)
        if path == "/" and args.recursive:
            ctx.error("it is dangerous to operate recursively on '/'")
            ctx.error("refusing to remove the root directory")
            r.status = 1
            continue
        bare = path.rstrip("/") or "/"
        st = _lstat(ctx, bare)
        if st is None:
            if not args.force:
                r.fail(f, "No such file or directory")
            continue
        if st.kind == "symlink" and f.endswith("/"):
            # `link/` names the link's target, which rm never removes through the link
            target = _stat(ctx, path)
            if target is not None and target.kind == "directory" and not (
                args.recursive or args.dir
            ):
                r.fail(f, "Is a directory")
            elif not args.force:
                r.fail(f, "Not a directory")
            continue
        if st.kind != "directory" and f.endswith("/"):
            # `file/` names a directory: nothing to remove (GNU's ENOTDIR)
            if not args.force:
                r.fail(f, "Not a directory")
            continue
        r.remove(f, bare, st)
    return r.status


# ---------------------------------------------------------------------------------------
# cp / mv


@value_record
class CpArgs(Record):
    sources: tuple[str, ...] = param(default=(), positional=True, help="files to copy")
    dest: str | None = param(default=None, positional=True, help="target file or directory")
    recursive: bool = param(default=False, aliases=["-r", "-R"], help="copy directories recursively")
    archive: bool = param(default=False, aliases=["-a"], help="same as -r -p, symlinks kept")
    preserve: bool = param(default=False, aliases=["-p"], help="keep mode and modification time")
    no_clobber: bool = param(default=False, aliases=["-n"], help="never overwrite an existing file")
    force: bool = param(default=False, aliases=["-f"], help="remove a target that cannot be opened")
    update: bool = param(default=False, aliases=["-u"], help="copy only when the source is newer")
    verbose: bool = param(default=False, aliases=["-v"], help="report each copy")
    dereference: bool = param(default=False, aliases=["-L"], help="always follow symlinks in sources")
    no_dereference: bool = param(default=False, aliases=["-P", "-d"], help="never follow symlinks")
    interactive: bool = param(default=False, aliases=["-i"],
                              help="ask (reading stdin) before overwriting a file")
    link: bool = param(default=False, aliases=["-l"], help="hard-link files instead of copying")
    symbolic_link: bool = param(default=False, aliases=["-s"],
                                help="make symbolic links instead of copying")
    target_directory: str | None = param(default=None, aliases=["-t"], help="copy into this directory")
    no_target_directory: bool = param(default=False, aliases=["-T"], help="treat DEST as a file")


@value_record
class MvArgs(Record):
    sources: tuple[str, ...] = param(default=(), positional=True, help="files to move")
    dest: str | None = param(default=None, positional=True, help="target name or directory")
    force: bool = param(default=False, aliases=["-f"], help="overwrite without asking")
    no_clobber: bool = param(default=False, aliases=["-n"], help="never overwrite an existing file")
    interactive: bool = param(default=False, aliases=["-i"],
                              help="ask (reading stdin) before overwriting a file")
    update: bool = param(default=False, aliases=["-u"], help="move only when the source is newer")
    verbose: bool = param(default=False, aliases=["-v"], help="report each move")
    target_directory: str | None = param(default=None, aliases=["-t"], help="move into this directory")
    no_target_directory: bool = param(default=False, aliases=["-T"], help="treat DEST as a file")


def _plan_targets(
    ctx: Context, sources: list[str], dest: str | None, tdir: str | None, no_tdir: bool
) -> list[tuple[str, str]] | None:
    """(source, target) pairs for `SRC… DEST`, `-t DIR SRC…` and `-T SRC DEST`; None
    after reporting a usage problem."""
    if tdir is not None:
        if dest is not None:
            sources = [*sources, dest]
        if not sources:
            ctx.error("missing file operand")
            return None
        if not ctx.fs.is_dir(ctx.path(tdir)):
            ctx.error(f"target directory {q(tdir)}: Not a directory")
            return None
        return [(s, posixpath.join(tdir, _base(s))) for s in sources]
    if dest is None:
        ctx.error("missing file operand")
        return None
    if not sources:
        ctx.error(f"missing destination file operand after {q(dest)}")
        return None
    dest_is_dir = ctx.fs.is_dir(ctx.path(dest))
    if no_tdir:
        if len(sources) > 1:
            ctx.error(f"extra operand {q(dest)}")
            return None
        return [(sources[0], dest)]
    if len(sources) > 1 and not dest_is_dir:
        if ctx.fs.exists(ctx.path(dest)):
            ctx.error(f"target {q(dest)} is not a directory")
        else:
            ctx.error(f"target {q(dest)}: No such file or directory")
        return None
    if dest_is_dir:
        return [(s, posixpath.join(dest, _base(s))) for s in sources]
    return [(sources[0], dest)]


class _Copier:
    def __init__(self, ctx: Context, args: CpArgs) -> None:
        self.ctx = ctx
        self.a = args
        self.recursive = args.recursive or args.archive
        self.preserve = args.preserve or args.archive
        self.follow = args.dereference or not (self.recursive or args.no_dereference)
        self.status = 0
        # (dev, ino) of the source directories being copied, outermost first: following
        # links, a directory met again inside itself is a cycle, refused as GNU does
        self.above: list[tuple[int, int]] = []
        # (dev, ino) of the directories this copy created: reached again through a
        # followed link, copying one would copy the copy into itself without end
        self.made: set[tuple[int, int]] = set()

    def fail(self, msg: str) -> None:
        self.ctx.error(msg)
        self.status = 1

    def copy(self, src: str, dst: str, top: bool) -> None:
        ctx, fs = self.ctx, self.ctx.fs
        ctx.shell.check_boundary()
        sp, dp = ctx.path(src), ctx.path(dst)
        try:
            st = fs.stat(sp, follow=self.follow or (top and self.a.dereference))
        except FsError as e:  # missing, or a link that was to be followed and cannot be
            self.fail(f"cannot stat {q(src)}: {e.reason}")
            return
        dst_st = _stat(ctx, dp)
        if st.kind == "directory":
            if not self.recursive:
                self.fail(f"-r not specified; omitting directory {q(src)}")
                return
            if _inside(dp, sp):
                self.fail(f"cannot copy a directory, {q(src)}, into itself, {q(dst)}")
                return
            key = (st.dev, st.ino)
            if st.ino and key in self.above:
                self.fail(f"cannot copy cyclic symbolic link {q(src)}")
                return
            if st.ino and key in self.made:
                self.fail(f"cannot copy a directory, {q(src)}, into itself, {q(dst)}")
                return
            if dst_st is not None and dst_st.kind != "directory":
                self.fail(f"cannot overwrite non-directory {q(dst)} with directory {q(src)}")
                return
            if dst_st is None:
                try:
                    fs.mkdir(dp)
                except FsError as e:
                    self.fail(f"cannot create directory {q(dst)}: {e.reason}")
                    return
                made = _stat(ctx, dp)
                if made is not None and made.ino:
                    self.made.add((made.dev, made.ino))
                if self.a.verbose:
                    ctx.write(f"{q(src)} -> {q(dst)}\n")
            try:
                names = sorted(fs.listdir(sp))
            except FsError as e:
                self.fail(f"cannot access {q(src)}: {e.reason}")
                return
            self.above.append(key)
            try:
                for n in names:
                    self.copy(posixpath.join(src, n), posixpath.join(dst, n), False)
            finally:
                self.above.pop()
            self.finish(dp, st, new=dst_st is None)
            return
        if dst.endswith("/") and dst_st is None:
            # `file/` or `missing/` as the target of a file: GNU's ENOTDIR
            if _lstat(ctx, dp.rstrip("/")) is not None:
                self.fail(f"cannot stat {q(dst)}: Not a directory")
            else:
                self.fail(f"cannot create regular file {q(dst)}: Not a directory")
            return
        if dst_st is not None:
            if dst_st.ino == st.ino and dst_st.dev == st.dev and st.ino:
                self.fail(f"{q(src)} and {q(dst)} are the same file")
                return
            if self.a.no_clobber:
                return
            if self.a.update and dst_st.mtime >= st.mtime:
                return
            if self.a.interactive and not _ask(ctx, f"cp: overwrite {q(dst)}? "):
                return  # declined: GNU 9.1 goes on, status unchanged
            if dst_st.kind == "directory":
                self.fail(f"cannot overwrite directory {q(dst)} with non-directory")
                return
        if st.kind == "symlink":
            try:
                target = fs.readlink(sp)
                if _lstat(ctx, dp) is not None:
                    fs.remove(dp)
                fs.symlink(target, dp)
            except FsError as e:
                self.fail(f"cannot create symbolic link {q(dst)}: {e.reason}")
                return
        elif self.a.link or self.a.symbolic_link:
            self.make_link(src, dst, sp, dp, dst_st is not None)
            return
        else:
            try:
                fs.copy_file(sp, dp)
            except FsError as e:
                if e.path == sp:
                    self.fail(f"cannot open {q(src)} for reading: {e.reason}")
                    return
                if self.a.force and dst_st is not None:
                    try:
                        fs.remove(dp)
                        fs.copy_file(sp, dp)
                    except FsError as e2:
                        self.fail(f"cannot create regular file {q(dst)}: {e2.reason}")
                        return
                else:
                    self.fail(f"cannot create regular file {q(dst)}: {e.reason}")
                    return
            self.finish(dp, st, new=dst_st is None)
        if self.a.verbose:
            ctx.write(f"{q(src)} -> {q(dst)}\n")

    def make_link(self, src: str, dst: str, sp: str, dp: str, exists: bool) -> None:
        """-l and -s: a hard or symbolic link in place of the copy. As in GNU, a relative
        symbolic link can only be made in the current directory."""
        ctx, fs = self.ctx, self.ctx.fs
        if self.a.symbolic_link and not src.startswith("/") and "/" in dst.rstrip("/"):
            self.fail(f"{dst}: can make relative symbolic links only in current directory")
            return
        try:
            if exists:
                if not self.a.force:
                    kind = "hard link" if self.a.link else "symbolic link"
                    self.fail(f"cannot create {kind} {q(dst)} to {q(src)}: File exists")
                    return
                fs.remove(dp)
            if self.a.link:
                fs.link(sp, dp)
            else:
                fs.symlink(src, dp)
        except FsError as e:
            kind = "hard link" if self.a.link else "symbolic link"
            self.fail(f"cannot create {kind} {q(dst)} to {q(src)}: {e.reason}")
            return
        if self.a.verbose:
            ctx.write(f"{q(src)} -> {q(dst)}\n")

    def finish(self, dp: str, st: FileStat, new: bool) -> None:
        """Mode (and with -p the time) of a copy: a new file gets the source's mode."""
        fs = self.ctx.fs
        try:
            if self.preserve:
                fs.chmod(dp, st.mode & 0o7777)
                fs.touch(dp, st.mtime)
            elif new:
                umask = self.ctx.shell.umask
                want = st.mode & 0o777 & ~umask
                if want != (0o777 if st.kind == "directory" else 0o666) & ~umask:
                    fs.chmod(dp, want)
        except FsError:
            pass


@tool(
    "cp", kind="copy",
    args=CpArgs,
    description="copy files and directories",
    examples=[
        ("copy a file", "cp notes.txt notes.bak"),
        ("copy several files into a folder", "cp a.txt b.txt backup/"),
        ("copy a tree", "cp -r src src.orig"),
    ],
    operations=["fs.create", "fs.overwrite"],
)
def cp(args: CpArgs, ctx: Context) -> int:
    pairs = _plan_targets(ctx, list(args.sources), args.dest, args.target_directory,
                          args.no_target_directory)
    if pairs is None:
        return 1
    c = _Copier(ctx, args)
    for src, dst in pairs:
        c.copy(src, dst, True)
    return c.status


def _copy_tree(ctx: Context, sp: str, dp: str) -> None:
    """Copy for a move across filesystems (rename refused with EXDEV)."""
    fs = ctx.fs
    st = fs.stat(sp, follow=False)
    if st.kind == "directory":
        fs.mkdir(dp)
        for n in fs.listdir(sp):
            _copy_tree(ctx, sp + "/" + n, dp + "/" + n)
    elif st.kind == "symlink":
        fs.symlink(fs.readlink(sp), dp)
    else:
        fs.copy_file(sp, dp)
        fs.chmod(dp, st.mode & 0o7777)
        fs.touch(dp, st.mtime)


def _remove_tree(ctx: Context, path: str) -> None:
    fs = ctx.fs
    if fs.stat(path, follow=False).kind == "directory":
        for n in fs.listdir(path):
            _remove_tree(ctx, path + "/" + n)
        fs.rmdir(path)
    else:
        fs.remove(path)


@tool(
    "mv", kind="move",
    args=MvArgs,
    description="move (rename) files",
    examples=[
        ("rename a file", "mv draft.md final.md"),
        ("move files into a folder", "mv *.log logs/"),
    ],
    operations=["fs.rename", "fs.overwrite"],
)
def mv(args: MvArgs, ctx: Context) -> int:
    pairs = _plan_targets(ctx, list(args.sources), args.dest, args.target_directory,
                          args.no_target_directory)
    if pairs is None:
        return 1
    status = 0
    fs = ctx.fs
    for src, dst in pairs:
        sp, dp = ctx.path(src), ctx.path(dst)
        st, why = _lstat_why(ctx, sp)
        if st is None:
            ctx.error(f"cannot stat {q(src)}: {why}")
            status = 1
            continue
        link = _lstat(ctx, sp.rstrip("/")) if src.endswith("/") else None
        if link is not None and link.kind == "symlink":
            # `link/` names the directory the link points to, which rename cannot move
            ctx.error(f"cannot move {q(src)} to {q(dst)}: Not a directory")
            status = 1
            continue
        dst_st, why = _lstat_why(ctx, dp)
        if dst_st is None and why == "Not a directory" and ctx.fs.exists(dp.rstrip("/")):
            ctx.error(f"cannot stat {q(dst)}: {why}")  # `file/`
            status = 1
            continue
        if dst_st is not None:
            if dst_st.ino == st.ino and dst_st.dev == st.dev and st.ino or sp == dp:
                ctx.error(f"{q(src)} and {q(dst)} are the same file")
                status = 1
                continue
            if args.no_clobber:
                continue
            if args.update and dst_st.mtime >= st.mtime:
                continue
            if args.interactive and not args.force and not _ask(
                    ctx, f"mv: overwrite {q(dst)}? "):
                continue
            if dst_st.kind == "directory" and st.kind != "directory":
                ctx.error(f"cannot overwrite directory {q(dst)} with non-directory")
                status = 1
                continue
            if st.kind == "directory" and dst_st.kind != "directory":
                ctx.error(f"cannot overwrite non-directory {q(dst)} with directory {q(src)}")
                status = 1
                continue
        if st.kind == "directory" and _inside(dp, sp):
            ctx.error(f"cannot move {q(src)} to a subdirectory of itself, {q(dst)}")
            status = 1
            continue
        try:
            fs.rename(sp, dp)
        except FsError as e:
            if "cross-device" not in e.reason:
                ctx.error(f"cannot move {q(src)} to {q(dst)}: {e.reason}")
                status = 1
                continue
            try:
                if dst_st is not None:
                    _remove_tree(ctx, dp)
                _copy_tree(ctx, sp, dp)
                _remove_tree(ctx, sp)
            except FsError as e2:
                ctx.error(f"cannot move {q(src)} to {q(dst)}: {e2.reason}")
                status = 1
                continue
        if args.verbose:
            ctx.write(f"renamed {q(src)} -> {q(dst)}\n")
    return status


# ---------------------------------------------------------------------------------------
# touch / ln


@value_record
class TouchArgs(Record):
    files: tuple[str, ...] = param(default=(), positional=True, help="files to touch")
    no_create: bool = param(default=False, aliases=["-c"], help="do not create missing files")
    date: str | None = param(default=None, aliases=["-d"], help="use this time (ISO, @epoch, 'yesterday', '2 hours ago')")
    stamp: str | None = param(default=None, aliases=["-t"], help="use [[CC]YY]MMDDhhmm[.ss]")
    reference: str | None = param(default=None, aliases=["-r"], help="use this file's time")
    access: bool = param(default=False, aliases=["-a"], help="accepted; times are set together")
    modification: bool = param(default=False, aliases=["-m"], help="accepted; times are set together")
    no_dereference: bool = param(default=False, aliases=["-h"],
                                 help="touch a symbolic link itself; never create a file")
    time: str | None = param(default=None, choices=("access", "atime", "use", "modify", "mtime"),
                             help="which time to set, as -a or -m (accepted; set together)")


@tool(
    "touch", kind="write",
    args=TouchArgs,
    description="create empty files or update their times",
    examples=[("create or refresh files", "touch a.txt b.txt"),
              ("set a time", "touch -d '2024-01-31 12:00' report.txt")],
    operations=["fs.create"],
)
def touch(args: TouchArgs, ctx: Context) -> int:
    if not args.files:
        ctx.error("missing file operand")
        return 1
    when: float | None = None
    try:
        if args.reference is not None:
            try:
                when = ctx.fs.stat(ctx.path(args.reference)).mtime
            except FsError as e:
                ctx.error(f"failed to get attributes of {q(args.reference)}: {e.reason}")
                return 1
        elif args.date is not None:
            when = parse_date(args.date, ctx)
        elif args.stamp is not None:
            when = parse_stamp(args.stamp, ctx)
    except ValueError as e:
        ctx.error(str(e))
        return 1
    status = 0
    for f in args.files:
        path = ctx.path(f)
        if args.no_create and not ctx.fs.exists(path):
            continue
        if args.no_dereference:
            lst = _lstat(ctx, path)
            if lst is None or lst.kind == "symlink":
                reason = ("No such file or directory" if lst is None else
                          "changing a symbolic link's own times is not supported")
                ctx.error(f"setting times of {q(f)}: {reason}")
                status = 1
                continue
        try:
            ctx.fs.touch(path, when)
        except FsError as e:
            ctx.error(f"cannot touch {q(f)}: {e.reason}")
            status = 1
    return status


@value_record
class LnArgs(Record):
    targets: tuple[str, ...] = param(default=(), positional=True, help="what the links point to")
    link_name: str | None = param(default=None, positional=True, help="the link, or a directory")
    symbolic: bool = param(default=False, aliases=["-s"], help="make symbolic links")
    force: bool = param(default=False, aliases=["-f"], help="replace existing files")
    no_dereference: bool = param(default=False, aliases=["-n"], help="treat a symlink to a directory as a file")
    verbose: bool = param(default=False, aliases=["-v"], help="report each link")
    target_directory: str | None = param(default=None, aliases=["-t"], help="make links in this directory")
    no_target_directory: bool = param(default=False, aliases=["-T"], help="treat LINK_NAME as a file")


@tool(
    "ln", kind="write",
    args=LnArgs,
    description="make links between files",
    examples=[("a symbolic link", "ln -s ../shared/config.toml config.toml")],
    operations=["fs.create", "fs.overwrite"],
)
def ln(args: LnArgs, ctx: Context) -> int:
    targets = list(args.targets)
    link = args.link_name
    if args.target_directory is None and link is not None and not targets:
        targets, link = [link], "."
    if args.target_directory is None and link is not None and args.no_dereference:
        lst = _lstat(ctx, ctx.path(link))
        if lst is not None and lst.kind == "symlink" and len(targets) == 1:
            pairs = [(targets[0], link)]
        else:
            got = _plan_targets(ctx, targets, link, None, args.no_target_directory)
            if got is None:
                return 1
            pairs = got
    else:
        got = _plan_targets(ctx, targets, link, args.target_directory, args.no_target_directory)
        if got is None:
            return 1
        pairs = got
    status = 0
    fs = ctx.fs
    for target, name in pairs:
        dp = ctx.path(name)
        kind = "symbolic link" if args.symbolic else "hard link"
        try:
            if not args.symbolic and (why := _lstat_why(ctx, ctx.path(target))[1]):
                ctx.error(f"failed to access {q(target)}: {why}")
                status = 1
                continue
            existing = _lstat(ctx, dp)
            if existing is not None:
                if not args.force:
                    arrow = "" if args.symbolic else f" => {q(target)}"
                    ctx.error(f"failed to create {kind} {q(name)}{arrow}: File exists")
                    status = 1
                    continue
                if existing.kind == "directory":
                    ctx.error(f"{q(name)}: cannot overwrite directory")
                    status = 1
                    continue
                fs.remove(dp)
            if args.symbolic:
                fs.symlink(target, dp)
            else:
                fs.link(ctx.path(target), dp)
        except FsError as e:
            ctx.error(f"failed to create {kind} {q(name)}: {e.reason}")
            status = 1
            continue
        if args.verbose:
            ctx.write(f"{q(name)} -> {q(target)}\n")
    return status
