"""Threads that run shell code get a deep stack for the moment they start, so deep
recursion ends with the nesting limit, and the process-wide default stays the embedder's."""

from __future__ import annotations

import threading

from tysh.kernel.embed.kernel import Kernel


def test_a_kernel_leaves_the_process_thread_stack_size_alone() -> None:
    before = threading.stack_size()
    k = Kernel.isolated()
    assert k.execute("f() { n=$1; [ $n -gt 0 ] && f $((n-1)) | cat; }; f 3; echo ok").out \
        == "ok\n"
    assert threading.stack_size() == before


def test_deep_recursion_from_an_ordinary_thread_ends_with_the_nesting_limit() -> None:
    k = Kernel.isolated()
    got: dict[str, tuple[int, str]] = {}

    def run() -> None:
        r = k.execute("f() { f; }; f")
        got["r"] = (r.code, r.err)

    t = threading.Thread(target=run)  # the default stack, as an embedding app's thread
    t.start()
    t.join()
    code, err = got["r"]
    assert code == 1 and "maximum function nesting exceeded" in err
