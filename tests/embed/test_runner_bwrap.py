"""External programs: the allow-list, the bwrap runner's confinement and the runner hook."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from tysh import Kernel, Limits
from tysh.kernel.run import sandbox

BWRAP, WHY = sandbox.bwrap_status()
needs_bwrap = pytest.mark.skipif(BWRAP is None, reason=f"bwrap unusable here: {WHY}")
PY = "python3"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "root"
    r.mkdir()
    return r


def py(code: str) -> str:
    """A `python3 -c` command line for `code` (single-quoted; code uses double quotes)."""
    assert "'" not in code
    return f"{PY} -c '{code}'"


# ------------------------------------------------------------------ the allow-list

def test_a_program_not_on_the_list_is_refused_with_the_list(root: Path) -> None:
    k = Kernel(str(root), allow_external=["python3", "git"], runner="host")
    r = k.execute("rg x")
    assert r.code == 127
    assert r.err == ("tysh: 1:1: rg: command not found (external commands are disabled; "
                     "allowed: git, python3)\n")
    # reached only at run time (validation cannot tell), the same words
    r = k.execute("x=rg; $x y")
    assert r.code == 127
    assert r.err == ("tysh: rg: command not found (external commands are disabled; "
                     "allowed: git, python3)\n")


def test_lookups_show_only_the_programs_on_the_list(root: Path) -> None:
    k = Kernel(str(root), allow_external=["python3"], runner="host")
    r = k.execute("command -v sh; echo $?; command -v python3")
    assert r.out.splitlines()[0] == "1"
    assert r.out.splitlines()[1].endswith("/python3")


def test_a_listed_program_reached_through_env_or_xargs_still_obeys_the_list(root: Path) -> None:
    k = Kernel(str(root), allow_external=["python3"], runner="host")
    r = k.execute("env sh -c 'echo escaped'; echo sh | xargs -I{} {} -c 'echo escaped'")
    assert "escaped" not in r.out
    assert "allowed: python3" in r.err


def test_an_absolute_path_on_the_list_allows_that_program_only(root: Path) -> None:
    import shutil

    true = shutil.which("true")
    assert true is not None
    k = Kernel(str(root), allow_external=[true], runner="host")
    assert k.execute(f"{true}").code == 0
    assert k.execute("false").code == 1  # the builtin
    r = k.execute("/bin/sh -c 'exit 0'")
    assert r.code == 127 and f"allowed: {true}" in r.err


def test_an_empty_list_allows_no_program(root: Path) -> None:
    k = Kernel(str(root), allow_external=[], runner="host")
    r = k.execute(py("print(1)"))
    assert r.code == 127 and "external commands are disabled" in r.err


def test_a_bad_allow_list_or_runner_is_refused_when_the_kernel_is_made(root: Path) -> None:
    with pytest.raises(TypeError):
        Kernel(str(root), allow_external="python3")
    with pytest.raises(ValueError, match="absolute"):
        Kernel(str(root), allow_external=["bin/python3"])
    with pytest.raises(ValueError, match="runner"):
        Kernel(str(root), allow_external=True, runner="docker")


# ------------------------------------------------------------------ bwrap

@needs_bwrap
def test_python_runs_inside_the_sandbox_and_sees_only_root_and_system(root: Path,
                                                                      tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "in.txt").write_text("inside\n")
    k = Kernel(str(root), allow_external=["python3"])
    r = k.execute(py(f'import os; print(open("in.txt").read().strip(), '
                     f'os.path.exists("{outside}"), os.getcwd())'))
    assert r.code == 0, r.err
    assert r.out == f"inside False {root}\n"


@needs_bwrap
def test_a_sandboxed_program_cannot_read_etc_shadow(root: Path) -> None:
    assert os.path.exists("/etc/shadow")
    k = Kernel(str(root), allow_external=["python3"])
    r = k.execute(py('print(open("/etc/shadow").read())'))
    assert r.code == 1
    assert "No such file or directory" in r.err
    r = k.execute(py('import os; print(sorted(n for n in os.listdir("/etc") '
                     'if "shadow" in n or n == "sudoers"))'))
    assert r.out == "[]\n"


@needs_bwrap
def test_a_sandboxed_program_cannot_write_outside_the_root(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    k = Kernel(str(root), allow_external=["python3"])
    r = k.execute(py(f'open("{outside}/x", "w").write("x")'))
    assert r.code == 1 and not (outside / "x").exists()
    r = k.execute(py('open("/usr/tysh-probe", "w")'))
    assert r.code == 1 and "Read-only file system" in r.err
    assert not os.path.exists("/usr/tysh-probe")
    r = k.execute(py('open("made-inside", "w").write("ok")'))
    assert r.code == 0 and (root / "made-inside").read_text() == "ok"


@needs_bwrap
def test_a_sandboxed_program_cannot_write_kernel_settings(root: Path) -> None:
    # opening for writing is enough to tell (nothing is written): as the host's root, a
    # writable /proc/sys/kernel/core_pattern would run a command as root on the host
    k = Kernel(str(root), allow_external=["python3"])
    r = k.execute(py('import os\n'
                     'for p in ("/proc/sys/kernel/core_pattern", "/proc/sys/vm/drop_caches"):\n'
                     '    try:\n'
                     '        os.close(os.open(p, os.O_WRONLY)); print(p, "writable")\n'
                     '    except OSError as e:\n'
                     '        print(e.strerror)'))
    assert r.out == "Read-only file system\nRead-only file system\n", r.err


@needs_bwrap
def test_a_sandboxed_program_has_no_network_unless_asked(root: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    port = server.getsockname()[1]
    connect = py(f'import socket; s = socket.create_connection(("127.0.0.1", {port}), 5); '
                 f'print("connected")')
    try:
        k = Kernel(str(root), allow_external=["python3"])
        r = k.execute(connect)
        assert r.code == 1 and "connected" not in r.out
        assert "Connection refused" in r.err or "unreachable" in r.err
        k = Kernel(str(root), allow_external=["python3"], network=True)
        r = k.execute(connect)
        assert r.code == 0 and r.out == "connected\n", r.err
    finally:
        server.close()


@needs_bwrap
def test_git_init_and_commit_run_inside_the_sandbox(root: Path) -> None:
    k = Kernel(str(root), allow_external=["git"])
    r = k.execute("git init -q && echo hi > a.txt && git add a.txt && "
                  "git -c user.name=t -c user.email=t@t commit -q -m first && "
                  "git log --format=%s")
    assert r.code == 0, r.err
    assert r.out == "first\n"
    assert (root / ".git" / "HEAD").is_file()


@needs_bwrap
def test_a_sandboxed_program_sees_no_host_process(root: Path) -> None:
    k = Kernel(str(root), allow_external=["python3"])
    r = k.execute(py('import os, signal\n'
                     'pids = [p for p in os.listdir("/proc") if p.isdigit()]\n'
                     'print(len(pids) <= 3, str(os.getppid()) in pids)\n'
                     f'os.kill({os.getpid()}, 0)'))
    assert r.out == "True True\n"
    assert "ProcessLookupError" in r.err  # the embedding process is not there to signal


@needs_bwrap
def test_a_sandboxed_program_gets_the_sessions_environment_only(root: Path) -> None:
    os.environ["TYSH_HOST_SECRET"] = "leak"
    try:
        k = Kernel(str(root), allow_external=["python3"], env={"SEEN": "1"})
        k.execute("export LATER=2; UNEXPORTED=3")
        r = k.execute(py('import os; print(sorted(os.environ))'))
    finally:
        del os.environ["TYSH_HOST_SECRET"]
    assert "TYSH_HOST_SECRET" not in r.out
    assert "'SEEN'" in r.out and "'LATER'" in r.out and "UNEXPORTED" not in r.out


@needs_bwrap
def test_a_sandboxed_program_starts_with_the_limits_rlimits(root: Path) -> None:
    limits = Limits(external_file_size=1 << 20, external_memory=2 << 30)
    k = Kernel(str(root), allow_external=["python3"], limits=limits)
    r = k.execute(py('import resource as r; print(r.getrlimit(r.RLIMIT_FSIZE), '
                     'r.getrlimit(r.RLIMIT_AS))'))
    assert r.out == f"({1 << 20}, {1 << 20}) ({2 << 30}, {2 << 30})\n", r.err
    r = k.execute(py('open("big", "wb").write(bytes(2 << 20))'))
    assert r.code != 0 and (root / "big").stat().st_size <= 1 << 20


@needs_bwrap
def test_a_sandboxed_program_ends_at_the_time_limit(root: Path) -> None:
    k = Kernel(str(root), allow_external=["python3"])
    t0 = time.monotonic()
    r = k.execute(py("import time; time.sleep(60)"), timeout=1)
    assert r.code == 124
    assert time.monotonic() - t0 < 5


@needs_bwrap
def test_a_sandboxed_programs_tmp_is_private(root: Path, tmp_path: Path) -> None:
    (tmp_path / "host-only").write_text("x")
    k = Kernel(str(root), allow_external=["python3"])
    r = k.execute(py(f'import os; print(os.listdir("/tmp"), os.listdir("{tmp_path}"))'))
    # only the way down to the root shows (it is mounted at its own path)
    first = str(root).split("/")[2] if str(root).startswith("/tmp/") else None
    assert r.code == 0, r.err
    assert r.out == f"{[first] if first else []} ['root']\n"


def _sandboxes_running(marker: bytes) -> list[str]:
    """The live processes whose command line holds `marker` (bwrap's and the program's)."""
    found = []
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) == os.getpid():
            continue
        try:
            cmd = Path(f"/proc/{p}/cmdline").read_bytes()
            state = Path(f"/proc/{p}/stat").read_text().split()[2]
        except OSError:
            continue
        if marker in cmd and state != "Z":
            found.append(p)
    return found


@needs_bwrap
@pytest.mark.parametrize("policy", ["reap", "keep"])
def test_background_sandboxed_programs_are_stopped_with_their_sandbox(root: Path,
                                                                      policy: str) -> None:
    marker = f"tysh-bg-{policy}-{os.getpid()}".encode()
    k = Kernel(str(root), allow_external=["python3"], jobs=policy)
    for _ in range(3):  # a job reaped while bwrap is still starting is the racy case
        t0 = time.monotonic()
        r = k.execute(f'python3 -c "import time; time.sleep(60)" {marker.decode()} & '
                      f'python3 -c "while 1: pass" {marker.decode()} & echo started')
        assert r.out == "started\n"
        if policy == "keep":
            time.sleep(0.3)
            assert _sandboxes_running(marker)
            k.close()
        deadline = time.monotonic() + 1.0
        while _sandboxes_running(marker) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _sandboxes_running(marker) == []
        assert time.monotonic() - t0 < 3


# ------------------------------------------------------------------ without bwrap

def test_without_bwrap_a_sandboxed_kernel_refuses_programs_with_the_reason(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "_BWRAP", (None, "bwrap is not installed (test)"))
    k = Kernel(str(root), allow_external=["python3"])
    r = k.execute(py("print(1)"))
    assert r.code == 126
    assert "bwrap is not installed (test)" in r.err and "runner='host'" in r.err
    k = Kernel(str(root), allow_external=["python3"], runner="host")
    assert k.execute(py("print(1)")).out == "1\n"


def test_isolated_and_overlay_refuse_programs_with_the_reason(root: Path) -> None:
    r = Kernel.isolated(allow_external=True).execute(py("print(1)"))
    assert r.code == 126 and "in-memory filesystem" in r.err
    r = Kernel.overlay(str(root), allow_external=True).execute(py("open(\"x\", \"w\")"))
    assert r.code == 126 and "overlay" in r.err
    assert not (root / "x").exists()


# ------------------------------------------------------------------ the hook

def test_the_runner_hook_receives_the_call(root: Path) -> None:
    calls: list[tuple[Any, ...]] = []

    def runner(argv: list[str], cwd: str, env: dict[str, str], stdin: Any, stdout: Any,
               stderr: Any, limits: Limits) -> int:
        calls.append((argv, cwd, env, stdin.read(), limits))
        stdout.write(b"ran elsewhere\n")
        stderr.write(b"warn\n")
        return 3

    limits = Limits(timeout=9)
    k = Kernel(str(root), allow_external=["git"], runner=runner, env={"A": "1"},
               limits=limits)
    (root / "sub").mkdir()
    r = k.execute("cd sub && echo data | git status --short; echo $?")
    assert r.out == "ran elsewhere\n3\n" and r.err == "warn\n"
    [(argv, cwd, env, data, got)] = calls
    assert argv == ["git", "status", "--short"]
    assert cwd == str(root / "sub")
    assert env["A"] == "1" and env["PWD"] == str(root / "sub")
    assert data == b"data\n" and got is limits
    r = k.execute("rg x")
    assert r.code == 127 and "allowed: git" in r.err and len(calls) == 1


def test_the_runner_hook_runs_programs_for_an_isolated_kernel() -> None:
    seen: list[list[str]] = []

    def runner(argv: list[str], *rest: Any) -> int:
        seen.append(argv)
        return 0

    k = Kernel.isolated(allow_external=["make"], runner=runner)
    assert k.execute("make -j2 all").code == 0
    assert seen == [["make", "-j2", "all"]]


def test_a_failing_runner_hook_is_a_status_not_a_traceback(root: Path) -> None:
    def runner(*args: Any) -> int:
        raise RuntimeError("worker unreachable")

    k = Kernel(str(root), allow_external=["git"], runner=runner)
    r = k.execute("git status")
    assert r.code == 126
    assert r.err == "tysh: git: the runner failed: RuntimeError: worker unreachable\n"


# ------------------------------------------------------------------ one /tmp

@needs_bwrap
def test_a_program_and_the_kernel_share_one_tmp(root: Path) -> None:
    k = Kernel(str(root), allow_external=["python3"])
    r = k.execute('t=$(mktemp); python3 -c "open(\'$t\',\'w\').write(\'x\')"; cat $t')
    assert (r.code, r.out) == (0, "x"), r.err
    r = k.execute("echo from-kernel > /tmp/k.txt; " + py('print(open("/tmp/k.txt").read())'))
    assert r.out == "from-kernel\n\n", r.err
    r = k.execute("mkdir -p /tmp/w && cd /tmp/w && " + py(
        'import os; open("p.txt", "w").write("y"); print(os.getcwd())') + "; cat p.txt")
    assert r.out == "/tmp/w\ny", r.err
    assert not os.path.exists("/tmp/k.txt") and not os.path.exists("/tmp/w/p.txt")


@needs_bwrap
def test_the_shared_tmp_is_a_private_directory_removed_on_close(root: Path) -> None:
    import gc

    k = Kernel(str(root), allow_external=["python3"])
    assert k.execute(py('open("/tmp/f", "w").write("z")')).code == 0
    host = k.fs.host_dir()  # type: ignore[attr-defined]
    assert host is not None and os.path.isfile(os.path.join(host, "f"))
    if os.path.isdir("/dev/shm"):
        assert host.startswith("/dev/shm/")
    box = os.path.dirname(host)
    assert os.stat(box).st_mode & 0o777 == 0o700
    k.close()
    assert not os.path.exists(box)
    # used again after close(): a fresh, empty one; gone when the kernel is dropped
    assert k.execute(py('import os; print(os.listdir("/tmp"))')).code == 0
    box = os.path.dirname(k.fs.host_dir())  # type: ignore[attr-defined]
    assert os.path.isdir(box)
    del k
    gc.collect()
    assert not os.path.exists(box)


@needs_bwrap
def test_a_program_in_the_shared_tmp_runs_there(root: Path) -> None:
    k = Kernel(str(root), allow_external=True)
    r = k.execute("printf '#!/usr/bin/python3\\nimport os\\nprint(os.getcwd())\\n' > /tmp/tool.py;"
                  " chmod +x /tmp/tool.py; cd /tmp && /tmp/tool.py")
    assert (r.code, r.out) == (0, "/tmp\n"), r.err


def test_without_programs_the_tmp_stays_in_memory(root: Path) -> None:
    for k in (Kernel(str(root)), Kernel(str(root), allow_external=[]),
              Kernel(str(root), allow_external=["python3"], runner="host")):
        assert k.execute("echo x > /tmp/a && cat /tmp/a").out == "x\n"
        assert k.fs.host_dir() is None  # type: ignore[attr-defined]


@needs_bwrap
def test_the_shared_tmp_serves_the_kernels_own_tools(root: Path) -> None:
    k = Kernel(str(root), allow_external=["python3"])
    r = k.execute('t=$(mktemp) && echo hi > "$t" && cat "$t" && cd /tmp && pwd && '
                  "printf 'b\\na\\n' | sort -T /tmp && ls /tmp | wc -l && "
                  f"echo data > /tmp/a && mv /tmp/a {root}/b && cat {root}/b && "
                  "ln -s /tmp/c /tmp/l && echo via-link > /tmp/l && cat /tmp/c && "
                  "find /tmp -name c")
    assert r.code == 0, r.err
    assert r.out == "hi\n/tmp\na\nb\n1\ndata\nvia-link\n/tmp/c\n"
    assert k.execute("cat /tmp/../etc/passwd").code == 1


@needs_bwrap
def test_links_a_program_plants_in_the_shared_tmp_lead_nowhere_outside(root: Path) -> None:
    k = Kernel(str(root), allow_external=["python3"])
    r = k.execute(py('import os; os.symlink("/etc/passwd", "/tmp/evil"); '
                     'os.symlink("/", "/tmp/top"); os.symlink("../../../..", "/tmp/up")')
                  + "; cat /tmp/evil; cat /tmp/top/etc/passwd; ls /tmp/up/; echo done")
    assert r.out == "done\n"
    assert r.err.count("outside the sandbox") == 3, r.err
