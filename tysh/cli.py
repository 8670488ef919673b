"""The `tysh` command: `tysh -c SCRIPT [ARG0 ARGS…]`, `tysh FILE [ARGS…]`, a script on
standard input, or the REPL on a terminal.

Output streams straight to fds 1 and 2 as it is produced (external commands write to
them directly), and imports stay lazy: the `-c` path loads the parser, the interpreter
and the builtins it uses — never rich, jq or prompt_toolkit."""

from __future__ import annotations

import sys

from tysh.kernel.base.hints import cast
from tysh.kernel.base.importcache import refresh_installed
from tysh.kernel.base.limits import parse_seconds, parse_size

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO, Any

USAGE = """\
usage: tysh [--no-external] [--compat bash] [--timeout SECS] [--max-memory SIZE] [-e] [-u]
            [-o OPTION] [-O SHOPT] -c SCRIPT [ARG0 [ARGS…]]
       tysh [--no-external] FILE [ARGS…]
       tysh [--no-external]            (script on stdin, or the REPL on a terminal)
       tysh events summarize FILE      (a JSONL stream of tool-call events, grouped)

options:
  -c SCRIPT        run SCRIPT; ARG0 becomes $0 and ARGS the positional parameters
  --no-external    run builtins and functions only (no commands from PATH)
  --compat bash    bash's rules: unquoted expansions split on IFS and glob
                   (sh_word_split), a glob that matches nothing stays as written
  --timeout SECS   stop the script after SECS seconds (exit status 124; 0: no limit)
  --max-memory SIZE  bound the script's in-process data (variables, captures, tool
                   buffers) to SIZE bytes (suffix K, M or G); none by default
  --events FILE    write the run's tool-call events to FILE as JSON lines (- : stderr)
  -e, -u, -x, …    set errexit / nounset / xtrace (any of set's letters; + unsets)
  -o OPTION        set an option (errexit, nounset, pipefail, sh_word_split, …)
  -O SHOPT, +O SHOPT  turn a shopt option on / off (nullglob, extglob, …)
  --version        print the version and exit
  --help           print this help and exit
"""


_interactive = False


def entry() -> None:
    """The `tysh` command. A script run ends with os._exit once its output is flushed:
    the interpreter's own teardown (freeing every module and class) is a noticeable part
    of a short `tysh -c`, and a finished script holds nothing that needs finalizing
    (redirected files are closed by the command that opened them; background jobs end
    with the shell, as they do when bash exits). The REPL exits normally."""
    import gc
    import os

    # Start-up creates thousands of objects that live as long as the process (classes,
    # parser tables); the collector would walk them again and again for nothing. It is
    # off until the kernel exists, then those objects are frozen out of its way.
    gc.disable()
    code = main()
    refresh_installed()  # (only after a run that imported a module the cache lacked)
    if _interactive:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    """Options as bash reads them: flags (`-e`, `+x`, `-o NAME`, `-O NAME`, bundled as
    in `-oo errexit noglob`) up to `--`, `-` or the first other word; with `-c` that word
    is the script, else it names the script file."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["mcp"]:
        # `tysh mcp …`: the MCP server (a script file named mcp runs as `tysh ./mcp`)
        from tysh.mcp.server import main as mcp_main

        _collect_from_here()
        return mcp_main(args[1:])
    if len(args) >= 2 and args[0] == "events" and args[1] == "summarize":
        from tysh.acp.summary import summarize_main

        return summarize_main(args[2:])
    allow_external = True
    events: str | None = None
    options: list[str] = []
    script: str | None = None
    script_file: str | None = None
    rest: list[str] = []
    timeout: float | None = None
    max_memory: int | None = None
    compat: str | None = None
    shopts: list[tuple[str, bool]] = []
    command = False
    interactive = False
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--", "-"):
            i += 1
            break
        if a.startswith("--"):
            opt, eq, value = a.partition("=")
            if a == "--version":
                from tysh import __version__

                sys.stdout.write(f"tysh {__version__}\n")
                return 0
            if a == "--help":
                sys.stdout.write(USAGE)
                return 0
            if a == "--no-external":
                allow_external = False
            elif opt in ("--timeout", "--max-memory", "--compat", "--events", "--rcfile",
                         "--init-file"):
                if not eq:
                    if i + 1 >= len(args):
                        sys.stderr.write(f"tysh: {opt}: option requires an argument\n")
                        return 2
                    i += 1
                    value = args[i]
                if opt == "--timeout":
                    timeout = parse_seconds(value)
                    if timeout is None:
                        sys.stderr.write(f"tysh: {opt}: invalid time interval '{value}'\n")
                        return 2
                elif opt == "--max-memory":
                    max_memory = parse_size(value)
                    if max_memory is None:
                        sys.stderr.write(f"tysh: {opt}: invalid size '{value}'\n")
                        return 2
                elif opt == "--events":
                    events = value
                elif opt == "--compat":
                    if value != "bash":
                        sys.stderr.write(
                            f"tysh: --compat: unknown mode '{value}' (known: bash)\n")
                        return 2
                    compat = value
                # --rcfile/--init-file: tysh reads no startup file
            elif a in ("--login", "--norc", "--noprofile", "--noediting", "--posix"):
                if a == "--posix":
                    options.append("posix")
            else:
                sys.stderr.write(f"tysh: {a}: invalid option\n{USAGE}")
                return 2
            i += 1
            continue
        if len(a) > 1 and a[0] in "-+":
            on = a[0] == "-"
            for c in a[1:]:
                if c in "oO":
                    if i + 1 >= len(args):
                        sys.stderr.write(f"tysh: -{c}: option requires an argument\n")
                        return 2
                    i += 1
                    if c == "O":
                        shopts.append((args[i], on))
                    elif on:
                        options.append(args[i])
                    else:
                        options.append("+" + args[i])
                elif c == "c":
                    command = True
                elif c == "i":
                    interactive = on
                elif c in "hls":
                    pass  # -h is set by default; login and stdin are implied
                elif c in LETTER_FLAGS:
                    options.append(c if on else "+" + c)
                else:
                    sys.stderr.write(f"tysh: {a[0]}{c}: invalid option\n{USAGE}")
                    return 2
            i += 1
            continue
        break
    if command:
        if i >= len(args):
            sys.stderr.write("tysh: -c: option requires an argument\n")
            return 2
        script, rest = args[i], args[i + 1 :]
    elif i < len(args):
        script_file, rest = args[i], args[i + 1 :]
    if interactive:
        options.append("emacs")  # the line editing an interactive bash starts with
    return _run(script, script_file, rest, options, allow_external, timeout, max_memory,
                compat, shopts, interactive, events)


# `set`'s option letters, which tysh also takes on its command line
LETTER_FLAGS = frozenset("abefhkmnptuvxBCEHPT")


def _collect_from_here() -> None:
    """Turn the garbage collector back on for the script, with what start-up made frozen."""
    import gc

    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _run(
    script: str | None,
    script_file: str | None,
    rest: list[str],
    options: list[str],
    allow_external: bool,
    timeout: float | None = None,
    max_memory: int | None = None,
    compat: str | None = None,
    shopts: list[tuple[str, bool]] | None = None,
    interactive: bool = False,
    events: str | None = None,
) -> int:
    import os

    arg0 = "tysh"
    positional: list[str] = []
    from_c = script is not None
    if script is not None:
        if rest:
            arg0, positional = rest[0], rest[1:]
    elif script_file is not None:
        try:
            with open(script_file, "rb") as f:
                script = f.read().decode("utf-8", "surrogateescape")
        except OSError as e:
            sys.stderr.write(f"tysh: {script_file}: {e.strerror}\n")
            return 127 if isinstance(e, FileNotFoundError) else 126
        arg0, positional = script_file, rest
        if script.startswith("#!"):
            script = "#" + script[2:]
    else:
        if sys.stdin is not None and sys.stdin.isatty():
            global _interactive
            _interactive = True
            _collect_from_here()
            return _start_repl(allow_external)
        script = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
        positional = rest

    from tysh.kernel.base.limits import Limits
    from tysh.kernel.embed.kernel import Kernel, host_environment
    from tysh.kernel.run.state import ALL_OPTIONS, LETTER_OPTIONS

    limits = Limits(max_memory=max_memory)
    if allow_external:
        kernel = Kernel.repl(arg0=arg0, args=positional, limits=limits)
    else:
        from tysh.kernel.fs.local import LocalFileSystem

        kernel = Kernel(
            cwd=os.getcwd(), env=host_environment(), allow_external=False,
            fs=LocalFileSystem(), arg0=arg0, args=positional, validate=False,
            limits=limits,
        )
        kernel.state.default_bytes = True  # no locale variable: C, as bash
    if compat is not None:
        kernel.state.set_compat(compat)
    kernel.state.interactive = interactive
    for o in options:
        name = o.lstrip("+")
        name = LETTER_OPTIONS.get(name, name)
        if name not in ALL_OPTIONS:
            sys.stderr.write(f"tysh: {name}: invalid option name\n")
            return 2
        (kernel.state.options.discard if o[0] == "+" else kernel.state.options.add)(name)
    for name, on in shopts or ():
        (kernel.state.shopt.add if on else kernel.state.shopt.discard)(name)
    kernel.state.retable(script_file=script_file)
    # `$-` ends in c for -c, s for a script read from stdin; `trap` handles real signals
    kernel.state.invocation = "c" if script_file is None and from_c else (
        "" if script_file is not None else "s")
    kernel.interp.host_signals = True
    stdin = open(0, "rb", closefd=False)  # noqa: SIM115
    stdout = open(1, "wb", closefd=False)  # noqa: SIM115
    stderr = open(2, "wb", buffering=0, closefd=False)  # noqa: SIM115
    fds: dict[int, IO[bytes]] = {
        0: cast("IO[bytes]", stdin),
        1: cast("IO[bytes]", stdout),
        2: cast("IO[bytes]", stderr),
    }
    sink: IO[bytes] | None = None
    if events is not None:
        try:
            sink = stderr if events == "-" else open(events, "wb")  # noqa: SIM115
        except OSError as e:
            sys.stderr.write(f"tysh: --events: {events}: {e.strerror}\n")
            return 2
        kernel.add_listener(_jsonl_writer(sink))
    _collect_from_here()
    try:
        status = kernel.run(script, fds, timeout=timeout or None)
    finally:
        if sink is not None and sink is not stderr:
            sink.close()
        try:
            stdout.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass
    return status & 0xFF if status >= 0 else 1


def _jsonl_writer(sink: IO[bytes]) -> Callable[[dict[str, Any]], None]:
    """A listener writing each event as one JSON line, as it happens."""
    import json

    def write(update: dict[str, Any]) -> None:
        sink.write(json.dumps(update, ensure_ascii=False).encode("utf-8", "surrogateescape")
                   + b"\n")
        sink.flush()

    return write


def _start_repl(allow_external: bool) -> int:
    """The REPL on a terminal (imported here: prompt_toolkit loads only for it)."""
    from tysh.repl.app import main as repl_main

    return repl_main(allow_external=allow_external)
    import importlib

    mod = importlib.import_module("tysh.repl.app")
    for entry in ("main", "run", "run_repl"):
        fn = getattr(mod, entry, None)
        if callable(fn):
            try:
                rc = fn(allow_external=allow_external)
            except TypeError:
                rc = fn()
            return int(rc or 0)
    return None
