"""A node map seen from argv: the params a command line is bound with, the JSON object
made from what was bound, and the words that carry a JSON object back to argv.

Every value travels as text and is judged by the one validator, so a wrong value reads
the same from argv as from JSON (`"limit" must be an integer`): the binder only splits
words. Scalars are options (`--limit 5`), an enum's values are listed in its help, an
array of scalars is a repeatable option (`--tag a --tag b`), an object, `json()`,
`one_of` or array of objects takes JSON text (`--filter '{"kind":"py"}'`), and the scalar
properties of a nested object are also spelled dotted (`--filter.kind py`). Operands fill
the properties not given by name, in declaration order (map_positionals)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from tysh.kernel.tools.schema import ParamSchema
from tysh.kernel.tools.values.messages import show_value
from tysh.kernel.tools.values.nodes import UNSET, Node

SCALARS = ("string", "integer", "number", "boolean")


def is_scalar(node: Node[Any, Any]) -> bool:
    return node.kind in SCALARS


def takes_json_text(node: Node[Any, Any]) -> bool:
    """Whether the option's value is JSON text rather than a plain word."""
    if node.kind == "array":
        return node.items is None or not is_scalar(node.items)
    return not is_scalar(node)


def describe(node: Node[Any, Any]) -> str:
    """A short statement of a property's shape, for help."""
    kind = node.kind
    if node.enum is not None:
        base = "one of " + ", ".join(show_value(v) for v in node.enum)
    elif node.const is not UNSET:
        base = "exactly " + show_value(node.const)
    elif kind == "array":
        item = node.items
        base = f"repeatable {describe(item)}" if item is not None and is_scalar(item) \
            else "JSON array"
    elif kind in ("object", "json", "one_of"):
        base = {"object": "JSON object", "json": "any JSON value",
                "one_of": "JSON: exactly one of " + "; ".join(
                    describe(b) for b in node.branches)}[kind]
    else:
        base = kind
    bounds = []
    for attr, word in (("minimum", ">="), ("maximum", "<="), ("exclusive_minimum", ">"),
                       ("exclusive_maximum", "<"), ("multiple_of", "multiple of"),
                       ("min_length", "length >="), ("max_length", "length <="),
                       ("pattern", "matching"), ("min_items", "items >="),
                       ("max_items", "items <=")):
        v = getattr(node, attr)
        if v is not None:
            bounds.append(f"{word} {show_value(v)}")
    if node.unique_items:
        bounds.append("unique")
    return base + (" " + ", ".join(bounds) if bounds else "")


def _help(node: Node[Any, Any]) -> str:
    note = describe(node) + ("; required" if node.required else "")
    return f"{node.description} ({note})" if node.description else f"({note})"


def _dotted(prefix: str, node: Node[Any, Any]) -> Iterator[tuple[str, Node[Any, Any]]]:
    for name, child in node.properties:
        path = f"{prefix}.{name}"
        if is_scalar(child):
            yield path, child
        elif child.kind == "object":
            yield from _dotted(path, child)


def argv_params(root: Node[Any, Any]) -> tuple[ParamSchema, ...]:
    """The params a command line binds: one per property, then the dotted spellings of
    nested scalars. None is `required` to the binder: the validator says what is missing."""
    out: list[ParamSchema] = []
    dotted: list[ParamSchema] = []
    for name, node in root.properties:
        kind = node.kind
        default = node.default if node.has_default and is_scalar(node) else None
        if kind == "boolean":
            out.append(ParamSchema(name=name, param_type="bool", description=_help(node)))
        elif kind == "array" and not takes_json_text(node):
            out.append(ParamSchema(name=name, param_type="string", repeatable=True,
                                   description=_help(node)))
        else:
            out.append(ParamSchema(name=name, param_type="string", default=default,
                                   description=_help(node)))
        if kind == "object":
            for path, child in _dotted(name, node):
                dotted.append(ParamSchema(
                    name=path, param_type="bool" if child.kind == "boolean" else "string",
                    description=_help(child)))
    return (*out, *dotted)


# -- bound words → JSON -------------------------------------------------------------------


def _int_text(s: str) -> int | None:
    t = s.strip()
    body = t[1:] if t[:1] in "+-" else t
    if body.isascii() and body.isdigit():
        return int(t)
    return None


def _scalar(node: Node[Any, Any], v: Any) -> Any:
    """A word's value for a scalar node: numbers parsed where the text is one, anything
    else left as text for the validator to judge."""
    if not isinstance(v, str):
        return v
    kind = node.kind
    if kind == "integer":
        n = _int_text(v)
        if n is not None:
            return n
        try:
            f = float(v)
        except ValueError:
            return v
        return f if f.is_integer() else v
    if kind == "number":
        n = _int_text(v)
        if n is not None:
            return n
        try:
            f = float(v)
        except ValueError:
            return v
        return f if f == f and f not in (float("inf"), float("-inf")) else v
    if kind == "boolean":
        low = v.lower()
        return True if low == "true" else False if low == "false" else v
    return v


def word_value(node: Node[Any, Any], v: Any, label: str,
               problems: list[tuple[str, str]]) -> Any:
    """The JSON value of one bound word (or list of words) for a node."""
    if node.kind == "array" and not takes_json_text(node) and isinstance(v, list):
        item = node.items
        assert item is not None
        return [_scalar(item, x) for x in v]
    if not takes_json_text(node):
        return _scalar(node, v)
    if not isinstance(v, str):
        return v  # a typed value (from `$(fromjson …)`) is already JSON
    try:
        return json.loads(v)
    except RecursionError:
        problems.append((label.split(".")[0].strip('"'), f"{label} nests too deeply"))
        return v
    except ValueError as e:
        if node.kind in ("json", "one_of"):
            return v  # a plain word is a JSON string there
        problems.append((label.split(".")[0].strip('"'), f"{label} is not JSON text: {e}"))
        return v


def json_from_bound(root: Node[Any, Any], named: Mapping[str, Any], flags: Any,
                    positional: list[Any]
                    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The JSON object a command line gave; problems are words that could not be read
    (JSON text that does not parse, surplus operands), each with the property it is
    about ("" for none)."""
    props = root.prop_map
    out: dict[str, Any] = {}
    problems: list[tuple[str, str]] = []
    later: list[tuple[str, Any]] = []
    for name, node in props.items():
        if name in flags:
            out[name] = True
        elif name in named:
            out[name] = word_value(node, named[name], f'"{name}"', problems)
    for key, v in named.items():
        if "." in key:
            later.append((key, v))
    for key in flags:
        if "." in key:
            later.append((key, True))
    for key, v in later:
        parts = key.split(".")
        node, target = root, out
        for part in parts[:-1]:
            node = node.prop_map[part]
            cur = target.get(part)
            if cur is None:
                cur = {}
            elif not isinstance(cur, Mapping):
                problems.append((parts[0], f'"{key}" conflicts with the value given for '
                                           f'"{part}"'))
                break
            target[part] = cur = dict(cur)
            target = cur
        else:
            leaf = node.prop_map[parts[-1]]
            target[parts[-1]] = True if v is True else word_value(leaf, v, f'"{key}"', problems)
    for w in positional:
        problems.append(("", f"unexpected argument '{w}'"))
    return out, problems


# -- JSON → words (execute_json on tools bound by argv) -------------------------------


def words_for(param: ParamSchema, value: Any) -> list[str]:
    """The words that give an attrs-class tool's param a JSON value (validated first)."""
    spell = param.long_spelling
    if param.param_type == "bool":
        if value is True or value is False:
            return [f"{spell}={'true' if value else 'false'}"]
        return [spell, _text(value)]  # a flag with an optional value: the value itself
    values = value if (param.repeatable or param.param_type == "array") and \
        isinstance(value, list | tuple) and not param.positional else [value]
    out: list[str] = []
    for v in values:
        if param.consumes > 1 and isinstance(v, list | tuple):
            out.extend([spell, *(_text(x) for x in v)])
        else:
            out.extend([spell, _text(v)])
    return out


def _text(v: Any) -> str:
    if isinstance(v, str):
        return v
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, int | float):
        return show_value(v)
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def argv_for(params: tuple[ParamSchema, ...], args: Mapping[str, Any]) -> list[str]:
    """Options first, then `--` and the positionals in schema order, so no value is
    ever read as an option."""
    opts: list[str] = []
    pos: list[str] = []
    for p in params:
        if p.name not in args or args[p.name] is None:
            continue
        v = args[p.name]
        if p.positional:
            pos.extend(_text(x) for x in v) if isinstance(v, list | tuple) else \
                pos.append(_text(v))
        else:
            opts.extend(words_for(p, v))
    return [*opts, *(["--", *pos] if pos else [])]


def json_argv(schema: Any, args: Mapping[str, Any], path: Any = (),
              json_output: bool = False) -> list[Any]:
    """The classified words that run a leaf of an argv-bound tool with a JSON object."""
    from tysh.kernel.base.argv import Flag, Operand, classify

    words = classify(argv_for(tuple(schema.node(path).params), args))
    head: list[Any] = [Operand(p, True) for p in path]
    if json_output:
        head.append(Flag("--json"))
    return [*head, *words]
