"""The text filters as streams, across tools: an endless producer feeding `head` stops at
once, a large file goes through `cat | wc -l` in flat memory, and bytes that are not UTF-8
pass through the byte tools unchanged without making any text tool crash. These pin
pipelines and one sweep over every filter on a shared fixture, not one tool, so they stay
together here rather than in the per-tool files."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import Kernel

TYSH = [sys.executable, "-m", "tysh", "--no-external", "-c"]

# Runs a command and prints its children's peak RSS in KiB. A child spawned straight from
# pytest would inherit pytest's peak as a floor (vfork shares its memory until exec);
# spawned from this small launcher the floor is the launcher's few MB.
PEAK = (
    "import resource, subprocess, sys\n"
    "r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
    "sys.stdout.write(r.stdout.decode() + '|%d|%d' % (r.returncode, "
    "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
)


def peak_run(argv: list[str], cwd: Path) -> tuple[str, int, float]:
    """(stdout, status, peak RSS in MB) of one command."""
    res = subprocess.run([sys.executable, "-c", PEAK, *argv], cwd=cwd, capture_output=True,
                         timeout=300, check=True)
    out, code, kib = res.stdout.decode().rsplit("|", 2)
    return out, int(code), int(kib) / 1024


def test_endless_producer_into_head_returns_at_once() -> None:
    t0 = time.monotonic()
    res = subprocess.run([*TYSH, "seq 1 100000000 | grep 7 | head -n 2"],
                         capture_output=True, timeout=30)
    elapsed = time.monotonic() - t0
    assert res.stdout == b"7\n17\n"
    assert res.returncode == 0
    assert elapsed < 2.0, f"took {elapsed:.2f}s"


def test_cat_of_a_200_mb_file_into_wc_keeps_peak_memory_under_100_mb(tmp_path: Path) -> None:
    size = 200 * 1024 * 1024
    if shutil.disk_usage(tmp_path).free < 2 * size:
        pytest.skip("not enough disk for a 200 MB file")
    line = b"the quick brown fox jumps over the lazy dog 0123456789\n"
    block = line * (1 << 20 // len(line) + 1)
    lines = 0
    with open(tmp_path / "big", "wb") as f:
        written = 0
        while written < size:
            f.write(block)
            written += len(block)
            lines += block.count(b"\n")
    out, code, peak_mb = peak_run([*TYSH, "cat big | wc -l"], tmp_path)
    assert code == 0
    assert out.strip() == str(lines)
    print(f"\npeak RSS of `cat big | wc -l` over 200 MB: {peak_mb:.1f} MB")
    assert peak_mb < 100


# ---------------------------------------------------------------- bytes that are not UTF-8

RAW = b"caf\xe9 \xff\xfe\n\x80abc\x00def\nna\xefve \xc3\x28\nlast\xf0\x28\x8c"


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    (tmp_path / "raw.bin").write_bytes(RAW)
    return Kernel(cwd=str(tmp_path))


@pytest.mark.parametrize(
    ("script", "want"),
    [
        ("cat raw.bin", RAW),
        ("cat < raw.bin", RAW),
        ("cat", RAW),  # stdin
        ("head -c 9 raw.bin", RAW[:9]),
        ("head -c 100 raw.bin", RAW),
        ("tail -c 7 raw.bin", RAW[-7:]),
        ("tail -c +3 raw.bin", RAW[2:]),
        ("tee copy.bin < raw.bin", RAW),
        ("head -n 2 raw.bin", b"\n".join(RAW.split(b"\n", 2)[:2]) + b"\n"),
    ],
)
def test_byte_tools_pass_bytes_through_unchanged(kernel: Kernel, script: str,
                                                 want: bytes) -> None:
    res = kernel.execute(script, stdin=RAW, binary=True)
    assert res.code == 0, res.err
    assert res.out == want


def test_tee_writes_the_same_bytes_to_its_file(kernel: Kernel, tmp_path: Path) -> None:
    kernel.execute("tee copy.bin < raw.bin", binary=True)
    assert (tmp_path / "copy.bin").read_bytes() == RAW


@pytest.mark.parametrize(
    "script",
    [
        "sort raw.bin", "sort -f raw.bin", "sort -n raw.bin", "sort -u raw.bin",
        "uniq raw.bin", "uniq -c -i raw.bin",
        "cut -c1-3 raw.bin", "cut -b2 raw.bin", "cut -d' ' -f1 raw.bin",
        "tr a-z A-Z < raw.bin", "tr -d '\\200' < raw.bin", "tr -s ' ' < raw.bin",
        "wc raw.bin", "wc -m raw.bin", "wc -L raw.bin",
        "grep a raw.bin", "grep -a -i CAF raw.bin", "grep -c . raw.bin", "grep -o 'na.' raw.bin",
        "sed s/a/A/g raw.bin", "sed -n l raw.bin", "sed 'y/abc/xyz/' raw.bin",
        "head -n 1 raw.bin", "tail -n 1 raw.bin", "tac raw.bin", "rev raw.bin", "nl raw.bin",
        "paste raw.bin raw.bin", "cat -A raw.bin", "cat raw.bin | xargs -0 echo",
    ],
)
def test_text_tools_do_not_crash_on_bytes_that_are_not_utf8(kernel: Kernel,
                                                           script: str) -> None:
    res = kernel.execute(script, binary=True)
    assert res.code != 70
    assert "Traceback" not in res.err and "internal error" not in res.err


def test_sort_orders_invalid_bytes_as_bytes(kernel: Kernel) -> None:
    res = kernel.execute("printf 'b\\n\\377\\na\\n' | sort", binary=True)
    assert res.out == b"a\nb\n\xff\n"


def test_grep_passes_the_matching_line_bytes_unchanged(kernel: Kernel) -> None:
    res = kernel.execute("grep -a caf raw.bin", binary=True)
    assert res.out == b"caf\xe9 \xff\xfe\n"
