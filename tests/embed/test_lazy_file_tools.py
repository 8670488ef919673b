"""The file, shell, process, system, calc, compare, digest and JSON tools load, on their
common forms, none of the standard library's costly modules unless their options use
them: `re` (and the enum, functools, collections, types and copyreg it brings),
hashlib, datetime, calendar, locale, json, decimal, random, threading, subprocess,
typing, inspect and ast. Each is start-up time every `tysh -c` one-liner pays.

Each script runs in fresh interpreters over a warm per-user cache (module_probe). Not
the tool's choice, and so allowed: what the kernel loads for the script's shape (a file
opened through the confined filesystem, a pipeline run on threads, a background job,
the session's umask), measured by running a script of that shape with no tool in it,
and what the shared helpers of tysh.builtins._common.fileinfo load when a tool imports
them. A module a form genuinely needs is named with it, with what importing it brings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from module_probe import modules_loaded

from tysh import Kernel

COSTLY = frozenset({
    "re", "enum", "functools", "collections", "collections.abc", "types", "copyreg",
    "hashlib", "datetime", "calendar", "locale", "json", "decimal", "random", "threading",
    "subprocess", "typing", "inspect", "ast",
})

# scripts of each shape with no tool in them: what the kernel loads for the shape
SHAPES = {
    "file": ": < in.txt",
    "pipe": "echo a | read x",
    "job": "true & wait",
    "umask": "umask >/dev/null",  # the session's umask, read from the process
}

FILEINFO = "tysh.builtins._common.fileinfo"


def _files(root: Path) -> None:
    (root / "in.txt").write_text("pear\napple\nfig\napple\nkiwi\n")
    (root / "d" / "sub").mkdir(parents=True, exist_ok=True)
    (root / "d" / "f.txt").write_text("a\nb\n")
    (root / "d" / "g.txt").write_text("a\nc\n")
    (root / "d" / "sub" / "h.py").write_text("x\n")
    (root / "j.json").write_text('{"a":1,"b":[1,2]}\n')


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lazy_file_tools")
    _files(root)
    return root


@cache
def _brought(module: str) -> frozenset[str]:
    """The modules importing `module` adds once tysh is loaded, in a fresh interpreter."""
    code = ("import sys\nfrom tysh import Kernel\nbefore = set(sys.modules)\n"
            f"import {module}\nadded = sorted(set(sys.modules) - before)\n"
            "import json\nprint(json.dumps(added))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return frozenset(json.loads(p.stdout.strip().splitlines()[-1])) | {module}


_shape_cache: dict[str, frozenset[str]] = {}


def _shape(name: str, tree: Path) -> frozenset[str]:
    if name not in _shape_cache:
        _shape_cache[name] = frozenset(modules_loaded(SHAPES[name], tree))
    return _shape_cache[name]


# (script, the modules its options need, the kernel shapes it has)
COMMON = [
    # files
    ("ls", (), ()),
    ("ls -l d", ("datetime",), ()),  # (the times it shows)
    ("ls -la d", ("datetime",), ()),
    ("ls -1R d", (), ()),
    ("find . -name '*.txt'", (), ()),
    ("find d -type f", (), ()),
    ("find . -name 'f*' -type f", (), ()),
    ("find d -maxdepth 1 -type d", (), ()),
    ("find . -path '*sub*' -print", (), ()),
    ("find . -newer in.txt", (), ()),
    ("mkdir -p e/f", (), ()),
    ("cp in.txt x; mv x y", (), ("umask",)),
    ("rm -f nosuch", (), ()),
    ("touch t.txt", (), ()),
    ("ln -sf in.txt l.txt", (), ()),
    ("stat -c %s in.txt", (), ()),
    ("stat in.txt", ("datetime",), ()),
    ("basename /a/b.txt .txt; dirname /a/b.txt", (), ()),
    ("realpath in.txt", (), ()),
    ("readlink -f in.txt", (), ()),
    ("chmod 644 in.txt", (), ("umask",)),
    ("chmod u+x,go-w in.txt", (), ("umask",)),
    ("du -s .", (), ()),
    ("du -sh d", (), ()),
    ("tree d", (), ()),
    ("mktemp -p .", (), ()),
    ("mktemp -d -p .", (), ()),
    ("truncate -s 0 t.txt", (), ()),
    # comparing, checksums, archives
    ("diff d/f.txt d/g.txt || true", (), ()),
    ("diff -u d/f.txt d/g.txt || true", ("datetime",), ()),  # (the header's times)
    ("cmp d/f.txt d/f.txt", (), ()),
    ("comm d/f.txt d/g.txt", (), ()),
    ("base64 in.txt", (), ()),
    ("cksum in.txt", (), ()),
    ("md5sum in.txt", ("hashlib",), ()),
    ("sha256sum in.txt", ("hashlib",), ()),
    ("gzip -c in.txt > in.gz; zcat in.gz", (), ()),
    # arithmetic and the system
    ("expr 1 + 2", (), ()),
    ("echo '1+2' | bc", (), ()),
    ("factor 12", (), ()),
    ("date", ("datetime",), ()),
    ("date +%Y", ("datetime",), ()),
    ("date -u +%s", ("datetime",), ()),
    ("date -d @0 +%F", ("datetime",), ()),
    ("uname; nproc; printenv HOME", (), ()),
    ("which ls", (), ()),
    # running commands
    ("env A=1 printenv A", (), ()),
    ("timeout 5 echo hi", (), ()),
    ("sleep 0", (), ()),
    ("nice echo hi", (), ()),
    ("echo a b | xargs echo", (), ("pipe",)),
    ("sleep 0 & wait", (), ("job",)),
    # the shell's own commands
    ("set -e; read x <<< hi; echo $x", (), ()),
    ("read -r a b <<< 'x y'; echo $a", (), ()),
    ("mapfile -t arr < in.txt; echo ${#arr[@]}", (), ()),
    ("declare -A m; m[a]=1; echo ${m[a]}", (), ()),
    ("x='a\"b$c'; declare -p x; a=(1 '$2'); declare -p a", (), ()),
    ("f() { local x=1; return 0; }; f; echo $?", (), ()),
    ("export X=1; readonly R=1; unset X", (), ()),
    ("cd d; pwd", (), ()),
    ("pushd d >/dev/null; popd >/dev/null", (), ()),
    ("set -euo pipefail; shopt -s nullglob; echo ok", (), ()),
    ("command -v ls; type ls", (), ()),
    ("getopts ab: opt -a; echo $opt", (), ()),
    ("alias ll='ls -l'; unalias ll", (), ()),
    ("eval 'echo hi'; let x=1+2", (), ()),
    ("ulimit -n; hash", (), ()),
    ("enable -n echo; enable echo", (), ()),
    ("split a,b ,; typeof 1", (), ()),
]


@pytest.mark.parametrize(("script", "needs", "shapes"), COMMON)
def test_a_common_form_loads_no_costly_module_its_options_do_not_use(
        tree: Path, script: str, needs: tuple[str, ...], shapes: tuple[str, ...]) -> None:
    got = modules_loaded(script, tree)
    allowed: set[str] = set()
    for module in needs:
        assert module in got, f"{script}: {module} is named as needed but not loaded"
        allowed |= _brought(module)
    for shape in ("file", *shapes):  # every command here runs over the filesystem
        allowed |= _shape(shape, tree)
    if FILEINFO in got:
        allowed |= _brought(FILEINFO)
    extra = sorted(got.intersection(COSTLY) - allowed)
    assert not extra, f"{script}: loads {extra}"


# (script, its output, a module the option does need, which it still loads)
RARE = [
    ("md5sum in.txt", "4817386f99c8777776bec636dcf360da  in.txt\n", "hashlib"),
    ("md5sum in.txt > s; md5sum -c s", "in.txt: OK\n", "hashlib"),
    ("cksum -a sha256 in.txt",
     "SHA256 (in.txt) = 50c60e55a0dd86e097d4f7a65fca75669140b1f2cf97814168c1bcd6a52ded3e\n",
     "hashlib"),
    ("factor 1000036000099", "1000036000099: 1000003 1000033\n", "random"),
    ("factor 170141183460469231731687303715884105727",
     "170141183460469231731687303715884105727: 170141183460469231731687303715884105727\n",
     "random"),
    ("date -u -d '2024-01-31 12:00' +%s", "1706702400\n", "calendar"),
    ("date -d 'TZ=\"UTC\" 2024-01-31T12:00' +%s", "1706702400\n", "calendar"),
    ("touch -d '1970-01-02T00:00:00Z' t; stat -c %Y t", "86400\n", "datetime"),
    ("TZ=UTC0; touch -t 197001020000 t; stat -c %Y t", "86400\n", "datetime"),
    ("printf 'a\\nb\\n' | xargs -P 2 -n 1 echo | sort", "a\nb\n", "threading"),
    ("typeof -j '[1]'", "array\n", "json"),
    ("keys '{\"b\":1,\"a\":2}'", "a\nb\n", "json"),
    ("find . -iname 'IN.TXT'", "./in.txt\n", "re"),
    ("find . -name '[i]n.txt'", "./in.txt\n", "re"),
    ("numfmt --to=si 1000", "1.0K\n", "decimal"),
]

_RUN = """
import sys
from tysh import Kernel
r = Kernel().execute({script!r})
loaded = {module!r} in sys.modules
import json
print(json.dumps([r.code, r.out, r.err, loaded]))
"""


@pytest.mark.parametrize(("script", "out", "module"), RARE)
def test_an_option_that_needs_a_module_loads_it_and_still_works(
        tmp_path: Path, script: str, out: str, module: str) -> None:
    _files(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["TYSH_CACHE_DIR"] = str(tmp_path / ".tysh-cache")
    p = subprocess.run([sys.executable, "-c", _RUN.format(script=script, module=module)],
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    code, got, err, loaded = json.loads(p.stdout.strip().splitlines()[-1])
    assert (code, got, err) == (0, out, "")
    assert loaded, f"{script}: ran without {module}"


def test_the_stat_printf_escapes_and_bc_strings_read_as_before(tmp_path: Path) -> None:
    _files(tmp_path)
    r = Kernel(cwd=str(tmp_path)).execute(
        "stat --printf '%s\\t%n\\n' in.txt; echo 'print \"a\\tb\\n\"' | bc; "
        "printf 'a,b' | xargs -d '\\x2c' echo; printf 'a;b' | xargs -d '\\073' echo")
    assert (r.code, r.out, r.err) == (0, "26\tin.txt\na\tb\na b\na b\n", "")
