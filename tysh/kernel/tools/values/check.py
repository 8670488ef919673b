"""Definition-time checks: every problem of a node tree, found at once.

A definition is refused before anything runs (`ToolDefinitionError` lists them all) for
an unsupported construct (a value that is not a node, a keyword on a kind that has no
such constraint, `required` where there is no property), a nested object whose openness
is unstated, a `const` outside its `enum`, a default or example that does not validate
against its own node, and bounds that no value could meet."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tysh.kernel.tools.values.messages import show_path, show_value
from tysh.kernel.tools.values.nodes import KINDS, UNSET, Node, ToolDefinitionError

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")

# which constraint belongs to which kinds (annotations belong to all)
_ONLY = {
    "min_length": ("string",), "max_length": ("string",), "pattern": ("string",),
    "minimum": ("number", "integer"), "maximum": ("number", "integer"),
    "exclusive_minimum": ("number", "integer"), "exclusive_maximum": ("number", "integer"),
    "multiple_of": ("number", "integer"),
    "items": ("array",), "min_items": ("array",), "max_items": ("array",),
    "properties": ("object",), "branches": ("one_of",),
}


def check_root(name: str, parameters: Any) -> Node[Any, Any]:
    """The root object node of a parameter map (a mapping of nodes or an object node);
    raises ToolDefinitionError listing every problem."""
    problems: list[str] = []
    if isinstance(parameters, Node) and parameters.kind == "object":
        root = parameters
    elif isinstance(parameters, Mapping):
        props = []
        for k, v in parameters.items():
            props.append((k, v))
        root = Node("object", properties=tuple(props))
    else:
        raise ToolDefinitionError(name, [
            f"parameters must be a mapping of names to nodes or an Args class, "
            f"not {type(parameters).__name__}"])
    _check(root, (), problems, is_root=True, is_property=False)
    if root.additional_properties not in (None, True):
        problems.append("the parameters are an open object: additional_properties "
                        "applies to nested objects only")
    if problems:
        raise ToolDefinitionError(name, problems)
    return root


def check_node(name: str, node: Any, what: str = "output") -> Node[Any, Any]:
    problems: list[str] = []
    _check(node, (what,), problems, is_root=False, is_property=False, nested=False)
    if problems:
        raise ToolDefinitionError(name, problems)
    assert isinstance(node, Node)
    return node


def _where(path: tuple[str | int, ...]) -> str:
    shown = show_path(path).replace('["[]"]', "[]").replace('["*"]', ".*")
    return f'"{shown}"' if path else "the parameters"


def _check(node: Any, path: tuple[str | int, ...], out: list[str], *, is_root: bool,
           is_property: bool, nested: bool = True) -> None:
    where = _where(path)
    if not isinstance(node, Node):
        out.append(f"{where}: unsupported construct {type(node).__name__} "
                   f"(use string(), integer(), object(...), ...)")
        return
    kind = node.kind
    if kind not in KINDS:
        out.append(f"{where}: unsupported node kind {kind!r}")
        return
    for attr, kinds in _ONLY.items():
        v = getattr(node, attr)
        if v is not None and v != () and kind not in kinds:
            out.append(f"{where}: {attr} does not apply to {kind}")
    if node.unique_items and kind != "array":
        out.append(f"{where}: unique_items does not apply to {kind}")
    if node.additional_properties is not None and kind != "object":
        out.append(f"{where}: additional_properties does not apply to {kind}")
    if node.required and not is_property:
        out.append(f"{where}: required=True has no meaning here (only a property is "
                   f"required)")
    _check_bounds(node, where, out)
    if kind == "array":
        if node.items is None:
            out.append(f"{where}: an array needs its items node")
        else:
            _check(node.items, (*path, "[]"), out, is_root=False,
                   is_property=False)
    if kind == "object":
        seen: set[str] = set()
        for pname, child in node.properties:
            if not isinstance(pname, str) or not _NAME.match(pname):
                out.append(f"{where}: property name {pname!r} is not a word "
                           f"(letters, digits, _ and -, not starting with a digit or -)")
                continue
            if pname in seen:
                out.append(f"{where}: property {pname!r} is declared twice")
            seen.add(pname)
            _check(child, (*path, pname), out, is_root=False, is_property=True)
        extra = node.additional_properties
        if extra is None and not is_root and nested:
            out.append(f"{where}: a nested object must state its openness "
                       f"(additional_properties=True, False or a node)")
        elif isinstance(extra, Node):
            _check(extra, (*path, "*"), out, is_root=False, is_property=False)
        elif extra is not None and not isinstance(extra, bool):
            out.append(f"{where}: additional_properties must be True, False or a node")
    if kind == "one_of":
        if len(node.branches) < 2:
            out.append(f"{where}: one_of needs at least two branches")
        for b in node.branches:
            _check(b, path, out, is_root=False,
                   is_property=False)
    _check_literals(node, path, where, out)


def _check_bounds(node: Node[Any, Any], where: str, out: list[str]) -> None:
    for attr in ("min_length", "max_length", "min_items", "max_items"):
        v = getattr(node, attr)
        if v is not None and (type(v) is not int or v < 0):
            out.append(f"{where}: {attr} must be a whole number >= 0, not {v!r}")
    for lo, hi in (("min_length", "max_length"), ("min_items", "max_items"),
                   ("minimum", "maximum")):
        a, b = getattr(node, lo), getattr(node, hi)
        if isinstance(a, int | float) and isinstance(b, int | float) and a > b:
            out.append(f"{where}: {lo} {show_value(a)} is greater than {hi} {show_value(b)}")
    for attr in ("minimum", "maximum", "exclusive_minimum", "exclusive_maximum",
                 "multiple_of"):
        v = getattr(node, attr)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float)):
            out.append(f"{where}: {attr} must be a number, not {v!r}")
    m = node.multiple_of
    if isinstance(m, int | float) and not isinstance(m, bool) and m <= 0:
        out.append(f"{where}: multiple_of must be greater than 0")
    if node.pattern is not None:
        try:
            re.compile(node.pattern)
        except (re.error, TypeError) as e:
            out.append(f"{where}: pattern {node.pattern!r} does not compile: {e}")


def _check_literals(node: Node[Any, Any], path: tuple[str | int, ...], where: str,
                    out: list[str]) -> None:
    from tysh.kernel.tools.values.validate import json_equal, validate

    bare = _without_literals(node)
    if node.enum is not None:
        if not node.enum:
            out.append(f"{where}: enum is empty: no value could match")
        for v in node.enum:
            if _valid(bare, v) is not None:
                out.append(f"{where}: enum value {show_value(v)} is not "
                           f"{_kind_word(node)}: {_valid(bare, v)}")
    if node.const is not UNSET:
        problem = _valid(bare, node.const)
        if problem is not None:
            out.append(f"{where}: const {show_value(node.const)} does not validate: {problem}")
        if node.enum is not None and not any(json_equal(node.const, e) for e in node.enum):
            out.append(f"{where}: const {show_value(node.const)} is outside its enum")
    if node.default is not UNSET and _structure_ok(node):
        viol = validate(node, node.default)
        if viol:
            out.append(f"{where}: default {show_value(node.default)} does not validate: "
                       + "; ".join(_relative(v.message) for v in viol))
    for ex in node.examples:
        if _structure_ok(node):
            viol = validate(node, ex)
            if viol:
                out.append(f"{where}: example {show_value(ex)} does not validate: "
                           + "; ".join(_relative(v.message) for v in viol))


def _kind_word(node: Node[Any, Any]) -> str:
    return {"integer": "an integer", "array": "an array", "object": "an object"}.get(
        node.kind, "a " + node.kind)


def _relative(message: str) -> str:
    return message.replace("the arguments ", "the value ")


def _without_literals(node: Node[Any, Any]) -> Node[Any, Any]:
    import attrs

    return attrs.evolve(node, enum=None, const=UNSET, default=UNSET, examples=())


def _valid(node: Node[Any, Any], value: Any) -> str | None:
    from tysh.kernel.tools.values.validate import validate

    if not _structure_ok(node):
        return None
    viol = validate(node, value)
    return "; ".join(_relative(v.message) for v in viol) if viol else None


def _structure_ok(node: Any) -> bool:
    """Whether the node tree is sound enough to validate with (its own problems are
    reported separately)."""
    if not isinstance(node, Node):
        return False
    if node.kind not in KINDS:
        return False
    if node.pattern is not None:
        try:
            re.compile(node.pattern)
        except (re.error, TypeError):
            return False
    if node.kind == "array":
        return node.items is not None and _structure_ok(node.items)
    if node.kind == "object":
        extra = node.additional_properties
        return all(_structure_ok(n) for _, n in node.properties) and (
            not isinstance(extra, Node) or _structure_ok(extra))
    if node.kind == "one_of":
        return all(_structure_ok(b) for b in node.branches)
    for attr in ("minimum", "maximum", "exclusive_minimum", "exclusive_maximum",
                 "multiple_of"):
        v = getattr(node, attr)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float)):
            return False
    for attr in ("min_length", "max_length", "min_items", "max_items"):
        v = getattr(node, attr)
        if v is not None and type(v) is not int:
            return False
    return not (isinstance(node.multiple_of, int | float) and node.multiple_of <= 0)
