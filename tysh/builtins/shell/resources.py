"""umask, ulimit and times: what the session's processes may create, use and have used.

A kernel shares its process with other kernels and threads, so none of these touch the
process itself. `umask` sets the session's own mask, which the files the session
creates get (kernel/run/filemode.py) and external commands start with. `ulimit` keeps
the session's own limits, read first from the process: lowering one holds for the
session and its subshells and is applied to the external commands it starts; raising a
hard limit is refused (tysh never raises its process's limits), and a sandboxed session
may not raise a soft one either. `times` reports the process's CPU time."""

from __future__ import annotations

import os

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import err
from tysh.kernel.base.values import to_json_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session

# -- umask ---------------------------------------------------------------------------------

UMASK_USAGE = "umask: usage: umask [-p] [-S] [mode]"
_WHO = {"u": 0o700, "g": 0o070, "o": 0o007, "a": 0o777}
_PERM = {"r": 0o444, "w": 0o222, "x": 0o111}


def symbolic(mask: int) -> str:
    """`u=rwx,g=rx,o=rx`: what the mask lets through, as `umask -S` prints it."""
    allowed = ~mask & 0o777
    parts = []
    for who, shift in (("u", 6), ("g", 3), ("o", 0)):
        bits = (allowed >> shift) & 7
        parts.append(who + "=" + "".join(c for c, b in (("r", 4), ("w", 2), ("x", 1))
                                         if bits & b))
    return ",".join(parts)


def parse_symbolic(text: str, mask: int) -> int | str:
    """A symbolic umask (`u=rwx,g=rx,o=`, `g-w`, `a+r`) applied to `mask`; the error
    message when it is not one (bash's words)."""
    bits = ~mask & 0o777
    i = 0
    while True:
        who = 0
        while i < len(text) and text[i] in _WHO:
            who |= _WHO[text[i]]
            i += 1
        op = text[i] if i < len(text) else "\0"
        i += 1
        if op not in "+-=":
            return f"`{op}': invalid symbolic mode operator"
        perm = 0
        while i < len(text) and text[i] in _PERM:
            perm |= _PERM[text[i]]
            i += 1
        if i < len(text) and text[i] != ",":
            return f"`{text[i]}': invalid symbolic mode character"
        if who:
            perm &= who
        if op == "+":
            bits |= perm
        elif op == "-":
            bits &= ~perm
        else:
            bits = (bits & ~(who or 0o777)) | perm
        if i >= len(text):
            break
        i += 1  # the comma
    return ~bits & 0o777


@tool("umask", kind="shell", raw_argv=True, session=True,
      description="show or set the mask of permissions the session's new files lack",
      examples=[("private files from now on", "umask 077"), ("as symbols", "umask -S")])
def umask(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = texts(args.positional)
    show_symbolic = as_command = as_json = False
    i = 0
    while i < len(words) and words[i].startswith("-") and len(words[i]) > 1:
        w = words[i]
        if w == "--":
            i += 1
            break
        if w == "--json":
            as_json = True
            i += 1
            continue
        for c in w[1:]:
            if c == "S":
                show_symbolic = True
            elif c == "p":
                as_command = True
            else:
                err(ctx, f"-{c}: invalid option")
                ctx.stderr.write((UMASK_USAGE + "\n").encode())
                return 2
        i += 1
    rest = words[i:]
    current = sh.umask
    if rest:
        spec = rest[0]
        if spec[:1].isdigit():
            if not all(c in "01234567" for c in spec) or int(spec, 8) > 0o7777:
                err(ctx, f"{spec}: octal number out of range")
                return 1
            new = int(spec, 8) & 0o777  # bash takes up to 07777 and keeps the low bits
        else:
            got = parse_symbolic(spec, current)
            if isinstance(got, str):
                err(ctx, got)
                return 1
            new = got
        sh.state.umask = new
        if not show_symbolic:
            return 0
        current = new
    if as_json:
        ctx.write(to_json_text({"mask": f"{current:04o}", "symbolic": symbolic(current)})
                  + "\n")
        return 0
    text = symbolic(current) if show_symbolic else f"{current:04o}"
    if as_command:
        text = ("umask -S " if show_symbolic else "umask ") + text
    ctx.write(text + "\n")
    return 0


# -- ulimit --------------------------------------------------------------------------------

ULIMIT_USAGE = "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]"
INFINITY = -1  # resource.RLIM_INFINITY on Linux
PIPE_BLOCKS = 8  # `-p`: the pipe buffer in 512-byte blocks (PIPE_BUF / 512), read-only


def _resources() -> list[tuple[str, int, str, str, int]]:
    """(letter, resource number, name, unit, bytes per unit) as bash lists them."""
    import resource

    def r(name: str, default: int) -> int:
        return int(getattr(resource, name, default))

    return [
        ("R", r("RLIMIT_RTTIME", 15), "real-time non-blocking time", "microseconds", 1),
        ("c", r("RLIMIT_CORE", 4), "core file size", "blocks", 512),
        ("d", r("RLIMIT_DATA", 2), "data seg size", "kbytes", 1024),
        ("e", r("RLIMIT_NICE", 13), "scheduling priority", "", 1),
        ("f", r("RLIMIT_FSIZE", 1), "file size", "blocks", 512),
        ("i", r("RLIMIT_SIGPENDING", 11), "pending signals", "", 1),
        ("l", r("RLIMIT_MEMLOCK", 8), "max locked memory", "kbytes", 1024),
        ("m", r("RLIMIT_RSS", 5), "max memory size", "kbytes", 1024),
        ("n", r("RLIMIT_NOFILE", 7), "open files", "", 1),
        ("p", -1, "pipe size", "512 bytes", 512),
        ("q", r("RLIMIT_MSGQUEUE", 12), "POSIX message queues", "bytes", 1),
        ("r", r("RLIMIT_RTPRIO", 14), "real-time priority", "", 1),
        ("s", r("RLIMIT_STACK", 3), "stack size", "kbytes", 1024),
        ("t", r("RLIMIT_CPU", 0), "cpu time", "seconds", 1),
        ("u", r("RLIMIT_NPROC", 6), "max user processes", "", 1),
        ("v", r("RLIMIT_AS", 9), "virtual memory", "kbytes", 1024),
        ("x", r("RLIMIT_LOCKS", 10), "file locks", "", 1),
    ]


def current_limit(sh: Session, res: int) -> tuple[int, int]:
    """(soft, hard) of a resource for this session, -1 meaning unlimited."""
    got = (sh.state.tables.rlimits or {}).get(res)
    if got is not None:
        return got
    if res < 0:
        return PIPE_BLOCKS * 512, PIPE_BLOCKS * 512
    import resource

    try:
        soft, hard = resource.getrlimit(res)
    except (ValueError, OSError):
        return INFINITY, INFINITY
    inf = resource.RLIM_INFINITY
    return (INFINITY if soft == inf else soft), (INFINITY if hard == inf else hard)


def _show(value: int, factor: int) -> str:
    return "unlimited" if value == INFINITY else str(value // factor)


def _label(name: str, unit: str, letter: str) -> str:
    tag = f"({unit}, -{letter}) " if unit else f"(-{letter}) "
    return f"{name:<20s} {tag:>20s}"


@tool("ulimit", kind="shell", raw_argv=True, session=True,
      description="show or lower the session's resource limits (-a: all of them)",
      examples=[("every limit", "ulimit -a"), ("open files", "ulimit -n"),
                ("no core files for the commands run from here", "ulimit -c 0")])
def ulimit(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = texts(args.positional)
    table = {r[0]: r for r in _resources()}
    soft_flag = hard_flag = False  # -S, -H (neither: both when setting, soft when showing)
    show_all = as_json = False
    cmds: list[list[Any]] = []  # [letter, value or None]
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            i += 1
            break
        if w == "--json":
            as_json = True
            i += 1
            continue
        if not w.startswith("-") or len(w) == 1:
            break
        j = 1
        while j < len(w):
            c = w[j]
            if c == "S":
                soft_flag = True
            elif c == "H":
                hard_flag = True
            elif c == "a":
                show_all = True
            elif c in table:
                value: str | None = None
                if j + 1 < len(w):
                    value = w[j + 1:]
                    j = len(w)
                elif i + 1 < len(words) and not words[i + 1].startswith("-"):
                    value = words[i + 1]
                    i += 1
                cmds.append([c, value])
            else:
                err(ctx, f"-{c}: invalid option")
                ctx.stderr.write((ULIMIT_USAGE + "\n").encode())
                return 2
            j += 1
        i += 1
    rest = words[i:]
    if not cmds and not show_all:
        cmds.append(["f", None])
    if rest and cmds and cmds[-1][1] is None:
        cmds[-1][1] = rest[0]
    if as_json:
        rows = [_record(sh, r) for r in _resources()] if show_all or not cmds else [
            _record(sh, table[c]) for c, v in cmds if v is None]
        ctx.write(to_json_text(rows) + "\n")
        return 0
    out: list[str] = []
    status = 0
    hard = hard_flag and not soft_flag
    which = "" if soft_flag == hard_flag else "S" if soft_flag else "H"
    if show_all:
        for letter, res, name, unit, factor in _resources():
            soft_v, hard_v = current_limit(sh, res)
            out.append(_label(name, unit, letter) + _show(hard_v if hard else soft_v, factor))
    labelled = show_all or len(cmds) > 1
    for letter, value in cmds:
        _, res, name, unit, factor = table[letter]
        if value is None:
            soft_v, hard_v = current_limit(sh, res)
            shown = _show(hard_v if hard else soft_v, factor)
            out.append(_label(name, unit, letter) + shown if labelled else shown)
            continue
        problem = _set(sh, letter, res, name, factor, value, which)
        if problem:
            ctx.write("".join(line + "\n" for line in out))
            out.clear()
            err(ctx, problem)
            status = 1
    ctx.write("".join(line + "\n" for line in out))
    return status


def _record(sh: Session, r: tuple[str, int, str, str, int]) -> dict[str, Any]:
    letter, res, name, unit, factor = r
    soft, hard = current_limit(sh, res)
    return {"option": "-" + letter, "name": name, "unit": unit or None,
            "soft": None if soft == INFINITY else soft // factor,
            "hard": None if hard == INFINITY else hard // factor}


def _set(sh: Session, letter: str, res: int, name: str, factor: int, text: str,
         which: str) -> str:
    """Set one limit; the message when it cannot be."""
    soft, hard = current_limit(sh, res)
    if text == "unlimited":
        value = INFINITY
    elif text == "hard":
        value = hard
    elif text == "soft":
        value = soft
    elif text.isdigit():
        value = int(text) * factor
        if value > (1 << 63) - 1:
            return f"{text}: limit out of range"
    else:
        return f"{text}: invalid number"
    if res < 0:
        return f"{name}: cannot modify limit: Invalid argument"
    new_soft = value if which in ("", "S") else soft
    new_hard = value if which in ("", "H") else hard

    def above(a: int, b: int) -> bool:
        return b != INFINITY and (a == INFINITY or a > b)

    if above(new_soft, new_hard):
        return f"{name}: cannot modify limit: Invalid argument"
    if above(new_hard, hard):
        return f"{name}: cannot modify limit: Operation not permitted"
    if above(new_soft, soft) and not sh.host_session:
        return f"{name}: cannot modify limit: a sandboxed session cannot raise its limits"
    limits = dict(sh.state.tables.rlimits or {})
    limits[res] = (new_soft, new_hard)
    sh.state.retable(rlimits=limits)
    return ""


# -- times ---------------------------------------------------------------------------------

def _minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}m{seconds % 60:.3f}s"


@tool("times", kind="shell", raw_argv=True, description="show the user and system CPU time used by the "
      "shell and by the commands it ran; --json gives seconds")
def times(args: RawArgs, ctx: Context) -> int:
    t = os.times()
    words = texts(args.positional)
    if "--json" in words:
        ctx.write(to_json_text({"user": t.user, "system": t.system,
                                "children_user": t.children_user,
                                "children_system": t.children_system}) + "\n")
        return 0
    ctx.write(f"{_minutes(t.user)} {_minutes(t.system)}\n"
              f"{_minutes(t.children_user)} {_minutes(t.children_system)}\n")
    return 0


TOOLS: list[Tool] = [umask, ulimit, times]
