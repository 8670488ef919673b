"""What a name means (kernel/run/lookup.py): tysh's tools named as bash would name the
program on PATH, and what actually runs (tests/conformance/pins/lang/command-lookup.cases
pins the bash side)."""

from __future__ import annotations

import json
from pathlib import Path

from tysh import Kernel


def test_a_sandbox_without_programs_reports_its_tools_as_builtins(kernel: Kernel) -> None:
    r = kernel.execute("type ls date; type -t cat; command -v grep")
    assert r.out == "ls is a shell builtin\ndate is a shell builtin\nbuiltin\ngrep\n"


def test_the_tool_still_runs_where_a_program_is_reported(tmp_path: Path) -> None:
    k = Kernel.repl(cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"})
    r = k.execute("type -t seq; seq --json 2")
    assert r.out == "file\n[1,2]\n"  # --json: tysh's seq ran, not /usr/bin/seq


def test_type_json_says_which_runs(tmp_path: Path) -> None:
    k = Kernel.repl(cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"})
    rows = json.loads(k.execute("type --json seq dd cd").out)
    assert rows[0]["kind"] == "file" and rows[0]["runs"] == "builtin"
    assert rows[1]["kind"] == "file" and "runs" not in rows[1]
    assert rows[2] == {"name": "cd", "kind": "builtin", "detail": None}


def test_enable_n_in_a_sandbox_leaves_no_command(kernel: Kernel) -> None:
    r = kernel.execute("enable -n ls; ls; echo $?; enable ls; ls >/dev/null; echo $?")
    assert r.out == "127\n0\n"
    assert "external commands are disabled" in r.err


def test_enable_n_holds_in_a_subshell_only(kernel: Kernel) -> None:
    r = kernel.execute("(enable -n cat; type -t cat; echo x | cat); echo y | cat")
    assert r.out == "y\n"
    assert "cat" in r.err


def test_builtin_refuses_tysh_tools_as_bash_does(kernel: Kernel) -> None:
    r = kernel.execute("builtin ls; echo $?; builtin printf '%s\\n' ok")
    assert r.out == "1\nok\n"
    assert "builtin: ls: not a shell builtin" in r.err


def test_enable_cannot_turn_on_what_the_embedder_disabled(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("secret\n")
    k = Kernel(cwd=str(tmp_path), disable=["cat"], validate=False)
    r = k.execute("enable cat; echo $?; (enable cat; cat f); cat f; command cat f; "
                  "env cat f; echo f | xargs cat; builtin cat f; type -t cat")
    assert "secret" not in r.out
    assert r.out.startswith("1\n")
    assert r.err.count("cat: disabled by the embedder: cannot be turned back on") == 2
    assert k.execute("enable -a | grep -w cat").out == "enable -n cat\n"
    # the script may still turn its other builtins off and on
    assert k.execute("enable -n head; enable head; echo x | head -1").out == "x\n"
