"""`~name` tilde expansion: on the host (the CLI, `Kernel.repl()`) the password database
gives the user's home, as bash; a sandbox never reads the host's password database —
only the session's own user (`$USER`, else the neutral `user` whoami answers there) has
a home, the session's $HOME, and every other name stays literal."""

from __future__ import annotations

import pwd
from pathlib import Path

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.local import LocalFileSystem


def _sandboxes(tmp_path: Path, env: dict[str, str] | None = None) -> list[Kernel]:
    return [Kernel(cwd=str(tmp_path), env=env), Kernel.isolated(env=env),
            Kernel.overlay(str(tmp_path), env=env)]


def test_a_sandbox_does_not_reveal_other_users_homes(tmp_path: Path) -> None:
    for k in _sandboxes(tmp_path):
        r = k.execute("echo ~root ~root/x; x=~root:~daemon; echo $x")
        assert r.out == "~root ~root/x\n~root:~daemon\n"


def test_a_sandbox_gives_its_own_user_the_sessions_home(tmp_path: Path) -> None:
    for k in _sandboxes(tmp_path, {"USER": "alice", "HOME": "/home/alice"}):
        assert k.execute("echo ~alice ~alice/d ~user").out == "/home/alice /home/alice/d ~user\n"
    for k in _sandboxes(tmp_path):  # no $USER: the name whoami answers
        home = k.execute("echo $HOME").out.strip()
        assert k.execute("echo ~user/d; whoami").out == f"{home}/d\nuser\n"


def test_on_the_host_a_user_name_gives_the_password_databases_home(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), fs=LocalFileSystem(), env={"HOME": "/elsewhere"})
    root_home = pwd.getpwnam("root").pw_dir
    assert k.execute("echo ~root/x ~no-such-user-here").out == f"{root_home}/x ~no-such-user-here\n"
