"""CappedOutput: the buffer behind the output limit keeps everything under the limit, and
past it the head, a marker and the tail, in bounded memory."""

from __future__ import annotations

from tysh.kernel.base.limits import CappedOutput


def test_capped_output_keeps_everything_under_the_limit() -> None:
    c = CappedOutput(10)
    c.write(b"abc")
    c.write(b"def")
    assert (c.result(), c.over) == (b"abcdef", False)


def test_capped_output_keeps_head_and_tail_with_a_marker() -> None:
    c = CappedOutput(10)
    c.write(b"0123456789ABCDEFGHIJ")
    assert c.result() == b"01234\n\xe2\x80\xa6 [tysh: output truncated: 10 bytes omitted] \xe2\x80\xa6\nFGHIJ"


def test_capped_output_memory_stays_bounded() -> None:
    c = CappedOutput(1000)
    for _ in range(10000):
        c.write(b"x" * 100)
    assert len(c._tail) < 2 * 1000 + (1 << 16) + 100
    assert c.total == 1_000_000


def test_streams_sharing_a_lock_keep_their_own_content_and_limits() -> None:
    import _thread
    import threading

    lock = _thread.allocate_lock()
    out, err = CappedOutput(100, lock), CappedOutput(10, lock)

    def write(stream: CappedOutput, data: bytes) -> None:
        for _ in range(200):
            stream.write(data)

    threads = [threading.Thread(target=write, args=(s, d))
               for s, d in ((out, b"o"), (err, b"e"), (out, b"o"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert (out.total, err.total, out.over, err.over) == (400, 200, True, True)
    assert set(out.result().split(b"\n")[0]) == {ord("o")}
    assert set(err.result().split(b"\n")[0]) == {ord("e")}
    assert not lock.locked()


def test_a_stream_has_no_instance_dict_and_starts_empty() -> None:
    c = CappedOutput(-5)
    assert (c.limit, c.total, c.over, c.check) == (0, 0, False, None)
    assert "__dict__" not in CappedOutput.__slots__
