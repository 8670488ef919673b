"""id and tty: the neutral sandbox user, option conflicts, typed output, the host's
answers against GNU id, and no terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import reference

from tysh import Kernel

_C = {"LC_ALL": "C"}  # the locale these GNU runs have always used


def sandbox(**files: str) -> Kernel:
    return Kernel.isolated(files={k.replace("__", "/"): v for k, v in files.items()})


def needs_gnu(tool: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(reference.have(tool) is None, reason=f"GNU {tool} not installed")


def test_id_in_a_sandbox_is_the_neutral_user() -> None:
    k = sandbox()
    assert k.execute("id").out == "uid=1000(user) gid=1000(user) groups=1000(user)\n"
    assert k.execute("id -u; id -un; id -G; id -gn").out == "1000\nuser\n1000\nuser\n"
    res = k.execute("id bob")
    assert (res.code, res.err) == (1, "id: 'bob': no such user\n")


def test_id_rejects_conflicting_choices() -> None:
    k = sandbox()
    assert k.execute("id -n").err == (
        "id: cannot print only names or real IDs in default format\n")
    assert k.execute("id -u -g").err == 'id: cannot print "only" of more than one choice\n'


def test_id_json_is_a_record() -> None:
    data = json.loads(sandbox().execute("id --json").out)
    assert data == {"uid": 1000, "user": "user", "gid": 1000, "group": "user",
                    "groups": [{"id": 1000, "name": "user"}]}


@needs_gnu("id")
def test_id_on_the_host_matches_gnu(tmp_path: Path) -> None:
    from tysh.kernel.fs.local import LocalFileSystem

    k = Kernel()
    if type(k.fs) is not LocalFileSystem:
        pytest.skip("the default kernel is sandboxed here")
    for opts in ("-u", "-un", "-g", "-G", "-Gn"):
        want = reference.run_tool(["id", *opts.split()], tmp_path, env=_C)
        assert want is not None
        got = k.execute(f"id {opts}").out
        assert got == want.text


def test_tty_says_not_a_tty_without_a_terminal() -> None:
    k = sandbox()
    res = k.execute("tty; echo $?; tty -s; echo $?")
    assert res.out == "not a tty\n1\n1\n"
