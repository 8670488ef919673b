"""Tree walks over ~10,000 files: the confined filesystem (`Kernel(cwd)`) against the
host's unconfined one (`Kernel.repl()`'s kind), in one warm process, interleaved runs.

    python bench/fs_walk.py [--runs N] [--files N]

The tree has nested directories, a text file with a match in every tenth, and symlinks
(to files and directories inside the tree) in every directory, so resolution through
links is part of what is timed."""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
import time

CASES = [
    "grep -r needle . | wc -l",
    "grep -R needle . | wc -l",
    "find . -name '*.txt' | wc -l",
    "find . -type f | wc -l",
    "ls -R | wc -l",
    "ls -lR | wc -l",
    "du -s .",
    "du -a . | wc -l",
]


def make_tree(root: str, files: int) -> None:
    """`files` files in directories of 50, nested three levels, plus links."""
    n = 0
    top = 0
    while n < files:
        for mid in range(4):
            d = os.path.join(root, f"t{top}", f"m{mid}")
            os.makedirs(d, exist_ok=True)
            for i in range(50):
                with open(os.path.join(d, f"f{i}.txt"), "w") as f:
                    f.write("some text line\n" * 5)
                    if i % 10 == 0:
                        f.write("a needle here\n")
                n += 1
            os.symlink("f0.txt", os.path.join(d, "link.txt"))
            if mid:
                os.symlink("../m0", os.path.join(d, "dirlink"))
        top += 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--files", type=int, default=10_000)
    ns = ap.parse_args()
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    from tysh.kernel.base.limits import Limits
    from tysh.kernel.embed.kernel import Kernel
    from tysh.kernel.fs.local import LocalFileSystem

    tmp = tempfile.mkdtemp(prefix="tysh-bench-walk-")
    try:
        make_tree(tmp, ns.files)
        lim = Limits(max_output_bytes=None)
        kernels = {
            "confined": Kernel(cwd=tmp, limits=lim),
            "local": Kernel(cwd=tmp, fs=LocalFileSystem(), limits=lim),
        }
        print(f"{ns.files} files; min of {ns.runs} interleaved runs (seconds)")
        print(f"{'script':34} {'local':>8} {'confined':>9} {'ratio':>6}")
        for script in CASES:
            best = {name: float("inf") for name in kernels}
            outs = {}
            for _ in range(ns.runs):
                for name, k in kernels.items():
                    gc.collect()  # no collection of the other kernel's garbage is timed here
                    t0 = time.perf_counter()
                    r = k.execute(script)
                    best[name] = min(best[name], time.perf_counter() - t0)
                    outs[name] = (r.code, r.out)
            same = "" if outs["local"] == outs["confined"] else "  (outputs differ)"
            print(f"{script:34} {best['local']:8.3f} {best['confined']:9.3f} "
                  f"{best['confined'] / best['local']:6.2f}{same}")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
