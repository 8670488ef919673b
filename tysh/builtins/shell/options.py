"""set and shopt: the shell's options (and `set`'s other job, the positional
parameters). Both take raw argv: `set -- -x` and `set +o` are position-sensitive."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import err
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.values import to_text
from tysh.kernel.expand.declared import declare_value
from tysh.kernel.run.state import ALL_OPTIONS, LETTER_OPTIONS
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@tool(
    "set", kind="shell",
    raw_argv=True,
    description="set options (-e -u -x, -o pipefail; + turns off) or the positional parameters",
    examples=[("stop at the first failure", "set -euo pipefail"), ("set $1 $2", "set -- a b")],
    session=True,
)
def set_(args: RawArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    words = texts(args.positional)
    if not words:
        for name in st.all_names():
            v = st.lookup(name)
            if v is None or v.value is None:
                continue
            ctx.write(f"{name}={set_value(v.value)}\n")
        return 0
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            st.positional = words[i + 1 :]
            return 0
        if w == "-":
            # bash: `set -` turns off -x and -v and ends the options; what follows (if
            # anything) becomes the positional parameters
            st.options.discard("xtrace")
            st.options.discard("verbose")
            if i + 1 < len(words):
                st.positional = words[i + 1 :]
            return 0
        if w == "+":  # a lone `+` is ignored
            i += 1
            continue
        if len(w) >= 2 and w[0] in "-+" and w[1:].isalpha():
            on = w[0] == "-"
            for c in w[1:]:
                if c == "o":
                    i += 1
                    if i >= len(words):
                        _print_options(ctx, st.options, on)
                        return 0
                    name = words[i]
                    if name not in ALL_OPTIONS:
                        err(ctx, f"{name}: invalid option name")
                        return 2
                    set_option(st.options, name, on)
                    continue
                opt = LETTER_OPTIONS.get(c)
                if opt is None:
                    err(ctx, f"{w[0]}{c}: invalid option")
                    return 2
                set_option(st.options, opt, on)
            i += 1
            continue
        st.positional = words[i:]
        return 0
    return 0


def set_option(options: set[str], name: str, on: bool) -> None:
    """Turn a `set -o` option on or off (`vi` and `emacs` exclude each other)."""
    if on:
        options.add(name)
        if name in ("vi", "emacs"):
            options.discard("emacs" if name == "vi" else "vi")
    else:
        options.discard(name)


_PLAIN = LazyRegex(r"[A-Za-z0-9_./,:=@%^+-]+\Z")


def set_value(v: Any) -> str:
    """A value as `set` lists it: plain text bare, anything else quoted to read back
    (arrays as `declare -p` shows them)."""
    if isinstance(v, (list, dict)):
        return declare_value(v)
    text = to_text(v)
    if _PLAIN.match(text):
        return text
    if _CONTROL.search(text):
        return declare_value(text)
    return "'" + text.replace("'", "'\\''") + "'"


_CONTROL = LazyRegex(r"[\x00-\x1f\x7f]")


def _print_options(ctx: Context, options: set[str], on: bool) -> None:
    for name in sorted(ALL_OPTIONS):
        if on:
            ctx.write(f"{name:<15}\t{'on' if name in options else 'off'}\n")
        else:
            ctx.write(f"set {'-' if name in options else '+'}o {name}\n")


# bash's shopt names (a script may set any of them; the session keeps them all). Those
# with an effect in tysh: expand_aliases, and the glob options the expansion stage reads.
SHOPT_NAMES = frozenset(
    "autocd assoc_expand_once cdable_vars cdspell checkhash checkjobs checkwinsize cmdhist "
    "compat31 compat32 compat40 compat41 compat42 compat43 compat44 complete_fullquote "
    "direxpand dirspell dotglob execfail expand_aliases extdebug extglob extquote failglob "
    "force_fignore globasciiranges globskipdots globstar gnu_errfmt histappend histreedit "
    "histverify hostcomplete huponexit inherit_errexit interactive_comments lastpipe lithist "
    "localvar_inherit localvar_unset login_shell mailwarn no_empty_cmd_completion nocaseglob "
    "nocasematch noexpand_translation nullglob patsub_replacement progcomp "
    "progcomp_alias promptvars restricted_shell shift_verbose sourcepath varredir_close "
    "xpg_echo".split())


@tool("shopt", kind="shell", raw_argv=True,
      description="shell options: -s turns on, -u off, -q tests, -p prints; -o for set's",
      examples=[("aliases in a script", "shopt -s expand_aliases"),
                ("is an option on?", "shopt -q globstar && echo on")],
      session=True)
def shopt(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = [to_text(w) for w in args.positional]
    flags = ""
    while words and words[0].startswith("-") and len(words[0]) > 1:
        w = words.pop(0)
        if w == "--":
            break
        flags += w[1:]
    bad = [f for f in flags if f not in "supqo"]
    if bad:
        err(ctx, f"-{bad[0]}: invalid option")
        ctx.error("usage: shopt [-pqsu] [-o] [optname ...]")
        return 2
    if "s" in flags and "u" in flags:
        err(ctx, "cannot set and unset shell options simultaneously")
        return 1
    st = sh.state
    if "o" in flags:
        known: frozenset[str] | tuple[str, ...] = ALL_OPTIONS
        kept = st.options
        what = "invalid option name"
    else:
        known = SHOPT_NAMES
        kept = st.shopt
        what = "invalid shell option name"
    status = 0
    valid: list[str] = []
    for name in words:
        if name in known:
            valid.append(name)
        else:
            err(ctx, f"{name}: {what}")
            status = 1
    if "s" in flags or "u" in flags:
        on = "s" in flags
        if not words:
            for name in sorted(known):
                if (name in kept) == on:
                    _show(ctx, name, on, "p" in flags, "o" in flags)
            return 0
        for name in valid:
            if "o" in flags:
                set_option(kept, name, on)
            else:
                (kept.add if on else kept.discard)(name)
        return status
    names = valid if words else sorted(known)
    if "q" in flags:
        return status or (0 if all(n in kept for n in names) else 1)
    for name in names:
        _show(ctx, name, name in kept, "p" in flags, "o" in flags)
    if words and not all(n in kept for n in valid):
        status = status or 1
    return status


def _show(ctx: Context, name: str, on: bool, reusable: bool, set_o: bool) -> None:
    if reusable:
        if set_o:
            ctx.write(f"set {'-' if on else '+'}o {name}\n")
        else:
            ctx.write(f"shopt {'-s' if on else '-u'} {name}\n")
    else:
        ctx.write(f"{name:<15}\t{'on' if on else 'off'}\n")


TOOLS: list[Tool] = [set_, shopt]
