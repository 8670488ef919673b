"""readlink: targets, -f/-e/-m canonical names and -v, and the same argv against GNU
readlink (symlinks and error messages, so not .cases pins)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import reference

from tysh import Kernel

_C = {"LC_ALL": "C"}  # the locale these GNU runs have always used


def sandbox(**files: str) -> Kernel:
    return Kernel.isolated(files={k.replace("__", "/"): v for k, v in files.items()})


def needs_gnu(tool: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(reference.have(tool) is None, reason=f"GNU {tool} not installed")


def test_readlink_prints_a_links_target_and_fails_silently_on_a_file(tmp_path: Path) -> None:
    (tmp_path / "t").write_text("")
    (tmp_path / "l").symlink_to("t")
    res = Kernel(cwd=str(tmp_path)).execute("readlink l; readlink t; echo $?")
    assert (res.out, res.err) == ("t\n1\n", "")


def test_readlink_verbose_reports_a_non_link(tmp_path: Path) -> None:
    (tmp_path / "t").write_text("")
    res = Kernel(cwd=str(tmp_path)).execute("readlink -v t")
    assert (res.code, res.err) == (1, "readlink: t: Invalid argument\n")


def test_readlink_f_needs_all_but_the_last_component() -> None:
    k = sandbox(**{"d__f": "x"})
    res = k.execute("cd d; readlink -f f; readlink -f nope; readlink -f a/b; echo $?; "
                    "readlink -e nope; echo $?; readlink -m a/../b")
    d = k.execute("pwd").out.strip()
    assert res.out == f"{d}/f\n{d}/nope\n1\n1\n{d}/b\n"


@needs_gnu("readlink")
def test_readlink_matches_gnu_on_links_and_canonical_names(tmp_path: Path) -> None:
    (tmp_path / "t").write_text("")
    (tmp_path / "l").symlink_to("t")
    (tmp_path / "l2").symlink_to("l")
    for args in (["l", "l2"], ["-f", "l2"], ["-v", "t"], ["-fv", "no/x"], ["-n", "l", "l2"],
                 ["-e", "l2", "nope"]):
        # through bash: run_tool's argv[0] is the tool's full path, which GNU names itself by
        want = reference.run_bash(shlex.join(["readlink", *args]), tmp_path, env=_C)
        assert want is not None
        res = Kernel(cwd=str(tmp_path)).execute("readlink " + " ".join(args))
        assert (res.code, res.out, res.err) == (want.code, want.text, want.err_text)
    canonical = reference.run_tool(["readlink", "-f", "l2"], tmp_path, env=_C)
    assert canonical is not None
    assert canonical.text == str((tmp_path / "t").resolve()) + "\n"
