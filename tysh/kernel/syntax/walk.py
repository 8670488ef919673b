"""Generic traversal of the syntax tree, for checks and plans that read a script
without running it. Iterative (a 10,000-deep `$(…)` nest must not hit Python's
recursion limit) and with the field names of each node type looked up once."""

from __future__ import annotations

from tysh.kernel.base.record import is_record, record_fields
from tysh.kernel.syntax import ast

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

# every node class of the syntax tree (positions excluded)
_NODE_TYPES = frozenset(
    v for v in vars(ast).values()
    if is_record(v) and v is not ast.Pos
)
_FIELDS: dict[type, tuple[str, ...]] = {}
# field annotations that never hold a node (ast.py uses postponed annotations: strings)
_LEAF_TYPES = frozenset({"str", "int", "bool", "int | None", "str | None", "Pos"})


def _fields(t: type) -> tuple[str, ...]:
    """The names of the fields of a node type that may hold child nodes."""
    names = _FIELDS.get(t)
    if names is None:
        names = tuple(
            name for name, ann in record_fields(t) if ann not in _LEAF_TYPES
        ) if is_record(t) else ()
        _FIELDS[t] = names
    return names


def _push_nodes(v: Any, out: list[Any]) -> None:
    """Append the AST nodes in a field value (a node, or tuples of them) to `out`."""
    if type(v) is tuple:
        for x in v:
            if type(x) is tuple:
                _push_nodes(x, out)
            elif x is not None and type(x) in _NODE_TYPES:
                out.append(x)
    elif v is not None and type(v) in _NODE_TYPES:
        out.append(v)


def children(node: Any) -> list[Any]:
    """The direct child nodes of an AST node, in source order."""
    out: list[Any] = []
    for name in _FIELDS.get(type(node)) or _fields(type(node)):
        v = getattr(node, name)
        if v is not None:
            _push_nodes(v, out)
    return out


def walk(node: Any) -> Iterator[Any]:
    """Every node under `node`, depth first in source order, `node` included."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        kids = children(n)
        kids.reverse()
        stack.extend(kids)


# node types that hold a separate script: its commands are visited on their own
SCRIPT_HOLDERS = (ast.Script, ast.CmdSub, ast.ProcSub)


def local_nodes(node: Any) -> Iterator[Any]:
    """The nodes of one command that are not inside a nested script: its words,
    redirects and conditions; a `$(…)` or `<(…)` is yielded but its body is not entered."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if n is not node and isinstance(n, SCRIPT_HOLDERS):
            continue
        kids = children(n)
        kids.reverse()
        stack.extend(kids)


GLOB_OR_BRACE = frozenset("*?[{~(")


def static_word(word: ast.Word) -> str | None:
    """The word's text when nothing about it is decided at run time: no expansion,
    and no unquoted glob (extended ones included), brace or tilde character."""
    for p in word.parts:
        if isinstance(p, ast.Lit) and not GLOB_OR_BRACE.isdisjoint(p.text):
            return None
    return word.literal_text()

