"""LazyModule: a module global that imports its module on first use."""

from __future__ import annotations

import subprocess
import sys
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
