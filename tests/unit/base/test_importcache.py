"""The import cache of the `tysh` command (tysh/kernel/base/importcache.py) serves a
module only for the very source it was made from: an edited, removed or unreadable
source, and a damaged cache file, fall back to the ordinary import system, and the next
refresh brings the file up to date. What it serves behaves as the source would: its
results, `__file__`, a package's `__path__`, tracebacks and `inspect.getsource`.

Each run is a fresh interpreter, since the cache is installed on `sys.meta_path` and the
modules it served stay in `sys.modules`."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

# a child that installs the cache of package `pkgx`, imports its modules, reports what it
# found and how each module was loaded, then refreshes the file
_CHILD = r"""
import inspect, json, sys, traceback
sys.path.insert(0, sys.argv[1])
from tysh.kernel.base.importcache import ImportCache
cache = ImportCache("pkgx", sys.argv[1] + "/pkgx", sys.argv[2])
sys.meta_path.insert(0, cache)
out = {}
if sys.argv[3:] == ["c"]:
    import pkgx.c
    sys.argv[3:] = ["none"]
try:
    if sys.argv[3:] == ["none"]:
        raise ImportError("not asked for")
    from pkgx.sub import b
    from pkgx import a
    out["value"] = b.value()
    out["file"] = a.__file__
    out["path"] = list(sys.modules["pkgx.sub"].__path__)
    out["source"] = inspect.getsource(a.value)
    try:
        a.fail()
    except ZeroDivisionError:
        frame = traceback.extract_tb(sys.exc_info()[2])[-1]
        out["raised_at"] = [frame.filename, frame.lineno, frame.line]
except ImportError as e:
    out["import_error"] = str(e)
out["loaders"] = {n: type(m.__spec__.loader).__name__ for n, m in sorted(sys.modules.items())
                  if n == "pkgx" or n.startswith("pkgx.")}
out["missed"] = cache.missed
cache.refresh()
print(json.dumps(out))
"""


def _package(root: Path, value: int = 1) -> None:
    pkg = root / "pkgx"
    (pkg / "sub").mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    _module_a(root, value)
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "c.py").write_text("C = 3\n")
    (pkg / "sub" / "b.py").write_text(
        "from pkgx import a\n\n\ndef value():\n    return a.value() * 10\n")


def _module_a(root: Path, value: int) -> None:
    (root / "pkgx" / "a.py").write_text(
        f"def value():\n    return {value}\n\n\ndef fail():\n    return 1 / 0\n")


def _run(root: Path, cache: Path, *which: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(REPO)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # the sources are compiled by the refresh itself
    p = subprocess.run([sys.executable, "-c", _CHILD, str(root), str(cache), *which],
                       capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    got: dict[str, object] = json.loads(p.stdout)
    return got


CACHED = {"pkgx": "_CachedLoader", "pkgx.a": "_CachedLoader", "pkgx.sub": "_CachedLoader",
          "pkgx.sub.b": "_CachedLoader"}
ORDINARY = {k: "SourceFileLoader" for k in CACHED}


def _touch_later(path: Path) -> None:
    """Give the file a modification time no earlier run could have recorded."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def test_the_first_run_fills_the_cache_and_the_next_is_served_from_it(tmp_path: Path) -> None:
    _package(tmp_path)
    cache = tmp_path / "modules.bin"
    first = _run(tmp_path, cache)
    assert first["loaders"] == ORDINARY and first["missed"] is True
    assert cache.exists()
    second = _run(tmp_path, cache)
    assert second["loaders"] == CACHED and second["missed"] is False
    for key in ("value", "file", "path", "source", "raised_at"):
        assert second[key] == first[key], key
    assert second["value"] == 10
    assert second["file"] == str(tmp_path / "pkgx" / "a.py")
    assert second["path"] == [str(tmp_path / "pkgx" / "sub")]
    assert second["raised_at"] == [str(tmp_path / "pkgx" / "a.py"), 6, "return 1 / 0"]


def test_an_edited_source_is_imported_from_itself_then_cached_again(tmp_path: Path) -> None:
    _package(tmp_path, value=1)
    cache = tmp_path / "modules.bin"
    _run(tmp_path, cache)
    assert _run(tmp_path, cache)["value"] == 10
    # the same size, only the digit differs: the modification time tells them apart
    _module_a(tmp_path, 2)
    _touch_later(tmp_path / "pkgx" / "a.py")
    edited = _run(tmp_path, cache)
    assert edited["value"] == 20
    assert edited["loaders"] == {**CACHED, "pkgx.a": "SourceFileLoader"}
    assert edited["missed"] is True
    again = _run(tmp_path, cache)
    assert again["value"] == 20 and again["loaders"] == CACHED


def test_a_source_that_grew_without_a_new_time_is_not_served(tmp_path: Path) -> None:
    _package(tmp_path, value=1)
    cache = tmp_path / "modules.bin"
    _run(tmp_path, cache)
    a = tmp_path / "pkgx" / "a.py"
    st = a.stat()
    _module_a(tmp_path, 123)
    os.utime(a, ns=(st.st_atime_ns, st.st_mtime_ns))  # the old time, a new size
    got = _run(tmp_path, cache)
    assert got["value"] == 1230 and got["loaders"]["pkgx.a"] == "SourceFileLoader"  # type: ignore[index]


def test_a_removed_source_is_not_imported_from_the_cache(tmp_path: Path) -> None:
    _package(tmp_path)
    cache = tmp_path / "modules.bin"
    _run(tmp_path, cache)
    (tmp_path / "pkgx" / "sub" / "b.py").unlink()
    got = _run(tmp_path, cache)
    assert "cannot import name 'b' from 'pkgx.sub'" in str(got["import_error"])
    assert "pkgx.sub.b" not in got["loaders"]  # type: ignore[operator]


@pytest.mark.parametrize("damage", ["empty", "garbage", "truncated", "bad index",
                                    "bad code", "odd entries", "a fifo"])
def test_a_damaged_cache_file_falls_back_and_is_rewritten(tmp_path: Path, damage: str) -> None:
    _package(tmp_path)
    cache = tmp_path / "modules.bin"
    _run(tmp_path, cache)
    data = cache.read_bytes()
    at = int.from_bytes(data[-16:-8], "little")  # the index's offset, in the tail
    if damage == "empty":
        cache.write_bytes(b"")
    elif damage == "a fifo":  # (opening one to read waits for a writer, unless told not to)
        cache.unlink()
        os.mkfifo(cache)
    elif damage == "garbage":
        cache.write_bytes(os.urandom(len(data)))
    elif damage == "truncated":
        cache.write_bytes(data[: len(data) // 2])
    elif damage == "bad index":
        cache.write_bytes(data[:at] + b"\xff" * (len(data) - at - 16) + data[-16:])
    elif damage == "bad code":  # every module's code overwritten, the index intact
        cache.write_bytes(b"\x00" * at + data[at:])
    else:  # an index of another shape, as another format's file would have
        table = marshal.dumps({"pkgx": (0, 2**70), "pkgx.a": "a.py", "pkgx.sub": None,
                               "pkgx.sub.b": ("b.py", 4, "sub/b.py", True, 0, 0)})
        cache.write_bytes(table + (0).to_bytes(8, "little")
                          + len(table).to_bytes(8, "little"))
    damaged = _run(tmp_path, cache)
    assert damaged["value"] == 10 and damaged["loaders"] == ORDINARY
    assert damaged["missed"] is True
    repaired = _run(tmp_path, cache)
    assert repaired["value"] == 10 and repaired["loaders"] == CACHED


def test_a_run_that_imports_other_modules_keeps_the_ones_before(tmp_path: Path) -> None:
    _package(tmp_path)
    cache = tmp_path / "modules.bin"
    _run(tmp_path, cache)
    other = _run(tmp_path, cache, "c")
    assert other["loaders"] == {"pkgx": "_CachedLoader", "pkgx.c": "SourceFileLoader"}
    assert _run(tmp_path, cache, "c")["loaders"] == {"pkgx": "_CachedLoader",
                                                     "pkgx.c": "_CachedLoader"}
    assert _run(tmp_path, cache)["loaders"] == CACHED


def test_a_run_with_nothing_missed_leaves_the_file_alone(tmp_path: Path) -> None:
    _package(tmp_path)
    cache = tmp_path / "modules.bin"
    _run(tmp_path, cache)
    before = cache.stat().st_mtime_ns
    time.sleep(0.01)
    _run(tmp_path, cache)
    assert cache.stat().st_mtime_ns == before


def _tysh(cache: Path, *args: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "TYSH_", "XDG_"))}
    env["PYTHONPATH"] = str(REPO)
    if home is None:
        env["TYSH_CACHE_DIR"] = str(cache)
    else:
        env["HOME"] = str(home)
    return subprocess.run([sys.executable, str(REPO / "bin" / "tysh"), *args],
                          capture_output=True, text=True, env=env, timeout=60)


def test_the_tysh_command_keeps_its_modules_in_the_cache_directory(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    script = 'f() { echo "$1 $((2 * 3))"; }; f hi'
    first = _tysh(cache, "-c", script)
    assert (first.returncode, first.stdout, first.stderr) == (0, "hi 6\n", "")
    files = sorted(p.name for p in cache.iterdir() if p.name.startswith("modules"))
    assert len(files) == 1
    second = _tysh(cache, "-c", script)
    assert (second.returncode, second.stdout, second.stderr) == (0, "hi 6\n", "")


def test_the_tysh_command_runs_without_a_cache_directory(tmp_path: Path) -> None:
    """No TYSH_CACHE_DIR, no XDG cache, a home without `.cache`: nothing is written."""
    home = tmp_path / "home"
    home.mkdir()
    got = _tysh(tmp_path / "unused", "-c", "echo hi", home=home)
    assert (got.returncode, got.stdout, got.stderr) == (0, "hi\n", "")
    assert list(home.iterdir()) == []
