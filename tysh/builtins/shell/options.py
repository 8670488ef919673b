"""set and shopt: the shell's options (and `set`'s other job, the positional
parameters). Both take raw argv: `set -- -x` and `set +o` are position-sensitive."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import err
from tysh.builtins.shell.vars import declare_value
from tysh.kernel.base.values import to_text
from tysh.kernel.expand.pattern import GLOB_SHOPT
from tysh.kernel.run.state import ALL_OPTIONS, LETTER_OPTIONS
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@tool(
    "set",
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
            ctx.write(f"{name}={declare_value(v.value)}\n")
        return 0
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            st.positional = words[i + 1 :]
            return 0
        if w == "-":
            st.positional = words[i + 1 :]
            return 0
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
                    (st.options.add if on else st.options.discard)(name)
                    continue
                opt = LETTER_OPTIONS.get(c)
                if opt is None:
                    err(ctx, f"{w[0]}{c}: invalid option")
                    return 2
                (st.options.add if on else st.options.discard)(opt)
            i += 1
            continue
        st.positional = words[i:]
        return 0
    return 0


def _print_options(ctx: Context, options: set[str], on: bool) -> None:
    for name in sorted(ALL_OPTIONS):
        if on:
            ctx.write(f"{name:<15} {'on' if name in options else 'off'}\n")
        else:
            ctx.write(f"set {'-' if name in options else '+'}o {name}\n")


# bash's shopt names; the glob options and expand_aliases are tysh's too
_SHOPT_NAMES = frozenset(
    "autocd assoc_expand_once cdable_vars cdspell checkhash checkjobs checkwinsize cmdhist "
    "compat31 compat32 compat40 compat41 compat42 compat43 compat44 complete_fullquote "
    "direxpand dirspell dotglob execfail expand_aliases extdebug extglob extquote failglob "
    "force_fignore globasciiranges globskipdots globstar gnu_errfmt histappend histreedit "
    "histverify hostcomplete huponexit inherit_errexit interactive_comments lastpipe lithist "
    "localvar_inherit localvar_unset login_shell mailwarn no_empty_cmd_completion nocaseglob "
    "nocasematch noexpand_translation nullglob patsub_replacement progcomp "
    "progcomp_alias promptvars restricted_shell shift_verbose sourcepath varredir_close "
    "xpg_echo".split())
# options the session keeps (State.shopt)
_SHOPT_KEPT = frozenset({"expand_aliases", *GLOB_SHOPT})


@tool("shopt", raw_argv=True,
      description="shell options: the glob options (failglob, nullglob, dotglob, extglob, "
                  "globstar, nocaseglob, nocasematch, globskipdots) and expand_aliases; "
                  "the others are bash's only",
      examples=[("a glob matching nothing gives nothing", "shopt -s nullglob"),
                ("a glob matching nothing stays as written (bash)", "shopt -u failglob"),
                ("aliases in a script", "shopt -s expand_aliases"),
                ("is an option on?", "shopt -q globstar && echo on")],
      session=True)
def shopt(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = [to_text(w) for w in args.positional]
    flags = ""
    while words and words[0].startswith("-") and len(words[0]) > 1:
        flags += words.pop(0)[1:]
    bad = [f for f in flags if f not in "supqo"]
    if bad:
        err(ctx, f"-{bad[0]}: invalid option")
        ctx.error("usage: shopt [-pqsu] [-o] [optname ...]")
        return 2
    if "o" in flags:
        err(ctx, "-o: use set -o to see and change tysh's set options")
        return 1
    for name in words:
        if name not in _SHOPT_NAMES:
            err(ctx, f"{name}: invalid shell option name")
            return 1
    names = words or sorted(_SHOPT_NAMES)
    kept = sh.state.shopt

    def is_on(name: str) -> bool:
        return name in kept

    if "s" in flags or "u" in flags:
        on = "s" in flags
        for name in words:
            if name in _SHOPT_KEPT:
                (kept.add if on else kept.discard)(name)
            elif on:
                err(ctx, f"{name}: cannot be turned on: tysh does not have this bash option")
                return 1
        return 0
    if "q" in flags:
        return 0 if all(is_on(n) for n in names) else 1
    for name in names:
        if "p" in flags:
            ctx.write(f"shopt {'-s' if is_on(name) else '-u'} {name}\n")
        else:
            ctx.write(f"{name:<15}\t{'on' if is_on(name) else 'off'}\n")
    return 0 if not words or all(is_on(n) for n in words) else 1


TOOLS: list[Tool] = [set_, shopt]
