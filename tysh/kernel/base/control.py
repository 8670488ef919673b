"""Non-local control flow of the interpreter as exceptions: `exit`, `return`,
`break`/`continue` and fatal errors that end a non-interactive shell.

They unwind Python frames to the construct that owns them (the shell or subshell, the
function call, the loop), so every compound command stays a plain recursive call."""

from __future__ import annotations


class ControlFlow(Exception):
    """Base: never an error, never shown to the user."""


class ExitShell(ControlFlow):
    """`exit N`, `set -e`, a fatal expansion error: ends the (sub)shell with `status`."""

    def __init__(self, status: int, expansion: bool = False) -> None:
        super().__init__(status)
        self.status = status
        # a fatal expansion error (`set -u`, `${x:?}`): bash ends a subshell, `$(…)` or a
        # compound pipeline stage with status 1 for it, the shell itself with `status`
        self.expansion = expansion

    @property
    def subshell_status(self) -> int:
        """The status a subshell that this ends reports to its parent."""
        return 1 if self.expansion else self.status


class ReturnFromFunction(ControlFlow):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class BreakLoop(ControlFlow):
    def __init__(self, levels: int, status: int = 0) -> None:
        super().__init__(levels)
        self.levels = levels
        self.status = status  # the loop's status: bash's `break 0` leaves with 1


class ContinueLoop(ControlFlow):
    def __init__(self, levels: int) -> None:
        super().__init__(levels)
        self.levels = levels
