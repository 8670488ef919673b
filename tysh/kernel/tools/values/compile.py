"""The one compiler from nodes to JSON Schema (Draft 2020-12).

Key order is fixed so the output is stable: `type`, the node's constraints, the
structure (`items`, `properties`, `required`, `additionalProperties`, `oneOf`), then the
annotations (`title`, `description`, `default`, `examples`). The root is an open object:
no `additionalProperties` key at all; a nested object always states its openness."""

from __future__ import annotations

from typing import Any

from tysh.kernel.tools.values.nodes import UNSET, Node

DIALECT = "https://json-schema.org/draft/2020-12/schema"

_KEYWORDS = (
    ("enum", "enum"), ("const", "const"),
    ("min_length", "minLength"), ("max_length", "maxLength"), ("pattern", "pattern"),
    ("minimum", "minimum"), ("maximum", "maximum"),
    ("exclusive_minimum", "exclusiveMinimum"), ("exclusive_maximum", "exclusiveMaximum"),
    ("multiple_of", "multipleOf"),
    ("min_items", "minItems"), ("max_items", "maxItems"),
)


def _plain(v: Any) -> Any:
    """A JSON value as plain lists and dicts (tuples and mappings from the typed side)."""
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    if isinstance(v, dict) or hasattr(v, "items") and hasattr(v, "keys"):
        return {k: _plain(x) for k, x in v.items()}
    return v


def node_schema(node: Node[Any, Any], *, root: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kind = node.kind
    if kind not in ("json", "one_of"):
        out["type"] = kind
    for attr, key in _KEYWORDS:
        v = getattr(node, attr)
        if v is None or v is UNSET:
            continue
        out[key] = _plain(v)
    if node.unique_items:
        out["uniqueItems"] = True
    if kind == "array" and node.items is not None:
        out["items"] = node_schema(node.items)
    if kind == "object":
        out["properties"] = {name: node_schema(n) for name, n in node.properties}
        out["required"] = list(dict.fromkeys(name for name, n in node.properties
                                             if n.required))
        extra = node.additional_properties
        if not root and extra is not None:
            out["additionalProperties"] = node_schema(extra) if isinstance(extra, Node) \
                else bool(extra)
    if kind == "one_of":
        out["oneOf"] = [node_schema(b) for b in node.branches]
    if node.title:
        out["title"] = node.title
    if node.description:
        out["description"] = node.description
    if node.default is not UNSET:
        out["default"] = _plain(node.default)
    if node.examples:
        out["examples"] = _plain(list(node.examples))
    return out


def root_schema(node: Node[Any, Any], description: str = "") -> dict[str, Any]:
    """The input schema of a tool: `$schema`, then the open root object."""
    body = node_schema(node, root=True)
    body.pop("description", None)
    out: dict[str, Any] = {"$schema": DIALECT, **body}
    if description:
        out["description"] = description
    return out
