"""Traps: the commands a script registers with `trap` for EXIT, ERR, DEBUG, RETURN and
signals, and when the interpreter runs them.

A trap is shell text run in the same interpreter as a function call would be, so it
reaches nothing the script could not. `$?` is kept across ERR, DEBUG, RETURN and
signal traps; `$LINENO` inside one is the line of the command it interrupted.

Signals reach a shell three ways: `kill -SIG $$` from the script (`deliver`), an
embedder's `Kernel.signal()`/`cancel()`, and for the CLI a real signal to the process
(an OS handler queues it). Either way the trap runs at the top-level shell's next
statement boundary, as bash runs a trap after the current command."""

from __future__ import annotations

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.base.streams import Fds
from tysh.kernel.base.values import to_text

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.interpreter import Interpreter
    from tysh.kernel.syntax import ast

PSEUDO = ("EXIT", "DEBUG", "ERR", "RETURN")

_parsed: dict[str, ast.Script] = {}
_PARSED_MAX = 256


def parse_action(interp: Interpreter, text: str) -> ast.Script | None:
    """The trap's text parsed (cached); None when it does not parse (reported)."""
    script = _parsed.get(text)
    if script is None:
        try:
            script = interp.parse(text)
        except TyshSyntaxError as e:
            interp.error(interp.cur_fds, "tysh: trap: " + e.format()[6:])
            return None
        if len(_parsed) >= _PARSED_MAX:
            _parsed.clear()
        _parsed[text] = script
    return script


def run_trap(interp: Interpreter, key: str, fds: Fds | None = None,
             keep_status: bool = True, line: int | None = None) -> None:
    """Run the trap for `key` ("EXIT", "ERR", "SIGINT", …) if one is set and it is not
    already running (a trap never interrupts itself)."""
    st = interp.state
    action = st.traps.get(key)
    if not action or key in interp.running_traps:
        return
    script = parse_action(interp, action)
    if script is None:
        return
    if fds is None:
        fds = interp.cur_fds
    saved_status = st.last_status
    saved_line = st.trap_line
    saved_stmt = st.stmt
    if line is not None:
        st.trap_line = line
    elif saved_line is None and saved_stmt is not None:
        st.trap_line = saved_stmt.pos.line
    saved_fds = interp.cur_fds
    interp.running_traps.add(key)
    suppress = interp.suppress_errexit
    interp.suppress_errexit = 0
    try:
        interp.run_script(script, fds)
    finally:
        interp.suppress_errexit = suppress
        interp.running_traps.discard(key)
        st.trap_line = saved_line
        st.stmt = saved_stmt
        interp.cur_fds = saved_fds
    if keep_status:
        st.last_status = saved_status


def run_exit_trap(interp: Interpreter, status: int, fds: Fds) -> int:
    """The shell ends with `status`: run its EXIT trap once (it sees `$?` = status);
    an `exit N` inside it gives the final status."""
    from tysh.kernel.base.control import ExitShell

    st = interp.state
    if not st.traps.get("EXIT"):
        return status
    st.last_status = status
    try:
        run_trap(interp, "EXIT", fds)
        st.traps.pop("EXIT", None)
    except ExitShell as e:
        st.traps.pop("EXIT", None)
        return e.status
    return status


def run_pending(interp: Interpreter) -> None:
    """Run the traps of the signals sent to the shell since the last statement."""
    control = interp.control
    pending = control.pending
    while pending:
        sig = pending.pop(0)
        key = _key(sig)
        if key is not None:
            run_trap(interp, key)


def deliver(interp: Interpreter, sig: int) -> bool:
    """A signal sent to the shell itself: True when a trap takes it (it runs at the top
    shell's next statement; an ignored one does nothing), False when the signal's
    default action applies."""
    action = interp.control.trapped.get(sig)
    if action is None:
        return False
    if action:
        interp.control.pending.append(sig)
    return True


def set_trap(interp: Interpreter, key: str, action: str | None) -> None:
    """`trap ACTION KEY` (None resets it to the default). The top-level shell of a
    host session (the CLI) also installs an OS handler, so a real signal runs it."""
    st = interp.state
    if st.traps_shown is not None:
        st.traps_shown = None
    if action is None:
        st.traps.pop(key, None)
    else:
        st.traps[key] = action
    if key in PSEUDO or st.subshell:
        return
    from tysh.kernel.base.signals import signal_number

    sig = signal_number(key)
    if sig is None:
        return
    if action is None:
        interp.control.trapped.pop(sig, None)
    else:
        interp.control.trapped[sig] = action
    if interp.host_signals:
        _install(interp, sig, action)


def _key(sig: int) -> str | None:
    from tysh.kernel.base.signals import signal_name

    name = signal_name(sig)
    return None if name is None else "SIG" + name


# the signals the process found ignored (SIG_IGN) before it first set a handler
_ignored_at_entry: dict[int, bool] = {}


def _install(interp: Interpreter, sig: int, action: str | None) -> None:
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    if sig in (signal.SIGKILL, signal.SIGSTOP):
        return
    control = interp.control
    ignored = _ignored_at_entry.get(sig)
    if ignored is None:
        ignored = _ignored_at_entry[sig] = signal.getsignal(sig) == signal.SIG_IGN
    if ignored:  # bash: a signal ignored when the shell started stays ignored
        return
    try:
        if action is None:
            signal.signal(sig, signal.default_int_handler if sig == signal.SIGINT
                          else signal.SIG_DFL)
        elif action == "":
            signal.signal(sig, signal.SIG_IGN)
        else:
            signal.signal(sig, lambda n, frame: control.pending.append(n))
    except (OSError, ValueError):
        pass


def listing(traps: dict[str, str], keys: list[str] | None = None) -> str:
    """`trap -p`: one `trap -- 'ACTION' NAME` line per trap, in bash's order (EXIT, the
    signals by number, DEBUG, ERR, RETURN)."""
    from tysh.kernel.base.signals import signal_number

    def order(k: str) -> tuple[int, int]:
        if k == "EXIT":
            return (0, 0)
        if k in PSEUDO:
            return (2, PSEUDO.index(k))
        return (1, signal_number(k) or 0)

    names = sorted(traps if keys is None else [k for k in keys if k in traps], key=order)
    return "".join(f"trap -- {_quote(traps[k])} {k}\n" for k in names)


def _quote(text: str) -> str:
    return "'" + to_text(text).replace("'", "'\\''") + "'"
