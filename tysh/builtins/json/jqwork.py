"""libjq's side of jq, run in a worker process (kernel.base.worker): libjq loops
holding the interpreter lock and aborts on some programs, so the host never calls it.

Requests and replies are JSON; compiled programs are kept per (program, variables)."""

from __future__ import annotations

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_progs: dict[str, Any] = {}


def _compile(program: str, args: dict[str, Any]) -> Any:
    import jq as libjq  # type: ignore[import-not-found]

    key = program + "\0" + json.dumps(args, sort_keys=True)
    prog = _progs.get(key)
    if prog is None:
        prog = libjq.compile(program, args=args)
        if len(_progs) > 64:
            _progs.clear()
        _progs[key] = prog
    return prog


def check(payload: dict[str, Any]) -> str | None:
    """The compile error of a program, or None."""
    try:
        _compile(payload["program"], payload["args"])
    except ValueError as e:
        return str(e)
    except RecursionError:
        return "filter nested too deeply"
    return None


def run(payload: dict[str, Any]) -> dict[str, Any]:
    """Run a program on JSON text: the values it gave and the error that ended it. With
    `all`, either every value or the error alone."""
    prog = _compile(payload["program"], payload["args"])
    if payload.get("all"):
        try:
            return {"values": prog.input_text(payload["text"]).all(), "error": None}
        except ValueError as e:
            return {"values": None, "error": str(e)}
    out: list[Any] = []
    it = iter(prog.input_text(payload["text"]))
    while True:
        try:
            v = next(it)
        except StopIteration:
            break
        except ValueError as e:  # never call next() again after an error
            return {"values": out, "error": str(e)}
        out.append(v)
    return {"values": out, "error": None}
