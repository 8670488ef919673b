"""xargs -P N: up to N commands at once, each in its own copy of the session."""

from __future__ import annotations

import time

from tysh.kernel.embed.kernel import Kernel


def test_parallel_commands_overlap_in_time() -> None:
    k = Kernel.isolated()
    t0 = time.monotonic()
    r = k.execute("seq 4 | xargs -P 4 -I{} sleep 0.3")
    parallel = time.monotonic() - t0
    assert r.code == 0
    assert parallel < 0.9  # one after another would take 1.2 s


def test_parallel_output_has_every_line_once() -> None:
    r = Kernel.isolated().execute("seq 200 | xargs -P 8 -n 3 echo | tr ' ' '\\n' | sort -n")
    assert r.out == "".join(f"{i}\n" for i in range(1, 201))


def test_parallel_status_is_123_when_a_command_fails() -> None:
    r = Kernel.isolated().execute('printf "0\\n1\\n0\\n" | xargs -P 2 -I{} test {} -eq 0')
    assert r.code == 123


def test_a_command_exiting_255_stops_the_run_with_124_and_one_message() -> None:
    k = Kernel.isolated()
    k.execute("f() { return 255; }")
    r = k.execute("seq 6 | xargs -P 2 -n 1 f")
    assert r.code == 124
    assert r.err.count("aborting") == 1


def test_parallel_commands_do_not_change_the_callers_variables() -> None:
    k = Kernel.isolated()
    k.execute("x=keep; g() { x=changed; }")
    assert k.execute("seq 3 | xargs -P 3 -n 1 g; echo $x").out == "keep\n"


def test_p_zero_runs_as_many_as_allowed_and_negative_is_refused() -> None:
    k = Kernel.isolated()
    assert k.execute("seq 5 | xargs -P 0 -n 1 echo | wc -l").out.strip() == "5"
    bad = k.execute("echo a | xargs -P -1 echo")
    assert bad.code == 1 and 'invalid number "-1" for -P option' in bad.err
