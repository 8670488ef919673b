"""getopts: a script's option parser, with bash's OPTIND/OPTARG protocol (the
position inside a word of bundled options is kept in the session between calls)."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import err
from tysh.kernel.base.values import to_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@tool("getopts", kind="shell", raw_argv=True, session=True,
      description="parse options in a script: getopts OPTSTRING NAME [ARGS…]")
def getopts(args: RawArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    words = texts(args.positional)
    if len(words) < 2:
        err(ctx, "usage: getopts optstring name [arg ...]")
        return 2
    spec, name = words[0], words[1]
    argv = words[2:] if len(words) > 2 else list(st.positional)
    silent = spec.startswith(":")
    if silent:
        spec = spec[1:]
    try:
        optind = int(to_text(st.get("OPTIND") or "1"))
    except ValueError:
        optind = 1
    if optind < 1:
        optind = 1  # OPTIND=0 restarts, as OPTIND=1 does
    if optind != st.getopts_ind:
        st.getopts_pos = 0
    pos = st.getopts_pos

    def done() -> int:
        st.set(name, "?")
        st.set("OPTIND", str(optind))
        st.getopts_ind, st.getopts_pos = optind, 0
        return 1

    if optind > len(argv):
        optind = len(argv) + 1  # as bash: past the end is just after the last argument
        return done()
    arg = argv[optind - 1]
    if pos == 0:
        if arg == "--":
            optind += 1
            return done()
        if len(arg) < 2 or not arg.startswith("-"):
            return done()
        pos = 1
    c = arg[pos]
    pos += 1
    at_end = pos >= len(arg)
    idx = spec.find(c)
    optarg: str | None = None
    result = c
    if idx < 0 or c == ":":
        if silent:
            optarg = c
        else:
            ctx.stderr.write(f"tysh: illegal option -- {c}\n".encode("utf-8", "surrogateescape"))
        result = "?"
    elif idx + 1 < len(spec) and spec[idx + 1] == ":":
        if not at_end:
            optarg = arg[pos:]
            at_end = True
        elif optind < len(argv):
            optarg = argv[optind]
            optind += 1
        else:
            if silent:
                result, optarg = ":", c
            else:
                ctx.stderr.write(
                    f"tysh: option requires an argument -- {c}\n".encode("utf-8", "surrogateescape")
                )
                result = "?"
    if at_end:
        optind += 1
        pos = 0
    st.getopts_ind, st.getopts_pos = optind, pos
    st.set("OPTIND", str(optind))
    if optarg is None:
        st.unset("OPTARG")
    else:
        st.set("OPTARG", optarg)
    st.set(name, result)
    return 0


TOOLS: list[Tool] = [getopts]
