"""nohup and nice: they run the command; nice prints the niceness and checks its
adjustment."""

from __future__ import annotations

from tysh import Kernel


def sandbox(**files: str) -> Kernel:
    return Kernel.isolated(files={k.replace("__", "/"): v for k, v in files.items()})


def test_nohup_runs_the_command() -> None:
    res = sandbox().execute("nohup echo hi; nohup; echo $?")
    assert res.out == "hi\n125\n"
    assert res.err.startswith("nohup: missing operand\n")


def test_nice_prints_zero_and_runs_commands() -> None:
    k = sandbox()
    assert k.execute("nice; nice -n 5 echo a; nice -5 echo b; nice --adjustment=2 echo c").out \
        == "0\na\nb\nc\n"
    res = k.execute("nice -n x true; echo $?")
    assert (res.out, res.err) == ("125\n", "nice: invalid adjustment 'x'\n")
    assert k.execute("nice -n 3; echo $?").out == "125\n"
