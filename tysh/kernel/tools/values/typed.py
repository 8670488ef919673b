"""Validated JSON → the typed arguments a tool body receives.

An object node made from an `Args` class becomes an instance of it; any other object
a read-only mapping; arrays tuples. A property that is absent takes its node's default,
or None. Only validated values come here: nothing is checked again."""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any

from tysh.kernel.tools.values.nodes import Node


def frozen(v: Any) -> Any:
    """A JSON value with objects as read-only mappings and arrays as tuples."""
    if isinstance(v, Mapping):
        return types.MappingProxyType({k: frozen(x) for k, x in v.items()})
    if isinstance(v, list | tuple):
        return tuple(frozen(x) for x in v)
    return v


def build(node: Node[Any, Any], value: Any) -> Any:
    kind = node.kind
    if kind == "object" and isinstance(value, Mapping):
        return _object(node, value)
    if kind == "array" and isinstance(value, list | tuple) and node.items is not None:
        item = node.items
        return tuple(build(item, x) for x in value)
    if kind == "one_of":
        from tysh.kernel.tools.values.validate import validate

        for b in node.branches:
            if not validate(b, value):
                return build(b, value)
    return frozen(value)


def _object(node: Node[Any, Any], value: Mapping[str, Any]) -> Any:
    fields: dict[str, Any] = {}
    for name, child in node.properties:
        if name in value:
            fields[name] = build(child, value[name])
        elif child.has_default:
            fields[name] = build(child, child.default)
        else:
            fields[name] = None
    cls = node.args_class
    if cls is None:
        extra = node.additional_properties
        for k, x in value.items():
            if k not in fields:
                fields[k] = build(extra, x) if isinstance(extra, Node) else frozen(x)
        return types.MappingProxyType(fields)
    inst: Any = object.__new__(cls)
    inst.__dict__.update(fields)
    inst.__dict__["__tysh_json__"] = frozen(value)
    return inst
