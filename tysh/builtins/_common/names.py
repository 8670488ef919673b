"""How the shell shows what a command name means, for `type`, `command -v/-V`, `alias`
and `which`: one wording and one quoting, whichever builtin prints it."""

from __future__ import annotations

from tysh.kernel.base.lazyre import LazyRegex

_PHRASE = {
    "keyword": "is a shell keyword",
    "builtin": "is a shell builtin",
    "tool": "is a tysh tool",
}

_BARE = LazyRegex(r"[A-Za-z0-9_./:,+@%=-]+")


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
    """An alias's value as `alias NAME=VALUE` prints it: bare when it is one plain word,
    else in single quotes (a quote inside written `'\\''`), so the line reads back."""
    if value and _BARE.fullmatch(value):
        return value
    return "'" + value.replace("'", "'\\''") + "'"
