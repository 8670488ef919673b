"""What `tysh -c 'echo hi'` and `Kernel()` load is pinned: start-up time is a feature,
and the easiest way to lose it is one module-level import of something `echo hi` never
uses. Each workload runs in a fresh interpreter; the modules it adds to `sys.modules`
are compared with the checked-in list in startup_modules/. tysh's own modules and
third-party packages are compared exactly; standard-library modules (which differ
between Python versions) only on the Python version the list was recorded with.

After an intended change, rewrite the lists with
    TYSH_PIN_MODULES=1 .venv/bin/python -m pytest -q tests/embed/test_startup_modules.py
and review the diff: each added module is start-up time every `tysh -c` pays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PINS = Path(__file__).parent / "startup_modules"

# (json is imported after the workload: it loads re, enum and functools itself, which
# would hide a workload that loads them)
_PROBE = """
import sys
before = set(sys.modules)
{body}
added = sorted(set(sys.modules) - before)
import json
print(json.dumps(added))
"""

WORKLOADS = {
    # as bin/tysh starts: tysh's import cache, then the command line
    "cli_echo": "sys.argv = ['tysh', '-c', ':']\nimport tysh\n"
                "from tysh.kernel.base.importcache import install\n"
                "install('tysh', tysh.__path__[0])\nimport tysh.cli\n"
                "sys.stdout.flush()\ntysh.cli.main(['-c', 'echo hi'])",
    "kernel": "from tysh import Kernel\nKernel()",
    "kernel_echo": "from tysh import Kernel\nKernel().execute('echo hi')",
}


def _loaded(name: str, cwd: Path) -> list[str]:
    """The modules the workload adds, in its second run: the first fills the per-user
    cache (compiled regular expressions, generated code) as a user's first run does."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["TYSH_CACHE_DIR"] = str(cwd / "cache")
    for _ in range(2):
        p = subprocess.run([sys.executable, "-c", _PROBE.format(body=WORKLOADS[name])],
                           capture_output=True, text=True, cwd=cwd, env=env, timeout=120)
        assert p.returncode == 0, p.stderr
    mods: list[str] = json.loads(p.stdout.strip().splitlines()[-1])
    return mods


def _is_stdlib(mod: str) -> bool:
    return mod.split(".")[0] in sys.stdlib_module_names


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_start_up_loads_only_the_pinned_modules(name: str, tmp_path: Path) -> None:
    got = _loaded(name, tmp_path)
    pin = PINS / f"{name}.txt"
    version = f"python {sys.version_info.major}.{sys.version_info.minor}"
    if os.environ.get("TYSH_PIN_MODULES") == "1":
        pin.write_text("\n".join([f"# {version}", *got]) + "\n", encoding="utf-8")
        return
    lines = pin.read_text(encoding="utf-8").splitlines()
    recorded_on, want = lines[0].lstrip("# "), lines[1:]
    same_python = recorded_on == version
    keep = (lambda m: True) if same_python else (lambda m: not _is_stdlib(m))
    added = sorted(m for m in set(got) - set(want) if keep(m))
    removed = sorted(m for m in set(want) - set(got) if keep(m))
    assert not added and not removed, (
        f"{name}: modules loaded at start-up changed (pinned in {pin}).\n"
        f"  newly loaded: {added}\n  no longer loaded: {removed}\n"
        "Keep imports that this workload does not use lazy; if the change is intended, "
        "rewrite the list with TYSH_PIN_MODULES=1 .venv/bin/python -m pytest -q "
        "tests/embed/test_startup_modules.py and review its diff.")


# what no workload may load, whatever the Python version: each is milliseconds of every
# start (attrs generates code per class; typing and threading are large modules; ctypes
# is the sandbox's openat2, loaded at the first path below the root; re, with the enum,
# functools and collections it loads, is a sixth of a cold `echo hi`: the lexer's
# patterns come from the regex cache)
NEVER_AT_START = ("attr", "attrs", "typing", "threading", "ctypes", "inspect", "ast",
                  "re", "enum", "functools", "collections", "types")


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_start_up_loads_none_of_the_costly_modules(name: str, tmp_path: Path) -> None:
    got = set(_loaded(name, tmp_path))
    assert not got.intersection(NEVER_AT_START), sorted(got.intersection(NEVER_AT_START))


@pytest.mark.parametrize("enabled", [True, False])
def test_importing_a_public_name_leaves_the_collector_as_it_was(enabled: bool) -> None:
    # `from tysh import Kernel` pauses the cyclic collector while the kernel loads; it
    # must hand it back running if it ran, and stopped if the embedder had stopped it
    code = ("import gc\n"
            f"{'gc.enable()' if enabled else 'gc.disable()'}\n"
            "from tysh import Kernel, ExecResult\n"
            "print(gc.isenabled())")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == str(enabled)


def _python(code: str, cwd: Path) -> str:
    """What `python -c code` prints, run in a fresh interpreter."""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=cwd, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout.strip()


def test_no_builtin_module_loads_attrs(tmp_path: Path) -> None:
    # every builtin declares its args as a tysh record: a run that uses only tysh's own
    # tools never pays for attrs (an embedder's attrs args class still works)
    code = ("import pkgutil, importlib, sys\n"
            "import tysh.builtins as b\n"
            "for m in pkgutil.walk_packages(b.__path__, 'tysh.builtins.'):\n"
            "    importlib.import_module(m.name)\n"
            "from tysh import Kernel\n"
            "Kernel().execute('printf \"b\\\\na\\\\n\" | sort | wc -l; seq 3 | grep 2')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('attr', 'attrs')))")
    assert _python(code, tmp_path) == "[]"


def test_typed_tools_reflect_their_args_without_typing(tmp_path: Path) -> None:
    # a typed tool's first use reflects its args class; typing (a tenth of a cold start)
    # stays unloaded for that
    code = ("import sys\n"
            "from tysh import Kernel\n"
            "k = Kernel()\n"
            "r = k.execute('printf \"a\\\\n\" > f; grep -c a f; wc -l f; head -n 1 f; "
            "sort -r f; cut -c1 f; tail -n1 f; cat -n f; uniq f')\n"
            "assert r.code == 0, r\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typing', 'attrs')))")
    assert _python(code, tmp_path) == "[]"
