"""Every option of every builtin, given the values that break number handling (zero,
negative, 2^31, 2^63, 1e20, a word, a lone surrogate, thousands of digits), ends as a
value: no internal error (status 70), no traceback, no exception out of the kernel,
and each call within its time limit.

The option's value is given with the option and again with nothing else, so both
"takes the next word" and a tool's own parsing of a text option are reached. The
default run covers every option with every value; TYSH_FUZZ_OPTIONS_SEED=N shuffles
which operands each call gets (a longer exploration: loop over seeds)."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tysh import Kernel
from tysh.builtins import all_builtins

VALUES = ["0", "-1", "2147483648", "9223372036854775808", "1e20", "x", "\udc00", "9" * 5000,
          "-9223372036854775809", "nan", "inf", "1" * 25]

# tools whose every run waits for the time limit by design (they follow or repeat)
SLOW = {"sleep", "yes"}

SEED = int(os.environ.get("TYSH_FUZZ_OPTIONS_SEED", "0"))


def _options() -> Iterator[tuple[str, list[str], str]]:
    """(tool name, subcommand path, option spelling) for every value-taking option."""
    for tool in all_builtins():
        stack: list[tuple[Any, list[str]]] = [(tool.schema, [])]
        while stack:
            node, path = stack.pop()
            for p in node.params:
                if p.positional or p.param_type == "bool":
                    continue
                yield tool.name, path, (p.aliases[0] if p.aliases else p.long_spelling)
            stack.extend((c, [*path, c.name]) for c in node.subcommands)


OPTIONS = sorted(set((n, tuple(p), o) for n, p, o in _options()))


def _kernel() -> Kernel:
    return Kernel.isolated(files={"f": "a\tb c\n1 2\n", "g": "1\n"})


@pytest.fixture(scope="module")
def kernel() -> Kernel:
    return _kernel()


@pytest.mark.parametrize(("name", "path", "option"), OPTIONS,
                         ids=[f"{n}{''.join(' ' + x for x in p)} {o}" for n, p, o in OPTIONS])
def test_numeric_edge_values_never_fault(kernel: Kernel, name: str, path: tuple[str, ...],
                                         option: str) -> None:
    rnd = random.Random(f"{SEED}:{name}:{option}")
    for value in VALUES:
        operands = ["f"] if not SEED else rnd.choice([[], ["f"], ["f", "g"], ["-"]])
        for argv in ([*path, option, value, *operands], [*path, f"{option}={value}"]
                     if option.startswith("--") else [*path, option + value]):
            t0 = time.monotonic()
            r = kernel.execute_argv(name, argv, stdin="a\tb c\n1 2\n", timeout=0.5)
            took = time.monotonic() - t0
            where = f"{name} {argv!a}"[:120]
            assert r.code != 70, f"{where}: {r.err[-300:]}"
            assert "Traceback" not in r.err and "internal error" not in r.err, where
            assert took < (3.0 if name not in SLOW else 5.0), f"{where}: took {took:.1f}s"
