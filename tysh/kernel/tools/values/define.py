"""`define_tool`: a node map (or an `Args` class) becomes a runnable, registrable tool.

Definition checks run first (every problem at once). The tool binds argv through the
compiled params (argv.py), validates the JSON object the words give with the one
validator, and calls `execute(args, ctx)` with the typed arguments. JSON callers
(`Kernel.execute_json`) hand the object over whole, after the same validation."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, overload

import attrs

from tysh.kernel.base.argv import Arg, DoubleDash, Flag, Operand
from tysh.kernel.base.record import frozen
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.schema import Example, ToolSchema
from tysh.kernel.tools.tool import NO_CHILDREN, Tool, ToolReturn
from tysh.kernel.tools.values.argv import argv_params, json_from_bound
from tysh.kernel.tools.values.check import check_node, check_root
from tysh.kernel.tools.values.compile import DIALECT, node_schema, root_schema
from tysh.kernel.tools.values.messages import Violation
from tysh.kernel.tools.values.nodes import Args, Node
from tysh.kernel.tools.values.typed import build
from tysh.kernel.tools.values.validate import validate

AT = TypeVar("AT", bound=Args)


@attrs.frozen(eq=False)
class JsonPayload:
    """A JSON object handed to a tool whole (after `--`, as its only operand): no shell
    word can be one, so only `execute_json` reaches a tool this way."""

    args: Mapping[str, Any]


def payload_argv(args: Mapping[str, Any], path: Sequence[str] = (),
                 json_output: bool = False) -> list[Arg]:
    out: list[Arg] = [Operand(p, True) for p in path]
    if json_output:
        out.append(Flag("--json"))
    return [*out, DoubleDash(), Operand(JsonPayload(args))]


def _runner(root: Node[Any, Any], execute: Callable[[Any, Context], ToolReturn]
            ) -> Callable[[Any, Context], ToolReturn]:
    def run(ta: Any, ctx: Context) -> ToolReturn:
        pos = list(ta.positional)
        if len(pos) == 1 and isinstance(pos[0], JsonPayload) and not ta.named \
                and not ta.flags:
            data: Any = pos[0].args
            problems: list[tuple[str, str]] = []
        else:
            data, problems = json_from_bound(root, ta.named, ta.flags, pos)
        bad = {k for k, _ in problems}
        lines = [m for _, m in problems]
        lines += [v.message for v in validate(root, data) if not (v.path and v.path[0] in bad)]
        if lines:
            for m in lines:
                ctx.error(m)
            return 2
        return execute(build(root, data), ctx)

    return run


@frozen
class JsonTool(Tool):
    """A tool defined by JSON-value nodes: `root` is its parameters' object node,
    `output` the node its `--json` output follows (published as its output schema)."""

    root: Node[Any, Any] = Node("object")
    output: Node[Any, Any] | None = None
    annotations: Mapping[str, Any] = NO_CHILDREN

    def input_schema(self, path: Sequence[str] = ()) -> dict[str, Any]:
        return root_schema(self.root, self.schema.description)

    def output_schema(self) -> dict[str, Any] | None:
        if self.output is None:
            return None
        return {"$schema": DIALECT, **node_schema(self.output)}

    def validate(self, args: Any, path: Sequence[str] = ()) -> list[Violation]:
        return validate(self.root, args)

    def validate_output(self, value: Any) -> list[Violation]:
        """Violations of a `--json` output against the declared output node."""
        return [] if self.output is None else validate(self.output, value)

    def json_argv(self, args: Mapping[str, Any], path: Sequence[str] = (),
                  json_output: bool = False) -> list[Arg]:
        return payload_argv(args, path, json_output)


@overload
def define_tool(name: str, description: str = "", *, parameters: type[AT],
                execute: Callable[[AT, Context], ToolReturn],
                output: Node[Any, Any] | None = None,
                annotations: Mapping[str, Any] | None = None,
                examples: Sequence[Example | tuple[str, str]] = ()) -> JsonTool: ...
@overload
def define_tool(name: str, description: str = "", *,
                parameters: Mapping[str, Node[Any, Any]],
                execute: Callable[[Mapping[str, Any], Context], ToolReturn],
                output: Node[Any, Any] | None = None,
                annotations: Mapping[str, Any] | None = None,
                examples: Sequence[Example | tuple[str, str]] = ()) -> JsonTool: ...
def define_tool(name: str, description: str = "", *, parameters: Any,
                execute: Callable[[Any, Context], ToolReturn],
                output: Node[Any, Any] | None = None,
                annotations: Mapping[str, Any] | None = None,
                examples: Sequence[Example | tuple[str, str]] = ()) -> JsonTool:
    """A tool from a parameter map (`{"query": string(required=True), ...}`, whose body
    gets a read-only mapping) or an `Args` class (whose body gets an instance of it).
    Raises ToolDefinitionError listing every problem of the definition."""
    if isinstance(parameters, type) and issubclass(parameters, Args):
        parameters = parameters.__tysh_node__
    problems: list[str] = []
    root: Node[Any, Any] | None = None
    try:
        root = check_root(name, parameters)
    except Exception as e:
        problems.extend(getattr(e, "problems", [str(e)]))
    if output is not None:
        try:
            check_node(name, output)
        except Exception as e:
            problems.extend(getattr(e, "problems", [str(e)]))
    if root is not None:
        try:
            params = argv_params(root)
        except Exception as e:  # noqa: BLE001 — reported with the rest
            problems.append(str(e))
            params = ()
        spells: dict[str, str] = {}
        for p in params:
            if p.long_spelling in spells or p.long_spelling == "--json" \
                    or p.long_spelling == "--help":
                problems.append(f'"{p.name}": its option {p.long_spelling} is taken')
            spells[p.long_spelling] = p.name
    if problems or root is None:
        from tysh.kernel.tools.values.nodes import ToolDefinitionError

        raise ToolDefinitionError(name, problems)
    schema = ToolSchema(
        name=name, description=description, params=params, map_positionals=True,
        examples=tuple(e if isinstance(e, Example) else Example(e[0], e[1])
                       for e in examples))
    return JsonTool(schema=schema, func=_runner(root, execute), args_class=None,
                    root=root, output=output, annotations=dict(annotations or {}))
