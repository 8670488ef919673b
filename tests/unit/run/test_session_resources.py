"""The session's umask and limits (kernel/run/filemode.py, builtins/shell/resources.py):
per session, never the process's; applied to what the session creates and runs."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tysh import Kernel
from tysh.kernel.run.filemode import process_umask


def mode(p: Path) -> int:
    return p.stat().st_mode & 0o777


def test_umask_never_changes_the_process_umask(kernel: Kernel) -> None:
    before = process_umask()
    kernel.execute("umask 077")
    old = os.umask(before)  # read it the only way there is, and put it back
    assert old == before


def test_two_kernels_keep_their_own_umask(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    ka, kb = Kernel(cwd=str(a)), Kernel(cwd=str(b))
    ka.execute("umask 077")
    kb.execute("umask 000")

    def run(k: Kernel) -> None:
        for i in range(20):
            k.execute(f"echo x > f{i}; mkdir d{i}")

    threads = [threading.Thread(target=run, args=(k,)) for k in (ka, kb)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {mode(p) for p in a.glob("f*")} == {0o600}
    assert {mode(p) for p in a.glob("d*")} == {0o700}
    assert {mode(p) for p in b.glob("f*")} == {0o666}
    assert {mode(p) for p in b.glob("d*")} == {0o777}


def test_umask_applies_in_memory_too() -> None:
    k = Kernel.isolated()
    r = k.execute("umask 077; echo x > f; mkdir d; stat -c '%a' f d")
    assert r.out == "600\n700\n"


def test_a_subshell_umask_stays_in_the_subshell(kernel: Kernel, tmp_path: Path) -> None:
    kernel.execute("umask 022; (umask 077; echo x > in); echo y > out")
    assert mode(tmp_path / "in") == 0o600
    assert mode(tmp_path / "out") == 0o644


def test_chmod_plus_x_uses_the_session_umask(kernel: Kernel, tmp_path: Path) -> None:
    kernel.execute("umask 077; echo x > f; chmod 600 f; chmod +x f")
    assert mode(tmp_path / "f") == 0o700


def test_umask_json(kernel: Kernel) -> None:
    import json

    r = kernel.execute("umask 027; umask --json")
    assert json.loads(r.out) == {"mask": "0027", "symbolic": "u=rwx,g=rx,o="}


def test_a_sandbox_may_lower_but_not_raise_a_soft_limit(kernel: Kernel) -> None:
    r = kernel.execute("ulimit -S -n 64; ulimit -S -n 128; echo $?; ulimit -n")
    assert r.out == "1\n64\n"
    assert "a sandboxed session cannot raise its limits" in r.err


def test_a_host_session_may_raise_a_soft_limit_up_to_the_hard_one(tmp_path: Path) -> None:
    k = Kernel.repl(cwd=str(tmp_path))
    r = k.execute("ulimit -S -n 64; ulimit -S -n 128; echo $?; ulimit -n")
    assert r.out == "0\n128\n"


def test_nobody_raises_a_hard_limit(kernel: Kernel) -> None:
    r = kernel.execute("ulimit -t 100; ulimit -H -t 200; echo $?; ulimit -Ht")
    assert r.out == "1\n100\n"
    assert "Operation not permitted" in r.err


def test_ulimit_never_changes_the_process_limits(kernel: Kernel) -> None:
    import resource

    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    kernel.execute("ulimit -n 10; ulimit -H -n 10")
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == before


@pytest.mark.skipif(not os.path.exists("/bin/sh"), reason="needs /bin/sh")
def test_external_commands_get_the_session_umask_and_limits(tmp_path: Path) -> None:
    k = Kernel.repl(cwd=str(tmp_path))
    r = k.execute("umask 027; ulimit -n 77; /bin/sh -c 'umask; ulimit -n'")
    assert r.out == "0027\n77\n"


def test_ulimit_json(kernel: Kernel) -> None:
    import json

    r = kernel.execute("ulimit -S -t 30; ulimit --json -t")
    [row] = json.loads(r.out)
    assert row["option"] == "-t" and row["soft"] == 30 and row["unit"] == "seconds"


@pytest.mark.parametrize("create", [
    "mkdir new", "touch new", "echo x > new", "echo x >> new", "cp src new",
    "echo x | tee new >/dev/null", "mkdir -p new/deeper", "mktemp -p . new.XXXX",
    "sort -o new src", "shuf -o new src",
])
def test_umask_applies_to_everything_the_session_creates(
        kernel: Kernel, tmp_path: Path, create: str) -> None:
    (tmp_path / "src").write_text("x")
    r = kernel.execute(f"umask 077; {create}")
    assert r.code == 0, r.err
    made = [p for p in tmp_path.rglob("new*")]
    assert made
    for p in made:
        assert mode(p) & 0o077 == 0, (p, oct(mode(p)))


def test_a_lowered_limit_cannot_be_raised_again_in_a_sandbox(kernel: Kernel) -> None:
    r = kernel.execute("ulimit -f 10; ulimit -f 20; echo $?; ulimit -S -f unlimited; "
                       "echo $?; (ulimit -f 30; echo $?); ulimit -f")
    assert r.out == "1\n1\n1\n10\n"
