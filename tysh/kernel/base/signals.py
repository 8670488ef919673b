"""Signal names and numbers as bash spells them (`trap -l`, `trap -p`, `kill -l`).

On Linux the table is bash's own list; elsewhere it comes from Python's `signal`
module, imported only when a script names a signal."""

from __future__ import annotations

import sys

# bash's names on Linux in number order, from 1
_LINUX_NAMES = (
    "HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD "
    "CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS"
).split()


_table: tuple[tuple[int, str], ...] | None = None


def signal_table() -> tuple[tuple[int, str], ...]:
    """(number, name without SIG) of every signal, in number order."""
    global _table
    if _table is None:
        _table = _make_table()
    return _table


def _make_table() -> tuple[tuple[int, str], ...]:
    if sys.platform.startswith("linux"):
        import _signal  # type: ignore[import-not-found,unused-ignore]  # (`signal` loads enum)

        table = [(i, n) for i, n in enumerate(_LINUX_NAMES, 1)]
        lo, hi = int(_signal.SIGRTMIN), int(_signal.SIGRTMAX)
        half = (lo + hi) // 2
        for n in range(lo, hi + 1):
            if n == lo:
                name = "RTMIN"
            elif n == hi:
                name = "RTMAX"
            elif n <= half:
                name = f"RTMIN+{n - lo}"
            else:
                name = f"RTMAX-{hi - n}"
            table.append((n, name))
        return tuple(table)
    import signal

    found: dict[int, str] = {}
    for s in signal.Signals:
        if s.name.startswith("SIG") and not s.name.startswith("SIG_"):
            found.setdefault(int(s), s.name[3:])
    return tuple(sorted(found.items()))


def signal_number(spec: str) -> int | None:
    """The number of `HUP`, `SIGHUP`, `hup` or `1`; None when it names no signal."""
    if spec.isdigit():
        n = int(spec)
        return n if any(n == k for k, _ in signal_table()) else None
    name = spec.upper()
    if name.startswith("SIG"):
        name = name[3:]
    return next((k for k, n in signal_table() if n == name), None)


def signal_name(num: int) -> str | None:
    """`INT` for 2; None for a number that is no signal."""
    return next((n for k, n in signal_table() if k == num), None)


def listing() -> str:
    """`trap -l` / `kill -l`: every signal as ` N) SIGNAME`, five to a line, each
    followed by a tab but the fifth of a line (so a short last line ends in a tab)."""
    out = []
    for i, (n, name) in enumerate(signal_table(), 1):
        out.append(f"{n:2d}) SIG{name}" + ("\n" if i % 5 == 0 else "\t"))
    if not out[-1].endswith("\n"):
        out.append("\n")
    return "".join(out)
