"""Shell threads (pipeline stages, `&` jobs, xargs -P) reserve a stack sized to what
shell code needs, so the address-space limit docs/security.md recommends
(`ulimit -v 2G`) leaves room for wide pipelines and many jobs; and a thread the OS
refuses ends the script with a message (status 1), never an internal error."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS semantics are Linux's")

_CHILD = textwrap.dedent("""
    import resource, sys
    from tysh import Kernel
    resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
    k = Kernel.isolated()
    r = k.execute(sys.argv[2], timeout=60)
    sys.stdout.write(f"{r.code}|{r.out.strip()}|{r.err.strip()}")
""")


def _run_limited(script: str, limit: int = 2 << 30) -> tuple[int, str, str]:
    p = subprocess.run([sys.executable, "-c", _CHILD, str(limit), script],
                       capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert p.returncode == 0, p.stderr[-2000:]
    code, out, err = p.stdout.split("|", 2)
    return int(code), out, err


def test_nine_stage_pipeline_runs_under_a_2g_address_space_limit() -> None:
    # the first stage sleeps, so all nine are alive at once
    code, out, err = _run_limited("{ seq 1000; sleep 0.5; } | cat | cat | cat | cat | sort -n"
                                  " | cat | tac | wc -l")
    assert (code, out, err) == (0, "1000", "")


def test_a_dozen_jobs_and_xargs_workers_run_under_a_2g_address_space_limit() -> None:
    script = ("for i in 1 2 3 4 5 6 7 8 9 10 11 12; do sleep 0.3 & done; wait; "
              "seq 16 | xargs -P 16 -n 1 sleep 0.0; echo done")
    code, out, err = _run_limited(script)
    assert (code, out, err) == (0, "done", "")


def test_threads_refused_by_the_os_end_the_script_with_a_message() -> None:
    # room for the interpreter but hardly any more: starting many threads must fail
    # as a limit (status 1), not as an internal error or a crash
    code, _out, err = _run_limited(
        "for i in $(seq 400); do sleep 2 & done; wait; echo unreachable",
        limit=600 << 20)
    assert code == 1, err
    assert "cannot start a thread" in err
    assert "internal error" not in err
