"""Where the REPL keeps its files, and the text of its prompt.

The REPL is the CLI's side of the house, so it reads the real environment (the kernel
never does): `TYSH_HISTFILE`, `XDG_DATA_HOME`, `TYSH_INIT`, `XDG_CONFIG_HOME`, `HOME`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tysh.kernel.embed.kernel import Kernel


def history_path(env: Mapping[str, str]) -> str:
    """`$TYSH_HISTFILE`, else `$XDG_DATA_HOME/tysh/history` (default ~/.local/share)."""
    explicit = env.get("TYSH_HISTFILE")
    if explicit:
        return explicit
    base = env.get("XDG_DATA_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"),
                                                    ".local", "share")
    return os.path.join(base, "tysh", "history")


def init_path(env: Mapping[str, str]) -> str:
    """`$TYSH_INIT`, else `$XDG_CONFIG_HOME/tysh/init.tysh` (default ~/.config)."""
    explicit = env.get("TYSH_INIT")
    if explicit is not None:
        return explicit
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"),
                                                      ".config")
    return os.path.join(base, "tysh", "init.tysh")


def tilde(path: str, home: str | None) -> str:
    """`path` with the home directory shown as `~`."""
    if home and home != "/":
        h = home.rstrip("/")
        if path == h:
            return "~"
        if path.startswith(h + "/"):
            return "~" + path[len(h):]
    return path


def default_prompt(cwd: str, home: str | None, status: int) -> str:
    """`~/src [1] $ ` — the cwd, and the last status when it is not zero (ANSI colored)."""
    status_part = f" \x1b[1;31m[{status}]\x1b[0m" if status else ""
    return f"\x1b[1;34m{tilde(cwd, home)}\x1b[0m{status_part} $ "


def prompt_text(kernel: Kernel) -> str:
    """The prompt: the stdout of the `tysh_prompt` function when one is defined, else the
    default. The function sees `$?` of the last command, and running it leaves `$?` alone."""
    st = kernel.state
    status = st.last_status
    if "tysh_prompt" in st.functions:
        try:
            res = kernel.execute("tysh_prompt")
            out = res.out if isinstance(res.out, str) else res.out.decode("utf-8", "replace")
        except Exception:  # noqa: BLE001 — a broken prompt function must not end the shell
            out = ""
        finally:
            st.last_status = status
        if out:
            return out.rstrip("\n")
    home = st.get("HOME")
    return default_prompt(st.cwd, home if isinstance(home, str) else None, status)
