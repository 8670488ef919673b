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
