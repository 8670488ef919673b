"""join: pairing, unpairable lines, separators, fields, headers and order checks; and
the same options against GNU join, stderr included."""

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


J1 = "h x\nb 1\na 2\nc 3\n"
J2 = "h y\na 9\nb 8\nc 7\n"


def test_join_pairs_lines_and_warns_about_disorder_at_the_end() -> None:
    res = sandbox(j1=J1, j2=J2).execute("join j1 j2")
    assert res.out == "h x y\nb 1 8\nc 3 7\n"
    assert res.err == "join: j1:3: is not sorted: a 2\njoin: input is not in sorted order\n"
    assert res.code == 1


def test_join_check_order_stops_at_the_first_disorder() -> None:
    res = sandbox(j1=J1, j2=J2).execute("join --check-order j1 j2")
    assert (res.code, res.out, res.err) == (1, "", "join: j1:2: is not sorted: b 1\n")


def test_join_unpairable_and_only_unpairable_lines() -> None:
    k = sandbox(a="a 1\nb 2\nd 4\n", b="a x\nc y\nd z\n")
    assert k.execute("join -a1 a b").out == "a 1 x\nb 2\nd 4 z\n"
    assert k.execute("join -v2 a b").out == "c y\n"
    assert k.execute("join -a1 -a2 -o 0,1.2,2.2 -e - a b").out == (
        "a 1 x\nb 2 -\nc - y\nd 4 z\n")


def test_join_separator_auto_format_and_empty_filler() -> None:
    k = sandbox(m1="a,,1\nb,2\n", m2="a,X\nb,Y,Z\n")
    assert k.execute("join -t, -e E -o auto m1 m2").out == "a,E,1,X\nb,2,E,Y\n"


def test_join_fields_ignore_case_and_header() -> None:
    k = sandbox(a="K V\n1 A\n2 b\n", b="V W\na x\nB y\n")
    assert k.execute("join --header -i -1 2 -2 1 a b").out == "V K W\nA 1 x\nb 2 y\n"


def test_join_json_gives_fields_per_line() -> None:
    res = sandbox(a="a 1\n", b="a 2\n").execute("join --json a b")
    assert json.loads(res.out) == [["a", "1", "2"]]


@needs_gnu("join")
@pytest.mark.parametrize("opts", [
    "", "-a1", "-a2", "-v1", "-a1 -a2 -e X -o 0,1.2,2.2", "-o auto -e -", "--header",
    "-j 1 -t ' '", "-i", "--nocheck-order -a1", "--check-order",
])
def test_join_matches_gnu(tmp_path: Path, opts: str) -> None:
    (tmp_path / "a").write_text("h n\nA 1\nb 2\nc 3 x\nc 4\ne 5\nd 6\n")
    (tmp_path / "b").write_text("h m\na x\nc y\nc z\nf w\n")
    want = reference.run_bash(f"join {opts} a b", tmp_path, env=_C)
    assert want is not None
    res = Kernel(cwd=str(tmp_path)).execute(f"join {opts} a b")
    assert (res.code, res.out, res.err) == (want.code, want.text, want.err_text)
