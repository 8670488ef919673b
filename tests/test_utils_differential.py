"""The utils family against the host's GNU tools: the same argv through GNU (a
subprocess) and through an in-process Kernel with externals off, stdout and exit status
compared byte for byte. diff gets a randomized run — small file pairs over a tiny
alphabet of lines, where many minimal diffs exist and only GNU's algorithm picks GNU's —
in normal and unified format, the unified headers' time stamps normalised. A case is
skipped when its GNU tool is missing."""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

import pytest
from harness import host_run, kernel_run  # noqa: E402

from tysh.kernel.embed.kernel import Kernel

_ENV = {**os.environ, "LC_ALL": "C", "TZ": "UTC"}
_STAMP = re.compile(rb"^(---|\+\+\+) (\S+)\t.*$", re.MULTILINE)


def _gnu(argv: list[str], cwd: Path, stdin: bytes = b"") -> tuple[int, bytes]:
    return host_run(argv, cwd, stdin, _ENV)


_ours = kernel_run


def _kernel(tmp: Path) -> Kernel:
    k = Kernel(cwd=str(tmp))
    k.execute("TZ=UTC")
    return k


def _need(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")


def _norm(out: bytes) -> bytes:
    return _STAMP.sub(rb"\1 \2\tSTAMP", out)


def _random_lines(rng: random.Random) -> bytes:
    alphabet = "abcdefgh"[: rng.choice((2, 3, 4, 6, 8))]
    n = rng.choice((0, 1, 3, 8, 15, 30, 60))
    text = "".join(rng.choice(alphabet) + "\n" for _ in range(n))
    if text and rng.random() < 0.15:
        text = text[:-1]  # no newline at the end
    return text.encode()


def test_diff_randomized_pairs_match_gnu_byte_for_byte(tmp_path: Path) -> None:
    _need("diff")
    rng = random.Random(20261130)
    k = _kernel(tmp_path)
    bad: list[str] = []
    cases = 0
    for n in range(250):
        a, b = _random_lines(rng), _random_lines(rng)
        if rng.random() < 0.3 and a:  # a near-copy: a few edits of a
            lines = a.split(b"\n")
            for _ in range(rng.randint(1, 3)):
                lines.insert(rng.randint(0, len(lines)), rng.choice((b"a", b"z", b"b")))
            b = b"\n".join(lines)
        (tmp_path / "a").write_bytes(a)
        (tmp_path / "b").write_bytes(b)
        for opts in ([], ["-u"], ["-U", "1"], ["-U", "0"]):
            argv = ["diff", *opts, "a", "b"]
            want = _gnu(argv, tmp_path)
            got = _ours(k, argv)
            cases += 1
            if (want[0], _norm(want[1])) != (got[0], _norm(got[1])):
                bad.append(f"case {n} {opts}: a={a!r} b={b!r}")
    print(f"\ndiff randomized: {cases - len(bad)} of {cases} identical to GNU")
    assert not bad, "\n".join(bad[:5])


_DIFF_FILES = {
    "x": b"Hello  World\nfoo\n\nbar\nbaz\n",
    "y": b"hello world\nfoo\nbar\n\nqux\n",
    "bin1": b"a\0b", "bin2": b"a\0c",
    "d1/f": b"1\n2\n3\n", "d2/f": b"1\nX\n3\n", "d1/same": b"s\n", "d2/same": b"s\n",
    "d1/only1": b"o\n", "d2/sub/only2": b"p\n", "d1/sub/k": b"k\n",
}
_DIFF_CASES = [
    ["diff", "x", "y"], ["diff", "-i", "x", "y"], ["diff", "-w", "x", "y"],
    ["diff", "-b", "x", "y"], ["diff", "-B", "x", "y"], ["diff", "-i", "-w", "-B", "x", "y"],
    ["diff", "-q", "x", "y"], ["diff", "-s", "x", "x"], ["diff", "bin1", "bin2"],
    ["diff", "x", "nosuch"], ["diff", "-r", "d1", "d2"], ["diff", "d1", "d2"],
    ["diff", "-N", "-r", "d1", "d2"], ["diff", "-u", "-r", "d1", "d2"],
    ["diff", "-q", "-r", "d1", "d2"], ["diff", "d1", "y"], ["diff", "-", "x"],
]


@pytest.mark.parametrize("argv", _DIFF_CASES, ids=" ".join)
def test_diff_options_match_gnu(tmp_path: Path, argv: list[str]) -> None:
    _need("diff")
    for name, data in _DIFF_FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    (tmp_path / "d1" / "y").write_bytes(b"hello\n")
    stdin = b"Hello World\n"
    want = _gnu(argv, tmp_path, stdin)
    got = _ours(_kernel(tmp_path), argv, stdin)
    assert (got[0], _norm(got[1])) == (want[0], _norm(want[1]))


_SUM_CASES = [
    [t, *extra] for t in ("md5sum", "sha1sum", "sha256sum", "sha512sum")
    for extra in (["f", "g"], ["-b", "f"], ["--tag", "f"], ["f", "nosuch", "g"], ["a\\b"],
                  ["-"], ["-c", "SUMS"], ["-c", "--quiet", "SUMS"], ["-c", "--status", "SUMS"])
]


@pytest.mark.parametrize("argv", _SUM_CASES, ids=" ".join)
def test_checksums_match_gnu(tmp_path: Path, argv: list[str]) -> None:
    _need(argv[0])
    (tmp_path / "f").write_bytes(b"hello\n")
    (tmp_path / "g").write_bytes(bytes(range(256)) * 100)
    (tmp_path / "a\\b").write_bytes(b"x")
    _, sums = _gnu([argv[0], "f", "g", "a\\b"], tmp_path)
    (tmp_path / "SUMS").write_bytes(sums + b"0" * 128 + b"  g\nbad line\n" +
                                    sums.splitlines(keepends=True)[0].replace(b"  f", b"  gone"))
    want = _gnu(argv, tmp_path, b"stdin data")
    assert _ours(_kernel(tmp_path), argv, b"stdin data") == want


_B64_INPUTS = [b"", b"h", b"hi", b"hi!", bytes(range(256)) * 4, b"x" * 57, b"y" * 58]


@pytest.mark.parametrize("opts", [[], ["-w", "0"], ["-w", "5"], ["-w", "1"], ["-w", "76"]])
def test_base64_encode_matches_gnu(tmp_path: Path, opts: list[str]) -> None:
    _need("base64")
    k = _kernel(tmp_path)
    for data in _B64_INPUTS:
        assert _ours(k, ["base64", *opts], data) == _gnu(["base64", *opts], tmp_path, data)


@pytest.mark.parametrize("data", [b"aGk=\n", b"aGk=aGk=", b"aGk=x", b"aGk", b"a\nG\nk\n=\n",
                                  b"!!", b"aG!k=", b""])
def test_base64_decode_matches_gnu(tmp_path: Path, data: bytes) -> None:
    _need("base64")
    k = _kernel(tmp_path)
    for opts in (["-d"], ["-d", "-i"]):
        assert _ours(k, ["base64", *opts], data) == _gnu(["base64", *opts], tmp_path, data)


@pytest.mark.parametrize("opts", [["-b"], ["--apparent-size"], ["-a", "-b"], ["-s", "-b"],
                                  ["-c", "-b"], ["-b", "-d", "1"], ["-h", "--apparent-size"],
                                  ["--si", "--apparent-size"], ["-a", "--apparent-size", "-k"]])
def test_du_apparent_sizes_match_gnu(tmp_path: Path, opts: list[str]) -> None:
    _need("du")
    tree = tmp_path / "t"
    for name, size in (("a", 5000), ("s/b", 10), ("s/deep/c", 70000), ("e", 0)):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_bytes(b"x" * size)
    os.link(tree / "a", tree / "s" / "hard")
    want = _gnu(["du", *opts, "t"], tmp_path)
    got = _ours(_kernel(tmp_path), ["du", *opts, "t"])
    assert got[0] == want[0]
    assert sorted(got[1].splitlines()) == sorted(want[1].splitlines())


_DATES = ["@1700000000", "@0", "@-86401", "@1700000000.123456789", "2024-01-31",
          "2024-02-29 13:45", "2024-01-31T12:34:56Z", "2024-01-31T12:34:56+05:30",
          "2024-01-31 12:34:56.5", "2024-01-31 + 1 month", "2024-03-10 3 days ago",
          "2024-03-10 -2 weeks", "2023-12-31 +36 hours", "xyz", "2024-13-01"]
_FORMATS = ["+%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M",
            "+%n%N %p %P %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %:z %::z %Z %%",
            "+%-d %_d %05d %^a %#b %10s %3N %-I %_H %^B"]


@pytest.mark.parametrize("when", _DATES)
def test_date_matches_gnu_for_fixed_inputs(tmp_path: Path, when: str) -> None:
    _need("date")
    k = _kernel(tmp_path)
    for extra in ([], *([f] for f in _FORMATS), ["-R"], ["-I"], ["--iso-8601=ns"],
                  ["--iso-8601=hours"], ["--rfc-3339=seconds"]):
        argv = ["date", "-d", when, *extra]
        assert _ours(k, argv) == _gnu(argv, tmp_path), argv
