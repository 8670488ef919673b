"""readlink (GNU coreutils 9.1): print a symlink's target, or a canonical file name.

Plain readlink prints the target of each symlink and fails (status 1, silently unless
-v) on anything else. -f/-e/-m canonicalise through the kernel's filesystem, sharing
realpath's resolver (files.info), so links resolve the same way in a sandbox."""

from __future__ import annotations

import posixpath

from tysh.builtins._common.filenames import quotef
from tysh.builtins.files.info import is_link, write_names
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import ToolReturn, tool


@value_record
class ReadlinkArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="file names")
    canonicalize: bool = param(default=False, aliases=["-f"],
                               help="canonicalize; all but the last component must exist")
    canonicalize_existing: bool = param(default=False, aliases=["-e"],
                                        help="canonicalize; every component must exist")
    canonicalize_missing: bool = param(default=False, aliases=["-m"],
                                       help="canonicalize; no component need exist")
    no_newline: bool = param(default=False, aliases=["-n"], help="no newline after the name")
    quiet: bool = param(default=False, aliases=["-q", "-s", "--silent"],
                        help="suppress most error messages (the default)")
    verbose: bool = param(default=False, aliases=["-v"], help="report error messages")
    zero: bool = param(default=False, aliases=["-z"], help="end each output name with NUL")


def canonical(ctx: Context, name: str, mode: str) -> tuple[str | None, str]:
    """(resolved absolute name, "") or (None, reason) for readlink -f/-e/-m (mode f/e/m)."""
    fs = ctx.fs
    if name == "":
        return None, "No such file or directory"
    # `link/..` is resolved physically, as GNU does: keep the `..` for the resolver
    raw = name if name.startswith("/") else ctx.shell.cwd.rstrip("/") + "/" + name
    try:
        res = fs.realpath(raw if ".." in name.split("/") else ctx.path(name))
    except FsError as e:
        return None, e.reason
    if mode == "m":
        return res, ""
    if mode == "e":
        ok = fs.exists(res) and (not name.endswith("/") or fs.is_dir(res))
    else:
        ok = fs.is_dir(posixpath.dirname(res) or "/") and (
            not name.endswith("/") or fs.is_dir(res))
    if ok and is_link(ctx, res):
        try:  # the resolver stopped at a link: a loop
            fs.stat(res, follow=True)
        except FsError as e:
            return None, e.reason
    if not ok:
        return None, "Not a directory" if name.endswith("/") and fs.exists(res) else (
            "No such file or directory")
    return res, ""


@tool(
    "readlink", kind="read",
    args=ReadlinkArgs,
    description=("print the target of a symbolic link, or with -f/-e/-m its canonical "
                 "name; --json gives the name, or an array for several"),
    examples=[
        ("where a symlink points", "readlink current"),
        ("absolute canonical path of a file", "readlink -f ../notes.txt"),
    ],
)
def readlink(args: ReadlinkArgs, ctx: Context) -> ToolReturn:
    if not args.files:
        ctx.error("missing operand")
        ctx.stderr.write(b"Try 'readlink --help' for more information.\n")
        return 1
    mode = ("m" if args.canonicalize_missing else "e" if args.canonicalize_existing
            else "f" if args.canonicalize else "")
    no_newline = args.no_newline
    if no_newline and len(args.files) > 1:
        ctx.error("ignoring --no-newline with multiple arguments")
        no_newline = False
    status = 0
    names: list[str] = []
    for name in args.files:
        if mode:
            got, reason = canonical(ctx, name, mode)
        else:
            got, reason = None, "No such file or directory"
            if name:
                try:
                    got = ctx.fs.readlink(ctx.path(name))
                except FsError as e:
                    exists = ctx.fs.exists(ctx.path(name)) or is_link(ctx, ctx.path(name))
                    reason = "Invalid argument" if exists else e.reason
        if got is None:
            if args.verbose:
                ctx.error(f"{quotef(name)}: {reason}")
            status = 1
            continue
        names.append(got)
    end = "\0" if args.zero else "" if no_newline else "\n"
    return write_names(ctx, names, end, status)


TOOLS = [readlink]
