"""Validating a 20-property argument object: tysh's validator against `jsonschema`'s own
validator (Draft202012Validator, built once) on the schema tysh compiles, and against
`fastjsonschema` (code generated once). One valid object and one with three violations.

    .venv/bin/python bench/values.py [--rounds N] [--calls N]

Rounds are interleaved (each round times every validator on every vector once); the
minimum and median per-call times are reported, ratios are of the minimums. Note what
each one returns: tysh and jsonschema (`iter_errors`) every violation, fastjsonschema
only the first (it raises)."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import fastjsonschema
import jsonschema

from tysh import values as s
from tysh.kernel.tools.values.check import check_root
from tysh.kernel.tools.values.compile import root_schema
from tysh.kernel.tools.values.validate import validate

PARAMS: dict[str, s.Node[Any, Any]] = {
    "query": s.string(required=True, min_length=1),
    "limit": s.integer(minimum=1, maximum=1000),
    "offset": s.integer(minimum=0),
    "mode": s.string(enum=["fast", "deep", "exact"]),
    "exact": s.boolean(),
    "ratio": s.number(minimum=0, maximum=1),
    "lang": s.string(pattern="^[a-z]{2}$"),
    "tags": s.array(s.string(), max_items=10),
    "ids": s.array(s.integer(minimum=0), unique_items=True),
    "filter": s.object({"kind": s.string(required=True), "depth": s.integer()},
                       additional_properties=False),
    "sort": s.string(enum=["asc", "desc"]),
    "user": s.string(max_length=64),
    "since": s.string(),
    "until": s.string(),
    "verbose": s.boolean(),
    "timeout": s.number(exclusive_minimum=0),
    "retries": s.integer(minimum=0, maximum=5),
    "extra": s.json(),
    "target": s.one_of(s.string(), s.array(s.string())),
    "page": s.integer(minimum=1, multiple_of=1),
}
GOOD = {
    "query": "cats", "limit": 10, "offset": 0, "mode": "fast", "exact": True, "ratio": 0.5,
    "lang": "en", "tags": ["a", "b"], "ids": [1, 2, 3], "filter": {"kind": "py", "depth": 2},
    "sort": "asc", "user": "me", "since": "2020", "until": "2021", "verbose": False,
    "timeout": 1.5, "retries": 2, "extra": {"k": [1]}, "target": ["x"], "page": 1,
}
BAD = {**GOOD, "limit": "10", "mode": "slow", "filter": {"kind": 1, "depth": 2}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--calls", type=int, default=2000)
    opts = ap.parse_args()
    node = check_root("bench", PARAMS)
    schema = root_schema(node)
    js = jsonschema.Draft202012Validator(schema)
    fast = fastjsonschema.compile(schema)

    def fast_all(v: Any) -> int:
        try:
            fast(v)
            return 0
        except fastjsonschema.JsonSchemaValueException:
            return 1

    assert validate(node, GOOD) == [] and js.is_valid(GOOD) and fast_all(GOOD) == 0
    assert len(validate(node, BAD)) == 3 and len(list(js.iter_errors(BAD))) == 3
    runners: dict[str, Callable[[Any], Any]] = {
        "tysh": lambda v: validate(node, v),
        "jsonschema": lambda v: list(js.iter_errors(v)),
        "fastjsonschema": fast_all,
    }
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(opts.rounds):
        for vec_name, vec in (("valid", GOOD), ("3 violations", BAD)):
            for name, fn in runners.items():
                t0 = time.perf_counter()
                for _ in range(opts.calls):
                    fn(vec)
                dt = (time.perf_counter() - t0) / opts.calls
                times.setdefault((vec_name, name), []).append(dt)
    for vec_name in ("valid", "3 violations"):
        base = min(times[(vec_name, "tysh")])
        print(f"{vec_name}:")
        for name in runners:
            ts = times[(vec_name, name)]
            lo, med = min(ts), statistics.median(ts)
            ratio = "" if name == "tysh" else f"  tysh is {lo / base:.1f}x faster" \
                if lo >= base else f"  tysh is {base / lo:.1f}x slower"
            print(f"  {name:15s} min {lo * 1e6:8.1f} us  median {med * 1e6:8.1f} us{ratio}")


if __name__ == "__main__":
    main()
