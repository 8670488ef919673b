"""Fast constructors for the syntax tree's commonest nodes, for the lexer and the parser.

Parsing builds tens of thousands of small frozen nodes, and attrs' frozen __init__ goes
through `object.__setattr__` once per field, a large share of all parsing time. The
constructors here build the very same objects by filling their slots directly. They are
drop-in: `Word(parts, pos)` here is an `ast.Word`, equal to one built by `ast.Word(...)`.
"""

from __future__ import annotations

import types
from typing import Any, TypeVar

import attrs

from tysh.kernel.base.cache import compile_cached
from tysh.kernel.syntax import ast

_T = TypeVar("_T")


def fast_constructors(*classes: type) -> list[Any]:
    """Drop-in constructors for frozen, slotted attrs classes that skip attrs' __init__.

    A class gets one only when that is exactly equivalent — every field is a plain slot
    set from a positional/keyword argument or a constant default, with no validator,
    converter, factory, post-init hook or cached hash — and otherwise is returned itself,
    so a later change to ast.py can never make the fast path build wrong nodes. All the
    constructors are compiled as one source, as each compile has a fixed cost paid at
    start-up.
    """
    env: dict[str, Any] = {"_new": object.__new__}
    src: list[str] = []
    made: list[str | type] = []
    for i, cls in enumerate(classes):
        body = _constructor_source(cls, f"_{i}", env)
        if body is None:
            made.append(cls)
        else:
            src.append(body)
            made.append(f"make_{i}")
    if src:
        exec(compile_cached("\n".join(src), "<fast constructors>"), env)
    return [env[m] if isinstance(m, str) else m for m in made]


def _constructor_source(cls: type, tag: str, env: dict[str, Any]) -> str | None:
    """The source of `make{tag}` for cls (its names stored in env), or None if it must
    keep attrs' own __init__."""
    try:
        fields = attrs.fields(cls)
    except (TypeError, attrs.exceptions.NotAnAttrsClassError):
        return None
    names = [f.name for f in fields]
    slots = set(getattr(cls, "__slots__", ())) - {"__weakref__"}
    if (hasattr(cls, "__attrs_post_init__") or hasattr(cls, "__attrs_pre_init__")
            or slots != set(names)):
        return None
    env[f"_cls{tag}"] = cls
    params: list[str] = []
    body: list[str] = [f"    o = _new(_cls{tag})"]
    for f in fields:
        member = cls.__dict__.get(f.name)
        if (f.validator is not None or f.converter is not None or not f.init or f.kw_only
                or isinstance(f.default, attrs.Factory)  # type: ignore[arg-type]
                or not isinstance(member, types.MemberDescriptorType)):
            return None
        env[f"_set{tag}_{f.name}"] = member.__set__
        if f.default is attrs.NOTHING:
            params.append(f.name)
        else:
            env[f"_default{tag}_{f.name}"] = f.default
            params.append(f"{f.name}=_default{tag}_{f.name}")
        body.append(f"    _set{tag}_{f.name}(o, {f.name})")
    body.append("    return o")
    return f"def make{tag}({', '.join(params)}):\n" + "\n".join(body) + "\n"


_FAST_NODES = (
    ast.Pos, ast.Lit, ast.Quoted, ast.DQ, ast.Word, ast.ParamExp, ast.Redirect, ast.Assign,
    ast.Script, ast.Statement, ast.AndOr, ast.Pipeline, ast.SimpleCommand,
)
_MADE: dict[type, Any] = dict(zip(_FAST_NODES, fast_constructors(*_FAST_NODES), strict=True))


def _fast(cls: type[_T]) -> type[_T]:
    """The constructor made for `cls` in the one batch above."""
    made: type[_T] = _MADE[cls]
    return made


Pos = _fast(ast.Pos)
Lit = _fast(ast.Lit)
Quoted = _fast(ast.Quoted)
DQ = _fast(ast.DQ)
Word = _fast(ast.Word)
ParamExp = _fast(ast.ParamExp)
Redirect = _fast(ast.Redirect)
Assign = _fast(ast.Assign)
Script = _fast(ast.Script)
Statement = _fast(ast.Statement)
AndOr = _fast(ast.AndOr)
Pipeline = _fast(ast.Pipeline)
SimpleCommand = _fast(ast.SimpleCommand)
