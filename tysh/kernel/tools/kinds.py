"""What a tool does, as tool-call events name it: the tysh kind a tool declares, the ACP
`ToolKind` it maps to and the cross-harness label it is grouped under.

The kinds are an open set (an unknown kind reads as `other`); the labels come from this
one table so that equivalent operations share a label wherever they were reported. The
consumer of event streams (tysh.acp) reads the same table."""

from __future__ import annotations

from collections.abc import Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# tysh kind -> (ACP ToolKind, label)
KINDS: Final[dict[str, tuple[str, str]]] = {
    "read": ("read", "Read"),
    "edit": ("edit", "Edit"),
    "write": ("edit", "Write"),
    "delete": ("delete", "Delete"),
    "move": ("move", "Move"),
    "copy": ("edit", "Copy"),
    "list": ("read", "List Files"),
    "search": ("search", "Search"),
    "find": ("search", "Find Files"),
    "execute": ("execute", "Run Command"),
    "shell": ("execute", "Run Command"),
    "fetch": ("fetch", "Fetch"),
    "compute": ("other", "Compute"),
    "think": ("think", "Think"),
    "other": ("other", "Tool"),
}

# the ACP ToolKind values (agent-client-protocol's schema)
ACP_KINDS: Final[frozenset[str]] = frozenset(
    ("read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode",
     "other"))

# what an ACP kind alone says, for a call that carries no tysh envelope
ACP_LABELS: Final[dict[str, str]] = {
    "read": "Read", "edit": "Edit", "delete": "Delete", "move": "Move", "search": "Search",
    "execute": "Run Command", "think": "Think", "fetch": "Fetch", "switch_mode": "Tool",
    "other": "Tool",
}

# the namespaces tysh emits: a new source of tools is a new value
NAMESPACES: Final[tuple[str, ...]] = ("tysh", "user", "mcp", "host")

# the operations that leave the filesystem and processes as they were
_WRITES: Final[frozenset[str]] = frozenset(("fs.create", "fs.overwrite"))


def normal_kind(kind: object) -> str:
    """A kind as events carry it: a known kind as is, anything else `other`."""
    return kind if isinstance(kind, str) and kind in KINDS else "other"


def label_of(kind: str) -> str:
    return KINDS.get(kind, KINDS["other"])[1]


def acp_kind_of(kind: str) -> str:
    return KINDS.get(kind, KINDS["other"])[0]


def kind_from_operations(operations: Sequence[str]) -> str:
    """The kind a tool that declares none gets from what it declares it may do."""
    ops = set(operations)
    if "fs.remove" in ops and not ops & _WRITES:
        return "delete"
    if "fs.rename" in ops:
        return "move"
    if "proc.exec" in ops:
        return "execute"
    if ops & _WRITES:
        return "write"
    return "other"
