"""The per-user cache directory and the compile cache kept in it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tysh.kernel.base.cache import cache_dir, compile_cached


def _no_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TYSH_CACHE_DIR", raising=False)


def test_the_cache_is_under_xdg_cache_home(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    _no_override(monkeypatch)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "xdg").mkdir()
    assert cache_dir() == str(tmp_path / "xdg" / "tysh")
    assert (tmp_path / "xdg" / "tysh").is_dir()
    assert not (tmp_path / "tmp").exists()


def test_without_xdg_cache_home_the_cache_is_in_the_home_dot_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _no_override(monkeypatch)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".cache").mkdir()
    assert cache_dir() == str(tmp_path / ".cache" / "tysh")
    # a relative XDG_CACHE_HOME is ignored, as the XDG spec says
    monkeypatch.setenv("XDG_CACHE_HOME", "rel")
    assert cache_dir() == str(tmp_path / ".cache" / "tysh")


def test_a_home_without_a_cache_directory_gets_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a sandbox's or a test's working directory as HOME: nothing appears in it
    _no_override(monkeypatch)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_dir() is None
    assert _run(compile_cached("def f():\n    return 4\n", "<unit>"))() == 4  # type: ignore[operator]
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "missing"))
    assert cache_dir() is None
    assert list(tmp_path.iterdir()) == []


def test_no_home_and_no_xdg_means_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_override(monkeypatch)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("HOME", raising=False)
    assert cache_dir() is None
    assert _run(compile_cached("def f():\n    return 5\n", "<unit>"))() == 5  # type: ignore[operator]


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() == 0,
                    reason="POSIX permissions (root ignores them)")
def test_a_read_only_cache_directory_costs_speed_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _no_override(monkeypatch)
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    monkeypatch.setenv("XDG_CACHE_HOME", str(ro))
    assert cache_dir() is None
    assert _run(compile_cached("def f():\n    return 6\n", "<unit>"))() == 6  # type: ignore[operator]


def test_an_unwritable_cache_entry_costs_speed_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the cache path is a file: nothing can be created under it
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("TYSH_CACHE_DIR", str(blocker / "tysh"))
    assert cache_dir() is None
    assert _run(compile_cached("def f():\n    return 7\n", "<unit>"))() == 7  # type: ignore[operator]


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_cache_directory_others_can_write_is_not_trusted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _no_override(monkeypatch)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shared = tmp_path / "tysh"
    shared.mkdir()
    shared.chmod(0o777)
    assert cache_dir() is None
    shared.chmod(0o700)
    assert cache_dir() == str(shared)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_symlinked_cache_directory_is_not_trusted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _no_override(monkeypatch)
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o700)
    (tmp_path / "xdg").mkdir()
    (tmp_path / "xdg" / "tysh").symlink_to(target)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() is None


def _run(code: object) -> object:
    env: dict[str, object] = {}
    exec(code, env)  # type: ignore[call-overload]
    return env["f"]


def test_compiled_code_is_reused_for_the_same_source_and_replaced_for_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSH_CACHE_DIR", str(tmp_path))
    first = compile_cached("def f():\n    return 1\n", "<unit>")
    assert _run(first)() == 1  # type: ignore[operator]
    assert len(list(tmp_path.iterdir())) == 1
    again = compile_cached("def f():\n    return 1\n", "<unit>")
    assert again is not first and again == first  # read back from the cache file
    other = compile_cached("def f():\n    return 2\n", "<unit>")
    assert _run(other)() == 2  # type: ignore[operator]


def test_a_corrupt_cache_entry_is_ignored(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSH_CACHE_DIR", str(tmp_path))
    compile_cached("def f():\n    return 3\n", "<unit>")
    for entry in tmp_path.iterdir():
        entry.write_bytes(b"\x00garbage")
    assert _run(compile_cached("def f():\n    return 3\n", "<unit>"))() == 3  # type: ignore[operator]


def test_a_fifo_in_place_of_a_cache_file_holds_no_start(tmp_path: Path) -> None:
    """Every cache file a start reads (generated code, compiled patterns, the command's
    modules) opened where each is a FIFO: the command runs as without a cache."""
    import os
    import subprocess
    import sys

    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TYSH_"))}
    env["TYSH_CACHE_DIR"] = str(cache)
    tysh = Path(__file__).resolve().parents[3] / "bin" / "tysh"
    script = "case ab in a*) echo $((1 + 2));; esac; echo hi | grep -c h"
    cmd = [sys.executable, str(tysh), "-c", script]
    assert subprocess.run(cmd, env=env, capture_output=True, text=True,
                          timeout=60).stdout == "3\n1\n"
    files = [p for p in cache.iterdir() if p.is_file()]
    assert any(p.name.startswith("code-") for p in files)
    assert any(p.name.startswith("regex-") for p in files)
    assert any(p.name.startswith("modules") for p in files)
    for p in files:
        p.unlink()
        os.mkfifo(p)
    got = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    assert (got.returncode, got.stdout) == (0, "3\n1\n"), got.stderr


def test_a_script_working_in_tmpdir_sees_no_cache_files(tmp_path: Path) -> None:
    import subprocess
    import sys

    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "TYSH_CACHE_DIR"}
    env.update(TMPDIR=str(work), HOME=str(tmp_path / "home"),
               XDG_CACHE_HOME=str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    for _ in range(2):  # the first run fills the cache, the second reads it
        p = subprocess.run([sys.executable, "-m", "tysh", "-c",
                            "touch mine; echo *; rm mine; for t in true; do case a in a) :;; esac; done"],
                           cwd=work, env=env, capture_output=True, text=True, timeout=120)
        assert (p.returncode, p.stdout, p.stderr) == (0, "mine\n", "")
    assert list(work.iterdir()) == []
    assert (tmp_path / "cache" / "tysh").is_dir()


def test_an_entry_name_checksum_is_the_same_in_every_process(tmp_path: Path) -> None:
    # the checksum names the entry a later process looks for: it must not depend on the
    # process's string hashing (randomized per process)
    import subprocess
    import sys

    from tysh.kernel.base.cache import checksum

    code = "from tysh.kernel.base.cache import checksum; print(checksum('def f(): pass\\n' * 50))"
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={"PYTHONHASHSEED": seed}, check=True).stdout.strip()
            for seed in ("1", "2", "random")}
    assert seen == {str(checksum("def f(): pass\n" * 50))}
    assert checksum("a") != checksum("b") and checksum("ab") != checksum("ba")
    assert 0 <= checksum("x" * 10_000 + "\udc80") < 2**30


def test_the_code_cache_keeps_at_most_its_bound_of_entries(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # generated programs (sed's, awk's) are as many as the scripts a user runs: past the
    # bound the oldest entries go, and every source still compiles to working code
    from tysh.kernel.base import cache

    monkeypatch.setenv("TYSH_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setattr(cache, "_MOST_CODE", 8)
    for i in range(30):
        env: dict[str, object] = {}
        exec(compile_cached(f"x = {i}\n", "<trim test>"), env)
        assert env["x"] == i
        names = [n for n in os.listdir(tmp_path / "c") if n.startswith("code-")]
        assert len(names) <= 8
    env = {}
    exec(compile_cached("x = 29\n", "<trim test>"), env)  # the newest is kept
    assert env["x"] == 29
