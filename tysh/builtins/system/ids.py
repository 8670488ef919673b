"""id and tty (GNU coreutils 9.1): who the session runs as, and whether stdin is a terminal.

On the host's own filesystem id reports the real process credentials (os, pwd, grp);
in a sandbox (confined, in-memory or overlay kernel) it reports the neutral user `user`,
uid and gid 1000, so the host's identity stays out of it (docs/security.md, hermetic
environment) — the rule whoami and hostname follow (utils_sys._session_or_host)."""

from __future__ import annotations

import os

from tysh.kernel.base.record import Record, frozen, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NEUTRAL_USER = "user"
NEUTRAL_ID = 1000


@frozen
class Ids(Record):
    """One identity: user and group ids with their names (None when unnamed)."""

    uid: int
    user: str | None
    gid: int
    group: str | None
    euid: int
    egid: int
    groups: tuple[tuple[int, str | None], ...]


def _sandboxed(ctx: Context) -> bool:
    from tysh.kernel.fs.local import LocalFileSystem

    return type(ctx.fs) is not LocalFileSystem


def _user_name(uid: int) -> str | None:
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return None


def _group_name(gid: int) -> str | None:
    import grp

    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return None


def _neutral() -> Ids:
    return Ids(NEUTRAL_ID, NEUTRAL_USER, NEUTRAL_ID, NEUTRAL_USER, NEUTRAL_ID, NEUTRAL_ID,
               ((NEUTRAL_ID, NEUTRAL_USER),))


def _lookup(ctx: Context, who: str | None) -> Ids | None:
    """The identity of the process (who is None) or of a user name or number."""
    if _sandboxed(ctx):
        if who is None or who in (NEUTRAL_USER, str(NEUTRAL_ID)):
            return _neutral()
        return None
    if who is None:
        uid, gid = os.getuid(), os.getgid()
        euid, egid = os.geteuid(), os.getegid()
        gids = [egid, *(g for g in os.getgroups() if g != egid)]
        return Ids(uid, _user_name(uid), gid, _group_name(gid), euid, egid,
                   tuple((g, _group_name(g)) for g in gids))
    import pwd

    try:
        pw = pwd.getpwnam(who)
    except KeyError:
        if not who.isdigit():
            return None
        try:
            pw = pwd.getpwuid(int(who))
        except KeyError:
            return None
    try:
        gids = os.getgrouplist(pw.pw_name, pw.pw_gid)
    except OSError:
        gids = [pw.pw_gid]
    gids = [pw.pw_gid, *(g for g in gids if g != pw.pw_gid)]
    return Ids(pw.pw_uid, pw.pw_name, pw.pw_gid, _group_name(pw.pw_gid), pw.pw_uid,
               pw.pw_gid, tuple((g, _group_name(g)) for g in gids))


@value_record
class IdArgs(Record):
    users: tuple[str, ...] = param(positional=True, default=(), help="user name or ID")
    user: bool = param(default=False, aliases=["-u"], help="print only the effective user ID")
    group: bool = param(default=False, aliases=["-g"], help="print only the effective group ID")
    groups: bool = param(default=False, aliases=["-G"], help="print all group IDs")
    name: bool = param(default=False, aliases=["-n"], help="print a name instead of a number")
    real: bool = param(default=False, aliases=["-r"], help="print the real ID, not the effective")
    zero: bool = param(default=False, aliases=["-z"], help="delimit entries with NUL")
    context: bool = param(default=False, aliases=["-a"], help="ignored, for compatibility")


def _named(n: int, name: str | None) -> str:
    return f"{n}({name})" if name is not None else str(n)


def _usage(ctx: Context, message: str) -> int:
    ctx.error(message)
    ctx.stderr.write(b"Try 'id --help' for more information.\n")
    return 1


@tool(
    "id", kind="shell",
    args=IdArgs,
    description=("print user and group IDs (in a sandbox the neutral user `user`, 1000); "
                 '--json gives {"uid","user","gid","group","groups":[{"id","name"}]}, '
                 "or the single value / array that -u, -g or -G select"),
    examples=[("who am I, with groups", "id"), ("the user name", "id -un"),
              ("all group names", "id -Gn")],
)
def id_(args: IdArgs, ctx: Context) -> ToolReturn:
    chosen = args.user + args.group + args.groups
    if chosen > 1:
        ctx.error('cannot print "only" of more than one choice')
        return 1
    if not chosen and (args.name or args.real):
        ctx.error("cannot print only names or real IDs in default format")
        return 1
    if not chosen and args.zero:
        ctx.error("option --zero not permitted in default format")
        return 1
    if len(args.users) > 1:
        return _usage(ctx, f"extra operand '{args.users[1]}'")
    who = args.users[0] if args.users else None
    ids = _lookup(ctx, who)
    if ids is None:
        ctx.error(f"'{who}': no such user")
        return 1
    end = "\0" if args.zero else "\n"
    data: Any
    status = 0
    if args.user or args.group:
        n = (ids.uid if args.real else ids.euid) if args.user else (
            ids.gid if args.real else ids.egid)
        name = (_user_name(n) if not _sandboxed(ctx) else NEUTRAL_USER) if args.user else (
            _group_name(n) if not _sandboxed(ctx) else NEUTRAL_USER)
        if args.name and name is None:
            kind = "user" if args.user else "group"
            ctx.error(f"cannot find name for {kind} ID {n}")
            name, status = str(n), 1
        data = name if args.name else n
        text = f"{data}{end}"
    elif args.groups:
        gids = list(ids.groups)
        if args.real and who is None and gids and ids.gid != ids.egid:
            gids = [(ids.gid, _group_name(ids.gid)), *gids]
        data = [(g[1] if g[1] is not None else str(g[0])) if args.name else g[0] for g in gids]
        text = ("".join(f"{v}\0" for v in data) if args.zero
                else " ".join(str(v) for v in data) + "\n")
    else:
        parts = [f"uid={_named(ids.uid, ids.user)}", f"gid={_named(ids.gid, ids.group)}"]
        if ids.euid != ids.uid:
            parts.append(f"euid={_named(ids.euid, _user_name(ids.euid))}")
        if ids.egid != ids.gid:
            parts.append(f"egid={_named(ids.egid, _group_name(ids.egid))}")
        parts.append("groups=" + ",".join(_named(g, n) for g, n in ids.groups))
        text = " ".join(parts) + "\n"
        data = {"uid": ids.uid, "user": ids.user, "gid": ids.gid, "group": ids.group,
                "groups": [{"id": g, "name": n} for g, n in ids.groups]}
    if ctx.json:
        return Outcome(code=status, output=OutputData.text(text, rich_json=data))
    ctx.write(text)
    return Outcome(code=status, output=OutputData.value(lambda: data))


@value_record
class TtyArgs(Record):
    silent: bool = param(default=False, aliases=["-s", "--quiet"],
                         help="print nothing, only return the status")


@tool(
    "tty", kind="shell",
    args=TtyArgs,
    description=("print the terminal on standard input, or `not a tty` (status 1); "
                 '--json gives {"tty": NAME or null}'),
    examples=[("is input interactive?", "tty -s && echo interactive")],
)
def tty(args: TtyArgs, ctx: Context) -> ToolReturn:
    name: str | None = None
    if ctx.stdin_is_terminal:
        name = "/dev/tty"
        if not _sandboxed(ctx):
            try:
                name = os.ttyname(0)
            except OSError:
                pass
    status = 0 if name is not None else 1
    if args.silent:
        return status
    text = (name or "not a tty") + "\n"
    if ctx.json:
        return Outcome(code=status, output=OutputData.text(text, rich_json={"tty": name}))
    ctx.write(text)
    return Outcome(code=status, output=OutputData.value(lambda: {"tty": name}))


TOOLS = [id_, tty]
