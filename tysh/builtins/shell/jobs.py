"""jobs, wait, kill and disown: the background jobs `cmd &` starts, as bash shows and
handles them (the job table itself is kernel/run/jobs.py).

A job is a thread on a fork of the session, and its `$!` a number no host process can
have: `kill` reaches jobs by pid or job spec, and the shell itself by `$$`. A sandboxed
session signals nothing else (any other pid is `No such process`, so a script cannot
probe or disturb the host's processes); a host session (the CLI) signals real processes
as bash does."""

from __future__ import annotations

import os

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import NAME, err
from tysh.kernel.base import signals
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.base.signals import signal_name, signal_table
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, Tool, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from tysh.kernel.run.session import Job, Session


# -- signals -------------------------------------------------------------------------------


def signal_number(spec: str) -> int | None:
    """The number of a signal given as a number, `HUP`, `SIGHUP` or `hup`; None when
    it names none. `0` is the test signal."""
    if spec.isdigit() and int(spec) == 0:
        return 0
    return signals.signal_number(spec)


# -- jobs ------------------------------------------------------------------------------------

@value_record
class JobsArgs(Record):
    specs: tuple[str, ...] = param((), positional=True,
                                   help="job specs (%1, %%, %+, %-, %name); all jobs by default")
    long: bool = param(False, aliases=["-l"], help="show each job's pid too")
    pids: bool = param(False, aliases=["-p"], help="show only the pids")
    changed: bool = param(False, aliases=["-n"],
                          help="only jobs that changed state since last shown")
    running: bool = param(False, aliases=["-r"], help="only running jobs")
    stopped: bool = param(False, aliases=["-s"], help="only stopped jobs (jobs never stop)")
    execute: bool = param(False, aliases=["-x"],
                          help="run SPECS as a command, each job spec replaced by its pid")


@tool("jobs", kind="shell", args=JobsArgs, session=True, operations=["proc.exec"],
      description="list the background jobs; --json gives number, pid, state and command",
      examples=[("what runs in the background", "sleep 5 & jobs"),
                ("the pids only", "jobs -p")])
def jobs(args: JobsArgs, ctx: Context, sh: Session) -> int | Outcome:
    table = sh.jobs
    if args.execute:
        return _jobs_execute(args, ctx, sh)
    listed = table.list_and_forget()
    status = 0
    if args.specs:
        chosen: list[Job] = []
        for spec in args.specs:
            got = table.find(spec)
            if isinstance(got, str):
                err(ctx, got)
                status = 1
            else:
                chosen.append(got)
        listed = chosen
    if args.stopped and not args.running:
        listed = []
    rows = [_job_record(j, table.marker(j)) for j in listed]  # as they are now
    if ctx.json:
        return Outcome(status, OutputData.text("", rich_json=rows))
    out: list[str] = []
    for j in listed:
        if args.pids:
            out.append(f"{j.pid}\n")
        elif args.long:
            out.append(f"[{j.number}]{table.marker(j)} {j.pid:5d} {j.state_text():<24s}"
                       f"{j.command}{' &' if j.running else ''}\n")
        else:
            out.append(f"[{j.number}]{table.marker(j)}  {j.state_text():<24s}"
                       f"{j.command}{' &' if j.running else ''}\n")
    ctx.write("".join(out))
    return Outcome(status, OutputData.value(lambda: rows))


def _job_record(j: Job, marker: str) -> dict[str, Any]:
    return {"number": j.number, "pid": j.pid, "state": j.state_text(),
            "status": j.status, "current": marker.strip() or None, "command": j.command}


def _jobs_execute(args: JobsArgs, ctx: Context, sh: Session) -> int:
    """`jobs -x CMD ARGS`: run CMD with every job spec among ARGS replaced by the pid."""
    if not args.specs:
        return 0
    argv: list[str] = []
    for w in args.specs:
        if w.startswith("%"):
            got = sh.jobs.find(w)
            argv.append(str(got.pid) if not isinstance(got, str) else w)
        else:
            argv.append(w)
    return sh.run_argv(argv, ctx.stdin, ctx.stdout, ctx.stderr)


# -- wait ------------------------------------------------------------------------------------

@value_record
class WaitArgs(Record):
    ids: tuple[str, ...] = param((), positional=True,
                                 help="pids ($!) or job specs (%1); all jobs by default")
    next: bool = param(False, aliases=["-n"],
                       help="wait for the next of the jobs to end and return its status")
    pid_var: str | None = param(None, aliases=["-p"],
                                help="store the pid of the job whose status is returned")
    force: bool = param(False, aliases=["-f"], help="wait until the jobs end (the default)")


@tool("wait", kind="shell", args=WaitArgs, session=True,
      description="wait for background jobs and return the status of the last one named",
      examples=[("wait for everything", "wait"), ("one job's status", "cmd & wait $!"),
                ("the first to finish", "wait -n")])
def wait(args: WaitArgs, ctx: Context, sh: Session) -> int:
    table = sh.jobs
    if args.pid_var is not None and not NAME.match(args.pid_var):
        err(ctx, f"`{args.pid_var}': not a valid identifier")
        return 2
    check = sh.check_boundary
    if args.next:
        return _wait_next(args, ctx, sh)
    if not args.ids:
        for each in table.wait_all(check):
            _report_signal(ctx, sh, each)
        return 0
    status = 0
    for spec in args.ids:
        found = _target(ctx, sh, spec)
        if isinstance(found, int):
            status = found
            continue
        _, job, pid = found
        if job is None:
            status = table.known_status(pid) or 0
        else:
            status = table.wait(job, check)
            _report_signal(ctx, sh, job)
        if args.pid_var is not None:
            sh.set_var(args.pid_var, str(pid))
    sh.state.pipestatus = [status]
    return status


def _wait_next(args: WaitArgs, ctx: Context, sh: Session) -> int:
    table = sh.jobs
    pool: list[Job] | None = None
    if args.ids:
        pool = []
        for spec in args.ids:
            found = _target(ctx, sh, spec, quiet_finished=False)
            if not isinstance(found, int) and found[1] is not None:
                pool.append(found[1])
        if not pool:
            return 127
    job = table.wait_any(pool, sh.check_boundary)
    if job is None:
        return 127
    _report_signal(ctx, sh, job)
    if args.pid_var is not None:
        sh.set_var(args.pid_var, str(job.pid))
    status = job.status if job.status is not None else 0
    sh.state.pipestatus = [status]
    return status


def _target(ctx: Context, sh: Session, spec: str, *, quiet_finished: bool = True
            ) -> int | tuple[str, Job | None, int]:
    """What a `wait` operand names: ("job", job, pid), ("done", None, pid) for a
    finished job known by pid — or the status to give after reporting why not."""
    table = sh.jobs
    if spec.startswith("%"):
        got = table.find(spec)
        if isinstance(got, str) or not table.owns(got):
            err(ctx, got if isinstance(got, str) else f"{spec}: no such job")
            return 127
        return "job", got, got.pid
    if not spec.isdigit():
        err(ctx, f"`{spec}': not a pid or valid job spec")
        return 1
    pid = int(spec)
    job = table.by_pid(pid)
    if job is not None and table.owns(job):
        return "job", job, pid
    job = table.disowned(pid)
    if job is not None:
        return "job", job, pid
    if quiet_finished and table.known_status(pid) is not None:
        return "done", None, pid
    if quiet_finished:
        err(ctx, f"pid {pid} is not a child of this shell")
    else:
        err(ctx, f"{pid}: no such job")
    return 127


def _report_signal(ctx: Context, sh: Session, job: Job) -> None:
    """bash's line on stderr for a job a signal ended (not for INT, TERM or PIPE)."""
    import _signal as signal  # type: ignore[import-not-found,unused-ignore]  # (no enum)

    sig = job.signal
    if not sig or sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        return
    line = sh.get_var("LINENO")
    where = f"line {line}: " if line else ""
    ctx.stderr.write(f"tysh: {where}{job.pid:5d} {job.state_text():<24s}{job.command}\n"
                     .encode("utf-8", "surrogateescape"))


# -- kill ------------------------------------------------------------------------------------

KILL_USAGE = ("kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... "
              "or kill -l [sigspec]")


@tool("kill", kind="shell", raw_argv=True, session=True, operations=["proc.signal"],
      description="send a signal to jobs (%1, $!) or processes; -l lists the signals",
      examples=[("stop a background job", "sleep 60 & kill $!"),
                ("by job spec and signal name", "kill -s HUP %1"),
                ("the signal names", "kill -l")])
def kill(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = texts(args.positional)
    if not words:
        ctx.stderr.write((KILL_USAGE + "\n").encode())
        return 2
    sig = 15
    w = words[0]
    if w in ("-l", "-L"):
        return _kill_list(ctx, words[1:])
    if w in ("-s", "-n"):
        if len(words) < 2:
            err(ctx, f"{w}: option requires an argument")
            return 1
        got = signal_number(words[1])
        if got is None:
            err(ctx, f"{words[1]}: invalid signal specification")
            return 1
        sig, words = got, words[2:]
    elif w.startswith("-") and w != "--" and len(w) > 1:
        got = signal_number(w[1:])
        if got is None:
            err(ctx, f"{w[1:]}: invalid signal specification")
            return 1
        sig, words = got, words[1:]
    if words and words[0] == "--":
        words = words[1:]
    if not words:
        ctx.stderr.write((KILL_USAGE + "\n").encode())
        return 2
    status = 0
    for target in words:
        if not _kill_one(ctx, sh, target, sig):
            status = 1
    return status


def _kill_list(ctx: Context, specs: list[str]) -> int:
    """`kill -l`: every signal, five to a line; `kill -l X`: a number's name (an exit
    status above 128 counts as its signal) or a name's number."""
    if specs and specs[0] == "--":
        specs = specs[1:]
    if not specs:
        cells = [f"{n:2d}) SIG{name}" for n, name in signal_table()]
        text = "".join(c + ("\n" if (i + 1) % 5 == 0 else "\t") for i, c in enumerate(cells))
        if len(cells) % 5:
            text += "\n"
        ctx.write(text)
        return 0
    status = 0
    for s in specs:
        if s.isdigit():
            n = int(s)
            if n > 128:
                n -= 128
            name = signal_name(n)
            if name is None:
                err(ctx, f"{s}: invalid signal specification")
                status = 1
            else:
                ctx.write(name + "\n")
        elif s.startswith("-"):
            err(ctx, f"{s}: option requires an argument" if s == "-s" else
                f"{s}: invalid signal specification")
            status = 1
        else:
            got = signal_number(s)
            if got is None:
                err(ctx, f"{s}: invalid signal specification")
                status = 1
            else:
                ctx.write(f"{got}\n")
    return status


def _kill_one(ctx: Context, sh: Session, target: str, sig: int) -> bool:
    table = sh.jobs
    if target.startswith("%"):
        got = table.find(target)
        if isinstance(got, str):
            err(ctx, got)
            return False
        return _signal_job(ctx, got, sig)
    body = target[1:] if target.startswith("-") else target
    if not body.isdigit():
        err(ctx, f"{target}: arguments must be process or job IDs")
        return False
    pid = int(target)
    job = table.by_pid(pid) or table.disowned(pid)
    if job is not None:
        return _signal_job(ctx, job, sig)
    if pid == sh.state.pid and pid > 0:
        return sh.signal_self(sig)
    if table.is_job_pid(pid) or not sh.host_session:
        # a finished job, or a sandbox: only the session's own jobs and itself exist
        err(ctx, f"({pid}) - No such process")
        return False
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        err(ctx, f"({pid}) - No such process")
        return False
    except PermissionError:
        err(ctx, f"({pid}) - Operation not permitted")
        return False
    except OSError as e:
        err(ctx, f"({pid}) - {e.strerror}")
        return False
    return True


def _signal_job(ctx: Context, job: Job, sig: int) -> bool:
    import _signal as signal  # type: ignore[import-not-found,unused-ignore]  # (no enum)

    if not job.running:
        err(ctx, f"({job.pid}) - No such process")
        return False
    if sig == 0:
        return True
    if sig in (signal.SIGSTOP, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU):
        err(ctx, f"({job.pid}) - a background job cannot be stopped in tysh")
        return False
    job.control.deliver(sig)
    return True


# -- disown ----------------------------------------------------------------------------------

@value_record
class DisownArgs(Record):
    specs: tuple[str, ...] = param((), positional=True,
                                   help="job specs or pids; the current job by default")
    all: bool = param(False, aliases=["-a"], help="every job")
    running: bool = param(False, aliases=["-r"], help="only running jobs")
    keep: bool = param(False, aliases=["-h"],
                       help="keep the job in the table (tysh sends no SIGHUP at exit anyway)")


@tool("disown", kind="shell", args=DisownArgs, session=True,
      description="take jobs out of the job table; they keep running")
def disown(args: DisownArgs, ctx: Context, sh: Session) -> int:
    table = sh.jobs
    status = 0
    chosen: list[Job] = []
    if args.all or (args.running and not args.specs):
        chosen = [j for j in table.jobs() if j.running or not args.running]
    elif not args.specs:
        cur = table.current()
        if cur is None:
            err(ctx, "current: no such job")
            return 1
        chosen = [cur]
    else:
        for spec in args.specs:
            got: Job | str | None
            if spec.isdigit():
                got = table.by_pid(int(spec)) or f"{spec}: no such job"
            else:
                got = table.find(spec)
            if isinstance(got, str):
                err(ctx, got)
                status = 1
            else:
                chosen.append(got)
    if not args.keep:
        for j in chosen:
            table.disown(j)
    return status


TOOLS: list[Tool] = [jobs, wait, kill, disown]
