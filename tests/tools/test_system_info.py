"""What the system says: yes printenv nproc uname whoami hostname — through the binder,
a kernel, and (the host's own answers) against the host's GNU tools."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
import reference
from harness import FakeShell, invoke, kernel_run
from harness_text import run as text_run

from tysh.builtins import get_builtin
from tysh.kernel.base.argv import classify
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.local import LocalFileSystem

_ENV = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
_ENV.update(LC_ALL="C.UTF-8", TZ="UTC")


def _need(tool: str) -> None:
    if reference.have(tool) is None:
        pytest.skip(f"{tool} is not installed")


class _Stop(Exception):
    pass


class _Limited(io.BytesIO):
    """A reader that goes away after a few writes, as `head` would."""

    def write(self, b: bytes) -> int:  # type: ignore[override]
        if self.tell() > 20000:
            raise BrokenPipeError
        return super().write(b)


def test_yes_repeats_its_words_until_the_reader_closes(tmp_path: Path) -> None:
    import pytest

    from tysh.kernel.bind.fast import bind_and_convert
    from tysh.kernel.fs.local import LocalFileSystem
    from tysh.kernel.tools.context import Context

    tool = get_builtin("yes")
    assert tool is not None
    _, leaf, inst = bind_and_convert(tool, classify(["a", "b"]))
    out = _Limited()
    ctx = Context("yes", io.BytesIO(), out, io.BytesIO(), LocalFileSystem(),
                  FakeShell(str(tmp_path)))
    with pytest.raises(BrokenPipeError):
        leaf.func(inst, ctx)  # type: ignore[misc]
    assert out.getvalue().split(b"\n")[:3] == [b"a b"] * 3


def test_yes_in_a_pipeline_stops_with_head(tmp_path: Path) -> None:
    r = Kernel(cwd=str(tmp_path)).execute("yes | head -n 3")
    assert (r.code, r.text_out()) == (0, "y\ny\ny\n")


def test_printenv_names_values_and_missing_status(tmp_path: Path) -> None:
    sh = FakeShell(str(tmp_path), env={"A": "1", "B": "two"})
    tool = get_builtin("printenv")
    r = invoke(tool, "printenv", classify(["A", "NOPE", "B"]), sh)
    assert (r.code, r.out) == (1, b"1\ntwo\n")
    r = invoke(tool, "printenv", classify([]), sh)
    assert r.out == b"A=1\nB=two\n"


def test_printenv_sees_the_sessions_exports(tmp_path: Path) -> None:
    r = Kernel(cwd=str(tmp_path)).execute("export ZED=q; printenv ZED; printenv UNEXPORTED_X")
    assert (r.code, r.text_out()) == (1, "q\n")


def test_nproc_is_at_least_one_and_ignore_never_goes_below_one(tmp_path: Path) -> None:
    n = int(text_run(["nproc"], tmp_path).text)
    assert n >= 1
    assert text_run(["nproc", "--ignore=1000"], tmp_path).text == "1\n"
    assert int(text_run(["nproc", "--all"], tmp_path).text) == os.cpu_count()


def test_uname_default_all_and_selected_fields(tmp_path: Path) -> None:
    u = os.uname()
    assert text_run(["uname"], tmp_path).text == f"{u.sysname}\n"
    assert text_run(["uname", "-s", "-m"], tmp_path).text == f"{u.sysname} {u.machine}\n"
    assert text_run(["uname", "-a"], tmp_path).text.startswith(f"{u.sysname} {u.nodename} {u.release} ")
    assert text_run(["uname", "-p"], tmp_path).text == "unknown\n"


def test_whoami_and_hostname_print_and_hostname_refuses_to_set(tmp_path: Path) -> None:
    import pwd
    import socket

    assert text_run(["whoami"], tmp_path).text == pwd.getpwuid(os.geteuid()).pw_name + "\n"
    assert text_run(["hostname"], tmp_path).text == socket.gethostname() + "\n"
    r = text_run(["hostname", "newname"], tmp_path)
    assert r.code == 1 and "not supported" in r.err


def test_sandboxed_kernels_keep_the_host_user_and_machine_names_out() -> None:
    from tysh import Kernel

    k = Kernel.isolated()
    assert k.execute("whoami; hostname; uname -n").out == "user\nlocalhost\nlocalhost\n"
    named = Kernel.isolated(env={"USER": "ann", "HOSTNAME": "box.example"})
    assert named.execute("whoami; hostname -s; uname -n").out == "ann\nbox\nbox.example\n"


_HOST_CASES = [
    ["uname"], ["uname", "-a"], ["uname", "-s", "-r"], ["uname", "-snrvmo"], ["uname", "-p"],
    ["uname", "-i", "-m"], ["nproc"], ["nproc", "--all"], ["nproc", "--ignore=1"],
    ["whoami"], ["hostname"], ["printenv", "HOME"], ["printenv", "HOME", "NOPE_X"],
    ["printenv", "-0", "PATH", "HOME"],
]


@pytest.mark.parametrize("argv", _HOST_CASES, ids=" ".join)
def test_matches_the_host_tool(tmp_path: Path, argv: list[str]) -> None:
    _need(argv[0])
    # the host's filesystem, unconfined: only there do whoami/hostname report the host
    # (a sandboxed kernel gives neutral names; the test above pins that)
    k = Kernel(cwd=str(tmp_path), env={"HOME": _ENV.get("HOME", "/"), "PATH": _ENV["PATH"]},
               fs=LocalFileSystem())
    stdin = b"apple\nbanana\ncherry\nfig\n"
    want = reference.run_tool(argv, tmp_path, stdin, env=_ENV)
    assert want is not None
    assert kernel_run(k, argv, stdin) == (want.code, want.out)
