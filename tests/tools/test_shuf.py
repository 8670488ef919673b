"""shuf: permutations, --random-source, -n/-r, ranges, -o, errors and typed output."""

from __future__ import annotations

import json

from tysh import Kernel


def sandbox(**files: str) -> Kernel:
    return Kernel.isolated(files={k.replace("__", "/"): v for k, v in files.items()})


def test_shuf_outputs_a_permutation_of_its_lines() -> None:
    res = sandbox().execute("shuf", stdin="a\nb\nc\nd")
    assert sorted(res.out.splitlines()) == ["a", "b", "c", "d"]


def test_shuf_random_source_is_deterministic() -> None:
    k = sandbox(**{"seed": "some bytes"})
    a = k.execute("shuf -i 1-20 --random-source=seed").out
    assert a == k.execute("shuf -i 1-20 --random-source=seed").out
    assert sorted(map(int, a.split())) == list(range(1, 21))


def test_shuf_n_caps_and_repeat_draws_with_replacement() -> None:
    k = sandbox()
    assert len(k.execute("shuf -n 2 -e a b c").out.splitlines()) == 2
    out = k.execute("shuf -r -n 50 -e x").out
    assert out == "x\n" * 50
    assert k.execute("shuf -r -e a b | head -n 3 | wc -l").out.strip() == "3"


def test_shuf_huge_range_with_n_is_cheap() -> None:
    out = sandbox().execute("shuf -i 1-1000000000000 -n 3").out.split()
    assert len(out) == 3 and all(1 <= int(v) <= 10**12 for v in out)


def test_shuf_reports_gnu_errors() -> None:
    k = sandbox()
    res = k.execute("shuf -e -i 1-2")
    assert (res.code, res.err.splitlines()[0]) == (1, "shuf: cannot combine -e and -i options")
    assert k.execute("shuf -i 3-1").err == "shuf: invalid input range: '3-1'\n"
    assert k.execute("shuf -n x").err == "shuf: invalid line count: 'x'\n"
    assert k.execute("shuf -i 2-1; echo $?").out == "0\n"


def test_shuf_o_writes_the_file() -> None:
    k = sandbox(**{"f": "1\n2\n"})
    res = k.execute("shuf -o f f; sort f")
    assert res.out == "1\n2\n"


def test_shuf_json_gives_lines_or_numbers() -> None:
    k = sandbox()
    assert sorted(json.loads(k.execute("shuf --json -e a b").out)) == ["a", "b"]
    assert sorted(json.loads(k.execute("shuf --json -i 1-3").out)) == [1, 2, 3]
