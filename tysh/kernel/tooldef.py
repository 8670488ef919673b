"""The decorator builtins and Python tools are written with.

`@tool("head", args=HeadArgs, ...)` reflects the schema from the args class and wraps the
function in a `Tool`; the kernel binds argv against `Tool.schema`, converts the result to
an instance of the leaf's args class and calls the function with it and a Context."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import attrs

from tysh.kernel.output import OutputData
from tysh.kernel.schema import ArgBinding, Example, ToolSchema
from tysh.kernel.typed_args import reflect_params


@attrs.frozen
class Outcome:
    """A tool's full return: status, structured output and typed data (for `$(…)`)."""

    code: int = 0
    output: OutputData | None = None
    data: Any = None


# What a tool function may return: a status, structured output (status 0), an Outcome,
# or None (status 0).
ToolReturn = int | OutputData | Outcome | None
ToolFunc = Callable[[Any, Any], ToolReturn]


@attrs.frozen(eq=False)
class Tool:
    """A runnable tool: its schema plus the function (and args class) of each leaf.

    For raw_argv and verbatim tools `args_class` is None and the function receives the
    binder's ToolArgs itself."""

    schema: ToolSchema
    func: ToolFunc | None
    args_class: type | None
    children: Mapping[str, Tool] = attrs.field(factory=dict)

    @property
    def name(self) -> str:
        return self.schema.name

    def leaf(self, path: Sequence[str]) -> Tool:
        node = self
        for p in path:
            node = node.children[p]
        return node


def _examples(examples: Sequence[Example | tuple[str, str]]) -> tuple[Example, ...]:
    return tuple(e if isinstance(e, Example) else Example(e[0], e[1]) for e in examples)


def tool(
    name: str,
    *,
    args: type | None = None,
    description: str = "",
    examples: Sequence[Example | tuple[str, str]] = (),
    operations: Sequence[str] = (),
    raw_argv: bool = False,
    verbatim: bool = False,
    glob_passthrough: bool = False,
    typed_substitution: bool = False,
    owns_output: bool = False,
    map_positionals: bool = False,
    aliases: Sequence[str] = (),
) -> Callable[[ToolFunc], Tool]:
    """Declare a flat tool. `args` is its attrs args class (None for raw/verbatim tools)."""

    def deco(func: ToolFunc) -> Tool:
        schema = ToolSchema(
            name=name,
            description=description,
            params=reflect_params(args) if args is not None else (),
            typed_substitution=typed_substitution,
            examples=_examples(examples),
            map_positionals=map_positionals,
            aliases=tuple(aliases),
            owns_output=owns_output,
            raw_argv=raw_argv,
            arg_binding=ArgBinding.VERBATIM if verbatim else ArgBinding.TYPED,
            glob_passthrough=glob_passthrough,
            operations=tuple(operations),
        )
        return Tool(schema=schema, func=func, args_class=args)

    return deco
