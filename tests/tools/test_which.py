"""which: builtins, functions and aliases by name, PATH programs only with externals on."""

from __future__ import annotations

import json
from pathlib import Path

from tysh.kernel.embed.kernel import Kernel


def test_which_prints_a_builtin_by_name_and_fails_silently_on_a_missing_one(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("which cat cd nosuch-cmd-xyz")
    assert (r.code, r.text_out()) == (1, "cat\ncd\n")
    assert r.err == ""


def test_which_prints_functions_by_name_and_aliases_like_command_v(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("f() { :; }; alias ll='ls -l'; which f ll")
    assert r.text_out() == "f\nalias ll='ls -l'\n"


def test_which_finds_programs_on_path_only_when_externals_are_on(tmp_path: Path) -> None:
    prog = tmp_path / "bin" / "myprog"
    prog.parent.mkdir()
    prog.write_text("#!/bin/sh\n")
    prog.chmod(0o755)
    script = f"PATH={tmp_path}/bin; which myprog"
    assert Kernel(cwd=str(tmp_path)).execute(script).code == 1
    on = Kernel(cwd=str(tmp_path), allow_external=True).execute(script)
    assert (on.code, on.text_out()) == (0, f"{prog}\n")


def test_which_all_lists_the_builtin_then_every_path_match(tmp_path: Path) -> None:
    for d in ("b1", "b2"):
        p = tmp_path / d / "cat"
        p.parent.mkdir()
        p.write_text("")
        p.chmod(0o755)
    k = Kernel(cwd=str(tmp_path), allow_external=True)
    r = k.execute(f"PATH={tmp_path}/b1:{tmp_path}/b2; which -a cat")
    assert r.text_out() == f"cat\n{tmp_path}/b1/cat\n{tmp_path}/b2/cat\n"


def test_which_json_gives_name_kind_path_with_null_for_missing(tmp_path: Path) -> None:

    r = Kernel(cwd=str(tmp_path)).execute("which --json cat nosuch-xyz")
    assert r.code == 1
    assert json.loads(r.text_out()) == [{"name": "cat", "kind": "builtin", "path": None},
                                        {"name": "nosuch-xyz", "kind": None, "path": None}]
