"""The decorator builtins and Python tools are written with.

`@tool("head", args=HeadArgs, ...)` reflects the schema from the args class and wraps the
function in a `Tool`; the kernel binds argv against `Tool.schema`, converts the result to
an instance of the leaf's args class and calls the function with it and a Context."""

from __future__ import annotations

from tysh.kernel.base.hints import Any
from tysh.kernel.base.record import Record, frozen
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.schema import ArgBinding, Example, ParamSchema, ToolSchema


@frozen
class Outcome(Record):
    """A tool's full return: status, structured output and typed data (for `$(…)`)."""

    code: int = 0
    output: OutputData | None = None
    data: Any = None


# What a tool function may return: a status, structured output (status 0), an Outcome,
# or None (status 0).
ToolReturn = int | OutputData | Outcome | None

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import IO

    # `func(args, ctx)`; a tool declared with session=True is `func(args, ctx, session)`
    ToolFunc = Callable[..., ToolReturn]
    # A tool's checks of its bound arguments before anything runs (`Kernel.validate`):
    # one message per problem, as the tool itself would print it; certain problems only.
    ToolCheck = Callable[[Any], list[str]]
    # A raw_argv tool's shortcut for the commonest calls (`[ $i -lt 10 ]`): given the
    # words as text (as the tool's own `texts` makes them), the status the tool would
    # return when it would write nothing and needs no Context, else None (the tool then
    # runs as usual). It must have no effect: the tool may run after it.
    ToolDirect = Callable[[list[str]], int | None]
    # A tool's shortcut for its commonest calls that write (`echo hi`): given its words
    # when every one is an operand (no option, no `--`) and a stdout, write what the
    # tool would write and return the status it would return; or return None having
    # written nothing, and the tool runs as usual. It gets no Context, so it must need
    # none: no stdin, no files, no typed value, nothing to wait for.
    ToolWriter = Callable[[list[Any], IO[bytes]], int | None]
    # A filter's shortcut for a pipeline stage whose input is in memory (`… | sort |`):
    # given its bound args and the whole of its input, the bytes it would write to
    # stdout when it would write nothing else, read nothing else and return status 0;
    # or None (or an exception), and the tool runs as usual. It gets no Context, so it
    # must need none, and it charges nothing to the memory budget: the pipeline calls it
    # only when the budget has room for what the tool would charge (see pipeline.py).
    ToolFilter = Callable[[Any, bytes], bytes | None]

# a read-only dict view (types.MappingProxyType, named without loading `types`)
_MappingProxy = type(type.__dict__)
# a leaf's children: none, and read-only (a default every Tool shares)
NO_CHILDREN: Mapping[str, Any] = _MappingProxy({})


@frozen
class Tool:
    """A runnable tool: its schema plus the function (and args class) of each leaf.
    Equal only to itself; `tool.evolve(schema=…)` is a copy with fields changed.

    For raw_argv and verbatim tools `args_class` is None and the function receives the
    binder's ToolArgs itself."""

    schema: ToolSchema
    func: ToolFunc | None
    args_class: type | None
    children: Mapping[str, Tool] = NO_CHILDREN
    check: ToolCheck | None = None
    session: bool = False  # called with the interpreter's Session as a third argument
    direct: ToolDirect | None = None  # see ToolDirect
    writer: ToolWriter | None = None  # see ToolWriter
    filter: ToolFilter | None = None  # see ToolFilter

    __repr__ = Record.__repr__
    evolve = Record.evolve

    @property
    def name(self) -> str:
        return self.schema.name

    def leaf(self, path: Sequence[str]) -> Tool:
        node = self
        for p in path:
            node = node.children[p]
        return node

    # -- the JSON side: one compiler and one validator (kernel/tools/values) -------------
    def input_schema(self, path: Sequence[str] = ()) -> dict[str, Any]:
        """The JSON Schema (2020-12) of the leaf at `path`."""
        return self.schema.input_schema(path)

    def validate(self, args: Any, path: Sequence[str] = ()) -> list[Any]:
        """Every `Violation` of a JSON argument object, path-qualified, in document order."""
        from tysh.kernel.tools.values.reflect import validate_args

        return validate_args(self.schema, args, path)

    def json_argv(self, args: Mapping[str, Any], path: Sequence[str] = (),
                  json_output: bool = False) -> list[Any]:
        """The words that run the leaf at `path` with a (validated) JSON argument object."""
        from tysh.kernel.tools.values.argv import json_argv

        return json_argv(self.schema, args, path, json_output)


def _reflect(args: type) -> tuple[ParamSchema, ...]:
    """The params of a typed tool's args class: reflection (through attrs and typing)
    loads only when a typed tool is declared."""
    from tysh.kernel.tools.params import reflect_params

    return reflect_params(args)


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
    passthrough_options: Sequence[str] = (),
    typed_substitution: bool = False,
    owns_output: bool = False,
    map_positionals: bool = False,
    aliases: Sequence[str] = (),
    check: ToolCheck | None = None,
    session: bool = False,
    kind: str = "",
    paths: Sequence[str] = (),
    script_params: Sequence[str] = (),
    kind_when: Sequence[tuple[str, str]] = (),
    direct: ToolDirect | None = None,
    writer: ToolWriter | None = None,
    filter: ToolFilter | None = None,
) -> Callable[[ToolFunc], Tool]:
    """Declare a flat tool. `args` is its attrs args class (None for raw/verbatim tools);
    `check` validates a bound args instance before a script runs (see ToolCheck);
    `session` is for the shell's own builtins only: the function gets the interpreter's
    `Session` (kernel/run/session.py) as a third argument; so are `direct` (ToolDirect)
    and `writer` (ToolWriter). `filter` is a ToolFilter. `kind`, `paths`,
    `script_params` and `kind_when` describe the tool to tool-call events (see
    ToolSchema)."""

    def deco(func: ToolFunc) -> Tool:
        schema = ToolSchema(
            name=name,
            description=description,
            params=_reflect(args) if args is not None else (),
            typed_substitution=typed_substitution,
            examples=_examples(examples),
            map_positionals=map_positionals,
            aliases=tuple(aliases),
            owns_output=owns_output,
            raw_argv=raw_argv,
            arg_binding=ArgBinding.VERBATIM if verbatim else ArgBinding.TYPED,
            glob_passthrough=glob_passthrough,
            operations=tuple(operations),
            kind=kind,
            paths=tuple(paths),
            script_params=tuple(script_params),
            kind_when=tuple(kind_when),
            passthrough_options=tuple(passthrough_options),
        )
        if owns_output:
            schema = schema.with_owned_output()
        return Tool(schema=schema, func=func, args_class=args, check=check, session=session,
                    direct=direct, writer=writer, filter=filter)

    return deco


class ToolGroup:
    """A builder for a tool with subcommands (`kv store get`), each leaf with its own args
    class, function and command aliases. `.tool` is the frozen Tool of the whole tree;
    the group also answers `.schema`, `.leaf(path)`, `.name`, `.func`, `.args_class` and
    `.children` like a Tool, so it can be registered as is."""

    def __init__(
        self,
        name: str,
        *,
        description: str = "",
        args: type | None = None,
        aliases: Sequence[str] = (),
        examples: Sequence[Example | tuple[str, str]] = (),
        operations: Sequence[str] = (),
        owns_output: bool = False,
        func: ToolFunc | None = None,
        kind: str = "",
    ) -> None:
        self._name = name
        self._kind = kind
        self._description = description
        self._args = args
        self._aliases = tuple(aliases)
        self._examples = _examples(examples)
        self._operations = tuple(operations)
        self._owns_output = owns_output
        self._func = func
        self._children: list[ToolGroup | Tool] = []
        self._parent: ToolGroup | None = None
        self._built: Tool | None = None

    def _touch(self) -> None:
        node: ToolGroup | None = self
        while node is not None:
            node._built = None
            node = node._parent

    def group(
        self,
        name: str,
        *,
        description: str = "",
        args: type | None = None,
        aliases: Sequence[str] = (),
        examples: Sequence[Example | tuple[str, str]] = (),
    ) -> ToolGroup:
        """Add a child group; `args` declares options shared by everything below it."""
        g = ToolGroup(name, description=description, args=args, aliases=aliases,
                      examples=examples)
        self.add(g)
        return g

    def command(
        self,
        name: str,
        *,
        args: type | None = None,
        description: str = "",
        aliases: Sequence[str] = (),
        examples: Sequence[Example | tuple[str, str]] = (),
        operations: Sequence[str] = (),
        typed_substitution: bool = False,
        map_positionals: bool = False,
        check: ToolCheck | None = None,
        kind: str = "",
        paths: Sequence[str] = (),
    ) -> Callable[[ToolFunc], ToolFunc]:
        """Decorate a leaf's function; returns the function unchanged."""

        def deco(func: ToolFunc) -> ToolFunc:
            t = tool(name, args=args, description=description, examples=examples,
                     operations=operations, typed_substitution=typed_substitution,
                     map_positionals=map_positionals, aliases=aliases, check=check,
                     kind=kind, paths=paths)(func)
            self.add(t)
            return func

        return deco

    def add(self, child: Tool | ToolGroup) -> None:
        """Attach an existing Tool (or group) as a child."""
        if isinstance(child, ToolGroup):
            child._parent = self
        self._children.append(child)
        self._touch()

    @property
    def tool(self) -> Tool:
        if self._built is None:
            kids = [c.tool if isinstance(c, ToolGroup) else c for c in self._children]
            schema = ToolSchema(
                name=self._name,
                description=self._description,
                params=_reflect(self._args) if self._args is not None else (),
                examples=self._examples,
                subcommands=tuple(k.schema for k in kids),
                aliases=self._aliases,
                operations=tuple(dict.fromkeys(
                    [*self._operations, *(op for k in kids for op in k.schema.operations)])),
                kind=self._kind,
            )
            if self._owns_output:
                from tysh.kernel.tools.schema import with_owned_output

                schema = with_owned_output(schema)
            self._built = Tool(schema=schema, func=self._func, args_class=self._args,
                               children={k.name: k for k in kids})
        return self._built

    # Tool-like surface
    @property
    def schema(self) -> ToolSchema:
        return self.tool.schema

    @property
    def name(self) -> str:
        return self._name

    @property
    def func(self) -> ToolFunc | None:
        return self._func

    @property
    def args_class(self) -> type | None:
        return self._args

    @property
    def children(self) -> Mapping[str, Tool]:
        return self.tool.children

    def leaf(self, path: Sequence[str]) -> Tool:
        return self.tool.leaf(path)

    def input_schema(self, path: Sequence[str] = ()) -> dict[str, Any]:
        return self.tool.input_schema(path)

    def validate(self, args: Any, path: Sequence[str] = ()) -> list[Any]:
        return self.tool.validate(args, path)

    def json_argv(self, args: Mapping[str, Any], path: Sequence[str] = (),
                  json_output: bool = False) -> list[Any]:
        return self.tool.json_argv(args, path, json_output)


def tool_group(
    name: str,
    *,
    description: str = "",
    args: type | None = None,
    aliases: Sequence[str] = (),
    examples: Sequence[Example | tuple[str, str]] = (),
    operations: Sequence[str] = (),
    owns_output: bool = False,
    func: ToolFunc | None = None,
) -> ToolGroup:
    """Declare a tool with subcommands: `kv = tool_group("kv")`, `st = kv.group("store",
    aliases=["st"])`, `@st.command("get", args=GetArgs, aliases=["g"])`."""
    return ToolGroup(name, description=description, args=args, aliases=aliases,
                     examples=examples, operations=operations, owns_output=owns_output,
                     func=func)
