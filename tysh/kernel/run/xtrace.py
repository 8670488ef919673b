"""`set -x`: each simple command, after expansion, on stderr behind `$PS4`, quoted so
that the line could be pasted back into a shell, as bash prints it."""

from __future__ import annotations

from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.streams import Fds

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.interpreter import Interpreter
    from tysh.kernel.syntax import ast

# words bash prints without quotes: no shell metacharacter (`~` and `#` only where
# they would mean something), nothing unprintable
_PLAIN = LazyRegex(r"[A-Za-z0-9_./,:=@%+-]+\Z")
_METAS = LazyRegex("[ \t\n'\"\\\\|&;()<>!{}*\\[?\\]^$`]|\\A[~#]|[=:]~")
_ANSIC = {"\a": "\\a", "\b": "\\b", "\x1b": "\\E", "\f": "\\f", "\n": "\\n",
          "\r": "\\r", "\t": "\\t", "\v": "\\v", "\\": "\\\\", "'": "\\'"}

_ps4_words: dict[str, ast.Word] = {}


def quote(word: str) -> str:
    """A word as bash's `set -x` shows it: as it is when nothing in it is special,
    in single quotes when it holds a shell metacharacter, else (an unprintable
    character) in `$'…'` with octal escapes."""
    if word and _PLAIN.match(word):
        return word
    if not word:
        return "''"
    if _METAS.search(word):
        if word == "'":
            return "\\'"
        return "'" + word.replace("'", "'\\''") + "'"
    if all(c.isprintable() and not 0xDC80 <= ord(c) <= 0xDCFF for c in word):
        return word
    out: list[str] = []
    for c in word:
        esc = _ANSIC.get(c)
        if esc is not None:
            out.append(esc)
        elif c.isprintable() and not 0xDC80 <= ord(c) <= 0xDCFF:
            out.append(c)
        else:
            raw = c.encode("utf-8", "surrogateescape")
            out.append("".join(f"\\{b:03o}" for b in raw))
    return "$'" + "".join(out) + "'"


def prefix(interp: Interpreter) -> str:
    """`$PS4` expanded (default `+ `), its first character repeated once more for each
    level of command substitution, as bash does."""
    from tysh.kernel.base.values import to_text

    st = interp.state
    raw = st.get("PS4")
    text = "" if raw is None else to_text(raw)
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


def trace(interp: Interpreter, fds: Fds, words: list[str], lead: str | None = None) -> None:
    """Write one traced line (`words` already expanded) to the command's stderr;
    `lead` is the prefix when it was expanded beforehand."""
    trace_line(interp, fds, " ".join(quote(w) for w in words), lead)


def trace_line(interp: Interpreter, fds: Fds, text: str, lead: str | None = None) -> None:
    """Write `text` behind the `$PS4` prefix to the command's stderr."""
    err = fds.get(2)
    if err is None:
        return
    line = (prefix(interp) if lead is None else lead) + text + "\n"
    try:
        err.write(line.encode("utf-8", "surrogateescape"))
        err.flush()
    except (OSError, ValueError):
        pass
