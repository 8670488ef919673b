"""`grep -r` reads a tree's files in batches and passes over a file with no match after
one search; naming the same files on the command line reads each alone through the
general path. Both must print, report and exit alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.kernel.base.limits import Limits
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.local import LocalFileSystem

FILES = {
    "a.txt": b"alpha needle\nbeta\nNEEDLE caps\n",
    "b.txt": b"nothing here\n",
    "c.txt": b"needles and pins\nno newline needle",
    "d.bin": b"bin\0ary needle\n",
    "e.txt": b"",
    "f.txt": b"bad \xff\xfe utf-8 needle\n\xc3\xa9needle\n",
    "g.txt": b"needle\n",
    "h.txt": b"x" * 70_000 + b"\nlong file needle\n",
    "i.txt": b"x needle-y\n",
}
OPTIONS = ["", "-i", "-w", "-x", "-v", "-c", "-l", "-L", "-n", "-o", "-q", "-s", "-a",
           "-I", "-iw", "-vc", "-ln", "-F"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("walk")
    (root / "d").mkdir()
    for name, data in FILES.items():
        (root / "d" / name).write_bytes(data)
    return root


def _both(root: Path, opts: str, pattern: str) -> tuple[tuple[int, str, str], ...]:
    names = " ".join(f"d/{n}" for n in sorted(FILES))
    out = []
    for k in (Kernel(cwd=str(root), limits=Limits(max_output_bytes=None)),
              Kernel(cwd=str(root), fs=LocalFileSystem(),
                     limits=Limits(max_output_bytes=None))):
        named = "" if "-h" in opts.split() else "-H"  # -r names each file, as -H does
        for src in (f"grep -r {opts} -- '{pattern}' d",
                    f"grep {named} {opts} -- '{pattern}' {names}"):
            r = k.execute(src)
            out.append((r.code, r.out, r.err))
    return tuple(out)


@pytest.mark.parametrize("opts", OPTIONS)
@pytest.mark.parametrize("pattern", ["needle", "needle$", "ne+dle", "zzz", "é"])
def test_a_walk_prints_what_naming_its_files_prints(tree: Path, opts: str, pattern: str
                                                     ) -> None:
    if pattern == "ne+dle" and "F" not in opts:
        opts = (opts + " -E").strip()
    got = _both(tree, opts, pattern)
    assert len(set(got)) == 1, got


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["-i", "-w", "-x", "-v", "-c", "-l", "-n", "-h", "-o"]),
                max_size=3, unique=True),
       st.sampled_from(["needle", "NEEDLE", "x", "a", "needle-y", "pins"]))
def test_any_mix_of_options_walks_as_it_names(tree: Path, opts: list[str], pattern: str
                                              ) -> None:
    got = _both(tree, " ".join(opts), pattern)
    assert len(set(got)) == 1, got
