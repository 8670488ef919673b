"""LazyModule: a module global that imports its module on first use."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tysh.kernel.base.lazymod import LazyModule


def test_the_first_attribute_read_imports_the_module_and_replaces_the_stand_in() -> None:
    ns: dict[str, Any] = {}
    ns["mod"] = LazyModule(ns, "mod", "tysh.kernel.base.paths")
    assert "not yet imported" in repr(ns["mod"])
    from tysh.kernel.base import paths

    assert ns["mod"].abspath is paths.abspath
    assert ns["mod"] is paths  # later reads are plain module attribute reads


def test_arithmetic_patterns_and_typed_conversion_load_when_first_used() -> None:
    code = (
        "import sys\n"
        "from tysh import Kernel\n"
        "k = Kernel.isolated()\n"
        "lazy = ('tysh.kernel.expand.arith', 'tysh.kernel.expand.pattern',\n"
        "        'tysh.kernel.bind.convert')\n"
        "assert k.execute('echo hi').out == 'hi\\n'\n"
        "assert not any(m in sys.modules for m in lazy)\n"
        "r = k.execute('echo $((6*7)); case ab in a*) echo y;; esac; printf x | head -c 1')\n"
        "assert r.out == '42\\ny\\nx', r\n"
        "assert all(m in sys.modules for m in lazy)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr


# Stages whose tools (and the standard-library modules those import) load on their
# threads at the same moment, in a fresh process with no per-user cache. Loading two
# overlapping module graphs on two threads at once used to hand one of them a partly
# initialised module ("partially initialized module 'collections.abc' has no attribute
# 'Sequence'").
# (script, runs: the first failed in about one run in eight)
_RACES = (
    ('printf "a\\nb\\nc\\nd\\n" | { mapfile -t -s 1 -n 2 x; echo "${x[@]}"; }', 30),
    ('seq 5 | { read a; sort -r; } | { uniq; wc -l; }', 6),
    ('printf "b\\na\\n" | { sort; } | { cut -c1; } | { tr a-z A-Z; }', 6),
)


def test_stages_loading_their_tools_at_once_never_see_a_half_loaded_module(
        tmp_path: Path) -> None:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "LC_ALL": "C.UTF-8"}
    for script, runs in _RACES:
        outs = set()
        for _ in range(runs):
            p = subprocess.run([sys.executable, "-m", "tysh", "-c", script], env=env,
                               cwd=tmp_path, capture_output=True, text=True, timeout=60)
            assert "internal error" not in p.stderr and p.returncode == 0, p.stderr
            outs.add(p.stdout)
        assert len(outs) == 1, outs
