"""How the shell shows what a command name means, for `type`, `command -v/-V`, `alias`
and `which`: one wording and one quoting, whichever builtin prints it."""

from __future__ import annotations

_PHRASE = {
    "keyword": "is a shell keyword",
    "builtin": "is a shell builtin",
    "tool": "is a tysh tool",
}

def describe(name: str, kind: str, detail: str) -> str:
    """bash's wording for one resolved name (ShellAPI.resolve's kind and detail)."""
    if kind == "alias":
        return f"{name} is aliased to `{detail}'"
    if kind == "function":
        return f"{name} is a function" + ("\n" + detail.rstrip("\n") if detail else "")
    if kind == "file":
        return f"{name} is {detail}"
    if kind == "hashed":
        return f"{name} is hashed ({detail})"
    return f"{name} {_PHRASE.get(kind, 'is a ' + kind)}"


def quote_alias(value: str) -> str:
    """An alias's value as `alias NAME=VALUE` prints it: in single quotes, as bash always
    writes it (a quote inside written `'\\''`), so the line reads back."""
    return "'" + value.replace("'", "'\\''") + "'"
