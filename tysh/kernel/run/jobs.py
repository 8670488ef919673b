"""Background jobs: the table `cmd &` fills and `jobs`, `wait`, `kill` and `disown` read.

A job is a thread running a statement on a fork of the session, with its own stop switch
(`JobControl`) under its shell's: `kill` stops that one job — its in-process commands at
their next stop point, the external processes it started with the signal itself — and a
kernel's `cancel()` still stops every job. A job's `$!` is a number above Linux's
largest possible process id, so it never names a host process: `kill $!` reaches the
job, never a stranger.

One table belongs to one (sub)shell, as in bash: a subshell does not wait for its
parent's jobs; a pipeline stage or a command substitution still lists and signals them
(`jobs | wc -l`, `$(jobs -p)`), a `( … )` subshell does not see them at all. Finished jobs stay addressable by job spec (`wait %1`) until a
new job starts, `jobs` runs, or they are waited for; their statuses stay known by pid
(`wait $pid`) for the last `REMEMBERED` jobs."""

from __future__ import annotations

import _signal  # type: ignore[import-not-found,unused-ignore]  # (`signal` loads enum)
import itertools
import os
import threading
import time

from tysh.kernel.base.limits import RunControl
from tysh.kernel.base.threads import deep_recursion

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Callable
    from typing import Any

# Linux's PID_MAX_LIMIT is 2**22: no host process ever has a pid above it
PID_BASE = (1 << 22) + 1
_pids = itertools.count(PID_BASE)  # process-wide, so no two kernels' jobs share a pid
_pid_lock = threading.Lock()

REMEMBERED = 1024  # finished jobs whose status `wait PID` still knows

# signals whose default action leaves a process running (bash's shell ignores them too)
HARMLESS = frozenset({_signal.SIGCHLD, _signal.SIGCONT, _signal.SIGURG, _signal.SIGWINCH})
# signals that would stop a process; a job is a thread and cannot be stopped
STOPPING = frozenset({_signal.SIGSTOP, _signal.SIGTSTP, _signal.SIGTTIN, _signal.SIGTTOU})
# a job ended by one of these is not reported on stderr (bash's rule)
QUIET = frozenset({_signal.SIGINT, _signal.SIGTERM, _signal.SIGPIPE})


def _next_pid() -> int:
    with _pid_lock:
        return next(_pids)


class JobControl(RunControl):
    """One job's stop switch: cancelled when the job is killed or when its shell's
    control is (a kernel's `cancel()`); the external processes it starts are known to
    both, so either can end them."""

    def __init__(self, parent: RunControl) -> None:
        self.parent = parent
        self._own = False
        self.signal = 0  # the signal that ended the job, 0 while none has
        self._stopped = False  # stop() was called: what starts from now on is killed
        self._mine: set[subprocess.Popen[Any]] = set()
        self._mine_lock = threading.Lock()
        super().__init__(parent.process_groups, parent.check_streams)
        self.root = parent.root
        self.quiet_interrupt = parent.quiet_interrupt
        self.simple = False  # the job is one simple command (`prog args &`)

    @property
    def cancelled(self) -> bool:
        return self._own or self.parent.cancelled

    @cancelled.setter
    def cancelled(self, value: bool) -> None:
        self._own = value

    def track(self, proc: subprocess.Popen[Any]) -> None:
        self.parent.track(proc)
        with self._mine_lock:
            self._mine.add(proc)
            late = self.signal
            stopped = self._stopped
        if stopped:
            # a job being reaped: a process it starts late dies as the others did (a
            # sandbox's monitor may still be setting up, when a SIGTERM can be lost)
            self.kill(proc)
        elif late:
            self._send(proc, late)

    def untrack(self, proc: subprocess.Popen[Any]) -> None:
        with self._mine_lock:
            self._mine.discard(proc)
        self.parent.untrack(proc)

    def deliver(self, sig: int) -> None:
        """Send `sig` to the job: its external processes get the signal, and unless the
        signal leaves a process running, the job's own commands stop at their next stop
        point and the job ends with 128+sig."""
        with self._mine_lock:
            procs = list(self._mine)
            # `prog &` is the program itself in bash: the signal is its alone, and its
            # status (handled, ignored or killed) is the job's
            if procs and self.simple:
                pass
            elif sig not in HARMLESS and not (
                    self.quiet_interrupt and sig in (_signal.SIGINT, _signal.SIGQUIT)):
                self.signal = sig
                self._own = True
        for p in procs:
            self._send(p, sig)

    def stop(self) -> None:
        """End the job quietly (the kernel reaps it, or is cancelled or closed): its
        commands stop at their next stop point and it ends with 128+SIGTERM; its
        external processes are killed with their process groups."""
        with self._mine_lock:
            procs = list(self._mine)
            if not self.signal:
                self.signal = _signal.SIGTERM
            self._own = True
            self._stopped = True
        for p in procs:
            self.kill(p)

    def _send(self, proc: subprocess.Popen[Any], sig: int) -> None:
        try:
            if self.process_groups:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
        except (ProcessLookupError, PermissionError, OSError):
            pass


class Job:
    """One background job: its number (`%N`), its pid (`$!`), the command as `jobs`
    shows it, its thread and control; `status` is None while it runs."""

    def __init__(self, number: int, pid: int, command: str, control: JobControl) -> None:
        self.number = number
        self.pid = pid
        self.command = command
        self.control = control
        self.thread: threading.Thread | None = None
        self.status: int | None = None
        self.finished_at = 0.0

    @property
    def running(self) -> bool:
        return self.status is None

    @property
    def signal(self) -> int:
        """The signal that ended the job (0 when it ended on its own or still runs)."""
        return self.control.signal if self.status is not None else 0

    def state_text(self) -> str:
        """`jobs`'s word for its state: Running, Done, Exit N, or the signal's name."""
        if self.status is None:
            return "Running"
        if self.signal:
            return signal_description(self.signal)
        return "Done" if self.status == 0 else f"Exit {self.status}"


def signal_description(sig: int) -> str:
    """What bash calls a signal in job reports (`Hangup`, `Killed`, `Terminated`)."""
    try:
        text = _signal.strsignal(sig)
    except ValueError:
        text = None
    return text or f"Signal {sig}"


class JobTable:
    """The background jobs of one (sub)shell."""

    def __init__(self, inherited: tuple[Job, ...] = ()) -> None:
        # the parent shell's jobs, as a pipeline stage or `$(…)` sees them: listed and
        # signalled, never waited for
        self.inherited = inherited
        self._jobs: dict[int, Job] = {}  # by number, in start order
        self._statuses: dict[int, int] = {}  # pid -> status, finished
        self._finished: list[Job] = []  # finished and not waited for, in order of ending
        self._disowned: dict[int, Job] = {}  # pid -> job, still running
        self._cond = threading.Condition()

    # ------------------------------------------------------------------ starting
    def start(self, command: str, parent: RunControl,
              body: Callable[[JobControl], int], launch: Callable[[threading.Thread], None],
              cap: int | None = None, quiet_interrupt: bool = False,
              simple: bool = False) -> Job | None:
        """Run `body(control)` as a new job in a thread started by `launch`; the job's
        status is what `body` returns (128+N when a signal N ended it). None when `cap`
        jobs of the kernel (counted by its root control) are already running."""
        root = parent.root
        with self._cond:
            self._drop_finished()
            number = max((j.number for j in (*self.inherited, *self._jobs.values())),
                         default=0) + 1
            job = Job(number, _next_pid(), command, JobControl(parent))
            if quiet_interrupt:
                job.control.quiet_interrupt = True
            job.control.simple = simple
            if not root.add_job(job, cap):
                return None
            self._jobs[number] = job

        def run() -> None:
            status = 1
            try:
                with deep_recursion():  # a kept job may outlive the call that started it
                    status = body(job.control)
            finally:
                if job.control.signal:
                    status = 128 + job.control.signal
                self._finish(job, status)
                root.job_ended(job)

        t = threading.Thread(target=run, daemon=True, name=f"tysh-job-{job.pid}")
        job.thread = t
        try:
            launch(t)
        except BaseException:
            # a job that never started is not listed: nothing may wait for it
            with self._cond:
                if self._jobs.get(job.number) is job:
                    del self._jobs[job.number]
            root.job_ended(job)
            raise
        return job

    def view(self) -> JobTable:
        """A new table for a pipeline stage or command substitution of this shell."""
        return JobTable(tuple(self._all()))

    def _all(self) -> list[Job]:
        """The inherited jobs and this table's own, in start order."""
        with self._cond:
            own = list(self._jobs.values())
        return [*self.inherited, *own] if self.inherited else own

    def owns(self, job: Job) -> bool:
        """Whether `job` was started by this shell (only those can be waited for)."""
        with self._cond:
            return self._jobs.get(job.number) is job

    def _finish(self, job: Job, status: int) -> None:
        with self._cond:
            job.status = status
            job.finished_at = time.monotonic()
            self._statuses[job.pid] = status
            self._disowned.pop(job.pid, None)
            while len(self._statuses) > REMEMBERED:
                del self._statuses[next(iter(self._statuses))]
            if job.number in self._jobs and self._jobs[job.number] is job:
                self._finished.append(job)
            self._cond.notify_all()

    def _drop_finished(self) -> None:
        """Forget the finished jobs by number (bash's clean-up between commands); their
        status stays known by pid."""
        for n in [n for n, j in self._jobs.items() if not j.running]:
            del self._jobs[n]
        self._finished.clear()

    # ------------------------------------------------------------------ looking up
    def jobs(self) -> list[Job]:
        """Every job in the table (inherited ones too), by number."""
        return sorted(self._all(), key=lambda j: j.number)

    def running(self) -> list[Job]:
        return [j for j in self.jobs() if j.running]

    def list_and_forget(self) -> list[Job]:
        """What `jobs` shows: the jobs still running (a non-interactive bash forgets
        finished ones without a word); the finished ones are dropped by number."""
        with self._cond:
            self._drop_finished()
        return [j for j in self.jobs() if j.running or j not in self.inherited]

    def current(self) -> Job | None:
        """`%+`/`%%`: the job started last."""
        order = self._all()
        return order[-1] if order else None

    def previous(self) -> Job | None:
        """`%-`: the job started before the current one (the current one when alone)."""
        order = self._all()
        if len(order) >= 2:
            return order[-2]
        return order[-1] if order else None

    def by_pid(self, pid: int) -> Job | None:
        return next((j for j in self._all() if j.pid == pid), None)

    @staticmethod
    def is_job_pid(pid: int) -> bool:
        """Whether `pid` is in the range job pids come from (no host process's)."""
        return pid >= PID_BASE

    def known_status(self, pid: int) -> int | None:
        """The status of a finished job by pid, when it is remembered."""
        with self._cond:
            return self._statuses.get(pid)

    def find(self, spec: str) -> Job | str:
        """The job a job spec names (`%1`, `%%`, `%+`, `%-`, `%name`, `%?text`), or the
        message saying why there is none."""
        body = spec[1:] if spec.startswith("%") else spec
        if body in ("", "%", "+"):
            got = self.current()
            return got if got is not None else f"{spec or '%'}: no such job"
        if body == "-":
            got = self.previous()
            return got if got is not None else f"{spec}: no such job"
        if body.isdigit():
            found = next((j for j in self._all() if j.number == int(body)), None)
            return found if found is not None else f"{spec}: no such job"
        if body.startswith("?"):
            text = body[1:]
            hits = [j for j in self.jobs() if text in j.command]
        else:
            hits = [j for j in self.jobs() if j.command.startswith(body)]
        if len(hits) > 1:
            return f"{body}: ambiguous job spec"
        return hits[0] if hits else f"{spec}: no such job"

    def marker(self, job: Job) -> str:
        """`+` for the current job, `-` for the previous one, else a space."""
        order = self._all()
        if order and order[-1] is job:
            return "+"
        if len(order) >= 2 and order[-2] is job:
            return "-"
        return " "

    # ------------------------------------------------------------------ waiting
    def wait(self, job: Job, check: Callable[[], None]) -> int:
        """Wait until `job` ends and forget it; its status. `check` is called while
        waiting so a cancel or a deadline ends the wait (it raises)."""
        with self._cond:
            while job.status is None:
                check()
                self._cond.wait(0.05)
            self._collect(job)
            self._disowned.pop(job.pid, None)
            return job.status

    def wait_any(self, jobs: list[Job] | None, check: Callable[[], None]) -> Job | None:
        """`wait -n`: the first of `jobs` (None: of every job) to end — a job that has
        already ended and was not waited for counts first; None when there is none."""
        with self._cond:
            while True:
                pool = list(self._jobs.values()) if jobs is None else [
                    j for j in jobs if self._jobs.get(j.number) is j]
                if not pool:
                    return None
                done = [j for j in self._finished if j in pool]
                if done:
                    self._collect(done[0])
                    return done[0]
                check()
                self._cond.wait(0.05)

    def wait_all(self, check: Callable[[], None]) -> list[Job]:
        """Plain `wait`: until every job has ended; the table is empty afterwards.
        Returns the jobs it collected."""
        with self._cond:
            while any(j.running for j in self._jobs.values()):
                check()
                self._cond.wait(0.05)
            done = list(self._jobs.values())
            self._jobs.clear()
            self._finished.clear()
            return done

    def disowned(self, pid: int) -> Job | None:
        """A disowned job still running, by pid: `wait PID` may still wait for it."""
        with self._cond:
            return self._disowned.get(pid)

    def _collect(self, job: Job) -> None:
        if self._jobs.get(job.number) is job:
            del self._jobs[job.number]
        if job in self._finished:
            self._finished.remove(job)

    # ------------------------------------------------------------------ changing
    def disown(self, job: Job) -> None:
        """Take a job out of the table; it runs on, but `jobs`, `wait` and job specs no
        longer see it (its status is still recorded by pid when it ends)."""
        with self._cond:
            self._collect(job)
            if job.running:
                self._disowned[job.pid] = job
