"""Tool-call events: every command a script runs — builtin, registered tool, function,
external program — reported as ACP `tool_call` / `tool_call_update` updates (plain
dicts), each stamped with the tool-identity envelope under `_meta["x.ai/tool"]`.

The interpreter calls `observed` only when a listener is attached (`Interpreter.events`
is not None), so a kernel nobody listens to pays one attribute check per command. A
compound command reports the commands it runs, not itself; a pipeline reports each
stage (from the stage's own thread: the emitter serialises the callback)."""

from __future__ import annotations

import itertools
import secrets
import threading
from collections.abc import Callable

from tysh.kernel.base.argv import Arg, Flag, Operand
from tysh.kernel.base.control import BreakLoop, ContinueLoop, ExitShell, ReturnFromFunction
from tysh.kernel.base.hints import Any
from tysh.kernel.base.limits import Cancelled, TimedOut
from tysh.kernel.base.streams import Fds, NullIO
from tysh.kernel.base.values import to_json_value, to_text
from tysh.kernel.syntax import ast
from tysh.kernel.tools.kinds import acp_kind_of, kind_from_operations, label_of, normal_kind

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

if TYPE_CHECKING:
    from tysh.kernel.run.interpreter import Interpreter
    from tysh.kernel.tools.schema import ToolSchema
    from tysh.kernel.tools.tool import Tool

ENVELOPE_KEY = "x.ai/tool"
ENVELOPE_VERSION = 1
# how much of a command's stdout and stderr an event carries
EXCERPT = 4096
# the largest typed result (as JSON text) an event carries
DATA_LIMIT = 16384
# the largest file whose text before and after an edit goes into a diff block
DIFF_LIMIT = 1 << 18
# the most files one call's diff blocks show (`sed -i … *` over thousands of files)
DIFF_FILES = 8
_TITLE_LIMIT = 1000
# kinds whose files get a before/after diff block
_DIFFED = frozenset(("edit", "write"))
# the kinds a redirection to a file does not turn into a write
_CHANGING = frozenset(("edit", "write", "delete", "move", "copy", "execute"))
_OUT_OPS = frozenset((">", ">>", ">|", "&>", "&>>"))

Listener = Callable[[dict[str, Any]], None]


class Emitter:
    """Where a kernel's events go: `callback(update)` for each one, from whichever thread
    runs the command, one at a time. A listener that raises does not fail the script:
    the error is counted in `errors` and the run goes on."""

    def __init__(self, callback: Listener) -> None:
        self.callback = callback
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._prefix = "tysh-" + secrets.token_hex(4) + "-"
        self.errors = 0
        # pipeline stages known to read a line window: id(cmd) -> (cmd, window)
        self._windows: dict[int, tuple[ast.Command, dict[str, int]]] = {}

    def hint(self, cmds: tuple[ast.Command, ...]) -> None:
        """Before a pipeline runs: a stage that reads one file into a stage that keeps a
        line window of it (`cat -n f | sed -n '10,30p'`, `cat f | head -n 5`) is a read
        of that window, when both are written out literally."""
        for a, b in zip(cmds, cmds[1:], strict=False):
            window = _piped_window(a, b)
            if window is not None:
                with self._lock:
                    if len(self._windows) > 1024:
                        self._windows.clear()
                    self._windows[id(a)] = (a, window)

    def window_of(self, cmd: ast.SimpleCommand | None) -> dict[str, int] | None:
        entry = self._windows.get(id(cmd)) if cmd is not None else None
        return entry[1] if entry is not None and entry[0] is cmd else None

    def new_id(self) -> str:
        return self._prefix + str(next(self._ids))

    def emit(self, update: dict[str, Any]) -> None:
        with self._lock:
            try:
                self.callback(update)
            except Exception:  # noqa: BLE001 — a listener's fault is not the script's
                self.errors += 1


class _Tee:
    """A command's stdout or stderr that passes everything on and keeps its start."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.kept = bytearray()
        self.total = 0

    def write(self, data: bytes) -> int:
        n = len(data)
        self.total += n
        room = EXCERPT - len(self.kept)
        if room > 0:
            self.kept += bytes(data[:room])
        return self.stream.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def observed(interp: Interpreter, cmd: ast.SimpleCommand | None, name: str, fn: Any,
             tool: Tool | None, args: list[Arg], fds: Fds,
             run: Callable[[Fds], int]) -> int:
    """Run one command (`run(fds)`) between its events: `tool_call` (pending), an
    `in_progress` update, then `completed` (status 0) or `failed`."""
    em: Emitter = interp.events
    try:
        call = _describe(interp, cmd, name, fn, tool, args)
    except Exception:  # noqa: BLE001 — a call that cannot be described is still reported
        call = _Call(name, "other", {"argv": [name]}, [], {
            "version": ENVELOPE_VERSION, "name": name, "kind": "other",
            "namespace": "host" if fn is None and tool is None else "tysh",
            "label": label_of("other"), "read_only": False}, [])
    call_id = em.new_id()
    em.emit({"sessionUpdate": "tool_call", "toolCallId": call_id, "title": call.title,
             "kind": acp_kind_of(call.kind), "status": "pending",
             "rawInput": call.raw_input,
             "locations": [{"path": p} for p in call.locations],
             "_meta": {ENVELOPE_KEY: call.envelope}})
    before = _snapshot(interp, call.diffed)
    em.emit({"sessionUpdate": "tool_call_update", "toolCallId": call_id,
             "status": "in_progress"})
    # only a tool that runs in the command's own streams gets its output kept: a
    # function's commands report their own, and a shell builtin may change the table
    tees: list[_Tee | None] = [None, None]
    run_fds = fds
    if fn is None and (tool is None or not tool.session):
        run_fds = dict(fds)
        for i, fd in enumerate((1, 2)):
            s = fds.get(fd)
            if s is not None and not isinstance(s, NullIO):
                t = _Tee(s)
                tees[i] = t
                run_fds[fd] = t  # type: ignore[assignment]
    status = 1
    extra: dict[str, Any] = {}
    try:
        status = run(run_fds)
        return status
    except (ExitShell, ReturnFromFunction) as e:
        if isinstance(e, Cancelled):
            extra["cancelled"] = True
        status = e.status
        raise
    except (BreakLoop, ContinueLoop):
        status = 0
        raise
    except TimedOut:
        status = 124
        extra["timedOut"] = True
        raise
    except BaseException as e:
        extra["error"] = type(e).__name__
        raise
    finally:
        if interp.control.cancelled:
            extra["cancelled"] = True
        _finish(interp, em, call_id, status, tees, before, extra)


def _finish(interp: Interpreter, em: Emitter, call_id: str, status: int,
            tees: list[_Tee | None], before: dict[str, str | None] | None,
            extra: dict[str, Any]) -> None:
    out: dict[str, Any] = {"status": status}
    for key, t in zip(("stdout", "stderr"), tees, strict=True):
        if t is not None:
            out[key] = t.kept.decode("utf-8", "replace")
            if t.total > EXCERPT:
                out[key + "Bytes"] = t.total
    data = interp.last_data
    if data is not None and status == 0:
        encoded = _jsonable(data)
        if encoded is not None:
            out["data"] = encoded
    out.update(extra)
    update: dict[str, Any] = {"sessionUpdate": "tool_call_update", "toolCallId": call_id,
                              "status": "completed" if status == 0 and not extra
                              else "failed",
                              "rawOutput": out}
    if before is not None:
        blocks = _diffs(interp, before)
        if blocks:
            update["content"] = blocks
    em.emit(update)


def _jsonable(value: Any) -> Any:
    import json

    to_json = getattr(value, "to_json", None)
    try:
        v = to_json() if callable(to_json) else to_json_value(value)
        text = json.dumps(v, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return None
    if len(text) > DATA_LIMIT:
        return None
    return json.loads(text)


# ------------------------------------------------------------------ what a call is


class _Call:
    __slots__ = ("diffed", "envelope", "kind", "locations", "raw_input", "title")

    def __init__(self, title: str, kind: str, raw_input: Any, locations: list[str],
                 envelope: dict[str, Any], diffed: list[str]) -> None:
        self.title = title
        self.kind = kind
        self.raw_input = raw_input
        self.locations = locations
        self.envelope = envelope
        self.diffed = diffed


def _words(args: list[Arg]) -> list[str]:
    out: list[str] = []
    for a in args:
        if type(a) is Operand:
            out.append(to_text(a.value))
        elif type(a) is Flag:
            out.append(a.text if a.value is None else a.text + "=" + to_text(a.value))
        else:
            out.append("--")
    return out


def _title(cmd: ast.SimpleCommand | None, name: str, words: list[str]) -> str:
    if cmd is not None:
        from tysh.kernel.syntax.unparse import command_source

        text = command_source(cmd).strip()
        # a here-document's body is not part of the line
        text = text.split("\n", 1)[0]
    else:
        import shlex

        text = shlex.join([name, *words])
    if len(text) > _TITLE_LIMIT:
        text = text[: _TITLE_LIMIT - 1] + "…"
    return text


def tool_kind(schema: ToolSchema, bound: Any) -> str:
    """The kind of one call of a tool: a flag's kind (`sed -i`), the declared one, or
    the one its operations imply."""
    if bound is not None:
        for flag, k in schema.kind_when:
            if bound.value_of(flag):
                return normal_kind(k)
    if schema.kind:
        return normal_kind(schema.kind)
    return kind_from_operations(schema.operations)


_CONVENTIONAL_PATHS = ("files", "paths", "dirs", "sources", "dest", "file", "path", "dir",
                       "target")


def _path_values(schema: ToolSchema, bound: Any) -> list[str]:
    """The file operands of a bound call, as written."""
    names = schema.paths
    if not names:
        names = tuple(p.name for p in schema.params if p.param_type == "path")
    if not names:
        names = tuple(p.name for p in schema.params
                      if p.positional and p.name in _CONVENTIONAL_PATHS)
    out: list[str] = []
    skip_script = bool(schema.script_params) and not any(
        bound.value_of(p) for p in schema.script_params)
    for i, n in enumerate(names):
        v = bound.value_of(n)
        vals = [v] if isinstance(v, str) else list(v) if isinstance(v, (list, tuple)) else []
        if i == 0 and skip_script:
            vals = vals[1:]
        out.extend(x for x in vals if isinstance(x, str) and x and x != "-")
    return out


def _raw_input(bound: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {}
    if bound.bound:
        raw.update(bound.bound)
    raw.update(bound.named)
    for f in sorted(bound.flags):
        raw[f] = True
    if bound.words is not None:
        raw["argv"] = [to_text(w) if not isinstance(w, Arg) else _words([w])[0]
                       for w in bound.words]
    if bound.path:
        raw["subcommand"] = list(bound.path)
    out: dict[str, Any] = to_json_value(raw)
    return out


def _redirect_targets(interp: Interpreter, cmd: ast.SimpleCommand | None) -> list[str]:
    """The files a command's output redirections write, where the target is literal text
    (a target that needs expanding is expanded once, by the redirection itself)."""
    if cmd is None or not cmd.redirects:
        return []
    out: list[str] = []
    for r in cmd.redirects:
        if r.op in _OUT_OPS and isinstance(r.target, ast.Word):
            text = _literal(r.target)
            if text is not None and text != "/dev/null":
                out.append(interp.abspath(text))
    return out


def _literal(word: ast.Word) -> str | None:
    parts = []
    for p in word.parts:
        if type(p) is ast.Lit:
            t = p.text
            if any(c in "*?[~{" for c in t):
                return None
            parts.append(t)
        elif type(p) is ast.Quoted:
            parts.append(p.text)
        elif type(p) is ast.DQ:
            for q in p.parts:  # "2,3p": text with nothing to expand
                if not isinstance(q, ast.Quoted):
                    return None
                parts.append(q.text)
        else:
            return None
    return "".join(parts) or None


def _describe(interp: Interpreter, cmd: ast.SimpleCommand | None, name: str, fn: Any,
              tool: Tool | None, args: list[Arg]) -> _Call:
    words = _words(args)
    title = _title(cmd, name, words)
    raw: Any = {"argv": [name, *words]}
    paths: list[str] = []
    input_: dict[str, Any] | None = None
    bound: Any = None
    read_only = True
    if fn is not None:
        namespace, kind = "tysh", "shell"
    elif tool is not None:
        namespace = interp.registry.namespace_of(name, tool)
        schema = tool.schema
        try:
            from tysh.kernel.bind.fast import bind_and_convert

            bound = bind_and_convert(tool, args)[0]
        except Exception:  # noqa: BLE001 — the command reports its own binding error
            bound = None
        if bound is not None:
            raw = _raw_input(bound)
            paths = [interp.abspath(p) for p in _path_values(bound.leaf, bound)
                     if "\0" not in p] if bound.leaf.params else []
        leaf = bound.leaf if bound is not None else schema
        kind = tool_kind(leaf, bound)
        # a tool whose writes sit behind a flag (`sed -i`) reads only without it
        read_only = not schema.operations or (
            bool(leaf.kind_when) and kind == tool_kind(leaf, None))
    else:
        namespace, kind = "host", "execute"
        read_only = False
    targets = _redirect_targets(interp, cmd)
    diffed: list[str] = []
    if targets:
        read_only = False
        if kind not in _CHANGING:
            kind = "write"
        diffed = list(targets)
    elif kind in _DIFFED:
        diffed = list(paths)
    locations = list(dict.fromkeys([*paths, *targets]))
    raw = _jsonable(raw)
    if raw is None:
        # arguments too large to carry (a glob of thousands of files): their count only
        raw = {"argc": len(words), "truncated": True}
    if fn is None:
        input_ = _projection(kind, bound, locations, targets, title, namespace,
                             interp.state.cwd, interp.events.window_of(cmd))
    env: dict[str, Any] = {"version": ENVELOPE_VERSION, "name": name, "kind": kind,
                           "namespace": namespace, "label": label_of(kind),
                           "read_only": read_only}
    if input_:
        env["input"] = input_
    return _Call(title, kind, raw, locations, env, diffed)


def _projection(kind: str, bound: Any, locations: list[str], targets: list[str],
                title: str, namespace: str, cwd: str,
                piped: dict[str, int] | None) -> dict[str, Any] | None:
    """The envelope's `input`: only the cross-harness keys, only where certain."""
    if namespace == "host":
        return {"command": title}
    if namespace == "mcp":
        return None
    if kind == "write" and len(targets) == 1:
        return {"path": targets[0]}
    if kind == "read" and len(locations) == 1 and bound is not None:
        out: dict[str, Any] = {"path": locations[0]}
        window = _line_window(bound) or piped
        if window is not None:
            out.update(window)
        return out
    if kind in ("edit", "write", "delete") and len(locations) == 1:
        return {"path": locations[0]}
    if kind == "list" and len(locations) <= 1 and bound is not None:
        return {"directory": locations[0] if locations else cwd}
    if kind == "search" and bound is not None:
        pattern = _pattern(bound)
        if pattern is None:
            return None
        out = {"pattern": pattern}
        if len(locations) == 1:
            out["path"] = locations[0]
        return out
    return None


def _pattern(bound: Any) -> str | None:
    schema = bound.leaf
    for p in schema.script_params:
        v = bound.value_of(p)
        if isinstance(v, str) and p not in ("file",):
            return v
        if v:
            return None  # a pattern file: no one pattern
    if schema.script_params and schema.paths:
        v = bound.value_of(schema.paths[0])
        if isinstance(v, (list, tuple)) and v and isinstance(v[0], str):
            return v[0]
    return None


def _line_window(bound: Any) -> dict[str, int] | None:
    """`head -n N` (limit N) and `sed -n 'A,Bp'` (offset A, limit B-A+1): the lines a
    read certainly covers; None for anything less certain."""
    schema = bound.leaf
    if schema.name == "head":
        n = bound.value_of("lines")
        if bound.value_of("bytes") is None and isinstance(n, str) and n.isdigit():
            return {"limit": int(n)} if int(n) > 0 else None
        if n is None and bound.value_of("bytes") is None:
            return {"limit": 10}
        return None
    if schema.name == "sed" and bound.value_of("quiet") and not bound.value_of("expression") \
            and not bound.value_of("file"):
        ops = bound.value_of("operands")
        if isinstance(ops, (list, tuple)) and ops:
            return sed_window(ops[0])
    return None


def _literal_words(cmd: ast.Command) -> list[str] | None:
    if type(cmd) is not ast.SimpleCommand or cmd.redirects or cmd.assigns:
        return None
    out: list[str] = []
    for w in cmd.words:
        t = _literal(w)
        if t is None:
            return None
        out.append(t)
    return out


_CAT_KEEPS_LINES = frozenset(("-n", "-b", "--number", "--number-nonblank"))


def _piped_window(reader: ast.Command, window: ast.Command) -> dict[str, int] | None:
    a = _literal_words(reader)
    b = _literal_words(window)
    if not a or not b or a[0] != "cat":
        return None
    files = [w for w in a[1:] if not w.startswith("-")]
    if len(files) != 1 or any(w not in _CAT_KEEPS_LINES for w in a[1:] if w.startswith("-")):
        return None
    if b[0] == "sed" and len(b) == 3 and b[1] == "-n":
        return sed_window(b[2])
    if b[0] == "head":
        args = b[1:]
        n: str | None = None
        if not args:
            n = "10"
        elif len(args) == 2 and args[0] == "-n":
            n = args[1]
        elif len(args) == 1 and args[0].startswith("-n"):
            n = args[0][2:]
        if n is not None and n.isdigit() and int(n) > 0:
            return {"offset": 1, "limit": int(n)}
    return None


def sed_window(script: Any) -> dict[str, int] | None:
    """The line window of a `sed -n` script `A,Bp` or `Np` (1-based, A <= B)."""
    if not isinstance(script, str):
        return None
    s = script.strip()
    if not s.endswith("p"):
        return None
    body = s[:-1]
    a, sep, b = body.partition(",")
    if not a.isdigit() or (sep and not b.isdigit()):
        return None
    first = int(a)
    last = int(b) if sep else first
    if first < 1 or last < first:
        return None
    return {"offset": first, "limit": last - first + 1}


# ------------------------------------------------------------------ diffs


def _read_text(interp: Interpreter, path: str) -> str | None | bool:
    """A regular file's text; None when there is none; False when it cannot be shown
    (not a regular file, too large, not text)."""
    fs = interp.fs
    try:
        st = fs.stat(path)
    except Exception:  # noqa: BLE001 — no file (or none we may see): nothing before
        return None
    if st.kind != "file" or st.size > DIFF_LIMIT:
        return False
    try:
        with fs.open(path, "rb") as f:
            data = f.read(DIFF_LIMIT + 1)  # a file growing (or /proc's size 0) stops here
    except Exception:  # noqa: BLE001
        return False
    if len(data) > DIFF_LIMIT:
        return False
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return False


def _snapshot(interp: Interpreter, paths: list[str]) -> dict[str, str | None] | None:
    if not paths:
        return None
    out: dict[str, str | None] = {}
    for p in paths[:DIFF_FILES]:
        t = _read_text(interp, p)
        if t is not False:
            out[p] = t  # type: ignore[assignment]
    return out


def _diffs(interp: Interpreter, before: dict[str, str | None]) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for path, old in before.items():
        new = _read_text(interp, path)
        if isinstance(new, str) and new != old:
            blocks.append({"type": "diff", "path": path, "oldText": old, "newText": new})
    return blocks


