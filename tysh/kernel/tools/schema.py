"""Tool schemas: the one declaration a tool makes of its arguments.

A schema drives the argv binder, the help text, the JSON wire form (`tools --json`),
the JSON Schema of a tool's input and validation. Classes are frozen; list fields are
held as tuples so schemas can be shared between threads and cached by identity.
"""

from __future__ import annotations

from tysh.kernel.base.memo import bounded_memo
from tysh.kernel.base.record import Record, frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence
    from typing import Any, ClassVar

PARAM_TYPES = ("string", "int", "float", "bool", "array", "path", "choice", "any")


class _Enumeration(type):
    """What makes ArgBinding's class iterable over its members, as an Enum's is."""

    _members: tuple[ArgBinding, ...]

    def __iter__(cls) -> Iterator[ArgBinding]:
        return iter(cls._members)

    def __len__(cls) -> int:
        return len(cls._members)


class ArgBinding(metaclass=_Enumeration):
    """How a tool's words bind: `typed` (against its parameters; the default) or
    `verbatim` (as they are). An enumeration with Enum's surface — `ArgBinding.TYPED`,
    `ArgBinding("verbatim")`, `.name`, `.value`, iteration, identity — written as a plain
    class because importing `enum` is a twentieth of a `tysh -c 'echo hi'`."""

    __slots__ = ("name", "value")
    name: str
    value: str
    TYPED: ClassVar[ArgBinding]
    VERBATIM: ClassVar[ArgBinding]

    def __new__(cls, value: object) -> ArgBinding:
        """The member with this value (or this member itself)."""
        for member in ArgBinding._members:
            if member is value or member.value == value:
                return member
        raise ValueError(f"{value!r} is not a valid ArgBinding")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot change {self!r}")

    def __repr__(self) -> str:
        return f"<ArgBinding.{self.name}: {self.value!r}>"

    def __str__(self) -> str:
        return f"ArgBinding.{self.name}"

    def __reduce__(self) -> tuple[Any, ...]:
        return ArgBinding, (self.value,)


def _binding(name: str, value: str) -> ArgBinding:
    member = object.__new__(ArgBinding)
    object.__setattr__(member, "name", name)
    object.__setattr__(member, "value", value)
    return member


ArgBinding.TYPED = _binding("TYPED", "typed")
ArgBinding.VERBATIM = _binding("VERBATIM", "verbatim")
ArgBinding._members = (ArgBinding.TYPED, ArgBinding.VERBATIM)


_set = object.__setattr__


def _tuple(v: Any) -> tuple[Any, ...]:
    return v if type(v) is tuple else tuple(v) if v is not None else ()


def _pairs(v: Any) -> tuple[tuple[str, str], ...]:
    return tuple((str(a), str(b)) for a, b in v) if v else ()


@frozen
class Example(Record):
    description: str
    code: str

    # (its own: every tool module makes a few at import, and a record's compiled
    # __init__ would cost a load from the code cache in every process)
    def __init__(self, description: str, code: str) -> None:
        _set(self, "description", description)
        _set(self, "code", code)


@frozen
class ParamSchema(Record):
    """One parameter. Non-positional params are spelled `--name` (`_` as `-`) plus `aliases`.
    The default is held in its JSON shape (lists, not tuples) so the wire form
    round-trips exactly; list fields are held as tuples."""

    name: str
    param_type: str = "string"
    required: bool = False
    default: Any = None
    description: str = ""
    aliases: tuple[str, ...] = ()
    consumes: int = 1
    repeatable: bool = False
    positional: bool = False
    choices: tuple[str, ...] = ()
    # a bool flag that may carry a value attached (`-i.bak`, `--in-place=.bak`), never
    # the next word: GNU's optional option arguments (`sed -i[SUFFIX]`)
    optional_value: bool = False
    # the range of an int or float param's values, both ends included (None: open; an
    # int param is never outside a signed 64-bit integer, declared or not)
    minimum: int | float | None = None
    maximum: int | float | None = None
    # the tool's own message for a value out of range, after `NAME: ` ({value} is the
    # value as written, {option} the spelling); None: the binder's
    range_error: str | None = None
    # a pattern-valued param (`grep --include=GLOB`): a glob word given as its value
    # reaches the tool as written, never expanded against the files here
    glob_passthrough: bool = False

    def __init__(self, name: str, param_type: str = "string", required: bool = False,
                 default: Any = None, description: str = "", aliases: Iterable[str] = (),
                 consumes: int = 1, repeatable: bool = False, positional: bool = False,
                 choices: Iterable[str] = (), optional_value: bool = False,
                 minimum: int | float | None = None, maximum: int | float | None = None,
                 range_error: str | None = None, glob_passthrough: bool = False) -> None:
        _set(self, "name", name)
        _set(self, "param_type", param_type)
        _set(self, "required", required)
        _set(self, "default", _json_default(default))
        _set(self, "description", description)
        _set(self, "aliases", _tuple(aliases))
        _set(self, "consumes", consumes)
        _set(self, "repeatable", repeatable)
        _set(self, "positional", positional)
        _set(self, "choices", _tuple(choices))
        _set(self, "optional_value", optional_value)
        _set(self, "minimum", minimum)
        _set(self, "maximum", maximum)
        _set(self, "range_error", range_error)
        _set(self, "glob_passthrough", glob_passthrough)

    @property
    def long_spelling(self) -> str:
        return "--" + self.name.replace("_", "-")

    def spellings(self) -> tuple[str, ...]:
        """Every option spelling of the param; none for positionals."""
        if self.positional:
            return ()
        return (self.long_spelling, *self.aliases)

    @property
    def takes_value(self) -> bool:
        return self.param_type != "bool"


@frozen
class ToolSchema(Record):
    name: str
    description: str = ""
    params: tuple[ParamSchema, ...] = ()
    typed_substitution: bool = False
    examples: tuple[Example, ...] = ()
    map_positionals: bool = False
    subcommands: tuple[ToolSchema, ...] = ()
    aliases: tuple[str, ...] = ()
    owns_output: bool = False
    raw_argv: bool = False
    arg_binding: ArgBinding = ArgBinding.TYPED
    glob_passthrough: bool = False
    operations: tuple[str, ...] = ()
    # what the tool does, for tool-call events (`read`, `edit`, `search`, …; an open
    # set); "" derives it from `operations` (see `effective_kind`)
    kind: str = ""
    # the params whose values are file paths (an event's locations); () means the params
    # typed "path" and, failing those, the positionals named as paths by convention
    paths: tuple[str, ...] = ()
    # options that carry the tool's script or pattern (`grep -e`, `sed -f`): when none is
    # given, the first value of the first `paths` param is the script, not a path
    script_params: tuple[str, ...] = ()
    # (bool param, kind): the kind when that flag is set (`sed -i` edits)
    kind_when: tuple[tuple[str, str], ...] = ()
    # options whose next word is passed as written, never globbed: a pattern (`find
    # -name GLOB`, for a tool parsing its own argv; a typed tool declares it on the
    # param) or a variable name (`printf -v a[1]`)
    passthrough_options: tuple[str, ...] = ()

    def __init__(self, name: str, description: str = "", params: Iterable[ParamSchema] = (),
                 typed_substitution: bool = False, examples: Iterable[Example] = (),
                 map_positionals: bool = False, subcommands: Iterable[ToolSchema] = (),
                 aliases: Iterable[str] = (), owns_output: bool = False,
                 raw_argv: bool = False, arg_binding: ArgBinding = ArgBinding.TYPED,
                 glob_passthrough: bool = False, operations: Iterable[str] = (),
                 kind: str = "", paths: Iterable[str] = (), script_params: Iterable[str] = (),
                 kind_when: Iterable[tuple[str, str]] = (),
                 passthrough_options: Iterable[str] = ()) -> None:
        _set(self, "name", name)
        _set(self, "description", description)
        _set(self, "params", _tuple(params))
        _set(self, "typed_substitution", typed_substitution)
        _set(self, "examples", _tuple(examples))
        _set(self, "map_positionals", map_positionals)
        _set(self, "subcommands", _tuple(subcommands))
        _set(self, "aliases", _tuple(aliases))
        _set(self, "owns_output", owns_output)
        _set(self, "raw_argv", raw_argv)
        _set(self, "arg_binding", arg_binding)
        _set(self, "glob_passthrough", glob_passthrough)
        _set(self, "operations", _tuple(operations))
        _set(self, "kind", kind)
        _set(self, "paths", _tuple(paths))
        _set(self, "script_params", _tuple(script_params))
        _set(self, "kind_when", _pairs(kind_when))
        _set(self, "passthrough_options", _tuple(passthrough_options))

    # -- builders: each returns a new schema ----------------------------------------
    def with_raw_argv(self) -> ToolSchema:
        """Source-order binding, for `test`/`[` whose operands look like options."""
        return self.evolve(raw_argv=True)

    def with_verbatim_argv(self) -> ToolSchema:
        """Hand the tool every word as written, for tools that parse their own argv."""
        return self.evolve(arg_binding=ArgBinding.VERBATIM)

    def with_owned_output(self) -> ToolSchema:
        """Mark the whole tree as rendering its own output, declaring a `json` bool param on
        each node that lacks one."""
        return with_owned_output(self)

    def with_glob_passthrough(self) -> ToolSchema:
        return self.evolve(glob_passthrough=True)

    def unglobbed_options(self) -> frozenset[str]:
        """The option spellings whose value is never globbed: a glob word given as the
        value (`--include=*.py`, `--include *.py`, `-name *.py`) reaches the tool as
        written."""
        return _unglobbed_options(self)

    def with_typed_substitution(self) -> ToolSchema:
        return self.evolve(typed_substitution=True)

    def with_operations(self, *ops: str) -> ToolSchema:
        """Declare destructive effects (`fs.remove`, …), keeping order and dropping repeats."""
        return self.evolve(operations=tuple(dict.fromkeys([*self.operations, *ops])))

    def with_kind(self, kind: str) -> ToolSchema:
        """Declare what the tool does, for tool-call events (`read`, `write`, …)."""
        return self.evolve(kind=kind)

    def with_positional_mapping(self) -> ToolSchema:
        """Map leftover operands onto named params, for MCP/external tools."""
        return self.evolve(map_positionals=True)

    def subcommand(self, child: ToolSchema) -> ToolSchema:
        """Add a child schema (replacing one of the same name)."""
        kids = [c for c in self.subcommands if c.name != child.name]
        return self.evolve(subcommands=(*kids, child))

    def with_command_aliases(self, *aliases: str) -> ToolSchema:
        return self.evolve(aliases=tuple(dict.fromkeys([*self.aliases, *aliases])))

    def matches_command(self, word: str) -> bool:
        """Whether a word names this node: its name or one of its command aliases."""
        return word == self.name or word in self.aliases

    def child(self, word: str) -> ToolSchema | None:
        """The child a word routes to, by name or command alias."""
        for c in self.subcommands:
            if c.matches_command(word):
                return c
        return None

    def node(self, path: Sequence[str]) -> ToolSchema:
        """The node at a path of child names or aliases; KeyError when there is none."""
        node = self
        for w in path:
            nxt = node.child(w)
            if nxt is None:
                raise KeyError(f"{self.name}: no subcommand {' '.join(path)!r}")
            node = nxt
        return node

    # -- wire forms ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The compact JSON wire form: defaults omitted except the listed fields."""
        return schema_to_json(self)

    @staticmethod
    def from_json(data: Mapping[str, Any] | str) -> ToolSchema:
        return schema_from_json(data)

    def input_schema(self, path: Sequence[str] = ()) -> dict[str, Any]:
        """The JSON Schema (2020-12) of a leaf's params."""
        return input_schema(self, path)


def with_owned_output(schema: ToolSchema) -> ToolSchema:
    """Mark every node of the tree `owns_output` and give each a `json` bool param."""
    params = schema.params
    if not any(p.name == "json" for p in params):
        params = (*params, ParamSchema(
            name="json", param_type="bool", description="print the output as JSON"))
    return schema.evolve(
        owns_output=True,
        params=params,
        subcommands=tuple(with_owned_output(c) for c in schema.subcommands),
    )


@bounded_memo(256)
def _unglobbed_options(s: ToolSchema) -> frozenset[str]:
    spellings = [sp for p in s.params if p.glob_passthrough for sp in p.spellings()]
    return frozenset((*spellings, *s.passthrough_options))


# ---------------------------------------------------------------------------------------
# JSON wire form

_PARAM_DEFAULTS: dict[str, Any] = {
    "required": False, "default": None, "aliases": (), "consumes": 1,
    "repeatable": False, "positional": False, "choices": (), "optional_value": False,
    "minimum": None, "maximum": None, "range_error": None, "glob_passthrough": False,
}
_SCHEMA_OMITTABLE: dict[str, Any] = {
    "typed_substitution": False, "subcommands": (), "aliases": (), "owns_output": False,
    "raw_argv": False, "arg_binding": ArgBinding.TYPED, "glob_passthrough": False,
    "operations": (), "kind": "", "paths": (), "script_params": (), "kind_when": (),
    "passthrough_options": (),
}


def _json_default(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_json_default(x) for x in v]
    if isinstance(v, list):
        return [_json_default(x) for x in v]
    if isinstance(v, dict):
        return {k: _json_default(x) for k, x in v.items()}
    return v


def param_to_json(p: ParamSchema) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": p.name, "param_type": p.param_type, "description": p.description,
    }
    for key, dflt in _PARAM_DEFAULTS.items():
        v = getattr(p, key)
        if v is None and dflt is None:
            continue
        if isinstance(v, bool) != isinstance(dflt, bool) or v != dflt:
            out[key] = list(v) if key in ("aliases", "choices") else _json_default(v)
    return out


def schema_to_json(s: ToolSchema) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": s.name,
        "description": s.description,
        "params": [param_to_json(p) for p in s.params],
        "examples": [{"description": e.description, "code": e.code} for e in s.examples],
        "map_positionals": s.map_positionals,
    }
    for key, dflt in _SCHEMA_OMITTABLE.items():
        v = getattr(s, key)
        if v == dflt:
            continue
        if key == "subcommands":
            out[key] = [schema_to_json(c) for c in v]
        elif key == "arg_binding":
            out[key] = v.value
        elif key == "kind_when":
            out[key] = [list(x) for x in v]
        elif isinstance(v, tuple):
            out[key] = list(v)
        else:
            out[key] = v
    return out


def param_from_json(d: Mapping[str, Any]) -> ParamSchema:
    return ParamSchema(
        name=d["name"],
        param_type=d.get("param_type", "string"),
        required=bool(d.get("required", False)),
        default=d.get("default"),
        description=d.get("description", ""),
        aliases=tuple(d.get("aliases", ())),
        consumes=int(d.get("consumes", 1)),
        repeatable=bool(d.get("repeatable", False)),
        positional=bool(d.get("positional", False)),
        choices=tuple(d.get("choices", ())),
        optional_value=bool(d.get("optional_value", False)),
        minimum=d.get("minimum"),
        maximum=d.get("maximum"),
        range_error=d.get("range_error"),
        glob_passthrough=bool(d.get("glob_passthrough", False)),
    )


def schema_from_json(data: Mapping[str, Any] | str) -> ToolSchema:
    """A schema from its wire form (a dict or JSON text); omitted fields take defaults."""
    if isinstance(data, str):
        import json

        data = json.loads(data)
        assert isinstance(data, dict)
    return ToolSchema(
        name=data["name"],
        description=data.get("description", ""),
        params=tuple(param_from_json(p) for p in data.get("params", ())),
        typed_substitution=bool(data.get("typed_substitution", False)),
        examples=tuple(Example(e.get("description", ""), e.get("code", ""))
                       for e in data.get("examples", ())),
        map_positionals=bool(data.get("map_positionals", False)),
        subcommands=tuple(schema_from_json(c) for c in data.get("subcommands", ())),
        aliases=tuple(data.get("aliases", ())),
        owns_output=bool(data.get("owns_output", False)),
        raw_argv=bool(data.get("raw_argv", False)),
        arg_binding=ArgBinding(data.get("arg_binding", "typed")),
        glob_passthrough=bool(data.get("glob_passthrough", False)),
        operations=tuple(data.get("operations", ())),
        kind=str(data.get("kind", "")),
        paths=tuple(data.get("paths", ())),
        script_params=tuple(data.get("script_params", ())),
        kind_when=tuple(tuple(x) for x in data.get("kind_when", ())),
        passthrough_options=tuple(data.get("passthrough_options", ())),
    )


# ---------------------------------------------------------------------------------------
# JSON Schema: compiled by the JSON-value schema compiler from the params' nodes


def param_json_schema(p: ParamSchema) -> dict[str, Any]:
    """The JSON Schema of one param's value."""
    from tysh.kernel.tools.values.reflect import param_json_schema as compiled

    return compiled(p)


def input_schema(schema: ToolSchema, path: Sequence[str] = ()) -> dict[str, Any]:
    """JSON Schema 2020-12 of the leaf at `path`: an open object root, every param
    (positionals included) a property, `required` in declaration order."""
    from tysh.kernel.tools.values.reflect import input_schema as compiled

    return compiled(schema, path)
