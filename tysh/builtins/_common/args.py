"""What a raw_argv or verbatim tool receives instead of an args class, and its words
as text."""

from __future__ import annotations

from tysh.kernel.base.hints import Protocol
from tysh.kernel.base.values import to_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, TypeVar

    A = TypeVar("A")
    V = TypeVar("V")


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


# what a `by_args` function holds before its first call
_NONE_YET: Any = (object(), None)


def by_args(fn: Callable[[A], V]) -> Callable[[A], V]:
    """`fn`, a pure function of a tool's args (what its options ask for, or the message
    that refuses them), remembered for the args object it was last asked about: a
    command bound once keeps its args object from run to run (a loop's body, an
    embedder's repeated execute), so its options are looked at once, not on every run.
    A command bound afresh each run (its words expand, it has a redirection) pays one
    identity check more than `fn` itself. The entry holds its args, so an id is never
    mistaken for another object's."""
    # one tuple, so a thread never sees one object's args with another's answer
    last: tuple[object, V] = _NONE_YET

    def remembered(a: A) -> V:
        nonlocal last
        seen = last
        if seen[0] is a:
            return seen[1]
        got = fn(a)
        last = (a, got)
        return got

    return remembered
