"""envsubst: exported variables only, SHELL-FORMAT and -v (the GNU pin is
tests/conformance/pins/tools/envsubst.cases)."""

from __future__ import annotations

import json

from tysh import Kernel


def sandbox(**files: str) -> Kernel:
    return Kernel.isolated(files={k.replace("__", "/"): v for k, v in files.items()})


def test_envsubst_replaces_exported_variables_only() -> None:
    res = sandbox().execute("export A=1; B=2; envsubst",
                            stdin="$A ${A} $B ${A:-x} $ $1\n")
    assert res.out == "1 1  ${A:-x} $ $1\n"


def test_envsubst_shell_format_restricts_and_v_lists() -> None:
    k = sandbox()
    assert k.execute("export A=1 B=2; envsubst '$B'", stdin="$A $B\n").out == "$A 2\n"
    assert k.execute("envsubst -v '$A ${B} $A'").out == "A\nB\nA\n"
    assert k.execute("envsubst -v").err == "envsubst: missing arguments\n"
    assert json.loads(k.execute("envsubst -v --json '$A $B'").out) == ["A", "B"]
