"""Typed output: what a tool returns, its canonical text and its JSON.

A tool that has structure returns OutputData; the kernel renders it as text for pipes,
redirects and `$(…)`, as JSON under `--json`, and as rich tables only on a terminal.
"""

from __future__ import annotations

from tysh.kernel.base.record import MutableRecord, Record, frozen
from tysh.kernel.base.values import b64encode, to_json_value, to_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

_set = object.__setattr__


@frozen
class OutputNode(Record):
    name: str = ""
    entry_type: str = "text"
    text: str | None = None
    cells: tuple[Any, ...] = ()
    children: tuple[OutputNode, ...] = ()
    line: int | None = None

    def __init__(self, name: str = "", entry_type: str = "text", text: str | None = None,
                 cells: Iterable[Any] | None = (), children: Iterable[OutputNode] | None = (),
                 line: int | None = None) -> None:
        _set(self, "name", name)
        _set(self, "entry_type", entry_type)
        _set(self, "text", text)
        _set(self, "cells", cells if type(cells) is tuple else tuple(cells or ()))
        _set(self, "children", children if type(children) is tuple else tuple(children or ()))
        _set(self, "line", line)

    def label(self) -> str:
        return self.text if self.text is not None and not self.name else self.name


# the nodes of every `OutputData.value`: one empty text, whose canonical text is "" (the
# tool wrote its text already), shared since nodes are immutable
STREAMED: tuple[OutputNode, ...] = (OutputNode(text=""),)


@frozen
class OutputData(Record):
    headers: tuple[str, ...] | None = None
    root: tuple[OutputNode, ...] = ()
    # the JSON form, or a function of no arguments that computes it when first asked
    # (a tool's typed value in text mode, built only if someone reads it)
    rich_json: Any = None

    def __init__(self, headers: Iterable[str] | None = None,
                 root: Iterable[OutputNode] | None = (), rich_json: Any = None) -> None:
        _set(self, "headers", None if headers is None else tuple(headers))
        _set(self, "root", root if type(root) is tuple else tuple(root or ()))
        _set(self, "rich_json", rich_json)

    # -- constructors -------------------------------------------------------
    @classmethod
    def text(cls, s: str, rich_json: Any = None) -> OutputData:
        return cls(None, (OutputNode(text=s),), rich_json)

    @classmethod
    def value(cls, compute: Callable[[], Any]) -> OutputData:
        """The typed value of a tool that wrote its text itself: no text of its own, and
        `compute` runs only when the value is read (`r.data`, `$(…)` events)."""
        return cls(None, STREAMED, compute)

    @classmethod
    def nodes(cls, nodes: list[OutputNode], rich_json: Any = None) -> OutputData:
        return cls(None, tuple(nodes), rich_json)

    @classmethod
    def table(
        cls, headers: list[str], rows: list[list[Any]], rich_json: Any = None
    ) -> OutputData:
        nodes = [
            OutputNode(name=to_text(r[0]) if r else "", cells=tuple(r[1:])) for r in rows
        ]
        return cls(tuple(headers), tuple(nodes), rich_json)

    @classmethod
    def tree(cls, root: list[OutputNode], rich_json: Any = None) -> OutputData:
        return cls(None, tuple(root), rich_json)

    # -- shape --------------------------------------------------------------
    def is_simple_text(self) -> bool:
        return (
            self.headers is None
            and len(self.root) == 1
            and self.root[0].text is not None
            and not self.root[0].name
            and not self.root[0].children
            and not self.root[0].cells
        )

    def is_tree(self) -> bool:
        return any(n.children for n in self.root)

    # -- renderings ---------------------------------------------------------
    def to_text(self) -> str:
        """Canonical text: simple text as is, a flat list one line per node
        (name, then tab-separated cells), a tree as indented lines."""
        if self.is_simple_text():
            return self.root[0].text or ""
        lines: list[str] = []

        def walk(n: OutputNode, depth: int) -> None:
            label = n.name if n.name else (n.text or "")
            parts = [label, *(to_text(c) for c in n.cells)]
            lines.append("  " * depth + "\t".join(parts))
            for c in n.children:
                walk(c, depth + 1)

        for n in self.root:
            walk(n, 0)
        return "".join(line + "\n" for line in lines)

    def to_json(self) -> Any:
        """The JSON form, first match wins: rich_json as given, simple text as a string,
        a table as a list of objects keyed by its headers, a tree as nested
        name/type/children objects, any other list as a list of labels."""
        rich = self.rich_json
        if rich is not None:
            return to_json_value(rich() if callable(rich) else rich)
        if self.is_simple_text():
            return self.root[0].text
        if self.headers is not None:
            out = []
            for n in self.root:
                values = [n.name, *n.cells]
                out.append(
                    {h: to_json_value(values[i]) if i < len(values) else None
                     for i, h in enumerate(self.headers)}
                )
            return out
        if self.is_tree():
            def obj(n: OutputNode) -> Any:
                d: dict[str, Any] = {"name": n.label(), "type": n.entry_type}
                if n.children:
                    d["children"] = [obj(c) for c in n.children]
                return d

            return [obj(n) for n in self.root]
        if not self.root:
            return []
        return [n.label() for n in self.root]


def _one_newline(err: str) -> str:
    """`err` is empty or ends with exactly one newline."""
    if not err:
        return err
    trimmed = err.rstrip("\n")
    return trimmed + "\n" if trimmed else ""


class ExecResult(MutableRecord):
    """What running a command or script gives back: status, streams and typed data.
    Its fields may be assigned (`err` keeps its one trailing newline when set);
    `result.evolve(code=1)` is a copy with fields changed."""

    __slots__ = ("code", "out", "_err", "raw_data", "output", "truncated", "_plain")
    __record_fields__ = ("code", "out", "err", "raw_data", "output", "truncated")
    __record_own_init__ = True
    __match_args__ = ("code", "out", "err", "raw_data", "output", "truncated")

    def __init__(self, code: int = 0, out: str | bytes = "", err: str = "", data: Any = None,
                 output: OutputData | None = None, truncated: bool = False) -> None:
        self.code = code
        self.out = out
        self._err = _one_newline(err) if err else err
        # the last command's typed value as the run left it (`data` gives it as plain
        # JSON values, computed on first read: a run whose value nobody reads never
        # builds it)
        self.raw_data = data
        self.output = output
        self.truncated = truncated
        # (`_plain` is left unset until `data` is first read)

    @property
    def err(self) -> str:
        """stderr: empty, or ending with exactly one newline."""
        return self._err

    @err.setter
    def err(self, value: str) -> None:
        self._err = _one_newline(value)

    @property
    def data(self) -> Any:
        """The last command's typed value, as plain JSON values (see `plain_data`)."""
        try:
            return self._plain
        except AttributeError:
            self._plain: Any = plain_data(self.raw_data)
            return self._plain

    def evolve(self, **changes: Any) -> ExecResult:
        """A copy with the given fields changed (`data=` sets the typed value)."""
        if "raw_data" in changes:
            changes["data"] = changes.pop("raw_data")
        values: dict[str, Any] = {"code": self.code, "out": self.out, "err": self.err,
                                  "data": self.raw_data, "output": self.output,
                                  "truncated": self.truncated}
        unknown = set(changes).difference(values)
        if unknown:
            raise TypeError(f"ExecResult has no field {sorted(unknown)[0]!r}")
        values.update(changes)
        return ExecResult(**values)

    __replace__ = evolve

    def text_out(self) -> str:
        if isinstance(self.out, bytes):
            return self.out.decode("utf-8", "surrogateescape")
        if self.out or self.output is None:
            return self.out
        return self.output.to_text()

    @property
    def ok(self) -> bool:
        return self.code == 0

    def text(self) -> str:
        """stdout as text any JSON encoder or model API takes: each byte that is not
        valid UTF-8 becomes U+FFFD (the replacement character). `out` keeps the exact
        bytes (as surrogateescape text, or bytes with `binary=True`)."""
        return _safe_text(self.text_out())

    def json(self) -> dict[str, Any]:
        """The result as plain JSON values — `code`, `out` and `err` (as `text()`:
        invalid bytes are U+FFFD), `data` (the last command's typed value, or None) and
        `truncated` — ready for `json.dumps`."""
        return {
            "code": self.code,
            "out": self.text(),
            "err": _safe_text(self.err),
            "data": self.data,
            "truncated": self.truncated,
        }


def _safe_text(text: str) -> str:
    """`text` with every lone surrogate (an undecodable byte kept by surrogateescape,
    or one that came in as text) replaced by U+FFFD."""
    if text.isascii():
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace").encode(
        "utf-8", "replace").decode("utf-8")


def plain_data(data: Any) -> Any:
    """A command's typed value as plain JSON values: structured output as its JSON form,
    bytes as a base64 envelope, text with invalid bytes as U+FFFD."""
    if data is None:
        return None
    if isinstance(data, OutputData):
        data = data.to_json()
    return _plain(to_json_value(data))


def _plain(v: Any) -> Any:
    if isinstance(v, str):
        return _safe_text(v)
    if isinstance(v, dict):
        return {_safe_text(str(k)): _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if v is None or isinstance(v, (bool, int, float)):
        return v
    return _safe_text(str(v))


def _no_output(output: OutputData | None) -> bool:
    """No structured output worth encoding: none at all, or an empty one (a tool that
    failed before producing anything, like `cat --json missing.txt`)."""
    return output is None or (
        output.rich_json in (None, [], {}, "") and not output.to_text()
    )


def apply_output_format(result: ExecResult, json: bool, owns_output: bool = False) -> ExecResult:
    """Turn a result into its `--json` form; text mode leaves it alone.

    The JSON text lands in `out` (newline-terminated), `data` keeps the decoded value,
    and `output` is cleared so nothing is encoded twice."""
    if not json or (owns_output and result.code == 0):
        return result
    from tysh.kernel.base.values import to_json_text

    value: Any
    if isinstance(result.out, bytes):
        raw = result.out
        value = {
            "_type": "bytes",
            "encoding": "base64",
            "data": b64encode(raw).decode("ascii"),
            "len": len(raw),
        }
    elif not result.out and _no_output(result.output) and result.code != 0 and result.err:
        value = {"error": result.err.rstrip("\n"), "code": result.code}
    elif result.output is not None:
        value = result.output.to_json()
    elif result.raw_data is not None:
        value = to_json_value(result.raw_data)
    else:
        value = result.out
    return ExecResult(
        code=result.code,
        out=to_json_text(value) + "\n",
        err=result.err,
        data=value,
        output=None,
        truncated=result.truncated,
    )

