"""`set -x`: each simple command, after expansion, on stderr behind `$PS4`, quoted so
that the line could be pasted back into a shell, as bash prints it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.streams import Fds

if TYPE_CHECKING:
    from tysh.kernel.run.interpreter import Interpreter
    from tysh.kernel.syntax import ast

# words bash prints without quotes
_PLAIN = LazyRegex(r"[A-Za-z0-9_./,:=@%^+-]+\Z")

_ps4_words: dict[str, ast.Word] = {}


def quote(word: str) -> str:
    if _PLAIN.match(word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def prefix(interp: Interpreter) -> str:
    """`$PS4` expanded (default `+ `), its first character repeated once more for each
    level of command substitution, as bash does."""
    from tysh.kernel.base.values import to_text

    st = interp.state
    raw = st.get("PS4")
    text = "+ " if raw is None else to_text(raw)
    if "$" in text or "`" in text:
        word = _ps4_words.get(text)
        if word is None:
            from tysh.kernel.syntax.parser import parse

            quoted = text.replace("\\", "\\\\").replace('"', '\\"')
            try:
                cmd = parse(f'_ "{quoted}"').statements[0].body.first.commands[0]
                word = cmd.words[1]  # type: ignore[union-attr]
            except Exception:  # noqa: BLE001 — a PS4 that does not parse prints as it is
                word = None
            if word is not None:
                _ps4_words[text] = word
        if word is not None:
            saved = st.options
            st.options = saved - {"xtrace"}  # expanding PS4 is not itself traced
            try:
                text = interp.expand_word_text(word)
            except Exception:  # noqa: BLE001 — a failing PS4 still traces
                pass
            finally:
                st.options = saved
    if text:
        text = text[0] * st.xtrace_level + text
    return text


def trace(interp: Interpreter, fds: Fds, words: list[str]) -> None:
    """Write one traced line (`words` already expanded) to the command's stderr."""
    err = fds.get(2)
    if err is None:
        return
    line = prefix(interp) + " ".join(quote(w) for w in words) + "\n"
    try:
        err.write(line.encode("utf-8", "surrogateescape"))
        err.flush()
    except (OSError, ValueError):
        pass
