"""Alias expansion with bash's interactive-shell semantics, on the text of each command.

bash expands an alias when a command is read: a word in command position that is an
alias name is replaced by the alias value, the value's own first word is expanded in
turn (an alias is never expanded inside its own expansion), and when the value ends in a
blank the next word is checked too (`alias sudo='sudo '`). Doing it on the text, with the
positions the shell's scanner reports, keeps that exact behaviour: a function defined at
the prompt keeps the expansion it had when it was defined, as in bash.
"""

from __future__ import annotations

import re

from tysh.repl.lex import scan

# Alias names are plain words: no quoting, expansion or glob characters.
_PLAIN = re.compile(r"[^\s'\"\\$`=*?\[\]{}~]+\Z")


def expand_aliases(text: str, aliases: dict[str, str], active: frozenset[str] = frozenset()
                   ) -> str:
    """`text` with the aliases in command position replaced by their values."""
    if not aliases:
        return text
    words = scan(text).words
    out: list[str] = []
    pos = 0
    check_next = False
    for w in words:
        name = w.text
        if (w.command or check_next) and name in aliases and name not in active \
                and _PLAIN.match(name):
            value = expand_aliases(aliases[name], aliases, active | {name})
            out.append(text[pos:w.start])
            out.append(value)
            pos = w.end
            check_next = value.endswith((" ", "\t"))
        else:
            check_next = False
    if pos == 0:
        return text
    out.append(text[pos:])
    return "".join(out)
