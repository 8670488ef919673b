"""yes, printenv, nproc, uname, whoami, hostname: small facts about the session and
the host, read-only (hostname never sets the name)."""

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


def _value(data: Any, code: int = 0) -> Outcome:
    return Outcome(code=code, output=OutputData.text("", rich_json=data))


def _written(data: Any, code: int = 0) -> Outcome:
    """The result of a tool that wrote its text: the value `--json` gives."""
    return Outcome(code=code, output=OutputData.value(lambda: data))


# ------------------------------------------------------------------------ yes

@value_record
class YesArgs(Record):
    words: tuple[str, ...] = param(positional=True, default=(), help="the line to repeat (default y)")


@tool(
    "yes", kind="shell",
    args=YesArgs,
    description="print a line (default `y`) over and over until the reader stops",
    examples=[("answer every prompt", "yes | ./install.sh"), ("ten lines of ok", "yes ok | head -n 10")],
)
def yes(args: YesArgs, ctx: Context) -> ToolReturn:
    line = (" ".join(args.words) if args.words else "y").encode("utf-8", "surrogateescape") + b"\n"
    block = line * max(1, 8192 // len(line))
    write, cancelled = ctx.stdout.write, ctx.shell.cancelled
    # a closed reader raises BrokenPipeError, which the kernel turns into the stage's end
    while not cancelled():
        write(block)
    return 1


# ------------------------------------------------------------------------ printenv

@value_record
class PrintenvArgs(Record):
    names: tuple[str, ...] = param(positional=True, default=(), help="variables to print (default all)")
    null: bool = param(default=False, aliases=["-0"], help="end each output line with NUL, not newline")


@tool(
    "printenv", kind="shell",
    args=PrintenvArgs,
    description=(
        "print the exported environment, or the values of the named variables; --json "
        "gives an object"
    ),
    examples=[("one variable", "printenv HOME"), ("the whole environment", "printenv")],
)
def printenv(args: PrintenvArgs, ctx: Context) -> ToolReturn:
    env = ctx.shell.exported_env()
    names = [n for n in args.names if n != "-0"]  # -0 reaches the tool as an operand
    end = "\0" if args.null or len(names) < len(args.names) else "\n"
    if not names:
        if ctx.json:
            return _value(env)
        ctx.write("".join(f"{k}={v}{end}" for k, v in env.items()))
        return _written(env)
    found = {n: env[n] for n in names if n in env and "=" not in n}
    code = 0 if len(found) == len(set(names)) else 1
    if ctx.json:
        return _value(found, code)
    ctx.write("".join(env[n] + end for n in names if n in found))
    return _written(found, code)


# ------------------------------------------------------------------------ nproc

@value_record
class NprocArgs(Record):
    all: bool = param(default=False, help="print the number of installed processors")
    ignore: int = param(default=0, help="exclude up to N processing units, if possible", min=0,
                        range_error="invalid number: '{value}'")


def _available() -> int:
    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        return int(counter() or 1)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@tool(
    "nproc", kind="shell",
    args=NprocArgs,
    description="print the number of processing units available; --json gives a number",
    examples=[("parallel jobs", "make -j $(nproc)")],
)
def nproc(args: NprocArgs, ctx: Context) -> ToolReturn:
    """The real count, in a sandbox too (docs/security.md): scripts size their parallel
    work by it (`xargs -P $(nproc)`), and a count of CPUs identifies no host."""
    if args.ignore < 0:
        ctx.error(f"invalid number: '{args.ignore}'")
        return 1
    n = (os.cpu_count() or 1) if args.all else _available()
    n = max(1, n - args.ignore)
    if ctx.json:
        return _value(n)
    ctx.write(f"{n}\n")
    return _written(n)


# ------------------------------------------------------------------------ uname

# what `uname -r` and `uname -v` say in a sandboxed kernel (docs/security.md)
NEUTRAL_RELEASE = "6.0.0-tysh"
NEUTRAL_VERSION = "#1 SMP tysh"

@value_record
class UnameArgs(Record):
    all: bool = param(default=False, aliases=["-a"],
                      help="all the information below, omitting -p and -i when unknown")
    kernel_name: bool = param(default=False, aliases=["-s"], help="the kernel name (the default)")
    nodename: bool = param(default=False, aliases=["-n"], help="the network node hostname")
    kernel_release: bool = param(default=False, aliases=["-r"], help="the kernel release")
    kernel_version: bool = param(default=False, aliases=["-v"], help="the kernel version")
    machine: bool = param(default=False, aliases=["-m"], help="the machine hardware name")
    processor: bool = param(default=False, aliases=["-p"], help="the processor type (or unknown)")
    hardware_platform: bool = param(default=False, aliases=["-i"],
                                    help="the hardware platform (or unknown)")
    operating_system: bool = param(default=False, aliases=["-o"], help="the operating system")


def _os_name(sysname: str) -> str:
    return "GNU/Linux" if sysname == "Linux" else sysname


@tool(
    "uname", kind="shell",
    args=UnameArgs,
    description=(
        "print system information (GNU uname); --json gives {sysname, nodename, release, "
        "version, machine, os}"
    ),
    examples=[("kernel name", "uname"), ("everything", "uname -a"), ("architecture", "uname -m")],
)
def uname(args: UnameArgs, ctx: Context) -> ToolReturn:
    u = os.uname()
    node = _session_or_host(ctx, ("HOSTNAME",), "localhost") or u.nodename
    release, version = u.release, u.version
    if _session_or_host(ctx, (), "") is not None:
        # in a sandbox the host kernel's release and build stay out (they say which
        # patches the host lacks); the kernel name and machine stay real: scripts pick
        # binaries by them, and they are the same on every host of that kind
        release, version = NEUTRAL_RELEASE, NEUTRAL_VERSION
    info = {"sysname": u.sysname, "nodename": node, "release": release,
            "version": version, "machine": u.machine, "os": _os_name(u.sysname)}
    if ctx.json:
        return _value(info)
    a = args
    any_set = (a.kernel_name or a.nodename or a.kernel_release or a.kernel_version or
               a.machine or a.processor or a.hardware_platform or a.operating_system)
    fields: list[str] = []
    for flag, value in ((a.kernel_name or not (any_set or a.all), u.sysname),
                        (a.nodename, node), (a.kernel_release, release),
                        (a.kernel_version, version), (a.machine, u.machine)):
        if flag or a.all:
            fields.append(value)
    # GNU knows no processor or platform name on Linux: "unknown", left out of -a
    if a.processor:
        fields.append("unknown")
    if a.hardware_platform:
        fields.append("unknown")
    if a.operating_system or a.all:
        fields.append(info["os"])
    ctx.write(" ".join(fields) + "\n")
    return _written(info)


# ------------------------------------------------------------------------ whoami, hostname

@frozen
class NoArgs(Record):
    pass


def _session_or_host(ctx: Context, names: tuple[str, ...], neutral: str) -> str | None:
    """None (ask the host, as GNU does) when the kernel runs on the host's own filesystem;
    in a sandbox (a confined, in-memory or overlay kernel) the session's variable or a
    neutral value: the host's user and machine names stay out of a sandbox, as the host's
    environment does (docs/security.md, hermetic environment)."""
    from tysh.kernel.fs.local import LocalFileSystem

    if type(ctx.fs) is LocalFileSystem:
        return None
    for n in names:
        v = ctx.shell.get_var(n)
        if isinstance(v, str) and v:
            return v
    return neutral


@tool(
    "whoami", kind="shell",
    args=NoArgs,
    description="print the user name of the effective user ID",
    examples=[("who runs this shell?", "whoami")],
)
def whoami(args: NoArgs, ctx: Context) -> ToolReturn:
    name = _session_or_host(ctx, ("USER", "LOGNAME"), "user")
    if name is None:
        import pwd

        uid = os.geteuid()
        try:
            name = pwd.getpwuid(uid).pw_name
        except KeyError:
            ctx.error(f"cannot find name for user ID {uid}")
            return 1
    if ctx.json:
        return _value(name)
    ctx.write(name + "\n")
    return _written(name)


@value_record
class HostnameArgs(Record):
    name: tuple[str, ...] = param(positional=True, default=(),
                                  help="(refused: tysh's hostname only prints the name)")
    short: bool = param(default=False, aliases=["-s"], help="the name cut at the first dot")


@tool(
    "hostname", kind="shell",
    args=HostnameArgs,
    description="print the host's name (read-only: setting it is refused)",
    examples=[("the host name", "hostname"), ("without the domain", "hostname -s")],
)
def hostname(args: HostnameArgs, ctx: Context) -> ToolReturn:
    if args.name:
        ctx.error("setting the host name is not supported (tysh's hostname only prints it)")
        return 1
    name = _session_or_host(ctx, ("HOSTNAME",), "localhost")
    if name is None:
        import socket

        name = socket.gethostname()
    if args.short:
        name = name.split(".", 1)[0]
    if ctx.json:
        return _value(name)
    ctx.write(name + "\n")
    return _written(name)


TOOLS = [yes, printenv, nproc, uname, whoami, hostname]
