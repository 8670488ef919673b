"""The JSON-value schema DSL, as tool authors use it (`from tysh import values as s`):
`s.string(required=True)`, `s.integer(minimum=1)`, `s.array(...)`, `s.object(...)`,
`s.json()`, `s.one_of(...)`, and `s.Args` for the class form."""

from tysh.kernel.tools.values.nodes import (
    UNSET,
    Args,
    Node,
    ToolDefinitionError,
    array,
    boolean,
    integer,
    json,
    null,
    number,
    object,
    one_of,
    string,
)

__all__ = [
    "UNSET", "Args", "Node", "ToolDefinitionError", "array", "boolean", "integer", "json",
    "null", "number", "object", "one_of", "string",
]

