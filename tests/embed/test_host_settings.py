"""An embedded kernel leaves the host process's settings as it found them: the
recursion limit and the default thread stack size, after construction and after a
script that recursed deep (a shell function calling itself hundreds of times)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path


def test_kernel_leaves_the_recursion_limit_and_thread_stack_size_alone() -> None:
    # in a fresh process, so no other test's kernel holds the limit raised
    code = textwrap.dedent("""
        import sys, threading
        from tysh import Kernel
        before = (sys.getrecursionlimit(), threading.stack_size())
        k = Kernel()
        after_init = (sys.getrecursionlimit(), threading.stack_size())
        r = k.execute('f() { if (( $1 > 0 )); then f $(( $1 - 1 )); else echo bottom; fi; }; f 400')
        assert r.code == 0 and r.out == "bottom\\n", (r.code, r.out, r.err[-300:])
        r = k.execute('g() { g; }; g')
        assert r.code != 0 and "Traceback" not in r.err, r.err[-300:]
        after_run = (sys.getrecursionlimit(), threading.stack_size())
        print(before, after_init, after_run)
        assert before == after_init == after_run, (before, after_init, after_run)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_kept_background_job_still_recurses_deep_after_the_call_returns(
        tmp_path: Path) -> None:
    code = textwrap.dedent("""
        import sys, time
        from tysh import Kernel
        k = Kernel(jobs="keep")
        r = k.execute('f() { if (( $1 > 0 )); then f $(( $1 - 1 )); else echo bottom > done.txt; fi; }; '
                      '{ sleep 0.3; f 400; } &')
        assert r.code == 0, r.err
        for _ in range(100):
            r = k.execute('cat done.txt 2>/dev/null')
            if r.out == "bottom\\n":
                break
            time.sleep(0.1)
        assert r.out == "bottom\\n", r.err
        k.close()
        assert sys.getrecursionlimit() == 1000, sys.getrecursionlimit()
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
