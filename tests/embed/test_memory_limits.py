"""Limits.max_memory: each memory bomb of the red-team pass ends its command with a
message and status 1 while the process's peak RSS stays near the budget (measured in a
fresh subprocess, ru_maxrss); widths and paddings a user gives are checked against the
budget before anything is allocated; the in-memory filesystem's own bound holds."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tysh import Kernel, Limits
from tysh.kernel.base.limits import DEFAULT_MAX_MEMORY

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux")

MIB = 1 << 20
CAP = 64 * MIB

_CHILD = textwrap.dedent("""
    import resource, sys
    from tysh import Kernel, Limits
    kw = {} if sys.argv[1] == "default" else {"limits": Limits(max_memory=int(sys.argv[1]))}
    k = Kernel.isolated(**kw)
    k.execute("echo warm | cat | wc -l; x=$(seq 10); sort <<< $x > /dev/null")
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    r = k.execute(sys.argv[2], timeout=20)
    peak = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) * 1024
    sys.stdout.write(f"{r.code}|{peak}|{r.err}")
""")


def _measure(script: str, cap: int | str = CAP) -> tuple[int, int, str]:
    p = subprocess.run([sys.executable, "-c", _CHILD, str(cap), script], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    code, peak, err = p.stdout.split("|", 2)
    return int(code), int(peak), err


BOMBS = [
    ("a=$(yes)", "tysh: $(…): memory limit of 64 MiB exceeded"),
    ("x=x; while :; do x=$x$x; done", "tysh: word expansion: memory limit of 64 MiB exceeded"),
    ("yes --json", "yes: memory limit of 64 MiB exceeded"),
    ("echo 1 | numfmt --padding 2147483648", "numfmt: memory limit of 64 MiB exceeded"),
    ("echo 1 | numfmt --format %0999999999f", "numfmt: memory limit of 64 MiB exceeded"),
    ("echo 1 | numfmt --format %.999999999f", "numfmt: memory limit of 64 MiB exceeded"),
    ("seq -f %0999999999g 1", "seq: memory limit of 64 MiB exceeded"),
    ("seq -f %.999999999f 1", "seq: memory limit of 64 MiB exceeded"),
    ("seq -w 1 1e300000000", "seq: memory limit of 64 MiB exceeded"),
    ("printf 'a\\tb\\n' | expand -t 2147483648", "expand: memory limit of 64 MiB exceeded"),
    ("x=$(yes | head -c 20000000); cat <<EOF > out\n$x$x$x$x\nEOF",
     "tysh: word expansion: memory limit of 64 MiB exceeded"),
    ("yes | tac", "tac: memory limit of 64 MiB exceeded"),
    ("yes | sort", "sort: memory limit of 64 MiB exceeded"),
    ("yes | tr -d '\\n' | uniq", "uniq: memory limit of 64 MiB exceeded"),
    ("yes | head -c 300000000 | jq -R .", "jq: memory limit of 64 MiB exceeded"),
    ('v="[$(seq -s, 1000)]"; yes "$v" | head -c 300000000 | jq -s length',
     "jq: memory limit of 64 MiB exceeded"),
]


@pytest.mark.parametrize(("script", "message"), BOMBS, ids=[s[:40] for s, _ in BOMBS])
def test_memory_bomb_ends_with_a_message_and_bounded_rss(script: str, message: str) -> None:
    code, peak, err = _measure(script)
    assert (code, err.strip()) == (1, message)
    # the budget, plus what the allocator keeps of freed blocks and one chunk in flight
    assert peak < 3 * CAP, f"peak RSS grew {peak // MIB} MiB under a {CAP // MIB} MiB budget"


@pytest.mark.parametrize(("script", "code", "out_err"), [
    ("echo a | nl -w 2147483648", 1, "nl: invalid line number field width: '2147483648'"),
    ("echo a b | uniq -f 2147483648", 0, ""),
    ("echo a b | sort -k 2147483648", 0, ""),
    # an array is sparse: an element far past the end costs one element
    ("readarray -O 300000000 a <<< x; a[2**62]=y; echo ${#a[@]}", 0, ""),
])
def test_huge_field_numbers_cost_nothing(script: str, code: int, out_err: str) -> None:
    got, peak, err = _measure(script)
    assert got == code and err.startswith(out_err), err
    assert peak < 16 * MIB


def test_the_default_budget_holds_for_the_sandboxed_presets() -> None:
    assert Kernel.isolated().limits.max_memory == DEFAULT_MAX_MEMORY == 512 * MIB
    assert Kernel.repl().limits.max_memory is None  # the CLI's own shell: no budget
    code, peak, err = _measure("a=$(yes)", "default")
    assert (code, err.strip()) == (1, "tysh: $(…): memory limit of 512 MiB exceeded")
    assert peak < DEFAULT_MAX_MEMORY + 128 * MIB


def test_a_1gib_file_in_the_memory_filesystem_stops_at_its_bound() -> None:
    code, peak, err = _measure("yes | head -c 1073741824 > big", "default")
    assert (code, err.strip()) == (1, "head: /home/user/big: No space left on device")
    assert peak < 256 * MIB + 96 * MIB  # the default max_fs_bytes, held once


def test_script_goes_on_after_a_tool_hits_the_budget() -> None:
    k = Kernel.isolated(limits=Limits(max_memory=CAP))
    r = k.execute("yes | sort; echo after $?")
    assert r.out == "after 1\n" and r.err == "sort: memory limit of 64 MiB exceeded\n"
