"""The one validator of the DSL: every violation of a JSON value, path-qualified, in
document order (an object's own problems — its type, then its missing required
properties in declaration order — before its members, in the value's key order).

A node is compiled once into a tree of closures (kept by node identity), so validating
an argument object walks no schema dictionaries and builds no path until something fails."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from tysh.kernel.tools.values import messages as msg
from tysh.kernel.tools.values.messages import Violation
from tysh.kernel.tools.values.nodes import UNSET, Node

Path = tuple[str | int, ...]
Check = Callable[[Any, Path, list[Violation]], None]

__all__ = ["Violation", "validate", "json_key", "json_equal", "is_kind"]


def json_key(v: Any) -> Any:
    """A hashable key under which two JSON values are equal exactly when JSON says so
    (1 and 1.0 are, true and 1 are not)."""
    if v is True or v is False:
        return ("b", v)
    if isinstance(v, int | float):
        return ("n", v)
    if isinstance(v, str):
        return ("s", v)
    if v is None:
        return ("z",)
    if isinstance(v, list | tuple):
        return ("a", tuple(json_key(x) for x in v))
    if isinstance(v, Mapping):
        return ("o", frozenset((k, json_key(x)) for k, x in v.items()))
    return ("?", id(v))


def json_equal(a: Any, b: Any) -> bool:
    return bool(json_key(a) == json_key(b))


def is_kind(kind: str, v: Any) -> bool:
    """Whether a Python value is a JSON value of a type (as JSON Schema counts them)."""
    t = type(v)
    if kind == "string":
        return t is str
    if kind == "integer":
        return (t is int) or (t is float and v.is_integer())
    if kind == "number":
        return (t is int or t is float) and (t is int or math.isfinite(v))
    if kind == "boolean":
        return t is bool
    if kind == "null":
        return v is None
    if kind == "array":
        return t is list or t is tuple
    if kind == "object":
        return isinstance(v, Mapping)
    return True


_CACHE: dict[int, tuple[Node[Any, Any], Check]] = {}


def validate(node: Node[Any, Any], value: Any) -> list[Violation]:
    """Every violation of `value` against `node`, in document order."""
    out: list[Violation] = []
    compiled(node)(value, (), out)
    return out


def compiled(node: Node[Any, Any]) -> Check:
    hit = _CACHE.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    check = _compile(node)
    if len(_CACHE) > 4096:
        _CACHE.clear()
    _CACHE[id(node)] = (node, check)  # the node is held, so its id is not reused
    return check


def _literals(node: Node[Any, Any]) -> list[Check]:
    checks: list[Check] = []
    if node.const is not UNSET:
        want, key = node.const, json_key(node.const)

        def const(v: Any, path: Path, out: list[Violation]) -> None:
            if json_key(v) != key:
                out.append(Violation(path, msg.not_const(path, want)))

        checks.append(const)
    if node.enum is not None:
        values = node.enum
        keys = frozenset(json_key(x) for x in values)

        def enum(v: Any, path: Path, out: list[Violation]) -> None:
            if json_key(v) not in keys:
                out.append(Violation(path, msg.not_in_enum(path, values)))

        checks.append(enum)
    return checks


def _bound(keyword: str, limit: Any, ok: Callable[[Any], bool]) -> Check:
    def check(v: Any, path: Path, out: list[Violation]) -> None:
        if not ok(v):
            out.append(Violation(path, msg.bound(path, keyword, limit)))

    return check


def _multiple(m: float) -> Callable[[Any], bool]:
    def ok(v: Any) -> bool:
        if type(v) is int and type(m) is int:
            return v % m == 0
        try:
            q = v / m
        except OverflowError:
            return False
        return math.isfinite(q) and float(q).is_integer()

    return ok


def _scalar_checks(node: Node[Any, Any]) -> list[Check]:
    c = _literals(node)
    if node.min_length is not None:
        n0 = node.min_length
        c.append(_bound("min_length", n0, lambda v: len(v) >= n0))
    if node.max_length is not None:
        n1 = node.max_length
        c.append(_bound("max_length", n1, lambda v: len(v) <= n1))
    if node.pattern is not None:
        rx = re.compile(node.pattern)
        c.append(_bound("pattern", node.pattern, lambda v: rx.search(v) is not None))
    if node.minimum is not None:
        lo = node.minimum
        c.append(_bound("minimum", lo, lambda v: v >= lo))
    if node.maximum is not None:
        hi = node.maximum
        c.append(_bound("maximum", hi, lambda v: v <= hi))
    if node.exclusive_minimum is not None:
        xlo = node.exclusive_minimum
        c.append(_bound("exclusive_minimum", xlo, lambda v: v > xlo))
    if node.exclusive_maximum is not None:
        xhi = node.exclusive_maximum
        c.append(_bound("exclusive_maximum", xhi, lambda v: v < xhi))
    if node.multiple_of is not None:
        c.append(_bound("multiple_of", node.multiple_of, _multiple(node.multiple_of)))
    return c


def _typed(kind: str, checks: list[Check]) -> Check:
    """A type test, then (only when it passes) the node's other checks."""
    kinds = (kind,)
    if kind == "string":
        def test(v: Any) -> bool:
            return type(v) is str
    elif kind == "boolean":
        def test(v: Any) -> bool:
            return type(v) is bool
    else:
        def test(v: Any) -> bool:
            return is_kind(kind, v)

    if not checks:
        def bare(v: Any, path: Path, out: list[Violation]) -> None:
            if not test(v):
                out.append(Violation(path, msg.wrong_type(path, kinds)))

        return bare
    if len(checks) == 1:
        only = checks[0]

        def one(v: Any, path: Path, out: list[Violation]) -> None:
            if not test(v):
                out.append(Violation(path, msg.wrong_type(path, kinds)))
            else:
                only(v, path, out)

        return one

    def many(v: Any, path: Path, out: list[Violation]) -> None:
        if not test(v):
            out.append(Violation(path, msg.wrong_type(path, kinds)))
            return
        for ch in checks:
            ch(v, path, out)

    return many


def _compile(node: Node[Any, Any]) -> Check:
    kind = node.kind
    if kind in ("string", "integer", "number", "boolean", "null"):
        return _typed(kind, _scalar_checks(node))
    if kind == "json":
        lits = _literals(node)

        def any_value(v: Any, path: Path, out: list[Violation]) -> None:
            for ch in lits:
                ch(v, path, out)

        return any_value
    if kind == "array":
        return _typed("array", _array_checks(node))
    if kind == "object":
        return _object(node)
    if kind == "one_of":
        return _one_of(node)
    raise ValueError(f"unknown node kind {kind!r}")


def _array_checks(node: Node[Any, Any]) -> list[Check]:
    c = _literals(node)
    if node.min_items is not None:
        lo = node.min_items
        c.append(_bound("min_items", lo, lambda v: len(v) >= lo))
    if node.max_items is not None:
        hi = node.max_items
        c.append(_bound("max_items", hi, lambda v: len(v) <= hi))
    if node.unique_items:
        def unique(v: Any) -> bool:
            keys = [json_key(x) for x in v]
            return len(set(keys)) == len(keys)

        c.append(_bound("unique_items", True, unique))
    if node.items is not None:
        item = compiled(node.items)

        def items(v: Any, path: Path, out: list[Violation]) -> None:
            for i, x in enumerate(v):
                item(x, (*path, i), out)

        c.append(items)
    return c


def _object(node: Node[Any, Any]) -> Check:
    props = {name: compiled(n) for name, n in node.properties}
    required = tuple(name for name, n in node.properties if n.required)
    extra = node.additional_properties
    extra_check = compiled(extra) if isinstance(extra, Node) else None
    closed = extra is False
    lits = _literals(node)

    def obj(v: Any, path: Path, out: list[Violation]) -> None:
        if not isinstance(v, Mapping):
            out.append(Violation(path, msg.wrong_type(path, ("object",))))
            return
        for name in required:
            if name not in v:
                p = (*path, name)
                out.append(Violation(p, msg.missing(p)))
        for ch in lits:
            ch(v, path, out)
        for k, x in v.items():
            prop = props.get(k)
            if prop is not None:
                prop(x, (*path, k), out)
            elif closed:
                p = (*path, k)
                out.append(Violation(p, msg.undeclared(p)))
            elif extra_check is not None:
                extra_check(x, (*path, k), out)

    return obj


def _one_of(node: Node[Any, Any]) -> Check:
    branches = [compiled(b) for b in node.branches]
    lits = _literals(node)

    def one_of(v: Any, path: Path, out: list[Violation]) -> None:
        n = 0
        for b in branches:
            scratch: list[Violation] = []
            b(v, path, scratch)
            if not scratch:
                n += 1
        if n != 1:
            out.append(Violation(path, msg.one_of_count(path, n)))
        for ch in lits:
            ch(v, path, out)

    return one_of
