"""Errors as values: each carries the message a person can act on and the exit status."""

from __future__ import annotations


class TyshError(Exception):
    """Base of tysh's own errors; `status` is the exit code the shell reports."""

    status: int = 1

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status

    def __str__(self) -> str:
        return self.message


class TyshSyntaxError(TyshError):
    """A syntax error: nothing of the script runs (it is parsed whole first), exit status 2.

    `line`/`col` are 1-based and point at the offending character; `source_line` is that
    line of the source so `format()` can draw a caret under it. `incomplete` is true when
    the source is a valid prefix that needs more input (an open quote, `if` without `fi`,
    a trailing `|`): the REPL asks for another line instead of reporting the error.
    """

    status: int = 2

    def __init__(
        self,
        message: str,
        line: int,
        col: int,
        source_line: str = "",
        *,
        incomplete: bool = False,
    ) -> None:
        super().__init__(message, 2)
        self.line = line
        self.col = col
        self.source_line = source_line
        self.incomplete = incomplete

    def __str__(self) -> str:
        return f"syntax error at {self.line}:{self.col}: {self.message}"

    def format(self) -> str:
        """`tysh: syntax error at L:C: MESSAGE`, the source line, and a caret under the column."""
        text = f"tysh: syntax error at {self.line}:{self.col}: {self.message}"
        if not self.source_line:
            return text
        # Keep tabs in the caret's indentation so it lines up under tab-indented source.
        pad = "".join(c if c == "\t" else " " for c in self.source_line[: max(self.col - 1, 0)])
        return f"{text}\n{self.source_line}\n{pad}^"


class ExpansionError(TyshError):
    """A word could not be expanded (`no matches`, `x: unbound variable`, `division by 0`).

    `fatal` errors end a non-interactive shell (bash exits on `${x:?}`, `set -u` and
    `$((…))` faults); the others fail only the command being expanded."""

    def __init__(self, message: str, status: int = 1, fatal: bool = False) -> None:
        super().__init__(message, status)
        self.fatal = fatal


class VarError(TyshError):
    """Assigning a readonly variable and similar misuse of a variable; status 1."""
