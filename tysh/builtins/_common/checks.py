"""Checks of a bound args instance before anything runs (`Kernel.validate`): the regex,
sed script or jq filter written literally in a command line, reported with the message
the tool itself would print — so an embedder refuses the whole script instead of
finding out halfway through it.

Only what is certain from the arguments is checked: patterns read from files (`-f`)
are skipped, since the file may be written by the script before the command runs."""

from __future__ import annotations

from typing import Any

from tysh.kernel.text.regex import Kind, validate


def check_grep(args: Any) -> list[str]:
    """The compile error of each literal grep pattern (-e or the first operand)."""
    if args.fixed_strings:
        return []
    kind: Kind = "perl" if args.perl_regexp else "ere" if args.extended_regexp else "bre"
    if args.regexp:
        pats: list[str] = [p for e in args.regexp for p in e.split("\n")]
    elif args.file or not args.operands:
        return []
    else:
        pats = args.operands[0].split("\n")
    out: list[str] = []
    for p in pats:
        msg = validate(p, kind)
        if msg is not None:
            out.append(f"grep: {msg}")
    return out


def check_sed(args: Any) -> list[str]:
    """The parse error of a literal sed script (-e pieces or the first operand)."""
    from tysh.builtins.sed.tool import SedError, _Parser

    if args.file:
        return []
    if args.expression:
        pieces = [(e, f"-e expression #{k}") for k, e in enumerate(args.expression, 1)]
    elif args.operands:
        pieces = [(args.operands[0], "-e expression #1")]
    else:
        return []
    bounds: list[tuple[int, str]] = []
    off = 0
    for text, label in pieces:
        bounds.append((off, label))
        off += len(text) + 1
    script = "\n".join(t for t, _ in pieces)
    try:
        _Parser(script, bounds, args.regexp_extended).parse()
    except SedError as e:
        return [f"sed: {e.message}"]
    except (RecursionError, ValueError) as e:  # never let a check itself fail loudly
        return [f"sed: {e}"]
    return []


def check_jq(args: Any) -> list[str]:
    """The compile error of a literal jq filter, with its --arg names declared."""
    from tysh.builtins.json.jq import _MODULE

    if args.from_file is not None or args.filter is None:
        return []
    text: str = args.filter
    if _MODULE.search(text):
        return ["jq: error: modules (import/include) are not available in tysh's jq"]
    try:
        import jq as libjq  # type: ignore[import-not-found]  # lazy: libjq costs startup
    except ImportError:
        return []
    named: dict[str, Any] = {}
    for pairs in (args.arg, args.argjson, args.slurpfile, args.rawfile):
        for name, _value in pairs:
            named[name] = None
    try:
        libjq.compile(text, args=named)
    except ValueError as e:
        msg = str(e).rstrip("\n")
        return [msg if msg.startswith("jq: ") else "jq: error: " + msg]
    except RecursionError:
        return ["jq: error: filter nested too deeply"]
    return []
