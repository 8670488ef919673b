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
