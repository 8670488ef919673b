"""A kernel as a resource: its private /tmp, its default time limit, `reset=True`."""

from __future__ import annotations

import os
from pathlib import Path

from tysh import Kernel, Limits
from tysh.kernel.embed.kernel import DEFAULT_SANDBOX_TIMEOUT


def test_mktemp_cd_tmp_and_sort_t_work_in_a_confined_kernel(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    r = k.execute('t=$(mktemp) && echo hi > "$t" && cat "$t" && cd /tmp && pwd && '
                  "printf 'b\\na\\n' | sort -T /tmp && ls /tmp | wc -l")
    assert r.code == 0, r.err
    assert r.out == "hi\n/tmp\na\nb\n1\n"


def test_the_private_tmp_is_not_the_hosts(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    name = f"tysh-scratch-probe-{os.getpid()}"
    assert k.execute(f"echo x > /tmp/{name}").code == 0
    assert not os.path.exists(f"/tmp/{name}")
    other = Kernel(str(tmp_path))
    assert other.execute(f"cat /tmp/{name}").code == 1


def test_the_root_inside_tmp_stays_the_root(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("root file\n")
    assert str(tmp_path).startswith("/tmp/")
    k = Kernel(str(tmp_path))
    r = k.execute(f"cat {tmp_path}/f; cd /tmp && echo s > s; cat /tmp/s")
    assert r.out == "root file\ns\n"
    assert not (tmp_path / "s").exists()


def test_moving_a_file_from_tmp_into_the_root_copies_it(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    r = k.execute("echo data > /tmp/a && mv /tmp/a ./b && cat b && ls /tmp | wc -l")
    assert r.code == 0, r.err
    assert r.out == "data\n0\n" and (tmp_path / "b").read_text() == "data\n"


def test_close_empties_the_private_tmp(tmp_path: Path) -> None:
    with Kernel(str(tmp_path)) as k:
        k.execute("echo x > /tmp/kept")
        assert k.execute("cat /tmp/kept").out == "x\n"
    assert k.execute("ls /tmp").out == ""
    assert k.execute("cat /tmp/kept").code == 1


def test_the_host_still_is_outside(tmp_path: Path) -> None:
    r = Kernel(str(tmp_path)).execute("cat /etc/passwd; cd /; ls /tmp/..")
    assert r.code != 0 and "outside the sandbox" in r.err


def test_sandboxed_presets_have_a_default_time_limit(tmp_path: Path) -> None:
    assert DEFAULT_SANDBOX_TIMEOUT == 120
    assert Kernel(str(tmp_path)).limits.timeout == DEFAULT_SANDBOX_TIMEOUT
    assert Kernel.isolated().limits.timeout == DEFAULT_SANDBOX_TIMEOUT
    assert Kernel.overlay(str(tmp_path)).limits.timeout == DEFAULT_SANDBOX_TIMEOUT
    assert Kernel(str(tmp_path), limits=Limits()).limits.timeout is None
    assert Kernel.repl(str(tmp_path)).limits.timeout is None


def test_reset_puts_back_a_new_sessions_options_and_traps(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    k.execute("set -eux -o pipefail; trap 'echo bye' EXIT; x=kept")
    r = k.execute("false; echo $- $x; echo $undefined; trap; false | true", reset=True)
    assert r.code == 0
    assert r.out == "hB kept\n\n"
    assert "+" not in r.err
    # without reset, what a call sets persists as before
    k.execute("set -u")
    assert k.execute("echo $nothing").code == 127
