"""Kernel configuration and presets: the sandboxed default, repl(),
isolated(), overlay(), the hermetic environment, per-call cwd/env, and the one door
to external commands."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import DEFAULT_PATH, Kernel
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.fs.memory import MemoryFileSystem

# what `hostid` (the external used here: coreutils has it, tysh does not) prints
HOSTID_OUTPUT = re.compile(r"^[0-9a-f]{8}$", re.M)

DISABLED = "command not found (external commands are disabled)"


def test_default_kernel_is_confined_to_its_cwd_with_externals_off(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    assert isinstance(k.fs, ConfinedFileSystem)
    assert k.allow_external is False
    r = k.execute("cat /etc/hostname")
    assert r.code == 1 and "outside the sandbox" in r.err


def test_disabled_external_says_so_with_127(tmp_path: Path) -> None:
    r = Kernel(cwd=str(tmp_path), validate=False).execute("hostid")
    assert r.code == 127
    assert r.err == f"tysh: hostid: {DISABLED}\n"
    refused = Kernel(cwd=str(tmp_path)).execute("echo first; hostid")
    assert refused.code == 127 and refused.out == ""
    assert refused.err == f"tysh: 1:13: hostid: {DISABLED}\n"


@pytest.mark.parametrize(
    "src",
    [
        "hostid",
        "/bin/hostid",
        "env hostid",
        "env -i A=1 hostid",
        "echo x | xargs hostid",
        "timeout 5 hostid",
        "command hostid",
        "echo hostid > s.sh; source s.sh",
        "f() { hostid; }; f",
        "x=$(hostid); echo \"$x\"",
        "hostid | cat",
        "( hostid )",
    ],
)
def test_externals_are_unreachable_through_every_door(tmp_path: Path, src: str) -> None:
    r = Kernel(cwd=str(tmp_path)).execute(src)
    assert DISABLED in r.err
    assert not HOSTID_OUTPUT.search(r.out)


def test_find_exec_cannot_reach_an_external(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("x")
    r = Kernel(cwd=str(tmp_path)).execute("find . -name a -exec hostid {} ';'")
    assert DISABLED in r.err and not HOSTID_OUTPUT.search(r.out)


def test_builtin_and_exec_do_not_run_externals(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    assert k.execute("builtin hostid").code != 0
    assert k.execute("exec hostid").code != 0


def test_environment_is_hermetic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSH_LEAK_CHECK", "leaked")
    k = Kernel(cwd=str(tmp_path))
    r = k.execute('echo "${TYSH_LEAK_CHECK-unset}|$HOME|$PATH|$PWD"')
    assert r.out == f"unset|{tmp_path}|{DEFAULT_PATH}|{tmp_path}\n"


def test_env_is_merged_over_the_defaults(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), env={"API": "k1", "PATH": "/opt/bin"})
    assert k.execute('echo "$API $PATH $HOME"').out == f"k1 /opt/bin {tmp_path}\n"
    assert k.execute("env").out.count("API=k1") == 1


def test_cwd_must_be_a_directory(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a directory"):
        Kernel(cwd=str(tmp_path / "missing"))


def test_repl_preset_is_the_real_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSH_REPL_CHECK", "seen")
    k = Kernel.repl(cwd=str(tmp_path))
    assert type(k.fs) is LocalFileSystem and k.allow_external
    assert k.execute("echo $TYSH_REPL_CHECK").out == "seen\n"
    if shutil.which("hostid"):
        assert k.execute("hostid").code == 0


def test_isolated_preset_lives_in_memory() -> None:
    k = Kernel.isolated(files={"notes/a.txt": "hello\n", "b.bin": b"\x00\x01"})
    assert isinstance(k.fs, MemoryFileSystem)
    r = k.execute("pwd; echo $HOME; cat notes/a.txt; wc -c < b.bin; ls /")
    assert r.out == "/home/user\n/home/user\nhello\n2\nhome\ntmp\n"
    assert k.execute("cat /etc/passwd").code == 1
    assert DISABLED in k.execute("hostid").err


def test_isolated_kernels_do_not_share_files() -> None:
    a, b = Kernel.isolated(), Kernel.isolated()
    a.execute("echo secret > s")
    assert b.execute("cat s").code == 1


def test_overlay_preset_keeps_writes_in_memory_until_commit(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("original\n")
    k = Kernel.overlay(str(tmp_path))
    r = k.execute("echo new > made.txt; echo changed > keep.txt; cat keep.txt")
    assert r.out == "changed\n"
    assert (tmp_path / "keep.txt").read_text() == "original\n"
    assert not (tmp_path / "made.txt").exists()
    assert {c.path for c in k.fs.changes()} >= {str(tmp_path / "made.txt")}
    assert "made.txt" in k.fs.diff()
    k.fs.commit(LocalFileSystem())
    assert (tmp_path / "made.txt").read_text() == "new\n"


def test_externals_run_in_the_sandbox_cwd(tmp_path: Path) -> None:
    if not shutil.which("pwd") or not os.path.exists("/bin/pwd"):
        pytest.skip("no /bin/pwd")
    (tmp_path / "sub").mkdir()
    k = Kernel(cwd=str(tmp_path), allow_external=True)
    assert k.execute("cd sub; /bin/pwd").out == f"{tmp_path}/sub\n"


def test_per_call_cwd_and_env_do_not_persist(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("pwd; echo $PWD $FOO; cd ..; pwd", cwd="sub", env={"FOO": "bar"})
    assert r.out == f"{tmp_path}/sub\n{tmp_path}/sub bar\n{tmp_path}\n"
    assert k.execute('pwd; echo "${FOO-unset}"').out == f"{tmp_path}\nunset\n"


def test_per_call_env_restores_an_existing_variable(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.execute("FOO=session")
    assert k.execute("echo $FOO", env={"FOO": "call"}).out == "call\n"
    assert k.execute("echo $FOO").out == "session\n"


def test_without_overrides_cd_persists_across_calls(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    k = Kernel(cwd=str(tmp_path))
    k.execute("cd d")
    assert k.execute("pwd").out == f"{tmp_path}/d\n"
    assert k.cwd == f"{tmp_path}/d"


def test_per_call_cwd_outside_the_sandbox_is_refused(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("pwd", cwd="/etc")
    assert r.code == 2 and "No such directory in the sandbox" in r.err
    assert k.execute("pwd").out == f"{tmp_path}\n"


def test_execute_argv_takes_the_same_per_call_options(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f.txt").write_text("x\n")
    k = Kernel(cwd=str(tmp_path))
    r = k.execute_argv("cat", ["f.txt"], cwd="d")
    assert (r.code, r.out) == (0, "x\n")
