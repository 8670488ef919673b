"""Load over MCP: N concurrent sessions of `tysh mcp --http` on loopback, each calling
`shell` M times with mixed scripts; every result is checked (the session's own state
included, so the run proves sessions stay apart). Prints throughput and latency
percentiles; then a client that disconnects mid-script must leave nothing running.

    .venv/bin/python bench/mcp_load.py            # 16 sessions × 200 scripts
    .venv/bin/python bench/mcp_load.py 2 10       # smaller (the test's size)
    .venv/bin/python bench/mcp_load.py 16 200 --json-response   # the server's JSON mode
"""

from __future__ import annotations

import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from mcp import Client

TYSH = [sys.executable, "-m", "tysh", "mcp"]


def scripts(sid: int, i: int) -> tuple[str, str]:
    """The i-th script of session sid and the output it must give."""
    kind = i % 5
    if kind == 0:
        return f"n={i}; echo $(( n * {sid} + 1 ))", f"{i * sid + 1}\n"
    if kind == 1:  # state from the previous call of this session
        return "echo $n:$SID", f"{i - 1}:{sid}\n"
    if kind == 2:
        return (f"printf '%s\\n' pear apple fig apple {sid} | sort | uniq -c | "
                "sort -rn | head -n 1 | sed 's/^ *//'", "2 apple\n")
    if kind == 3:
        return f"echo '{{\"a\": [{i}, {sid}]}}' | jq -c '.a | add'", f"{i + sid}\n"
    return (f"s=0; for k in $(seq 1 {i % 17 + 3}); do s=$((s+k)); done; echo $s",
            f"{sum(range(1, i % 17 + 4))}\n")


async def session(url: str, sid: int, count: int, lat: list[float]) -> int:
    bad = 0
    async with Client(url, mode="legacy") as c:  # the handshake era: one kernel
        await c.call_tool("shell", {"script": f"SID={sid}"})
        for i in range(count):
            src, want = scripts(sid, i)
            t0 = time.perf_counter()
            r = await c.call_tool("shell", {"script": src})
            lat.append(time.perf_counter() - t0)
            if r.is_error or r.structured_content["out"] != want:
                bad += 1
                print(f"session {sid} script {i}: {src!r} gave "
                      f"{r.structured_content!r}, want {want!r}", file=sys.stderr)
    return bad


# a client that starts a script and waits for it; it is killed mid-script (no cancel
# notification, no session teardown: the connection just drops)
_CLIENT = """
import asyncio, sys
from mcp import Client
async def main():
    async with Client(sys.argv[1], mode=sys.argv[2]) as c:
        await c.call_tool("shell", {"script": "x=1"})
        print("calling", flush=True)
        await c.call_tool("shell", {"script": "sleep 2; echo late > late.txt"})
asyncio.run(main())
"""


def disconnect_mid_script(url: str, root: str, mode: str = "legacy") -> bool:
    """A client killed during `sleep 2; echo late > late.txt`; True when the script
    was stopped (the file never appears, though it would have 2 s in)."""
    c = subprocess.Popen([sys.executable, "-c", _CLIENT, url, mode], stdout=subprocess.PIPE)
    assert c.stdout is not None
    started = c.stdout.readline() == b"calling\n"
    time.sleep(0.5)
    c.kill()
    c.wait()
    time.sleep(2.5)
    return started and not os.path.exists(os.path.join(root, "late.txt"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(root: str, extra: tuple[str, ...] = ()) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen([*TYSH, "--http", f"127.0.0.1:{port}", "--root", root, *extra],
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("tysh mcp --http did not start") from None
            time.sleep(0.05)


def run(sessions: int, count: int, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as root:
        proc, url = start(root, extra)
        try:
            lat: list[float] = []

            async def main() -> tuple[int, float]:
                t0 = time.perf_counter()
                bad = await asyncio.gather(*(session(url, s, count, lat)
                                             for s in range(sessions)))
                return sum(bad), time.perf_counter() - t0

            bad, wall = asyncio.run(main())
            stopped = disconnect_mid_script(url, root)
        finally:
            proc.terminate()
            proc.wait(10)
    lat.sort()
    return {"calls": len(lat), "bad": bad, "wall": wall,
            "throughput": len(lat) / wall, "p50": statistics.median(lat),
            "p95": lat[int(len(lat) * 0.95) - 1] if lat else 0.0, "stopped": stopped}


def main() -> int:
    extra = tuple(a for a in sys.argv[1:] if a.startswith("--"))
    nums = [a for a in sys.argv[1:] if not a.startswith("--")]
    sessions = int(nums[0]) if nums else 16
    count = int(nums[1]) if len(nums) > 1 else 200
    r = run(sessions, count, extra)
    print(f"{sessions} sessions x {count} scripts over HTTP{' '.join(('', *extra))}: "
          f"{r['calls']} calls in "
          f"{r['wall']:.2f}s, {r['throughput']:.0f} calls/s, "
          f"p50 {r['p50'] * 1000:.1f} ms, p95 {r['p95'] * 1000:.1f} ms, "
          f"wrong results: {r['bad']}")
    print("disconnect mid-script: " + ("the script was stopped" if r["stopped"]
                                       else "THE SCRIPT RAN ON"))
    return 0 if r["bad"] == 0 and r["stopped"] else 1


if __name__ == "__main__":
    sys.exit(main())
