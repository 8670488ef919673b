"""Thread safety: many kernels side by side, each isolated; one kernel used from threads in
turn (the load test of bench/load.py, smaller)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from tysh.kernel.embed.kernel import Kernel

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from load import MIXED, expected, run_load  # noqa: E402


def test_sixteen_kernels_in_threads_all_get_correct_results() -> None:
    stats = run_load(16, 20)
    assert stats["scripts"] == 320
    assert stats["throughput"] > 0


def test_kernels_in_threads_keep_their_own_cwd_and_variables(tmp_path: Path) -> None:
    dirs = []
    for i in range(8):
        d = tmp_path / f"w{i}"
        (d / "sub").mkdir(parents=True)
        (d / "id.txt").write_text(f"{i}\n")
        dirs.append(d)
    results: dict[int, list[str]] = {}

    def worker(i: int) -> None:
        k = Kernel(cwd=str(dirs[i]))
        outs = []
        for _ in range(20):
            r = k.execute(f"v={i}; cd sub; cd ..; cat id.txt; echo $v; pwd")
            outs.append(r.out)
        results[i] = outs

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(8):
        assert set(results[i]) == {f"{i}\n{i}\n{dirs[i]}\n"}


def test_cancelling_one_kernel_leaves_the_others_running(tmp_path: Path) -> None:
    a = Kernel(cwd=str(tmp_path))
    b = Kernel.isolated(env={"ID": "k9"})
    got: dict[str, object] = {}
    t = threading.Thread(target=lambda: got.setdefault("a", a.execute("sleep 20")))
    t.start()
    threading.Timer(0.2, a.cancel).start()
    got["b"] = [b.execute(MIXED).out for _ in range(3)]
    t.join()
    assert getattr(got["a"], "code", None) == 130
    assert got["b"] == [expected("k9")] * 3


def test_one_kernel_used_from_threads_in_turn_is_safe(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    lock = threading.Lock()
    codes: list[int] = []

    def worker() -> None:
        for _ in range(10):
            with lock:
                r = k.execute("n=$(( ${n:-0} + 1 ))")
                codes.append(r.code)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert codes == [0] * 40
    assert k.execute("echo $n").out == "40\n"
