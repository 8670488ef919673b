"""The session: everything a script can change that outlives one command.

Variables live in a stack of frames (frame 0 is global; each function call pushes one),
looked up innermost first, which is bash's dynamic scoping of `local`. A value is a
string, a list (indexed array; `None` marks an unset slot), a dict (associative array)
or any typed value from typed substitution. Subshells and pipeline stages run on a
`copy()`, so nothing they do leaks back.
"""

from __future__ import annotations

import operator
import os
import sys
import time

from tysh.kernel.base.cache import compile_cached
from tysh.kernel.base.errors import VarError
from tysh.kernel.base.limits import SLOT_BYTES, UNBOUNDED, VAR_BYTES, Meter, value_size
from tysh.kernel.base.record import Record, frozen
from tysh.kernel.base.values import (
    FAR_GAP,
    AssocArray,
    SparseList,
    array_end,
    is_byte_locale,
    to_text,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

OPTION_LETTERS = {
    "errexit": "e",
    "nounset": "u",
    "xtrace": "x",
    "noglob": "f",
    "noclobber": "C",
    "verbose": "v",
    "allexport": "a",
    "noexec": "n",
    "errtrace": "E",
    "functrace": "T",
    "hashall": "h",
    "braceexpand": "B",
    "keyword": "k",
    "monitor": "m",
    "notify": "b",
    "physical": "P",
    "privileged": "p",
    "histexpand": "H",
    "onecmd": "t",
}
LETTER_OPTIONS = {v: k for k, v in OPTION_LETTERS.items()}
# bash's `set -o` names without a letter, and tysh's sh_word_split (zsh's name)
LONG_ONLY_OPTIONS = ("emacs", "history", "ignoreeof", "interactive-comments", "nolog",
                     "pipefail", "posix", "vi", "sh_word_split")
# the options on in a new shell (bash's defaults: `set -h`, `set -B`)
DEFAULT_OPTIONS = frozenset({"hashall", "braceexpand", "interactive-comments"})
# `$-`: the letters in bash's order
_FLAG_ORDER = "abefhikmnptuvxBCEHPT"
ALL_OPTIONS = (*OPTION_LETTERS, *LONG_ONLY_OPTIONS)
# tysh's own options, which $SHELLOPTS (read by bash) does not list
_TYSH_OPTIONS = frozenset({"sh_word_split"})

# the `shopt` options on in a new shell: bash's defaults for a script, and tysh's glob
# rules (recursive `**`, extended patterns, a glob matching nothing is an error)
BASH_DEFAULT_SHOPT = frozenset({
    "checkwinsize", "cmdhist", "complete_fullquote", "extquote", "force_fignore",
    "globasciiranges", "globskipdots", "hostcomplete", "interactive_comments",
    "patsub_replacement", "progcomp", "promptvars", "sourcepath",
})
TYSH_GLOB_SHOPT = frozenset({"extglob", "failglob", "globskipdots", "globstar"})
# what `tysh --compat bash` / `Kernel(compat="bash")` change: bash's splitting and
# globbing of unquoted expansions, and bash's glob rules (no `**`, a glob that matches
# nothing stays as written)
COMPAT_BASH_OPTIONS = frozenset({"sh_word_split"})
COMPAT_BASH_SHOPT_OFF = frozenset({"globstar", "failglob"})
COMPAT_MODES = ("bash",)


class Var:
    """One variable: its value and attributes."""

    __slots__ = ("value", "exported", "readonly", "integer", "case", "nameref")

    def __init__(
        self, value: Any, exported: bool = False, readonly: bool = False, integer: bool = False,
        case: str = "", nameref: bool = False,
    ) -> None:
        self.value = value
        self.exported = exported
        self.readonly = readonly
        self.integer = integer
        # `declare -l` / `-u`: "l" or "u" converts every text assigned from then on
        self.case = case
        # `declare -n`: the value is the name of the variable this one stands for
        self.nameref = nameref

    def copy(self) -> Var:
        v = self.value
        if type(v) is SparseList:
            v = v.copy()
        elif isinstance(v, list):
            v = list(v)
        elif isinstance(v, dict):
            v = v.copy() if type(v) is AssocArray else dict(v)
        return Var(v, self.exported, self.readonly, self.integer, self.case, self.nameref)


def convert_case(case: str, text: str) -> str:
    """The text a `declare -l` ("l") or `declare -u` ("u") variable stores."""
    return text.lower() if case == "l" else text.upper()


def _uname(field: str) -> str:
    return str(getattr(os.uname(), field))


def _ostype() -> str:
    if sys.platform.startswith("linux"):
        return "linux-gnu"
    if sys.platform == "darwin":
        return "darwin" + _uname("release").split(".")[0]
    return sys.platform


def _seconds(st: State) -> str:
    return str(int(time.monotonic() - st.started))


def _epoch(real: bool) -> str:
    return f"{time.time():.6f}" if real else str(int(time.time()))


# What a sandboxed kernel reports for the user's id: the host's identity stays out of a
# sandbox, as its environment does (docs/security.md, hermetic environment); it matches
# the neutral `user` that `whoami` answers there.
NEUTRAL_UID = "1000"
# ... and for its process ids: `$$` (and BASHPID) is the embedding process's pid on the
# host, which a sandbox does not show; its parent is reported as init
NEUTRAL_PID = 100
NEUTRAL_PPID = "1"

# Variables bash computes when they are read (and a script has not set them); scripts
# test these (`$OSTYPE`, `$UID`, `$SECONDS`) far more than they assign them.
_DYNAMIC: dict[str, Callable[[State], str]] = {
    "UID": lambda st: str(os.getuid()) if st.host_facts else NEUTRAL_UID,
    "EUID": lambda st: str(os.geteuid()) if st.host_facts else NEUTRAL_UID,
    "PPID": lambda st: str(os.getppid()) if st.host_facts else NEUTRAL_PPID,
    "BASHPID": lambda st: str(st.pid),
    "BASH_SUBSHELL": lambda st: str(st.bash_subshell),
    "SECONDS": _seconds,
    "EPOCHSECONDS": lambda st: _epoch(False),
    "EPOCHREALTIME": lambda st: _epoch(True),
    "HOSTNAME": lambda st: _uname("nodename") if st.host_facts else "localhost",
    "HOSTTYPE": lambda st: _uname("machine"),
    "OSTYPE": lambda st: _ostype(),
    "MACHTYPE": lambda st: f"{_uname('machine')}-pc-{_ostype()}",
    "OPTIND": lambda st: "1",
    "LINENO": lambda st: "0" if st.stmt is None else str(st.stmt.pos.line),
    "SHELLOPTS": lambda st: st.shellopts(),
    "BASHOPTS": lambda st: ":".join(sorted(st.shopt)),
}


_LOCALE_VARS = ("LC_ALL", "LC_CTYPE", "LANG")  # bash's order of precedence
# locale names already classified (is_byte_locale), dropped whole past a few dozen
_BYTE_LOCALES: dict[str, bool] = {}
_BYTE_LOCALES_MAX = 64

_MAX_REFS = 8  # bash's limit on a chain of namerefs

# bash's read-only computed variables (an embedder's `env` may still give them values)
READONLY_DYNAMIC = _READONLY_DYNAMIC = frozenset({"UID", "EUID", "PPID", "SHELLOPTS", "BASHOPTS"})


def _trim(lst: list[Any]) -> list[Any]:
    while lst and lst[-1] is None:
        lst.pop()
    return lst


class TempFrame(dict[str, "Var"]):
    """The frame of a command's prefix assignments (`A=1 cmd`): never a function's
    scope, so `tmp= local x`, `tmp= eval 'local y'` make their locals in the function
    around it, as bash does."""

    __slots__ = ()


class CallFrame(TempFrame):
    """The prefix assignments of a function call (`v=x f`): a `local v` in the function
    takes the value over and replaces the binding, as bash does."""

    __slots__ = ()


@frozen
class Tables(Record):
    """What a few builtins keep for the session and rarely change: replaced whole on
    each change (`State.retable`), so copies of the state share one object."""

    # `ulimit`'s lowered limits: resource -> (soft, hard), -1 unlimited
    rlimits: dict[int, tuple[int, int]] | None = None
    dirstack: tuple[str, ...] = ()  # pushd's saved directories, after the cwd
    # `hash`: name -> (path as shown, hits, $PATH when it was found)
    hashed: dict[str, tuple[str, int, str | None]] | None = None
    completions: dict[str, Any] | None = None  # `complete`'s specs by command name
    history: tuple[str, ...] = ()  # `history -s` entries
    # the script file being run (`tysh FILE`), None for `-c` and stdin: bash's stack
    # then has a "main" frame at the bottom (caller, $BASH_LINENO)
    script_file: str | None = None
    # builtins the embedder turned off (`Kernel(disable=...)`): `enable` cannot turn
    # them back on
    locked: frozenset[str] = frozenset()


NO_TABLES = Tables()


class State:
    """Variables, functions, options, positional parameters, cwd and statuses.

    Slotted: the hot paths read and write its fields on every command, and a plain
    instance of this many fields keeps them in a dict of its own, slower to reach."""

    __slots__ = ("meter", "frames", "functions", "aliases", "options", "shopt",
                 "positional", "arg0", "cwd", "last_status", "last_bg_pid", "pid",
                 "func_depth", "loop_depth", "subshell", "bash_subshell", "calls",
                 "func_files", "pipestatus", "getopts_ind",
                 "getopts_pos",
                 "started", "host_facts", "default_bytes", "stmt", "umask", "disabled",
                 "tables", "traps", "traps_shown", "invocation", "trap_line", "last_arg",
                 "xtrace_level", "commands_run", "refs", "interactive", "key_text",
                 "key_index", "comp_options", "__weakref__")

    def __init__(self, cwd: str = "/", env: dict[str, str] | None = None,
                 meter: Meter | None = None) -> None:
        # the kernel's memory budget: stores of variables are charged to it
        self.meter = meter if meter is not None else Meter()
        self.frames: list[dict[str, Var]] = [{}]
        self.functions: dict[str, Any] = {}  # name -> ast.FunctionDef
        self.aliases: dict[str, str] = {}
        self.options: set[str] = set(DEFAULT_OPTIONS)
        # bash's `shopt` options that are on
        self.shopt: set[str] = set(BASH_DEFAULT_SHOPT | TYSH_GLOB_SHOPT)
        self.positional: list[str] = []
        self.arg0: str = "tysh"
        self.cwd: str = cwd
        self.last_status: int = 0
        self.last_bg_pid: int | None = None
        self.pid: int = 0
        self.func_depth: int = 0
        self.loop_depth: int = 0
        self.subshell: int = 0
        # $BASH_SUBSHELL: bash's count of subshells, which a pipeline stage of one simple
        # command does not add to (`subshell` counts every fork)
        self.bash_subshell: int = 0
        # bash's call stack, innermost last, one entry a frame: the function's name (or
        # "source"), the line it was called from, and the file the frame's code comes
        # from, where the function was defined or the file `source` reads ($FUNCNAME,
        # $BASH_LINENO, $BASH_SOURCE, caller); one tuple so a call pushes and pops once
        self.calls: list[tuple[str, int, str]] = []
        # the file each function was defined in, when not the -c text ("environment")
        self.func_files: dict[str, str] = {}
        self.pipestatus: list[int] = [0]
        self.getopts_ind = 1
        self.getopts_pos = 0
        self.started = time.monotonic()  # for $SECONDS
        # whether $HOSTNAME/$UID/$EUID tell the host's (the CLI, on the host's own files)
        # or neutral values (a sandboxed kernel); set by the Kernel
        self.host_facts: bool = True
        # the locale when none of LC_ALL, LC_CTYPE and LANG is set: True for C (bytes),
        # as a shell started with none of them has (the CLI); False for UTF-8
        self.default_bytes: bool = False
        self.stmt: Any = None  # the statement being run (an ast.Statement), for $LINENO
        # the session's umask once a script sets one (run/filemode.py); None: the process's
        self.umask: int | None = None
        self.disabled: frozenset[str] = frozenset()  # `enable -n`: builtins turned off
        self.tables = NO_TABLES
        # `trap`: action text by "EXIT", "ERR", "DEBUG", "RETURN" or "SIGINT"…; "" ignores
        self.traps: dict[str, str] = {}
        # what `trap -p` lists in a subshell before it sets a trap of its own: the
        # parent's (bash shows them, so `saved=$(trap -p)` works)
        self.traps_shown: dict[str, str] | None = None
        # `$-`'s last letter: "c" for `-c`, "s" for a script read from stdin
        self.invocation: str = ""
        # while a trap runs: the $LINENO of the command it interrupted
        self.trap_line: int | None = None
        self.last_arg: str = ""  # `$_`: the last argument of the previous simple command
        self.xtrace_level: int = 0  # `set -x`: the command substitutions we are inside
        self.commands_run: int = 0  # top-level commands started (a prompt's `\#`)
        # whether any nameref was ever made: lookups follow them only then
        self.refs: bool = False
        # `tysh -i`: an interactive shell ($- has i; `set -u` ends a line, not the shell)
        self.interactive: bool = False
        # how a subscript written in a value is expanded (`declare -n r='m["k"]'`); the
        # interpreter sets it
        self.key_text: Callable[[str], str] | None = None
        self.key_index: Callable[[str], int] | None = None  # ... and `a[i+1]`'s index
        # the options of the completion being run (compopt); never inherited by a copy
        self.comp_options: set[str] | None = None
        g = self.frames[0]
        for k, v in (env or {}).items():
            g[k] = Var(v, exported=True)
        g.setdefault("IFS", Var(" \t\n"))
        g.setdefault("PS4", Var("+ "))
        # `$_` is the shell's own (the last argument of the previous command)
        under = g.pop("_", None)
        if under is not None and isinstance(under.value, str):
            self.last_arg = under.value
        g["PWD"] = Var(cwd, exported=True)

    # -- copying -------------------------------------------------------------
    def copy(self) -> State:
        """An independent copy for a subshell or pipeline stage."""
        s = self._copy_but_variables()
        s.frames = [{k: v.copy() for k, v in f.items()} for f in self.frames]
        meter = s.meter
        if meter.cap < UNBOUNDED:
            _charge_copy(s, meter)
        return s

    def copy_reading_variables(self) -> State:
        """A copy for a command that reads the session and changes nothing of it (a
        pipeline stage run in turn, see run/pipeline.py): its frames are this state's
        own, not copies, so it costs nothing per variable, and so are its functions,
        aliases, options, positional parameters and call stack. Whoever asks for it
        guarantees that nothing run on it assigns, unsets or declares a variable,
        defines a function or an alias, sets an option, shifts or sets the positional
        parameters, or calls a function while it lives. With traps set (which a copy
        resets or keeps, and which could run there) the containers are copied as by
        `copy`."""
        if self.traps:
            s = self._copy_but_variables()
            s.frames = list(self.frames)
            return s
        s = State.__new__(State)
        (_take_fields or _field_copier())(s, self)
        s.comp_options = None  # a completion's options are never inherited
        s.subshell = self.subshell + 1
        s.frames = list(self.frames)
        s.traps = {}
        s.traps_shown = None
        s.key_text = s.key_index = None  # the fork's interpreter sets its own
        return s

    def _copy_but_variables(self) -> State:
        """`copy` without its `frames`, which the caller sets. Every field is taken over
        as it is in one step (a fork is made per pipeline stage and `$(…)`), then each
        mutable one gets a copy of its own; `tests/unit/run/test_state.py` pins that no
        container but the read-only ones is shared."""
        s = State.__new__(State)
        (_take_fields or _field_copier())(s, self)
        s.comp_options = None  # a completion's options are never inherited
        s.functions = dict(self.functions)
        s.aliases = dict(self.aliases)
        s.options = set(self.options)
        s.shopt = set(self.shopt)
        s.positional = list(self.positional)
        s.subshell = self.subshell + 1
        s.bash_subshell = self.bash_subshell + 1
        s.calls = list(self.calls)
        s.func_files = dict(self.func_files)
        s.pipestatus = list(self.pipestatus)
        # a subshell resets the traps it does not ignore; ERR stays with `set -E`, DEBUG
        # and RETURN with `set -T`
        traps = self.traps
        if traps:
            s.traps = {k: v for k, v in traps.items() if v == "" or (
                k == "ERR" and "errtrace" in self.options) or (
                k in ("DEBUG", "RETURN") and "functrace" in self.options)}
            s.traps_shown = dict(traps)
        else:
            s.traps = {}
            s.traps_shown = None
        s.key_text = s.key_index = None  # the fork's interpreter sets its own
        return s

    def retable(self, **changes: Any) -> None:
        """Change some of `tables` (a new Tables: copies keep theirs)."""
        self.tables = self.tables.evolve(**changes)

    # -- lookup ----------------------------------------------------------------
    def resolve(self, name: str) -> str:
        """The name a nameref chain ends at (`declare -n r=x`: "r" gives "x"); the name
        itself when it is no nameref."""
        for _ in range(_MAX_REFS):
            var = self.lookup_raw(name)
            if var is None or not var.nameref or type(var.value) is not str or not var.value:
                return name
            name = var.value
        return name

    def lookup(self, name: str) -> Var | None:
        """The variable `name` stands for (a nameref followed), None when unset."""
        if self.refs:
            name = self.resolve(name)
        frames = self.frames
        n = len(frames)
        if n == 1:
            return frames[0].get(name)
        if n == 2:  # in a function called from the top level
            v = frames[1].get(name)
            return v if v is not None else frames[0].get(name)
        for f in reversed(frames):
            v = f.get(name)
            if v is not None:
                return v
        return None

    def lookup_raw(self, name: str) -> Var | None:
        """The variable called `name` itself (a nameref not followed)."""
        frames = self.frames
        if len(frames) == 1:
            return frames[0].get(name)
        for f in reversed(frames):
            v = f.get(name)
            if v is not None:
                return v
        return None

    def lone_status(self, status: int) -> None:
        """`$?` and `$PIPESTATUS` after a command that ran alone (no pipe). The one-item
        list is updated in place: it is never shared (copies and `$PIPESTATUS` build new
        lists)."""
        self.last_status = status
        ps = self.pipestatus
        if len(ps) == 1:
            ps[0] = status
        else:
            self.pipestatus = [status]

    def get(self, name: str) -> Any:
        """The value of a variable or None when unset (specials included)."""
        v = self.lookup(name)
        if v is not None:
            return v.value
        return self.special(name)

    def special(self, name: str) -> Any:
        if not name:
            return None
        c = name[0]
        if c.isdigit():
            i = int(name)
            if i == 0:
                return self.arg0
            return self.positional[i - 1] if i <= len(self.positional) else None
        if name == "?":
            return str(self.last_status)
        if name == "#":
            return str(len(self.positional))
        if name == "$":
            return str(self.pid)
        if name == "!":
            return None if self.last_bg_pid is None else str(self.last_bg_pid)
        if name == "-":
            return self.flags()
        if name in ("@", "*"):
            return list(self.positional)
        if name == "PIPESTATUS":
            return [str(x) for x in self.pipestatus]
        if name == "RANDOM":
            import random

            return str(random.randint(0, 32767))
        if name == "_":
            return self.last_arg
        if name == "LINENO" and self.trap_line is not None:
            return str(self.trap_line)
        if name == "FUNCNAME":
            # bash shows the stack only while a function runs (a file sourced at the
            # top level has a frame, but no FUNCNAME)
            if not self.func_depth:
                return None
            names = [c[0] for c in reversed(self.calls)]
            return names + ["main"] if self.tables.script_file is not None else names
        if name == "BASH_LINENO":
            if not self.calls and self.tables.script_file is None:
                return None
            lines = [str(c[1]) for c in reversed(self.calls)]
            return lines + ["0"] if self.tables.script_file is not None else lines
        if name == "BASH_SOURCE":
            script = self.tables.script_file
            if not self.calls and script is None:
                return None
            files = [c[2] for c in reversed(self.calls)]
            return files + [script] if script is not None else files
        if name == "DIRSTACK":
            return [self.cwd, *self.tables.dirstack]
        f = _DYNAMIC.get(name)
        return None if f is None else f(self)

    def current_file(self) -> str:
        """The file whose code is running, as bash names it in $BASH_SOURCE: a sourced
        file, a function's, the script's; "environment" for `-c` text."""
        if self.calls:
            return self.calls[-1][2]
        return self.tables.script_file or "environment"

    def dynamic_names(self) -> list[str]:
        """The variables bash computes when read ($SECONDS, $RANDOM, …) and no script
        has set."""
        return sorted(n for n in (*_DYNAMIC, "RANDOM", "PIPESTATUS")
                      if self.lookup(n) is None)

    def alias_table(self) -> dict[str, str] | None:
        """The aliases commands are read with now: under `shopt -s expand_aliases`."""
        return self.aliases if self.aliases and "expand_aliases" in self.shopt else None

    def shellopts(self) -> str:
        """`$SHELLOPTS`: the `set -o` options that are on, colon-separated, as bash lists them."""
        return ":".join(sorted(o for o in self.options if o not in _TYSH_OPTIONS))

    def set_compat(self, mode: str) -> None:
        """Turn on another shell's rules (`tysh --compat bash`); ValueError for a mode
        tysh does not have."""
        if mode != "bash":
            raise ValueError(f"unknown compat mode {mode!r} (known: {', '.join(COMPAT_MODES)})")
        self.options.update(COMPAT_BASH_OPTIONS)
        self.shopt.difference_update(COMPAT_BASH_SHOPT_OFF)

    def byte_locale(self) -> bool:
        """Whether the shell's locale counts bytes, not characters: the first of LC_ALL,
        LC_CTYPE and LANG set and not empty names a C/POSIX (or other one-byte) locale,
        as bash reads its own variables, exported or not. Callers ask only for text that
        is not ASCII, where the answer matters; it is read each time (no cache to keep
        in step with every way a variable changes), kept cheap for that."""
        frames = self.frames
        if len(frames) == 1 and not self.refs:  # no function running: the globals
            g = frames[0]
            var = g.get("LC_ALL")
            if var is None or not var.value:
                var = g.get("LC_CTYPE")
                if var is None or not var.value:
                    var = g.get("LANG")
                    if var is None or not var.value:
                        return self.default_bytes
        else:
            for name in _LOCALE_VARS:
                var = self.lookup(name)
                if var is not None and var.value:
                    break
            else:
                return self.default_bytes
        v = var.value
        if type(v) is not str:  # an array: its element 0 (an unset one reads as C)
            v = to_text(v[0]) if isinstance(v, list) and v and v[0] is not None else "C"
        known = _BYTE_LOCALES.get(v)
        if known is None:
            if len(_BYTE_LOCALES) >= _BYTE_LOCALES_MAX:
                _BYTE_LOCALES.clear()
            known = _BYTE_LOCALES[v] = is_byte_locale(v)
        return known

    def is_set(self, name: str) -> bool:
        return self.get(name) is not None

    def flags(self) -> str:
        on = {OPTION_LETTERS[o] for o in self.options if o in OPTION_LETTERS}
        if self.interactive:
            on.add("i")
        return "".join(c for c in _FLAG_ORDER if c in on) + self.invocation

    # -- assignment ------------------------------------------------------------
    def _target(self, name: str) -> dict[str, Var]:
        frames = self.frames
        if self.refs:
            name = self.resolve(name)
        if len(frames) > 1:
            for f in reversed(frames):
                if name in f:
                    return f
        return frames[0]

    def _raw_target(self, name: str) -> dict[str, Var]:
        for f in reversed(self.frames):
            if name in f:
                return f
        return self.frames[0]

    def set(self, name: str, value: Any, *, export: bool | None = None) -> Var:
        """Assign `name` in the frame that holds it (global when none does)."""
        if self.refs:
            name = self.resolve(name)
            if "[" in name:  # a nameref to an array element (`declare -n r='a[1]'`)
                base, _, key = name[:-1].partition("[")
                if self.key_text is not None:
                    key = self.key_text(key)
                cur = self.get(base)
                if isinstance(cur, dict):
                    k: Any = key
                elif key.lstrip("-").isdigit():
                    k = int(key)
                else:
                    k = self.key_index(key) if self.key_index is not None else 0
                self.set_index(base, k, value)
                var = self.lookup_raw(base)
                assert var is not None
                return var
        frame = self._target(name)
        var = frame.get(name)
        meter = self.meter
        if meter.cap < UNBOUNDED:
            meter.admit(value_size(value) + VAR_BYTES, name)
        if var is None:
            if name in _READONLY_DYNAMIC and self.lookup(name) is None:
                raise VarError(f"{name}: readonly variable")
            var = Var(value, exported=bool(export) or "allexport" in self.options)
            frame[name] = var
            return var
        if var.readonly:
            raise VarError(f"{name}: readonly variable")
        if var.case:
            c = var.case
            if type(value) is str:
                value = convert_case(c, value)
            elif type(value) is list:  # `read -a`, `mapfile`
                value = [convert_case(c, v) if type(v) is str else v for v in value]
        var.value = value
        if export is not None:
            var.exported = export
        return var

    def set_index(self, name: str, key: Any, value: Any) -> None:
        """`a[i]=v` / `m[k]=v`: creates an indexed array when the name is unset or a string."""
        if self.refs:
            name = self.resolve(name)
        frame = self._target(name)
        var = frame.get(name)
        if var is None:
            var = Var([])
            frame[name] = var
        if var.readonly:
            raise VarError(f"{name}: readonly variable")
        if var.case and type(value) is str:
            value = convert_case(var.case, value)
        cur = var.value
        if isinstance(cur, dict):
            cur[str(key)] = value
            return
        meter = self.meter
        if not isinstance(cur, list):
            if meter.cap < UNBOUNDED:
                meter.admit(value_size(value) + VAR_BYTES, name)
            cur = [] if cur is None else [cur]
            var.value = cur
        elif meter.cap < UNBOUNDED:
            meter.admit(value_size(value), name)
        i = int(key)
        if i < 0:
            i += array_end(cur)
            if i < 0:
                raise VarError(f"{name}[{key}]: bad array subscript")
        if i >= len(cur):
            if i - len(cur) > FAR_GAP or type(cur) is SparseList and i >= len(cur):
                # far past the end: kept by index, not as a run of holes
                if type(cur) is not SparseList:
                    cur = var.value = SparseList(cur)
                cur.far[i] = value
                return
            if meter.cap < UNBOUNDED:
                meter.admit(SLOT_BYTES * (i + 1 - len(cur)), name)
            cur.extend([None] * (i + 1 - len(cur)))
        cur[i] = value

    def append_values(self, name: str, values: list[Any] | dict[str, Any]) -> None:
        """`a+=(x y)`."""
        meter = self.meter
        if meter.cap < UNBOUNDED:
            meter.admit(value_size(values), name)
        if self.refs:
            name = self.resolve(name)
        frame = self._target(name)
        var = frame.get(name)
        if var is None:
            frame[name] = Var(values if isinstance(values, dict) else list(values))
            return
        if var.readonly:
            raise VarError(f"{name}: readonly variable")
        if var.case:
            c = var.case
            if isinstance(values, dict):
                values = {k: convert_case(c, v) if type(v) is str else v
                          for k, v in values.items()}
            else:
                values = [convert_case(c, v) if type(v) is str else v for v in values]
        cur = var.value
        if isinstance(cur, dict):
            if isinstance(values, dict):
                cur.update(values)
            else:
                for i, v in enumerate(values):
                    cur[str(i)] = v
            return
        if not isinstance(cur, list):
            cur = [] if cur is None else [cur]
        elif type(cur) is SparseList and cur.far:
            at = cur.end()  # after the highest index, as bash appends
            for x in values.values() if isinstance(values, dict) else values:
                cur.far[at] = x
                at += 1
            return
        else:
            cur = _trim(cur)
        cur.extend(values.values() if isinstance(values, dict) else values)
        var.value = cur

    def scope_frame(self) -> dict[str, Var]:
        """The innermost frame that is a scope (past prefix-assignment frames)."""
        return self.frames[self._scope_index()]

    def _scope_index(self) -> int:
        frames = self.frames
        k = len(frames) - 1
        while k > 0 and isinstance(frames[k], TempFrame):
            k -= 1
        return k

    def declare_local(self, name: str) -> Var:
        """`local name`: a new variable in the innermost function frame."""
        k = self._scope_index()
        frame = self.frames[k]
        var = frame.get(name)
        if var is None:
            # bash: a new local starts with the value of a prefix assignment that
            # holds the name (`v=x f`), and replaces that of its own call
            outer = self._target(name)
            held = outer.get(name) if isinstance(outer, TempFrame) else None
            var = Var(None if held is None else held.value)
            if held is not None and type(outer) is CallFrame and self.frames[k - 1] is outer:
                del outer[name]
            frame[name] = var
        return var

    def local_text(self, name: str, text: str, export: bool, store: bool = True) -> bool:
        """`local NAME=TEXT` in the running function, when it needs nothing but a store:
        no nameref anywhere, the function's own frame innermost, and NAME there a
        variable of text (or nothing) with no attribute, or new and neither a readonly
        global (which the builtin refuses to copy) nor held by a prefix assignment
        (whose value it would take over). False, with nothing changed, for any other
        case: the builtin decides those. `export`: under `set -a`; `store=False` only
        answers whether the store would be made."""
        frames = self.frames
        frame = frames[-1]
        if self.refs or len(frames) < 2 or type(frame) is not dict:
            return False
        var = frame.get(name)
        if var is None:
            for f in reversed(frames):
                held = f.get(name)
                if held is not None:
                    if held.readonly and f is frames[0] or isinstance(f, TempFrame):
                        return False
                    break
            if not store:
                return True
            var = frame[name] = Var(None)
        elif var.readonly or var.integer or var.case or var.nameref or not (
                var.value is None or type(var.value) is str):
            return False
        elif not store:
            return True
        if export:
            var.exported = True
        meter = self.meter
        if meter.cap < UNBOUNDED:
            meter.admit(value_size(text), name)
        var.value = text
        return True

    def unset(self, name: str, *, ref: bool = False) -> None:
        """`unset name` (what a nameref stands for; `ref`: `unset -n`, the nameref)."""
        if self.refs and not ref:
            name = self.resolve(name)
        frame = self._target(name) if not ref else self._raw_target(name)
        var = frame.get(name)
        if var is None:
            return
        if var.readonly:
            raise VarError(f"{name}: cannot unset: readonly variable")
        k = self._scope_index()
        if k > 0 and frame is self.frames[k]:
            # bash: unsetting a local of the running function leaves it unset there
            var.value = None
        else:
            # a global, a caller's local or a command's temporary binding goes, and
            # the variable of the scope below shows again
            del frame[name]

    def unset_index(self, name: str, key: Any) -> None:
        var = self.lookup(name)
        if var is None:
            return
        if var.readonly:
            raise VarError(f"{name}: cannot unset: readonly variable")
        cur = var.value
        if isinstance(cur, dict):
            cur.pop(str(key), None)
        elif isinstance(cur, list):
            i = int(key)
            if i < 0:
                i += array_end(cur)
            if 0 <= i < len(cur):
                cur[i] = None
                _trim(cur)
            elif type(cur) is SparseList:
                cur.far.pop(i, None)
        elif cur is not None and str(key) in ("0", "-1"):
            var.value = None

    # -- frames ----------------------------------------------------------------
    def push_frame(self) -> None:
        self.frames.append({})

    def pop_frame(self) -> None:
        if len(self.frames) > 1:
            self.frames.pop()

    # -- environment -------------------------------------------------------------
    def exported_env(self) -> dict[str, str]:
        from tysh.kernel.base.values import to_text

        env: dict[str, str] = {}
        for f in self.frames:
            for k, v in f.items():
                val = v.value
                if v.exported and val is not None and not isinstance(val, list) and type(
                        val) is not AssocArray:
                    env[k] = to_text(val)  # as in bash, an array is never exported
                elif k in env:
                    del env[k]
        return env

    def all_names(self) -> list[str]:
        names: set[str] = set()
        for f in self.frames:
            names.update(k for k, v in f.items())
        return sorted(names)


# ---------------------------------------------------------------- memory accounting

_getsizeof = sys.getsizeof
_ENTRY_BYTES = 100
_BIG = 4096  # strings this long are counted once however many places hold them


def _charge_copy(s: State, meter: Meter) -> None:
    """A fork copies the slot arrays of its lists and records; big copies are charged
    as a buffer for as long as the fork lives."""
    slots = 0
    for f in s.frames:
        for var in f.values():
            v = var.value
            if type(v) is list or isinstance(v, dict):
                slots += len(v)
    meter.track(s)
    n = slots * SLOT_BYTES
    if n >= 1 << 20:
        import weakref

        meter.charge(n, "subshell", tool=False)
        weakref.finalize(s, meter.release, n)


class _Census:
    """Counts what the variables of live sessions hold: the kernel's own session in
    full, each fork only where its values are not the kernel's (a fork starts as a
    copy whose strings are shared); long strings are counted once wherever they are."""

    def __init__(self, main: State) -> None:
        self.main = main
        self.seen: set[int] = set()

    def __call__(self) -> int:
        self.seen = set()
        main = self.main
        total = self.state(main, None)
        base: dict[str, Any] = {}
        for f in main.frames:
            for k, var in list(f.items()):
                base[k] = var.value
        for s in list(main.meter.sessions):
            if s is not main:
                total += self.state(s, base)
        self.seen = set()
        return total

    def state(self, st: State, base: dict[str, Any] | None) -> int:
        total = 0
        for f in list(st.frames):
            for k, var in list(f.items()):
                v = var.value
                if base is None:
                    total += VAR_BYTES + self.size(v)
                    continue
                b = base.get(k)
                if v is b:
                    continue
                total += VAR_BYTES + self.differing(v, b)
        return total

    def size(self, v: Any) -> int:
        t = type(v)
        if t is str:
            if len(v) >= _BIG:
                i = id(v)
                if i in self.seen:
                    return 0
                self.seen.add(i)
            return _getsizeof(v)
        if t is list:
            n = 56 + SLOT_BYTES * len(v)
            quick = value_size(v)
            if quick - n <= 64 * len(v) + (1 << 20):
                return quick  # no long strings that could be shared: the plain sum
            return n + sum(map(self.size, v))
        if t is dict or t is AssocArray:
            return 64 + sum(_ENTRY_BYTES + _getsizeof(k) + self.size(x) for k, x in v.items())
        return value_size(v)

    def differing(self, v: Any, b: Any) -> int:
        """The size of a fork's value beyond what it shares with the kernel's `b`."""
        if type(v) is list and type(b) is list:
            if all(map(operator.is_, v, b)):
                return sum(map(self.size, v[len(b):]))
            return sum(self.size(e) for e, f in zip(v, b, strict=False) if e is not f) + sum(
                map(self.size, v[len(b):]))
        if isinstance(v, dict) and isinstance(b, dict):
            return sum(_ENTRY_BYTES + self.size(x) for k, x in v.items() if b.get(k) is not x)
        return self.size(v)


def attach_census(main: State) -> None:
    """Make `main` the session a census of its meter counts in full."""
    meter = main.meter
    meter.census = _Census(main)
    meter.track(main)
    meter.est = meter.census()


def _field_copier() -> Callable[[State, State], None]:
    """A function that sets every field of a State from another's, one store per field
    (made at the first fork from `State.__slots__`, so a field added there is never
    missed; compiled through the per-user cache, since a process's first compile costs
    a tenth of a start)."""
    global _take_fields
    lines = ["def take(s, src):"] + [f"    s.{f} = src.{f}" for f in State.__slots__
                                     if f != "__weakref__"]
    env: dict[str, Any] = {}
    exec(compile_cached("\n".join(lines) + "\n", "<State fields>"), env)
    take: Callable[[State, State], None] = env["take"]
    _take_fields = take
    return take


_take_fields: Callable[[State, State], None] | None = None
