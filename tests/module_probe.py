"""What a script loads: the modules a fresh interpreter adds to `sys.modules` while it
imports tysh and runs the script once in a `Kernel`. The script runs twice, each time
in a new interpreter, over one private per-user cache: the first run fills the cache
(compiled regular expressions, generated binders) as a user's first run does, and the
second is the one reported, as every later start would load it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

# json, which reports the modules, imports re: it is imported after they are taken
_PROBE = """
import sys
before = set(sys.modules)
from tysh import Kernel
r = Kernel().execute({script!r})
assert r.code == 0, r
added = sorted(set(sys.modules) - before)
import json
print(json.dumps(added))
"""


def modules_loaded(script: str, cwd: Path) -> set[str]:
    """The modules `Kernel().execute(script)` loads, run in `cwd` on a warm cache."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["TYSH_CACHE_DIR"] = str(cwd / ".tysh-cache")
    out = ""
    for _ in range(2):
        p = subprocess.run([sys.executable, "-c", _PROBE.format(script=script)],
                           capture_output=True, text=True, cwd=cwd, env=env, timeout=120)
        assert p.returncode == 0, p.stderr
        out = p.stdout
    return set(json.loads(out.strip().splitlines()[-1]))
