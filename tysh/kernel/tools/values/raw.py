"""Raw JSON Schema tools: a definition whose schema comes from elsewhere (an MCP server,
OpenAPI, another harness), kept as it is and validated with the `jsonschema` library
(Draft 2020-12). Its errors are worded as the DSL's validator words them, in document
order, so a violation reads the same whichever route found it.

Argv binds through the schema's top-level properties (scalars as options, booleans as
flags, arrays of scalars repeatable, anything else JSON text) with map_positionals; help
and completion come from the same params."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from tysh.kernel.base import record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.schema import ToolSchema
from tysh.kernel.tools.tool import NO_CHILDREN, Tool, ToolReturn
from tysh.kernel.tools.values import messages as msg
from tysh.kernel.tools.values.argv import argv_params, json_from_bound
from tysh.kernel.tools.values.messages import Violation
from tysh.kernel.tools.values.nodes import UNSET, Node, ToolDefinitionError
from tysh.kernel.tools.values.typed import frozen

_SIMPLE = {"string", "integer", "number", "boolean", "null", "array", "object"}
_BOUND_WORDS = {
    "minLength": "min_length", "maxLength": "max_length", "pattern": "pattern",
    "minimum": "minimum", "maximum": "maximum", "exclusiveMinimum": "exclusive_minimum",
    "exclusiveMaximum": "exclusive_maximum", "multipleOf": "multiple_of",
    "minItems": "min_items", "maxItems": "max_items", "uniqueItems": "unique_items",
}
_REQUIRED = re.compile(r"(.*) is a required property\Z", re.S)


def _shape(schema: Any) -> Node[Any, Any]:
    """The argv shape of a property schema: only what binding needs (the type)."""
    if not isinstance(schema, Mapping):
        return Node("json")
    t = schema.get("type")
    if isinstance(t, str) and t in _SIMPLE and t != "null":
        if t == "array":
            return Node("array", items=_shape(schema.get("items", {})))
        return Node(t, description=str(schema.get("description", "")),
                    enum=tuple(schema["enum"]) if isinstance(schema.get("enum"), list)
                    else None)
    return Node("json", description=str(schema.get("description", "")))


def _root_shape(schema: Mapping[str, Any]) -> Node[Any, Any]:
    props = schema.get("properties", {})
    req = set(schema.get("required", ()))
    items = []
    for name, sub in props.items() if isinstance(props, Mapping) else ():
        if isinstance(name, str) and re.match(r"[A-Za-z_][A-Za-z0-9_-]*\Z", name):
            items.append((name, attrs.evolve(_shape(sub), required=name in req)))
    return Node("object", properties=tuple(items), additional_properties=True)


def violations(validator: Any, value: Any) -> list[Violation]:
    """Every error `jsonschema` finds, in the DSL's wording and in document order."""
    out: list[tuple[tuple[Any, ...], int, Violation]] = []
    for err in validator.iter_errors(value):
        path = tuple(err.absolute_path)
        kw = err.validator
        if kw == "required":
            m = _REQUIRED.match(err.message)
            name: Any = m.group(1) if m else "?"
            try:
                name = ast.literal_eval(name)
            except (ValueError, SyntaxError):
                pass
            p = (*path, name)
            out.append((_order(value, path), 0, Violation(p, msg.missing(p))))
        elif kw == "type":
            kinds = err.validator_value if isinstance(err.validator_value, list) \
                else [err.validator_value]
            out.append((_order(value, path), 0, Violation(path, msg.wrong_type(path, kinds))))
        elif kw == "enum":
            out.append((_order(value, path), 1,
                        Violation(path, msg.not_in_enum(path, err.validator_value))))
        elif kw == "const":
            out.append((_order(value, path), 1,
                        Violation(path, msg.not_const(path, err.validator_value))))
        elif kw in _BOUND_WORDS:
            out.append((_order(value, path), 1, Violation(
                path, msg.bound(path, _BOUND_WORDS[kw], err.validator_value))))
        elif kw == "oneOf":
            n = sum(1 for b in err.validator_value
                    if validator.evolve(schema=b).is_valid(err.instance))
            out.append((_order(value, path), 1, Violation(path, msg.one_of_count(path, n))))
        elif kw in ("additionalProperties", "unevaluatedProperties") and \
                err.validator_value is False and isinstance(err.instance, Mapping):
            declared = err.schema.get("properties", {}) if isinstance(err.schema, Mapping) \
                else {}
            patterns = [re.compile(p) for p in (err.schema.get("patternProperties") or {})]
            for k in err.instance:
                if k not in declared and not any(p.search(k) for p in patterns):
                    p2 = (*path, k)
                    out.append((_order(value, p2), 0, Violation(p2, msg.undeclared(p2))))
        else:
            out.append((_order(value, path), 1,
                        Violation(path, f"{msg.subject(path)}: {err.message}")))
    out.sort(key=lambda t: (t[0], t[1]))
    return [v for _, _, v in out]


def _order(value: Any, path: Sequence[Any]) -> tuple[int, ...]:
    """A path's place in the document: the index of each step among its siblings."""
    out: list[int] = []
    cur = value
    for step in path:
        if isinstance(cur, Mapping):
            keys = list(cur)
            out.append(keys.index(step) if step in cur else len(keys))
            cur = cur.get(step)
        elif isinstance(cur, list | tuple) and isinstance(step, int):
            out.append(step)
            cur = cur[step] if step < len(cur) else None
        else:
            out.append(0)
    return tuple(out)


@record.frozen
class RawTool(Tool):
    """A tool defined by a raw JSON Schema; `definition` is kept as given."""

    definition: Mapping[str, Any] = NO_CHILDREN
    root: Node[Any, Any] = Node("object")
    annotations: Mapping[str, Any] = NO_CHILDREN
    validator: Any = None

    def input_schema(self, path: Sequence[str] = ()) -> dict[str, Any]:
        return dict(self.definition["inputSchema"])

    def validate(self, args: Any, path: Sequence[str] = ()) -> list[Violation]:
        return violations(self.validator, args)

    def json_argv(self, args: Mapping[str, Any], path: Sequence[str] = (),
                  json_output: bool = False) -> list[Any]:
        from tysh.kernel.tools.values.define import payload_argv

        return payload_argv(args, path, json_output)


def call_problems(fn: Callable[..., Any]) -> list[str]:
    """Why `fn(args, ctx)` could not be called, found when the tool is defined rather
    than as a fault the first time it runs."""
    import inspect

    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin or extension callable: take it on trust
        return []
    try:
        sig.bind(None, None)
    except TypeError as e:
        return [f"the callable must take (args, ctx): {e}"]
    return []


def raw_tool(definition: Mapping[str, Any],
             fn: Callable[[Mapping[str, Any], Context], ToolReturn]) -> RawTool:
    """A tool from `{"name", "description", "inputSchema", "annotations"?}` and the
    callable that runs it (`fn(args, ctx)`, args a read-only mapping)."""
    import jsonschema

    name = definition.get("name") if isinstance(definition, Mapping) else None
    problems: list[str] = []
    if not isinstance(name, str) or not name:
        raise ToolDefinitionError(str(name), ["a raw definition needs a \"name\" string"])
    schema = definition.get("inputSchema")
    if not isinstance(schema, Mapping):
        problems.append('"inputSchema" must be a JSON Schema object')
    else:
        for e in jsonschema.Draft202012Validator(
                jsonschema.Draft202012Validator.META_SCHEMA).iter_errors(schema):
            where = "/".join(str(p) for p in e.absolute_path) or "the schema"
            problems.append(f"inputSchema {where}: {e.message}")
        if schema.get("type", "object") != "object":
            problems.append('inputSchema must describe an object ("type": "object")')
    if not callable(fn):
        problems.append("a raw tool needs a callable to run it")
    else:
        problems.extend(call_problems(fn))
    if problems:
        raise ToolDefinitionError(name, problems)
    assert isinstance(schema, Mapping)
    validator = jsonschema.Draft202012Validator(schema)
    root = _root_shape(schema)
    params = argv_params(root)

    def run(ta: Any, ctx: Context) -> ToolReturn:
        from tysh.kernel.tools.values.define import JsonPayload

        pos = list(ta.positional)
        if len(pos) == 1 and isinstance(pos[0], JsonPayload) and not ta.named \
                and not ta.flags:
            data: Any = pos[0].args
            problems: list[tuple[str, str]] = []
        else:
            data, problems = json_from_bound(root, ta.named, ta.flags, pos)
        bad = {k for k, _ in problems}
        lines = [m for _, m in problems]
        lines += [v.message for v in violations(validator, data)
                  if not (v.path and v.path[0] in bad)]
        if lines:
            for m in lines:
                ctx.error(m)
            return 2
        return fn(frozen(data), ctx)

    tschema = ToolSchema(name=name, description=str(definition.get("description", "")),
                         params=params, map_positionals=True)
    return RawTool(schema=tschema, func=run, args_class=None, definition=dict(definition),
                   root=root, annotations=dict(definition.get("annotations") or {}),
                   validator=validator)


__all__ = ["RawTool", "raw_tool", "violations", "UNSET"]
