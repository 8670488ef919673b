"""`/dev/stdin`, `/dev/stdout`, `/dev/stderr` and `/dev/fd/0-2` named as tool operands mean
the command's own streams — in a pipeline stage and in a sandbox with no /dev, too."""

from __future__ import annotations

import pytest

from tysh import Kernel


@pytest.fixture(params=["isolated", "confined"])
def kernel(request: pytest.FixtureRequest, tmp_path: object) -> Kernel:
    return Kernel.isolated() if request.param == "isolated" else Kernel(cwd=str(tmp_path))


@pytest.mark.parametrize(
    ("script", "out"),
    [
        ("echo data | cat /dev/stdin", "data\n"),
        ("echo data | cat /dev/fd/0", "data\n"),
        ("printf '1\\n2\\n3\\n' | head -n 2 /dev/stdin", "1\n2\n"),
        ("printf 'b\\na\\n' | sort /dev/stdin", "a\nb\n"),
        ("printf 'a\\nb\\n' | wc -l /dev/stdin", "2 /dev/stdin\n"),
        ("printf 'x\\ny\\n' | grep y /dev/stdin", "y\n"),
        ("printf 'x\\ny\\n' | grep -H y /dev/stdin", "/dev/stdin:y\n"),
        ("echo abc | sed s/b/B/ /dev/stdin", "aBc\n"),
        ("echo abc | awk '{print $1}' /dev/fd/0", "abc\n"),
        ("echo '{\"a\": 1}' | jq .a /dev/stdin", "1\n"),
        ("echo same | diff - /dev/stdin; echo $?", "0\n"),
        ("echo p > pats.txt; printf 'p\\nq\\n' | grep -f pats.txt /dev/stdin", "p\n"),
        ("echo p > in.txt; echo p | grep -f /dev/stdin in.txt", "p\n"),
    ],
)
def test_tools_read_the_commands_stdin_through_dev_stdin(
    kernel: Kernel, script: str, out: str
) -> None:
    r = kernel.execute(script)
    assert (r.out, r.err) == (out, "")


@pytest.mark.parametrize(
    ("script", "out", "err"),
    [
        ("echo t | tee /dev/stderr", "t\n", "t\n"),
        ("echo t | tee /dev/stdout", "t\nt\n", ""),
        ("echo t | tee -a /dev/fd/2 >/dev/null", "", "t\n"),
        ("printf 'b\\na\\n' | sort -o /dev/stdout", "a\nb\n", ""),
        ("echo w | sed -n 'w /dev/stderr'", "", "w\n"),
        ("printf 'u\\nu\\n' | uniq - /dev/stderr", "", "u\n"),
    ],
)
def test_tools_write_the_commands_streams_through_dev_stdout_and_stderr(
    kernel: Kernel, script: str, out: str, err: str
) -> None:
    r = kernel.execute(script)
    assert (r.out, r.err, r.code) == (out, err, 0)


def test_tee_to_dev_stdout_leaves_the_stream_open_for_later_commands(kernel: Kernel) -> None:
    r = kernel.execute("echo a | tee /dev/stdout; echo after; sed -n 'w /dev/stderr' <<< b; echo c >&2")
    assert (r.out, r.err) == ("a\na\nafter\n", "b\nc\n")


def test_dev_stdout_is_the_stream_after_redirection_as_in_bash(kernel: Kernel) -> None:
    # bash opens /dev/stdout after the command's own redirections: here it is /dev/null
    assert kernel.execute("echo a | tee /dev/stdout >/dev/null; echo after").out == "after\n"
