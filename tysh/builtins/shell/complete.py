"""complete, compgen and compopt: bash's programmable completion.

`complete` stores a completion spec per command name (and -D, -E, -I for the default,
empty-line and initial-word cases); `compgen` prints what a spec generates for a word;
`compopt` changes the options of a spec, or of the completion in progress. The REPL
completes a command's arguments from its spec (tysh/repl/complete.py calls
`complete_words`), falling back to its own schema-driven completion when the spec says
`-o default`/`bashdefault` and nothing matched, or when there is no spec.

A spec generates, in bash's order: its actions (-A, -a -b -c -d -e -f -g -j -k -s -u
-v), the glob -G, the words -W (split on IFS, then expanded), the function -F (its
COMPREPLY), the command -C (its output lines); the filter -X removes matches (keeps
them with a leading `!`), -P and -S are added, `-o plusdirs` adds directories, and
`-o dirnames`/`-o default` give directories/files when nothing matched."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import command_fds, err
from tysh.kernel.base.record import MutableRecord, Record, field, frozen, mutable, replace
from tysh.kernel.base.values import encode_text, to_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session

SHORT_ACTIONS = {"a": "alias", "b": "builtin", "c": "command", "d": "directory",
                 "e": "export", "f": "file", "g": "group", "j": "job", "k": "keyword",
                 "s": "service", "u": "user", "v": "variable"}
_LETTER = {v: k for k, v in SHORT_ACTIONS.items()}
LONG_ACTIONS = ("arrayvar", "binding", "disabled", "enabled", "function", "helptopic",
                "hostname", "running", "setopt", "shopt", "signal", "stopped")
ACTIONS = frozenset((*SHORT_ACTIONS.values(), *LONG_ACTIONS))
# the order bash generates them in: the simple lists, then commands, files, users,
# groups, services and directories
_GEN_ORDER = ("alias", "arrayvar", "binding", "builtin", "disabled", "enabled", "export",
              "function", "helptopic", "hostname", "job", "keyword", "running", "setopt",
              "shopt", "signal", "stopped", "variable", "command", "file", "user", "group",
              "service", "directory")
OPTIONS = ("bashdefault", "default", "dirnames", "filenames", "noquote", "nosort",
           "nospace", "plusdirs")

COMPLETE_USAGE = ("complete: usage: complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] "
                  "[-A action] [-G globpat] [-W wordlist] [-F function] [-C command] "
                  "[-X filterpat] [-P prefix] [-S suffix] [name ...]")
COMPGEN_USAGE = ("compgen: usage: compgen [-abcdefgjksuv] [-o option] [-A action] "
                 "[-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] "
                 "[-P prefix] [-S suffix] [word]")
COMPOPT_USAGE = "compopt: usage: compopt [-o|+o option] [-DEI] [name ...]"

KEYWORDS = ("if then else elif fi case esac for select while until do done in function "
            "time { } ! [[ ]] coproc").split()
SETOPTS = ("allexport braceexpand emacs errexit errtrace functrace hashall histexpand "
           "history ignoreeof interactive-comments keyword monitor noclobber noexec noglob "
           "nolog notify nounset onecmd physical pipefail posix privileged verbose vi "
           "xtrace").split()
SHOPTS = ("autocd assoc_expand_once cdable_vars cdspell checkhash checkjobs checkwinsize "
          "cmdhist compat31 compat32 compat40 compat41 compat42 compat43 compat44 "
          "complete_fullquote direxpand dirspell dotglob execfail expand_aliases extdebug "
          "extglob extquote failglob force_fignore globasciiranges globskipdots globstar "
          "gnu_errfmt histappend histreedit histverify hostcomplete huponexit "
          "inherit_errexit interactive_comments lastpipe lithist localvar_inherit "
          "localvar_unset login_shell mailwarn no_empty_cmd_completion nocaseglob "
          "nocasematch noexpand_translation nullglob patsub_replacement progcomp "
          "progcomp_alias promptvars restricted_shell shift_verbose sourcepath "
          "varredir_close xpg_echo").split()
SPECIAL_NAMES = {"D": "-D", "E": "-E", "I": "-I"}  # the default, empty and initial specs


@frozen
class CompSpec(Record):
    """What `complete` stored for a name."""

    actions: tuple[str, ...] = ()
    options: frozenset[str] = frozenset()
    glob: str | None = None
    words: str | None = None
    prefix: str | None = None
    suffix: str | None = None
    filter: str | None = None
    function: str | None = None
    command: str | None = None

    def render(self, name: str) -> str:
        """The `complete …` line that recreates this spec."""
        parts = ["complete"]
        parts += [f"-o {o}" for o in OPTIONS if o in self.options]
        parts += [f"-{k}" for k in "abcdefgjksuv" if SHORT_ACTIONS[k] in self.actions]
        parts += [f"-A {a}" for a in LONG_ACTIONS if a in self.actions]
        for flag, value in (("G", self.glob), ("W", self.words), ("P", self.prefix),
                            ("S", self.suffix), ("X", self.filter), ("C", self.command)):
            if value is not None:
                parts.append(f"-{flag} {_single_quote(value)}")
        if self.function is not None:
            parts.append(f"-F {self.function}")
        parts.append(name)
        return " ".join(parts)


def _single_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _specs(sh: Session) -> dict[str, CompSpec]:
    got: dict[str, CompSpec] | None = sh.state.tables.completions
    return got or {}


# -------------------------------------------------------------------- option parsing


@mutable
class Parsed(MutableRecord):
    spec: CompSpec
    names: list[str]
    print_: bool = False
    remove: bool = False
    special: list[str] = field(factory=list)  # -D -E -I
    options_off: set[str] = field(factory=set)  # compopt +o


_TAKES = {"o": "option", "A": "action", "G": "glob", "W": "words", "P": "prefix",
          "S": "suffix", "X": "filter", "F": "function", "C": "command"}


def _parse(ctx: Context, words: list[str], allowed: str, usage: str) -> Parsed | int:
    """bash's option letters for complete, compgen and compopt; `allowed` names the
    letters this builtin takes. Returns the status after an error."""
    actions: list[str] = []
    options: set[str] = set()
    off: set[str] = set()
    values: dict[str, str] = {}
    p = Parsed(CompSpec(), [])
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            i += 1
            break
        if len(w) < 2 or w[0] not in "-+" or (w[0] == "+" and w[1] != "o"):
            break
        sign = w[0]
        j = 1
        while j < len(w):
            c = w[j]
            if c not in allowed or (sign == "+" and c != "o"):
                err(ctx, f"{sign}{c}: invalid option")
                ctx.stderr.write((usage + "\n").encode())
                return 2
            if c in _TAKES:
                rest = w[j + 1:]
                if rest:
                    value = rest
                elif i + 1 < len(words):
                    i += 1
                    value = words[i]
                else:
                    err(ctx, f"-{c}: option requires an argument")
                    ctx.stderr.write((usage + "\n").encode())
                    return 2
                if c == "o":
                    if value not in OPTIONS:
                        err(ctx, f"{value}: invalid option name")
                        return 2
                    (off if sign == "+" else options).add(value)
                elif c == "A":
                    if value not in ACTIONS:
                        err(ctx, f"{value}: invalid action name")
                        return 2
                    actions.append(value)
                else:
                    values[_TAKES[c]] = value
                break
            if c in SHORT_ACTIONS:
                actions.append(SHORT_ACTIONS[c])
            elif c == "p":
                p.print_ = True
            elif c == "r":
                p.remove = True
            elif c in SPECIAL_NAMES:
                p.special.append(SPECIAL_NAMES[c])
            j += 1
        i += 1
    p.names = words[i:]
    p.options_off = off
    p.spec = CompSpec(
        actions=tuple(a for a in _GEN_ORDER if a in actions), options=frozenset(options),
        glob=values.get("glob"), words=values.get("words"), prefix=values.get("prefix"),
        suffix=values.get("suffix"), filter=values.get("filter"),
        function=values.get("function"), command=values.get("command"))
    return p


def _has_generators(spec: CompSpec) -> bool:
    return bool(spec.actions or spec.options or spec.glob is not None
                or spec.words is not None or spec.prefix is not None
                or spec.suffix is not None or spec.filter is not None
                or spec.function is not None or spec.command is not None)


# -------------------------------------------------------------------- the builtins


@tool("complete", kind="shell", raw_argv=True, session=True,
      description="say how the arguments of a command are completed (bash's complete)",
      examples=[("complete words", "complete -W 'start stop status' svc"),
                ("complete with a function", "complete -F _git git"),
                ("list the specs", "complete -p")])
def complete(args: RawArgs, ctx: Context, sh: Session) -> int:
    got = _parse(ctx, texts(args.positional), "abcdefgjksuvoAGWPSXFCprDEI", COMPLETE_USAGE)
    if isinstance(got, int):
        return got
    specs = dict(_specs(sh))
    targets = [*got.special, *got.names]
    if got.remove:
        if not targets:
            specs.clear()
        status = 0
        for n in targets:
            if specs.pop(n, None) is None and sh.state.tables.completions is not None:
                # (bash says nothing while no spec was ever made)
                err(ctx, f"{n}: no completion specification")
                status = 1
        sh.state.retable(completions=specs)
        return status
    if got.print_ or (not targets and not _has_generators(got.spec)):
        status = 0
        lines: list[str] = []
        for n in targets or list(specs):
            spec = specs.get(n)
            if spec is None:
                err(ctx, f"{_shown(n)}: no completion specification")
                status = 1
                continue
            lines.append(spec.render(n))
        ctx.write("".join(line + "\n" for line in lines))
        return status
    if not targets:
        ctx.stderr.write((COMPLETE_USAGE + "\n").encode())
        return 2
    for n in targets:
        specs[n] = got.spec
    sh.state.retable(completions=specs)
    return 0


def _shown(name: str) -> str:
    return "_DefaultCmD_" if name == "-D" else "_EmptycmD_" if name == "-E" else (
        "_InitialWorD_" if name == "-I" else name)


@tool("compgen", kind="shell", raw_argv=True, session=True,
      description="print the completions of a word for the given options (bash's compgen)",
      examples=[("functions starting with _", "compgen -A function _"),
                ("files and folders", "compgen -f src/"),
                ("from a word list", "compgen -W 'start stop status' st")])
def compgen(args: RawArgs, ctx: Context, sh: Session) -> int:
    got = _parse(ctx, texts(args.positional), "abcdefgjksuvoAGWPSXFC", COMPGEN_USAGE)
    if isinstance(got, int):
        return got
    word = got.names[0] if got.names else ""
    spec = got.spec
    if not _has_generators(spec):
        return 0  # nothing asked, nothing to find: bash's status 0
    if spec.function is not None:
        err(ctx, "warning: -F option may not work as you expect")
    if spec.command is not None:
        err(ctx, "warning: -C option may not work as you expect")
    env = Invocation(ctx, sh, "compgen", [], -1, "", 0, word, "")
    try:
        matches = generate(env, spec)
    except CompError as e:
        if e.message:
            ctx.stderr.write(e.message.encode("utf-8", "surrogateescape"))
        return 1
    if not matches:
        return 1
    ctx.write("".join(m + "\n" for m in matches))
    return 0


@tool("compopt", kind="shell", raw_argv=True, session=True,
      description="change the options of a completion spec, or of the completion running")
def compopt(args: RawArgs, ctx: Context, sh: Session) -> int:
    got = _parse(ctx, texts(args.positional), "oDEI", COMPOPT_USAGE)
    if isinstance(got, int):
        return got
    targets = [*got.special, *got.names]
    on, off = got.spec.options, got.options_off
    if not targets:
        running: set[str] | None = sh.state.comp_options
        if running is None:
            err(ctx, "not currently executing completion function")
            return 1
        running.update(on)
        running.difference_update(off)
        return 0
    specs = dict(_specs(sh))
    status = 0
    for n in targets:
        spec = specs.get(n)
        if spec is None:
            err(ctx, f"{_shown(n)}: no completion specification")
            status = 1
            continue
        specs[n] = replace(spec, options=(spec.options | on) - off)
    sh.state.retable(completions=specs)
    return status


# -------------------------------------------------------------------- generating


class CompError(Exception):
    """The generation failed (a -W that does not expand, a -F function that stops);
    `message` is what to print first."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self.message = message


@mutable
class Invocation(MutableRecord):
    """One completion: the word being completed and the command line around it."""

    ctx: Context
    sh: Session
    command: str  # the command whose argument is completed ("compgen" for compgen)
    words: list[str]  # COMP_WORDS
    cword: int  # COMP_CWORD
    line: str  # COMP_LINE
    point: int  # COMP_POINT
    word: str  # the word being completed
    prev: str  # the word before it
    options: set[str] = field(factory=set)  # what compopt left


def generate(env: Invocation, spec: CompSpec, fallback: bool = True) -> list[str]:
    """Every completion `spec` gives for `env.word`, in bash's order; without
    `fallback`, `-o dirnames`/`default` add nothing (the REPL falls back itself)."""
    word = env.word
    out: list[str] = []
    for action in spec.actions:
        out.extend(_action(env, action, word))
    if spec.glob is not None:
        from tysh.kernel.expand.glob import glob

        out.extend(glob(spec.glob, env.sh.fs, env.sh.state.cwd))
    if spec.words is not None:
        out.extend(w for w in _wordlist(env, spec.words) if w.startswith(word))
    if spec.function is not None:
        out.extend(_call_function(env, spec.function))
    if spec.command is not None:
        out.extend(_run_command(env, spec.command))
    if spec.filter:
        out = _filtered(out, spec.filter, word)
    if spec.prefix is not None or spec.suffix is not None:
        out = [f"{spec.prefix or ''}{m}{spec.suffix or ''}" for m in out]
    options = spec.options | frozenset(env.options)
    if "plusdirs" in options:
        out.extend(_files(env.sh, word, dirs_only=True))
    if not out and "dirnames" in options and fallback:
        out = _files(env.sh, word, dirs_only=True)
    if not out and ("default" in options or "bashdefault" in options) and fallback:
        out = _files(env.sh, word, dirs_only=False)
    return out


def _filtered(matches: list[str], pattern: str, word: str) -> list[str]:
    from tysh.kernel.expand.pattern import match

    keep = pattern.startswith("!")
    if keep:
        pattern = pattern[1:]
    pattern = pattern.replace("&", word)
    return [m for m in matches if match(pattern, m) == keep]


def _action(env: Invocation, action: str, word: str) -> list[str]:
    names = sorted(set(_action_names(env, action, word))) if action not in (
        "file", "directory", "keyword", "setopt", "shopt", "signal") else list(
        _action_names(env, action, word))
    return [n for n in names if n.startswith(word)]


def _action_names(env: Invocation, action: str, word: str) -> Iterator[str]:
    sh = env.sh
    st = sh.state
    if action == "alias":
        yield from st.aliases
    elif action == "arrayvar":
        yield from (n for n in st.all_names() if isinstance(st.get(n), (list, dict)))
    elif action in ("builtin", "enabled"):
        from tysh.kernel.run.session import BASH_BUILTINS

        yield from (n for n in BASH_BUILTINS if sh.builtin(n) is not None
                    and n not in st.disabled)
    elif action == "disabled":
        yield from st.disabled
    elif action == "export":
        yield from sh.exported_env()
    elif action == "function":
        yield from st.functions
    elif action == "helptopic":
        yield from (t.name for t in sh.all_tools())
    elif action == "hostname":
        yield from _hostnames(sh)
    elif action in ("job", "running"):
        yield from (j.command.split()[0] for j in sh.jobs.jobs() if j.command.split())
    elif action == "keyword":
        yield from KEYWORDS
    elif action == "setopt":
        yield from SETOPTS
    elif action == "shopt":
        yield from SHOPTS
    elif action == "signal":
        yield from _signal_names()
    elif action == "variable":
        yield from (n for n in st.all_names() if st.get(n) is not None)
        yield from st.dynamic_names()
    elif action == "command":
        yield from _commands(env, word)
    elif action == "file":
        yield from _files(sh, word, dirs_only=False)
    elif action == "directory":
        yield from _files(sh, word, dirs_only=True)
    elif action in ("user", "group"):
        yield from _passwd(sh, "/etc/passwd" if action == "user" else "/etc/group")
    # binding, service, stopped: nothing in tysh


def _commands(env: Invocation, word: str) -> Iterator[str]:
    """-A command: aliases, functions, builtins, keywords, then programs on PATH."""
    sh = env.sh
    st = sh.state
    yield from sorted(st.aliases)
    yield from sorted(st.functions)
    yield from sorted(t.name for t in sh.all_tools() if t.name not in st.disabled)
    yield from KEYWORDS
    if sh.allow_external and word and "/" not in word:
        path = sh.get_var("PATH")
        seen: set[str] = set()
        for d in (to_text(path) if path is not None else "").split(":"):
            try:
                entries = sh.fs.list_entries(sh.abspath(d or "."))
            except Exception:  # noqa: BLE001 — a PATH folder that is not there
                continue
            for name, kind in entries:
                if name.startswith(word) and kind != "directory" and name not in seen:
                    seen.add(name)
        yield from sorted(seen)


def _files(sh: Session, word: str, *, dirs_only: bool) -> list[str]:
    """Files (or folders) whose names start with `word`, as readline completes them."""
    head, _, base = word.rpartition("/")
    shown = head + "/" if "/" in word else ""
    real = shown
    if real.startswith("~"):
        home = sh.get_var("HOME")
        real = (to_text(home) if home is not None else "") + real[1:]
    folder = sh.abspath(real or ".")
    try:
        entries = sh.fs.list_entries(folder)
    except Exception:  # noqa: BLE001 — a folder that is not there completes to nothing
        return []
    out: list[str] = []
    for name, kind in sorted(entries):
        if not name.startswith(base) or (name.startswith(".") and not base.startswith(".")):
            continue
        is_dir = kind == "directory" or (kind == "symlink" and sh.fs.is_dir(
            folder.rstrip("/") + "/" + name))
        if dirs_only and not is_dir:
            continue
        out.append(shown + name)
    return out


def _signal_names() -> list[str]:
    from tysh.kernel.base.signals import signal_table

    names = ["EXIT"]
    last = 0
    for num, name in signal_table():
        while last + 1 < num:
            last += 1
            names.append(f"SIGJUNK({last})")
        names.append("SIG" + name)
        last = num
    return [*names, "DEBUG", "ERR", "RETURN"]


def _passwd(sh: Session, path: str) -> list[str]:
    try:
        data = sh.fs.read_bytes(path).decode("utf-8", "surrogateescape")
    except Exception:  # noqa: BLE001 — a sandbox without the file knows no users
        return []
    return [line.split(":", 1)[0] for line in data.splitlines()
            if line and not line.startswith("#")]


def _hostnames(sh: Session) -> list[str]:
    got = sh.get_var("HOSTFILE")
    try:
        data = sh.fs.read_bytes(to_text(got) if got else "/etc/hosts").decode(
            "utf-8", "surrogateescape")
    except Exception:  # noqa: BLE001
        return []
    out: list[str] = []
    for line in data.splitlines():
        fields = line.split("#", 1)[0].split()
        out.extend(fields[1:])
    return out


# -------------------------------------------------------------------- -W, -F, -C


def split_at_delims(text: str, ifs: str) -> list[str]:
    """The word list split on IFS characters outside quotes and `$(…)`, a backslash
    keeping the next character (bash's split_at_delims); quotes stay for expansion."""
    out: list[str] = []
    cur: list[str] = []
    blanks = " \t\n"
    i = 0
    depth = 0
    quote = ""
    started = False
    while i < len(text):
        c = text[i]
        if quote:
            cur.append(c)
            if c == "\\" and quote == '"' and i + 1 < len(text):
                cur.append(text[i + 1])
                i += 1
            elif c == quote:
                quote = ""
            i += 1
            continue
        if c == "\\" and i + 1 < len(text):
            cur.append(text[i:i + 2])
            started = True
            i += 2
            continue
        if c in "'\"":
            quote = c
            cur.append(c)
            started = True
        elif c == "$" and text[i + 1:i + 2] in ("(", "{"):
            depth += 1
            cur.append(text[i:i + 2])
            started = True
            i += 2
            continue
        elif c in ")}" and depth:
            depth -= 1
            cur.append(c)
        elif depth == 0 and c in ifs:
            if started or c not in blanks:
                out.append("".join(cur))
            cur = []
            started = False
        else:
            cur.append(c)
            started = True
        i += 1
    if started:
        out.append("".join(cur))
    return out


def _wordlist(env: Invocation, text: str) -> list[str]:
    """-W: split on IFS, each piece expanded; what expansions produce is split on IFS
    again (literal text is not)."""
    sh = env.sh
    got = sh.get_var("IFS")
    ifs = to_text(got) if got is not None else " \t\n"
    out: list[str] = []
    for piece in split_at_delims(text, ifs):
        try:
            value = sh.expand_source_word(piece)
        except Exception as e:  # noqa: BLE001 — a word that does not parse or expand
            raise CompError(_message(e)) from None
        if "$" in piece or "`" in piece:
            out.extend(_ifs_split(value, ifs))
        else:
            out.append(value)
    return out


def _message(e: Exception) -> str:
    text = str(getattr(e, "message", "") or e)
    if not text:
        return ""
    if not text.startswith("tysh:"):
        text = "tysh: " + text
    return text.rstrip("\n") + "\n"


def _ifs_split(text: str, ifs: str) -> list[str]:
    blanks = "".join(c for c in ifs if c in " \t\n")
    others = "".join(c for c in ifs if c not in " \t\n")
    out: list[str] = []
    cur = ""
    pending = False
    for c in text:
        if c in others:
            out.append(cur)
            cur = ""
            pending = False
        elif c in blanks:
            if cur:
                out.append(cur)
                cur = ""
            pending = False
        else:
            cur += c
            pending = True
    if pending or cur:
        out.append(cur)
    return out


def _call_function(env: Invocation, name: str) -> list[str]:
    """-F: run the function with (command, word, previous word) and the COMP_*
    variables set; its COMPREPLY is the result."""
    from tysh.kernel.base.argv import Operand
    from tysh.kernel.base.control import ExitShell
    from tysh.kernel.run.state import Var

    sh = env.sh
    st = sh.state
    if name not in st.functions:
        env.ctx.stderr.write(encode_text(f"tysh: completion: function `{name}' not found\n"))
        raise CompError()
    frame = {
        "COMP_WORDS": Var(list(env.words)), "COMP_CWORD": Var(str(env.cword)),
        "COMP_LINE": Var(env.line), "COMP_POINT": Var(str(env.point)),
        "COMPREPLY": Var(None),
    }
    st.frames.append(frame)
    try:
        sh.invoke(name, [Operand(env.command, True), Operand(env.word, True),
                         Operand(env.prev, True)],
                  command_fds(sh, env.ctx))
    except ExitShell as e:
        if not e.expansion:
            raise
        raise CompError() from None
    finally:
        for k in range(len(st.frames) - 1, 0, -1):
            if st.frames[k] is frame:
                del st.frames[k]
                break
    # `unset COMPREPLY` in the function removes the frame's; a later assignment then
    # made a global one, which bash reads
    reply: Any = frame["COMPREPLY"].value if "COMPREPLY" in frame else st.get("COMPREPLY")
    if reply is None:
        return []
    if isinstance(reply, dict):
        return [to_text(v) for v in reply.values()]
    if isinstance(reply, list):
        return [to_text(v) for v in reply if v is not None]
    return [to_text(reply)]


def _run_command(env: Invocation, command: str) -> list[str]:
    """-C: run the command in a subshell; each line of its output is a completion."""
    import io

    sh = env.sh
    out = io.BytesIO()
    fork = sh.fork()
    try:
        fork.run_source(command, io.BytesIO(), out, env.ctx.stderr)
    except Exception as e:  # noqa: BLE001 — the command's own failure
        raise CompError(_message(e)) from None
    return [line for line in out.getvalue().decode("utf-8", "surrogateescape").split("\n")
            if line]


# -------------------------------------------------------------------- the REPL's side


@frozen
class Completions(Record):
    """What a spec gave the REPL: the candidates and the options in force."""

    matches: tuple[str, ...]
    options: frozenset[str]  # the spec's, as compopt left them


def spec_for(sh: Session, command: str | None) -> tuple[str, CompSpec] | None:
    """The spec that completes arguments of `command` (the -D default when it has
    none); None when neither exists."""
    specs = _specs(sh)
    if command is None:
        spec = specs.get("-E")
        return ("", spec) if spec is not None else None
    for key in (command, command.rsplit("/", 1)[-1], "-D"):
        spec = specs.get(key)
        if spec is not None:
            return key, spec
    return None


def complete_words(ctx: Context, sh: Session, words: list[str], cword: int, line: str,
                   point: int) -> Completions | None:
    """Complete word `cword` of `words` (the command line up to the cursor) with the
    command's spec; None when there is none."""
    command = words[0] if words else None
    found = spec_for(sh, command if cword > 0 else None)
    if found is None:
        return None
    _, spec = found
    word = words[cword] if cword < len(words) else ""
    prev = words[cword - 1] if cword > 0 else ""
    options = set(spec.options)
    if {"file", "directory"} & set(spec.actions):
        options.add("filenames")  # readline treats file and folder actions as names
    env = Invocation(ctx, sh, command or "", list(words), cword, line, point, word, prev,
                     options)
    saved = sh.state.comp_options
    sh.state.comp_options = env.options
    try:
        matches = generate(env, spec, fallback=False)
    except CompError:
        matches = []
    finally:
        sh.state.comp_options = saved
    return Completions(tuple(dict.fromkeys(matches)), frozenset(env.options))


TOOLS: list[Tool] = [complete, compgen, compopt]
