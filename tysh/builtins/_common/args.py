"""What a raw_argv or verbatim tool receives instead of an args class, and its words
as text."""

from __future__ import annotations

from tysh.kernel.base.hints import Protocol
from tysh.kernel.base.values import to_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


class RawArgs(Protocol):
    """The part of the binder's ToolArgs a raw_argv tool reads."""

    positional: list[Any]


class VerbatimArgs(Protocol):
    """The part of the binder's ToolArgs a verbatim tool reads."""

    words: list[Any] | None
    flag_words: frozenset[int]


def texts(values: Sequence[Any]) -> list[str]:
    """The words as text (a typed value, such as a number from typed substitution, as
    the shell would print it)."""
    return [v if type(v) is str else to_text(v) for v in values]
