"""Tab completion driven by the tool schemas and the session.

What a word completes to depends on where it stands, found with the shell's own
scanner (`repl_lex.scan`): in command position, command names (builtins, registered
tools, functions, aliases, keywords, executables on PATH); after a tool name, its
subcommands (with their aliases), the options of the selected leaf (with descriptions as
meta), the choices of an option's value; `$NAME` completes variables; anything else
completes paths through the kernel's filesystem (so a sandboxed kernel shows its own view).
A command with a `complete` spec (bash's programmable completion) is completed by it
first: its words, actions and -F function (with COMP_WORDS, COMP_CWORD, COMP_LINE and
COMP_POINT set), falling back to the above when the spec says `-o default` and found
nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from tysh.kernel.base.paths import join
from tysh.kernel.base.record import Record, frozen
from tysh.repl.lex import scan

if TYPE_CHECKING:
    from tysh.kernel.embed.kernel import Kernel
    from tysh.kernel.tools.schema import ParamSchema, ToolSchema

_CUR_WORD = re.compile(r"(?:\\.|[^\s;|&()<>])*\Z")
_VAR_TAIL = re.compile(r"\$(\{?)([A-Za-z_][A-Za-z0-9_]*)?\Z")
# Commands whose operands are command names (`help grep`, `type ls`).
_NAME_TAKERS = frozenset({"help", "tools", "type", "command", "builtin", "unalias"})
# Commands that run the command named by their first operand.
_PREFIX_COMMANDS = frozenset({"command", "builtin", "exec", "xargs"})
_KEYWORDS = ("if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done",
             "case", "esac", "function", "in")


@frozen
class Candidate(Record):
    """One completion: the text that replaces the current word, and what to show."""

    text: str
    display: str
    meta: str = ""


@frozen
class Context(Record):
    """Where the cursor is: the current (partial) word, and the command it belongs to."""

    word: str
    command: str | None  # None: the word itself is in command position
    args: tuple[str, ...]  # the words between the command name and the current word


def context_at(before: str) -> Context:
    """Analyse the text before the cursor."""
    m = _CUR_WORD.search(before)
    word = m.group() if m else ""
    # scan with a placeholder so an empty current word still counts as a word
    probe = before[: len(before) - len(word)] + "x"
    res = scan(probe)
    words = list(res.words)
    if not words or words[-1].end != len(probe):
        return Context(word, None, ())
    cur = words.pop()
    if cur.command:
        return Context(word, None, ())
    cmd_idx = max((i for i, w in enumerate(words) if w.command), default=-1)
    if cmd_idx < 0:
        return Context(word, None, ())
    return Context(word, words[cmd_idx].text, tuple(w.text for w in words[cmd_idx + 1:]))


class Engine:
    """Completion over one kernel; stateless apart from a cache of PATH listings."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self._path_cache: tuple[str, list[str]] | None = None

    # ---------------------------------------------------------------- entry
    def complete(self, before: str) -> list[Candidate]:
        ctx = context_at(before)
        word = ctx.word
        vm = _VAR_TAIL.search(word)
        if vm is not None:
            return self.variables(word, vm)
        if ctx.command is None:
            if not before.strip():
                got = self.from_spec([word], 0, before)
                if got is not None:
                    return got
            if "/" in word:
                return self.paths(word, executables_only=True)
            return self.commands(word)
        got = self.from_spec([ctx.command, *ctx.args, word], len(ctx.args) + 1, before)
        if got is not None:
            return got
        return self.arguments(ctx)

    # ---------------------------------------------------------------- complete specs
    def from_spec(self, words: list[str], cword: int, line: str) -> list[Candidate] | None:
        """Candidates from the command's `complete` spec; None when it has none (or
        found nothing and says `-o default`/`bashdefault`, so the usual completion runs)."""
        st = self.kernel.state
        if not st.tables.completions:
            return None
        import io

        from tysh.builtins.shell.complete import complete_words
        from tysh.kernel.tools.context import Context as ToolContext

        interp = self.kernel.interp
        sink = io.BytesIO()
        tctx = ToolContext("complete", io.BytesIO(), sink, sink, interp.fs, interp)
        got = complete_words(tctx, interp, words, cword, line, len(line))
        if got is None:
            return None
        if not got.matches and got.options & {"default", "bashdefault"}:
            return None
        out: list[Candidate] = []
        for m in got.matches:
            shown = m
            if "filenames" in got.options and _is_dir(
                    self.kernel, m if m.startswith("/") else join(st.cwd, m)):
                shown = m + "/"
            out.append(Candidate(shown if "filenames" in got.options else m, shown, ""))
        return out

    # ---------------------------------------------------------------- commands
    def commands(self, prefix: str) -> list[Candidate]:
        st = self.kernel.state
        found: dict[str, str] = {}
        for name in st.aliases:
            found.setdefault(name, "alias")
        for name in st.functions:
            found.setdefault(name, "function")
        from tysh.builtins import BUILTINS

        for name in BUILTINS:
            if name.startswith(prefix):
                found.setdefault(name, self._describe(name))
        for name, t in self.kernel.registry.registered.items():
            found.setdefault(name, t.schema.description or "tool")
        for name in _KEYWORDS:
            found.setdefault(name, "keyword")
        if self.kernel.allow_external and prefix:
            for name in self.externals():
                found.setdefault(name, "command")
        rank = {"alias": 0, "function": 0, "keyword": 2, "command": 3}
        names = sorted((n for n in found if n.startswith(prefix)),
                       key=lambda n: (rank.get(found[n], 1), n))
        return [Candidate(n, n, found[n]) for n in names]

    def _describe(self, name: str) -> str:
        t = self.kernel.registry.builtin(name)
        return t.schema.description if t is not None else "builtin"

    def externals(self) -> list[str]:
        """Names of the files in PATH's directories, cached per PATH value."""
        path = self.kernel.state.get("PATH")
        path = path if isinstance(path, str) else ""
        if self._path_cache is not None and self._path_cache[0] == path:
            return self._path_cache[1]
        fs = self.kernel.fs
        names: set[str] = set()
        for d in path.split(":"):
            if not d.startswith("/"):
                continue
            try:
                names.update(n for n, kind in fs.list_entries(d) if kind != "directory")
            except Exception:  # noqa: BLE001 — a missing PATH directory is normal
                continue
        out = sorted(names)
        self._path_cache = (path, out)
        return out

    # ---------------------------------------------------------------- arguments
    def schema_for(self, name: str) -> ToolSchema | None:
        """The schema of the tool a command name runs (through one alias level)."""
        st = self.kernel.state
        if name in st.aliases:
            first = st.aliases[name].split()
            if not first:
                return None
            name = first[0]
        if name in st.functions:
            return None
        t = self.kernel.registry.tool(name)
        if t is None:
            return None
        schema: ToolSchema = t.schema
        if schema.raw_argv or schema.arg_binding.value == "verbatim":
            return None
        return schema

    def arguments(self, ctx: Context) -> list[Candidate]:
        word = ctx.word
        while ctx.command in _PREFIX_COMMANDS and ctx.args and not ctx.args[0].startswith("-"):
            ctx = Context(word, ctx.args[0], ctx.args[1:])  # `command grep --ign`
        if ctx.command in _NAME_TAKERS and not word.startswith("-") and (
                not ctx.args or ctx.command in ("help", "tools", "type")):
            return [c for c in self.commands(word) if c.meta not in ("keyword", "command")]
        schema = self.schema_for(ctx.command) if ctx.command is not None else None
        if schema is None:
            return [] if word.startswith("-") else self.paths(word)
        chain, pending, positional_seen = walk(schema, ctx.args)
        node = chain[-1]
        if pending is not None:
            if pending.choices:
                return [Candidate(c, c, pending.description) for c in pending.choices
                        if c.startswith(word)]
            if pending.param_type in ("int", "float", "bool"):
                return []
            return self.paths(word)
        if word.startswith("--") and "=" in word:
            spelling, _, value = word.partition("=")
            p = find_param(chain, spelling)
            if p is None or not p.choices:
                if p is None or p.param_type in ("int", "float", "bool"):
                    return []
                return [Candidate(f"{spelling}={c.text}", c.display, c.meta)
                        for c in self.paths(value)]
            return [Candidate(f"{spelling}={c}", c, p.description) for c in p.choices
                    if c.startswith(value)]
        if word.startswith("-"):
            return self.flags(chain, word)
        if node.subcommands and not positional_seen:
            out: list[Candidate] = []
            for c in node.subcommands:
                for n in (c.name, *c.aliases):
                    if n.startswith(word):
                        meta = c.description if n == c.name else f"alias of {c.name}"
                        out.append(Candidate(n, n, meta))
            return out
        first = next((p for p in node.params if p.positional and p.choices), None)
        if first is not None and not positional_seen:
            return [Candidate(c, c, first.description) for c in first.choices
                    if c.startswith(word)]
        return self.paths(word)

    def flags(self, chain: list[ToolSchema], word: str) -> list[Candidate]:
        seen: set[str] = set()
        out: list[Candidate] = []
        for node in reversed(chain):
            for p in node.params:
                for s in p.spellings():
                    if s in seen or not s.startswith(word):
                        continue
                    seen.add(s)
                    out.append(Candidate(s, s, _flag_meta(p)))
        for s, meta in (("--help", "show this help"), ("--json", "print the output as JSON")):
            if s not in seen and s.startswith(word) and not chain[0].owns_output:
                out.append(Candidate(s, s, meta))
        out.sort(key=lambda c: (c.text.startswith("--"), c.text))
        return out

    # ---------------------------------------------------------------- variables
    def variables(self, word: str, m: re.Match[str]) -> list[Candidate]:
        brace, partial = m.group(1), m.group(2) or ""
        head = word[: m.start()] + "$" + brace
        names = set(self.kernel.state.all_names())
        out = []
        for n in sorted(names):
            if n.startswith(partial):
                out.append(Candidate(head + n + ("}" if brace else ""), "$" + n, "variable"))
        return out

    # ---------------------------------------------------------------- paths
    def paths(self, word: str, executables_only: bool = False) -> list[Candidate]:
        """Entries of the directory the word names, through the kernel's filesystem."""
        raw = word.replace("\\ ", " ")
        home = self.kernel.state.get("HOME")
        shown_dir, _, prefix = raw.rpartition("/")
        if "/" in raw:
            shown_dir += "/"
        real_dir = shown_dir
        if real_dir.startswith("~") and isinstance(home, str):
            real_dir = home + real_dir[1:]
        if not real_dir.startswith("/"):
            real_dir = join(self.kernel.state.cwd, real_dir)
        try:
            entries = self.kernel.fs.list_entries(real_dir or "/")
        except Exception:  # noqa: BLE001 — a missing directory completes to nothing
            return []
        out: list[Candidate] = []
        for name, kind in sorted(entries):
            if not name.startswith(prefix) or (name.startswith(".") and not prefix.startswith(".")):
                continue
            is_dir = kind == "directory" or (
                kind == "symlink" and _is_dir(self.kernel, real_dir + "/" + name))
            text = (shown_dir + name).replace(" ", "\\ ") + ("/" if is_dir else "")
            out.append(Candidate(text, name + ("/" if is_dir else ""), "" if not is_dir else "dir"))
        return out


def _is_dir(kernel: Kernel, path: str) -> bool:
    try:
        return bool(kernel.fs.is_dir(path))
    except Exception:  # noqa: BLE001
        return False


def _flag_meta(p: ParamSchema) -> str:
    text = p.description
    if p.choices:
        text += (" " if text else "") + "{" + "|".join(p.choices) + "}"
    return text


def find_param(chain: Iterable[ToolSchema], spelling: str) -> ParamSchema | None:
    """The option param a spelling names, nearest node first."""
    for node in reversed(list(chain)):
        for p in node.params:
            if spelling in p.spellings():
                return p
    return None


def walk(schema: ToolSchema, args: Iterable[str]) -> tuple[list[ToolSchema], Any, bool]:
    """Follow the words typed so far: the chain of nodes selected, the option still waiting
    for its value (or None), and whether a positional operand was seen."""
    chain = [schema]
    pending: ParamSchema | None = None
    remaining = 0
    positional = False
    dashdash = False
    for a in args:
        if pending is not None:
            remaining -= 1
            if remaining <= 0:
                pending = None
            continue
        if not dashdash and a == "--":
            dashdash = True
            continue
        if not dashdash and a.startswith("-") and a != "-":
            if "=" in a:
                continue
            p = find_param(chain, a)
            if p is None and not a.startswith("--") and len(a) > 2:
                head = find_param(chain, a[:2])
                if head is not None and head.takes_value:
                    continue  # `-n5`: the value is attached
                p = find_param(chain, "-" + a[-1])  # a bundle: its last letter may take one
            if p is not None and p.takes_value:
                pending, remaining = p, max(p.consumes, 1)
            continue
        child = chain[-1].child(a) if not positional else None
        if child is not None:
            chain.append(child)
            continue
        positional = True
    return chain, pending, positional


def iter_usage(kernel: Kernel, before: str) -> str:
    """A one-line usage hint of the tool being typed (for the bottom toolbar)."""
    ctx = context_at(before)
    name = ctx.command
    if name is None:
        m = _CUR_WORD.search(before)
        word = m.group() if m else ""
        if not word or before.endswith((" ", "\t")):
            return ""
        name = word
    engine = Engine(kernel)
    schema = engine.schema_for(name)
    if schema is None:
        t = kernel.registry.tool(name)
        if t is not None and t.schema.description:
            return f"{name}: {t.schema.description}"
        return ""
    chain, pending, _ = walk(schema, ctx.args)
    return usage_line(chain, pending)


def usage_line(chain: list[ToolSchema], pending: ParamSchema | None) -> str:
    node = chain[-1]
    parts = [" ".join(n.name for n in chain)]
    opts = [p for p in node.params if not p.positional]
    if opts:
        parts.append("[OPTIONS]")
    if node.subcommands:
        parts.append("{" + "|".join(c.name for c in node.subcommands) + "}")
    for p in node.params:
        if p.positional:
            w = p.name.upper() + ("..." if p.param_type == "array" else "")
            parts.append(w if p.required else f"[{w}]")
    text = " ".join(parts)
    if pending is not None:
        text += f"   ← {pending.long_spelling}: {pending.description or pending.param_type}"
    elif node.description:
        text += f"   — {node.description}"
    return text


def candidates(engine: Engine, before: str) -> Iterator[Candidate]:
    """Candidates without duplicates, in the engine's order."""
    seen: set[str] = set()
    for c in engine.complete(before):
        if c.text not in seen:
            seen.add(c.text)
            yield c


class ShellCompleter(Completer):
    """The prompt_toolkit face of `Engine`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        before = document.text_before_cursor
        word = context_at(before).word
        try:
            found = list(candidates(self.engine, before))
        except Exception:  # noqa: BLE001 — completion must never break the prompt
            return
        for c in found:
            yield Completion(c.text, start_position=-len(word), display=c.display,
                             display_meta=c.meta)
