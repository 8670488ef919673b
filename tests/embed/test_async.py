"""asyncio: `await kernel.aexecute(src)`, concurrency across kernels, and task
cancellation that cancels the script."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import Kernel


def test_aexecute_returns_the_same_result_as_execute(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))

    async def main() -> tuple[int, str]:
        r = await k.aexecute("echo hi; read -r x; echo $x", stdin=b"there\n")
        return r.code, str(r.out)

    assert asyncio.run(main()) == (0, "hi\nthere\n")


def test_aexecute_runs_kernels_concurrently(tmp_path: Path) -> None:
    kernels = [Kernel.isolated() for _ in range(4)]

    async def main() -> list[str]:
        rs = await asyncio.gather(*(k.aexecute(f"sleep 0.5; echo {i}")
                                    for i, k in enumerate(kernels)))
        return [str(r.out) for r in rs]

    t = time.monotonic()
    assert asyncio.run(main()) == ["0\n", "1\n", "2\n", "3\n"]
    assert time.monotonic() - t < 1.6  # not 4 × 0.5 s one after another


def test_cancelling_the_task_cancels_the_script(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))

    async def main() -> float:
        task = asyncio.create_task(k.aexecute("sleep 30; echo late > late.txt"))
        await asyncio.sleep(0.2)
        t = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - t

    assert asyncio.run(main()) < 2
    assert not (tmp_path / "late.txt").exists()
    assert k.execute("echo ok").out == "ok\n"  # not busy any more


def test_a_task_cancelled_before_it_starts_never_runs(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))

    async def main() -> None:
        task = asyncio.create_task(k.aexecute("echo ran > ran.txt"))
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert not (tmp_path / "ran.txt").exists()


def test_aexecute_time_limit(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))

    async def main() -> int:
        return (await k.aexecute("while :; do :; done", timeout=0.2)).code

    assert asyncio.run(main()) == 124


def test_concurrent_aexecute_on_one_kernel_is_refused(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))

    async def main() -> list[int]:
        first = asyncio.create_task(k.aexecute("sleep 0.4"))
        await asyncio.sleep(0.1)
        second = await k.aexecute("echo x")
        return [(await first).code, second.code]

    assert asyncio.run(main()) == [0, 75]
