"""LazyRegex: compiled on first use, then as fast as the compiled pattern."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tysh.kernel.base import lazyre
from tysh.kernel.base.lazyre import LazyRegex


def test_lazy_regex_does_not_compile_until_first_use() -> None:
    rx = LazyRegex(r"(unbalanced")  # an invalid pattern costs nothing until used
    with pytest.raises(re.error):
        rx.match("x")


def test_lazy_regex_methods_match_the_compiled_pattern() -> None:
    rx = LazyRegex(r"a(b+)", re.I)
    m = rx.search("xxABBy")
    assert m is not None and m.group(1) == "BB"
    assert rx.sub("-", "ab ab") == "- -"
    assert rx.findall("ab abb") == ["b", "bb"]
    assert rx.fullmatch("ab") is not None and rx.pattern == "a(b+)"


def test_lazy_regex_stores_bound_methods_after_first_use() -> None:
    rx = LazyRegex(r"\d+")
    assert "match" not in vars(rx)
    rx.match("1")
    assert vars(rx)["match"].__self__ is vars(rx)["search"].__self__


def test_flag_numbers_are_res_own() -> None:
    assert (lazyre.IGNORECASE, lazyre.MULTILINE, lazyre.DOTALL, lazyre.VERBOSE,
            lazyre.ASCII) == (re.I, re.M, re.S, re.X, re.A)


# Compiles every LazyRegex tysh declares (and a few more shapes) in one process and
# prints whether each equals re.compile's pattern (equality covers source, flags and the
# compiled program), and which were read from the cache.
_EVERY_PATTERN = """
import gc, importlib, json, pkgutil, re, sys
import tysh.builtins, tysh.kernel
for pkg in (tysh.kernel, tysh.builtins):
    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(m.name)
from tysh.kernel.base import lazyre
sources = {rx._source for rx in gc.get_objects() if isinstance(rx, lazyre.LazyRegex)}
sources |= {(r"(?P<year>\\d{4})-(?P<m>\\d\\d)", 0), (rb"a[^b]+", 0), (r"x(?i:y)", 0)}
same = [lazyre.compile_pattern(p, f) == re.compile(p, f) for p, f in sorted(sources, key=repr)]
print(json.dumps([len(sources), all(same)]))
"""


def _run(code: str, cache: Path) -> str:
    env = {**os.environ, "TYSH_CACHE_DIR": str(cache)}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout.strip().splitlines()[-1]


def test_patterns_built_from_the_cache_equal_res_own(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = json.loads(_run(_EVERY_PATTERN, cache))  # compiles, and fills the cache
    assert first[0] > 50 and first[1] is True
    assert list(cache.glob("regex-*.marshal"))
    second = json.loads(_run(_EVERY_PATTERN, cache))  # builds from the cache
    assert second == first


def test_a_damaged_cache_file_only_costs_a_compile(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _run(_EVERY_PATTERN, cache)
    for f in cache.glob("regex-*.marshal"):
        f.write_bytes(b"\x00not marshal")
    assert json.loads(_run(_EVERY_PATTERN, cache))[1] is True
    code = ("import json, re; from tysh.kernel.base.lazyre import compile_pattern\n"
            "print(json.dumps(compile_pattern('a(b)c') == re.compile('a(b)c')))")
    assert _run(code, cache) == "true"


def test_echo_loads_no_re_once_the_cache_holds_its_patterns(tmp_path: Path) -> None:
    # (json itself imports re: the answer is taken before it is loaded)
    code = ("import sys\nfrom tysh import Kernel\n"
            "r = Kernel().execute('x=\"a b\"; for w in $x; do echo \"$w\" >/dev/null; done')\n"
            "loaded = 're' in sys.modules\nimport json\nprint(json.dumps([r.code, loaded]))")
    cache = tmp_path / "cache"
    assert json.loads(_run(code, cache)) == [0, True]  # the first run compiles
    assert json.loads(_run(code, cache)) == [0, False]
