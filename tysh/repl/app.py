"""The interactive shell: `tysh` with no arguments on a terminal.

prompt_toolkit does the line editing (history in the user's data folder, completion from
the tool schemas, highlighting from the shell's lexer, a usage hint in the bottom
toolbar); the kernel runs each command on the real fds in the main thread, so Ctrl-C
reaches it as KeyboardInterrupt (the kernel reports 130, sleeps and external commands stop)
and the shell carries on. Enter on an unfinished command (`if` without `fi`, an open
quote, a trailing `|`) — decided by the parser's `is_incomplete` — continues it on a
`> ` line. Structured results render with rich through `Registry.render_output`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession

    from tysh.kernel.base.streams import Fds
    from tysh.kernel.embed.kernel import Kernel


class Shell:
    """One interactive session: a kernel, its streams and the REPL's bookkeeping."""

    def __init__(self, kernel: Kernel, fds: Fds, color: bool = True) -> None:
        self.kernel = kernel
        self.fds = fds
        self.color = color
        self.exit_status: int | None = None
        self._known: dict[str, bool] = {}

    # ------------------------------------------------------------------ running
    def run(self, text: str) -> int:
        """Run one command as typed: aliases expanded, syntax errors shown with a caret."""
        from tysh.kernel.base.control import ExitShell
        from tysh.kernel.base.errors import TyshSyntaxError
        from tysh.kernel.syntax.parser import parse
        from tysh.repl.render import format_syntax_error

        k = self.kernel
        st = k.state
        try:
            # aliases are expanded as the lexer reads the line, as interactive bash does
            script = parse(text, st.aliases) if st.aliases else k.parse(text)
        except TyshSyntaxError as e:
            self._err(format_syntax_error(e.format(), self.color))
            st.last_status = 2
            return 2
        except (RecursionError, ValueError) as e:
            self._err(f"tysh: syntax error: {e}\n")
            st.last_status = 2
            return 2
        interp = k.interp
        interp.last_data = None
        interp.last_typed = False
        exits: list[int] = []

        def body(_: None, fds: Fds) -> int:
            try:
                return int(interp.run_script(script, fds))
            except ExitShell as e:
                exits.append(e.status)
                raise

        try:
            status = k._guard(body, None, self.fds)  # noqa: SLF001 — the kernel's own safety net
        except KeyboardInterrupt:
            status = st.last_status = 130
        if exits:
            self.exit_status = status
        self._known.clear()
        return status

    def run_file(self, path: str) -> None:
        """Run an init file command by command, so an alias defined on one line applies
        to the next (as bash reads its rc file)."""
        from tysh.kernel.syntax.parser import is_incomplete

        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                lines = f.read().splitlines(keepends=True)
        except OSError:
            return
        chunk = ""
        for line in lines:
            chunk += line
            if is_incomplete(chunk):
                continue
            if chunk.strip():
                self.run(chunk)
                if self.exit_status is not None:
                    return
            chunk = ""
        if chunk.strip():
            self.run(chunk)

    def known(self, name: str) -> bool:
        """Whether a command name resolves (for highlighting), cached until the next run."""
        got = self._known.get(name)
        if got is None:
            from tysh.kernel.syntax.lexer import RESERVED

            st = self.kernel.state
            got = name in st.aliases or name in RESERVED or "=" in name \
                or self.kernel.resolve_kind(name)[0] is not None \
                or any(c in name for c in "$`'\"\\*?[{~")
            self._known[name] = got
        return got

    def _err(self, text: str) -> None:
        s = self.fds.get(2)
        if s is not None:
            try:
                s.write(text.encode("utf-8", "surrogateescape"))
                s.flush()
            except (OSError, ValueError):
                pass


def make_kernel(allow_external: bool) -> Kernel:
    from tysh.kernel.embed.kernel import Kernel
    from tysh.kernel.fs.local import LocalFileSystem

    if allow_external:
        return Kernel.repl(arg0="tysh")
    # builtins only, but still the real filesystem and environment of the person typing
    return Kernel(cwd=os.getcwd(), env=dict(os.environ), allow_external=False,
                  fs=LocalFileSystem(), arg0="tysh")


def load_plugins(kernel: Kernel, spec: str, err: Callable[[str], None]) -> None:
    """Register the tools named by `TYSH_PLUGINS` (`module:attr`, comma-separated); attr
    is a tool, a tool group, or a list of them."""
    import importlib

    for item in filter(None, (s.strip() for s in spec.split(","))):
        mod_name, _, attr = item.partition(":")
        try:
            obj: Any = importlib.import_module(mod_name)
            for part in filter(None, attr.split(".")):
                obj = getattr(obj, part)
        except Exception as e:  # noqa: BLE001 — a bad plugin must not stop the shell
            err(f"tysh: plugin {item}: {type(e).__name__}: {e}\n")
            continue
        for t in obj if isinstance(obj, (list, tuple)) else [obj]:
            kernel.register(t)


def _warm_up() -> None:
    """Load the parser and the common builtins while the user reads the first prompt."""
    import time

    time.sleep(0.15)  # after the prompt has been drawn
    try:
        from tysh.builtins import get_builtin
        from tysh.kernel.syntax.parser import parse

        parse("true | echo x")
        for name in ("true", "echo"):
            get_builtin(name)
    except Exception:  # noqa: BLE001
        pass


def _interrupted_early(session: PromptSession[str]) -> bool:
    """Whether Ctrl-C was typed after Enter but before the terminal left raw mode.

    In raw mode Ctrl-C is a key, not a signal: one typed while prompt_toolkit finishes
    the line is kept as type-ahead for the next prompt, or is still unread in the
    terminal, and the command would run to its end. Such a Ctrl-C cancels the line, and
    drops what was typed before it, as a terminal's interrupt flushes its input; keys
    typed after it stay type-ahead for the next prompt."""
    from prompt_toolkit.input.typeahead import get_typeahead, store_typeahead
    from prompt_toolkit.keys import Keys

    inp = session.input
    keys = get_typeahead(inp)
    unread = _unread_terminal_input()
    if unread:
        from prompt_toolkit.input.vt100_parser import Vt100Parser

        parser = Vt100Parser(keys.append)
        parser.feed(unread.decode("utf-8", "surrogateescape"))
        parser.flush()
    for i, key in enumerate(keys):
        if key.key == Keys.ControlC:
            store_typeahead(inp, keys[i + 1:])
            return True
    store_typeahead(inp, keys)
    return False


def _unread_terminal_input() -> bytes:
    """The bytes typed on the terminal (fd 0) that nothing has read yet, without
    waiting; b"" when there are none or stdin is not a terminal."""
    import array
    import fcntl
    import termios

    try:
        if not os.isatty(0):
            return b""
        count = array.array("i", [0])
        fcntl.ioctl(0, termios.FIONREAD, count)
        return os.read(0, count[0]) if count[0] > 0 else b""
    except OSError:
        return b""


def build_session(shell: Shell, history_file: str) -> PromptSession[str]:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.completion import Completer
    from prompt_toolkit.history import FileHistory
    from prompt_toolkit.key_binding import KeyBindings

    from tysh.repl.highlight import STYLE, ShellLexer

    class LazyCompleter(Completer):
        """Loads the completion engine on the first Tab, not at startup."""

        inner: Any = None

        def get_completions(self, document: Any, complete_event: Any) -> Any:
            if self.inner is None:
                from tysh.repl.complete import Engine, ShellCompleter

                self.inner = ShellCompleter(Engine(shell.kernel))
            return self.inner.get_completions(document, complete_event)

    kb = KeyBindings()

    @kb.add("enter")
    def _enter(event: Any) -> None:
        """Accept a complete command; continue an unfinished one on a `> ` line."""
        from tysh.kernel.syntax.parser import is_incomplete

        buf = event.current_buffer
        if buf.complete_state is not None and buf.complete_state.current_completion:
            buf.complete_state = None  # Enter closes the menu on the chosen completion
            return
        text = buf.text
        if text.strip() and is_incomplete(text):
            buf.cursor_position = len(text)
            buf.insert_text("\n")
            return
        buf.validate_and_handle()

    def toolbar() -> str:
        try:
            from prompt_toolkit.application.current import get_app

            before = get_app().current_buffer.document.text_before_cursor
            if not before.strip():
                return ""
            from tysh.repl.complete import iter_usage

            return iter_usage(shell.kernel, before)
        except Exception:  # noqa: BLE001
            return ""

    try:
        os.makedirs(os.path.dirname(os.path.abspath(history_file)), exist_ok=True)
    except OSError:
        pass
    session: PromptSession[str] = PromptSession(
        history=FileHistory(history_file),
        lexer=ShellLexer(shell.known),
        completer=LazyCompleter(),
        complete_while_typing=False,
        auto_suggest=AutoSuggestFromHistory(),
        multiline=True,
        key_bindings=kb,
        prompt_continuation=lambda width, line, soft: "> ",
        bottom_toolbar=toolbar,
        style=STYLE,
        enable_history_search=False,
        include_default_pygments_style=False,
    )
    return session


def main(allow_external: bool = True) -> int:
    """Run the REPL until `exit` or Ctrl-D; the status is the last command's."""
    from prompt_toolkit.formatted_text import ANSI

    from tysh.repl.prompt import history_path, init_path, prompt_text
    from tysh.repl.render import RedStderr, render_output

    kernel = make_kernel(allow_external)
    kernel.registry.render_output = render_output
    stdin = open(0, "rb", closefd=False)  # noqa: SIM115
    stdout = open(1, "wb", closefd=False)  # noqa: SIM115
    fds: Fds = {
        0: cast("IO[bytes]", stdin),
        1: cast("IO[bytes]", stdout),
        2: cast("IO[bytes]", RedStderr(2)),
    }
    shell = Shell(kernel, fds)
    env = os.environ
    plugins = env.get("TYSH_PLUGINS")
    if plugins:
        load_plugins(kernel, plugins, shell._err)
    init = init_path(env)
    if init and os.path.isfile(init):
        shell.run_file(init)
        kernel.state.last_status = 0
    if shell.exit_status is not None:
        return shell.exit_status
    session = build_session(shell, history_path(env))
    warmed = False
    while True:
        try:
            text = session.prompt(
                ANSI(prompt_text(kernel)),
                pre_run=None if warmed else lambda: threading.Thread(
                    target=_warm_up, daemon=True).start(),
            )
            warmed = True
        except KeyboardInterrupt:
            kernel.state.last_status = 130
            continue
        except EOFError:
            break
        try:
            if _interrupted_early(session):
                status = kernel.state.last_status = 130
                stdout.write(b"^C")  # raw mode did not echo it
            elif not text.strip():
                continue
            else:
                status = shell.run(text)
        except KeyboardInterrupt:
            # Ctrl-C in the moment the line starts, before the run took over SIGINT
            status = kernel.state.last_status = 130
        if status == 130:
            stdout.write(b"\n")
        try:
            stdout.flush()
        except (OSError, ValueError):
            pass
        if shell.exit_status is not None:
            return shell.exit_status & 0xFF
    return kernel.state.last_status & 0xFF
