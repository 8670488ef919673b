"""Attrs-class (argv) tools seen as nodes: each ParamSchema reflects into the node of its
JSON shape, so a builtin's `input_schema()` and its JSON validation come from the same
compiler and validator as a DSL tool's. Imports no schema module at run time (the schema
module calls in here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tysh.kernel.tools.values.compile import node_schema, root_schema
from tysh.kernel.tools.values.messages import Violation
from tysh.kernel.tools.values.nodes import UNSET, Node

if TYPE_CHECKING:
    from tysh.kernel.tools.schema import ParamSchema, ToolSchema

_KINDS = {"int": "integer", "float": "number", "bool": "boolean", "string": "string",
          "path": "string", "choice": "string"}


def _one(p: ParamSchema) -> Node[Any, Any]:
    """The node of one value of a param (one element when it repeats)."""
    if p.choices:
        enum: Node[Any, Any] = Node("string", enum=tuple(dict.fromkeys(p.choices)))
        # a bool with choices is a flag whose `=WORD` is optional (`--follow[=name]`)
        return Node("one_of", branches=(Node("boolean"), enum)) \
            if p.param_type == "bool" else enum
    if p.optional_value:
        return Node("one_of", branches=(Node("boolean"), Node("string")))
    if p.param_type == "array":
        return Node("json") if p.positional else Node("string")
    kind = _KINDS.get(p.param_type)
    if kind is None:
        return Node("json")
    lo, hi = p.minimum, p.maximum
    if kind in ("integer", "number") and (lo is not None or hi is not None):
        return Node(kind, minimum=lo, maximum=hi)
    return Node(kind)


def param_node(p: ParamSchema) -> Node[Any, Any]:
    one = _one(p)
    if p.consumes > 1:
        one = Node("array", items=one, min_items=p.consumes, max_items=p.consumes)
    node: Node[Any, Any]
    if p.param_type == "array" and p.positional:
        node = Node("array", items=Node("json"))
    elif p.repeatable or p.param_type == "array":
        node = Node("array", items=one)
    else:
        node = one
    import attrs

    return attrs.evolve(node, required=p.required, description=p.description,
                        default=UNSET if p.default is None else p.default)


def params_node(params: Sequence[ParamSchema]) -> Node[Any, Any]:
    return Node("object", properties=tuple((p.name, param_node(p)) for p in params),
                additional_properties=True)


_NODES: dict[tuple[int, tuple[str, ...]], tuple[Any, Node[Any, Any]]] = {}


def leaf_node(schema: ToolSchema, path: Sequence[str] = ()) -> Node[Any, Any]:
    """The root node of a tool's leaf at `path`, reflected once per schema."""
    key = (id(schema), tuple(path))
    hit = _NODES.get(key)
    if hit is not None and hit[0] is schema:
        return hit[1]
    node = params_node(schema.node(path).params)
    _NODES[key] = (schema, node)
    return node


def input_schema(schema: ToolSchema, path: Sequence[str] = ()) -> dict[str, Any]:
    return root_schema(leaf_node(schema, path), schema.node(path).description)


def param_json_schema(p: ParamSchema) -> dict[str, Any]:
    return node_schema(param_node(p))


def validate_args(schema: ToolSchema, args: Any, path: Sequence[str] = ()) -> list[Violation]:
    from tysh.kernel.tools.values.validate import validate

    return validate(leaf_node(schema, path), args)
