"""Help text rendered from a schema (`head --help`, `help head`, `help kv store get`).

The text comes from the same declaration the binder uses, so it cannot drift from what
the tool accepts: usage line, description, parameters with their spellings, types,
defaults and required marks, subcommands with their aliases, and examples."""

from __future__ import annotations

from collections.abc import Sequence

from tysh.kernel.base.values import to_text
from tysh.kernel.tools.schema import ArgBinding, ParamSchema, ToolSchema

_TYPE_WORD = {"int": "N", "float": "NUM", "path": "PATH", "string": "TEXT", "any": "VALUE",
              "array": "TEXT"}


def _metavar(p: ParamSchema) -> str:
    if p.choices:
        return "{" + "|".join(p.choices) + "}"
    if p.positional:
        return p.name.upper()
    return _TYPE_WORD.get(p.param_type, p.name.upper())


def _spelling(p: ParamSchema) -> str:
    """`-n, --lines N` — short spellings first, then long ones, then the value."""
    spells = sorted(p.spellings(), key=lambda s: (s.startswith("--"), len(s)))
    text = ", ".join(spells)
    if p.param_type != "bool":
        mv = _metavar(p)
        text += " " + (" ".join([mv] * p.consumes) if p.consumes > 1 else mv)
    elif p.optional_value:  # the value is attached or after `=`, never the next word
        text += "[=TEXT]"
    elif p.choices:
        text += "[=" + _metavar(p) + "]"
    return text


def _usage_positional(p: ParamSchema) -> str:
    word = p.name.upper()
    if p.param_type == "array":
        word += "..."
    return word if p.required else f"[{word}]"


def _walk(schema: ToolSchema, path: Sequence[str]) -> tuple[list[ToolSchema], list[str]]:
    chain = [schema]
    names = [schema.name]
    for w in path:
        nxt = chain[-1].child(w)
        if nxt is None:
            raise KeyError(f"{' '.join(names)}: no subcommand '{w}'")
        chain.append(nxt)
        names.append(nxt.name)
    return chain, names


def render_help(schema: ToolSchema, path: Sequence[str] = ()) -> str:
    """The help of a tool, or of the subcommand node at `path` (names or aliases)."""
    chain, names = _walk(schema, path)
    node = chain[-1]
    prog = " ".join(names)
    options = [p for p in node.params if not p.positional]
    inherited: list[ParamSchema] = []
    seen = {s for p in options for s in p.spellings()}
    for anc in reversed(chain[:-1]):
        for p in anc.params:
            if not p.positional and not any(s in seen for s in p.spellings()):
                inherited.append(p)
                seen.update(p.spellings())
    positionals = [p for p in node.params if p.positional]

    usage = [prog]
    if options or inherited:
        usage.append("[OPTIONS]")
    if node.subcommands:
        usage.append("COMMAND")
    usage.extend(_usage_positional(p) for p in positionals)
    if schema.arg_binding is ArgBinding.VERBATIM or schema.raw_argv:
        usage.append("[ARG]...")
    lines = ["usage: " + " ".join(usage)]
    if node.description:
        lines += ["", node.description]

    def rows(params: Sequence[ParamSchema]) -> list[tuple[str, str]]:
        out = []
        for p in params:
            left = _usage_positional(p) if p.positional else _spelling(p)
            notes = [p.description] if p.description else []
            if p.param_type not in ("bool", "string", "array") and not p.choices:
                notes.append(f"({p.param_type})")
            if p.required:
                notes.append("[required]")
            elif p.default is not None and p.default != [] and p.param_type != "bool":
                d = p.default
                shown = " ".join(to_text(x) for x in d) if isinstance(d, list) else to_text(d)
                notes.append(f"[default: {shown!r}]" if shown.strip() != shown or not shown
                             else f"[default: {shown}]")
            if p.repeatable and not p.positional and "repeatable" not in p.description:
                notes.append("(repeatable)")
            out.append((left, " ".join(notes)))
        return out

    def section(title: str, items: list[tuple[str, str]]) -> None:
        if not items:
            return
        width = min(max(len(a) for a, _ in items), 28)
        lines.extend(["", title + ":"])
        for a, b in items:
            if not b:
                lines.append(f"  {a}")
            elif len(a) > width:
                lines.extend([f"  {a}", f"  {'':<{width}}  {b}"])
            else:
                lines.append(f"  {a:<{width}}  {b}")

    section("arguments", rows(positionals))
    section("options", rows(options))
    section("inherited options", rows(inherited))
    if node.subcommands:
        section("commands", [
            (c.name + (f" ({', '.join(c.aliases)})" if c.aliases else ""), c.description)
            for c in node.subcommands
        ])
    if node.examples:
        lines.extend(["", "examples:"])
        for e in node.examples:
            lines.append(f"  {e.code}")
            if e.description:
                lines.append(f"      {e.description}")
    extra = []
    if not node.owns_output and schema.arg_binding is not ArgBinding.VERBATIM \
            and not schema.raw_argv:
        extra.append("  --help  show this help")
    if not schema.raw_argv and not node.owns_output:
        extra.append("  --json  print the output as JSON")
    if extra:
        lines.extend(["", "global options:", *extra])
    if node.subcommands:
        lines.extend(["", f"Run '{prog} COMMAND --help' for a command's help."])
    return "\n".join(lines) + "\n"
