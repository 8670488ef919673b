"""`ToolCallLog`: tool calls merged from an ACP event stream, read loosely.

It takes what an ACP client receives — `session/update` notifications whole, their
params, or bare `tool_call` / `tool_call_update` updates — from any agent, not only
tysh. Updates of one call share a `toolCallId` and merge, the last write winning field
by field; a call whose start arrives after its updates is merged the same way. The tool
identity envelope (`_meta["x.ai/tool"]`) is read loosely: any string namespace, an
unknown kind as `other`; an envelope that does not parse is treated as absent and the
call falls back to its `rawInput` and ACP `kind`. Feeding never raises: anything that is
not a tool-call update is counted in `skipped` and dropped."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from tysh.kernel.base.record import MutableRecord, Record, field, frozen, mutable
from tysh.kernel.tools.kinds import ACP_KINDS, ACP_LABELS, label_of, normal_kind

ENVELOPE_KEY = "x.ai/tool"
_FINAL = frozenset(("completed", "failed"))
_STATUSES = frozenset(("pending", "in_progress", "completed", "failed"))
_FIELDS = ("title", "status", "kind", "rawInput", "rawOutput", "locations", "content")


@frozen
class Envelope(Record):
    """The tool-identity envelope as read: version 1, every required key of its type."""

    name: str
    kind: str
    namespace: str
    label: str
    read_only: bool
    input: dict[str, Any] | None = None

    @staticmethod
    def parse(value: Any) -> Envelope | None:
        """The envelope in `value`, or None when it does not parse as version 1."""
        if not isinstance(value, dict):
            return None
        version = value.get("version")
        if type(version) is not int or version != 1:
            return None
        name, kind, ns, label = (value.get(k) for k in ("name", "kind", "namespace", "label"))
        read_only = value.get("read_only")
        if not isinstance(name, str) or not isinstance(kind, str) or not isinstance(ns, str) \
                or not isinstance(label, str) or not isinstance(read_only, bool):
            return None
        inp = value.get("input")
        kind = normal_kind(kind)
        return Envelope(name=name, kind=kind, namespace=ns,
                        label=label or label_of(kind), read_only=read_only,
                        input=inp if isinstance(inp, dict) else None)


@mutable
class ToolCall(MutableRecord):
    """One call as merged so far; every field may still be missing."""

    id: str
    title: str | None = None
    status: str | None = None
    acp_kind: str | None = None
    raw_input: Any = None
    raw_output: Any = None
    locations: list[str] = field(factory=list)
    content: list[Any] = field(factory=list)
    envelope_data: dict[str, Any] = field(factory=dict)
    started: bool = False  # its `tool_call` was seen

    @property
    def envelope(self) -> Envelope | None:
        return Envelope.parse(self.envelope_data) if self.envelope_data else None

    @property
    def kind(self) -> str:
        """The tysh kind: the envelope's, or `other`."""
        env = self.envelope
        return env.kind if env is not None else "other"

    @property
    def label(self) -> str:
        """The grouping key: the envelope's label, else what the ACP kind says."""
        env = self.envelope
        if env is not None:
            return env.label
        return ACP_LABELS.get(self.acp_kind or "other", "Tool")

    @property
    def namespace(self) -> str | None:
        env = self.envelope
        return env.namespace if env is not None else None

    @property
    def input(self) -> Any:
        """The envelope's canonical input; without an envelope, the raw input."""
        env = self.envelope
        if env is not None:
            return env.input
        return self.raw_input

    @property
    def name(self) -> str | None:
        env = self.envelope
        return env.name if env is not None else None


class ToolCallLog:
    """Tool calls by id, in the order they were first seen."""

    def __init__(self) -> None:
        self.calls: dict[str, ToolCall] = {}
        self.skipped = 0

    def __len__(self) -> int:
        return len(self.calls)

    def __iter__(self) -> Iterator[ToolCall]:
        return iter(list(self.calls.values()))

    def get(self, call_id: str) -> ToolCall | None:
        return self.calls.get(call_id)

    def feed(self, message: Any) -> ToolCall | None:
        """Merge one message; returns the call it touched, or None (counted skipped)."""
        try:
            return self._feed(message)
        except Exception:  # noqa: BLE001 — a stream never stops the log
            self.skipped += 1
            return None

    def feed_all(self, messages: Iterable[Any]) -> None:
        for m in messages:
            self.feed(m)

    def feed_line(self, line: str | bytes) -> ToolCall | None:
        """Merge one JSON line (a blank line is nothing; bad JSON is skipped)."""
        try:
            text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
            if not text.strip():
                return None
            value = json.loads(text)
        except (ValueError, TypeError, AttributeError, RecursionError):
            self.skipped += 1
            return None
        return self.feed(value)

    def feed_jsonl(self, lines: Iterable[str | bytes]) -> None:
        for line in lines:
            self.feed_line(line)

    def _feed(self, message: Any) -> ToolCall | None:
        update = _update_of(message)
        if update is None:
            self.skipped += 1
            return None
        kind = update.get("sessionUpdate")
        call_id = update.get("toolCallId")
        if kind not in ("tool_call", "tool_call_update") or not isinstance(call_id, str) \
                or not call_id:
            self.skipped += 1
            return None
        call = self.calls.get(call_id)
        if call is None:
            call = self.calls[call_id] = ToolCall(id=call_id)
        if kind == "tool_call":
            call.started = True
        for name in _FIELDS:
            if name in update:
                _merge(call, name, update[name])
        meta = update.get("_meta")
        if isinstance(meta, dict):
            env = meta.get(ENVELOPE_KEY)
            if isinstance(env, dict):
                call.envelope_data = {**call.envelope_data, **env}
        return call

    def by_label(self) -> dict[str, list[ToolCall]]:
        """The calls grouped by label, groups in order of first appearance."""
        out: dict[str, list[ToolCall]] = {}
        for c in self:
            out.setdefault(c.label, []).append(c)
        return out


def _update_of(message: Any) -> dict[str, Any] | None:
    """The update in a bare update, a notification's params or a JSON-RPC message."""
    for _ in range(3):
        if not isinstance(message, dict):
            return None
        if "sessionUpdate" in message:
            return message
        if "params" in message:
            message = message["params"]
        elif "update" in message:
            message = message["update"]
        else:
            return None
    return None


def _merge(call: ToolCall, field: str, value: Any) -> None:
    if field == "title":
        if isinstance(value, str):
            call.title = value
    elif field == "status":
        # a call already over stays over when a late or reordered update says otherwise
        if value in _STATUSES and not (call.status in _FINAL and value not in _FINAL):
            call.status = value
    elif field == "kind":
        if isinstance(value, str):
            call.acp_kind = value if value in ACP_KINDS else "other"
    elif field == "rawInput":
        call.raw_input = value
    elif field == "rawOutput":
        call.raw_output = value
    elif field == "locations":
        if isinstance(value, list):
            call.locations = [x["path"] for x in value
                              if isinstance(x, dict) and isinstance(x.get("path"), str)]
    elif field == "content" and isinstance(value, list):
        call.content = list(value)
