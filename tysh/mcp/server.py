"""`tysh mcp`: tysh as an MCP server (the SDK's lowlevel `Server`), over stdio or
streamable HTTP.

Each MCP session gets its own kernel, made at its first call: cwd, variables and
functions persist across its calls. Over stdio the process serves one client, so it has
one kernel; over HTTP a session is the SDK's connection (the `Mcp-Session-Id` of the
handshake era), and its kernel is cancelled and dropped when the connection ends. A
request of the 2026 per-request era carries no session, so its kernel lives for that
call only.

The tools: `shell` (a script in the session), each builtin `--tools` names (JSON
arguments checked against its schema, every violation listed), `changes` and `commit`
under `--overlay`. The files under the root are read-only resources. A client's cancel
(`notifications/cancelled`, or a closed HTTP response) cancels the running script; a
long script reports progress every second to a client that asked for it."""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import posixpath
import sys
import urllib.parse
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from tysh.kernel.base.record import Record, frozen

if TYPE_CHECKING:
    from tysh.kernel.embed.kernel import Kernel
    from tysh.kernel.tools.output import ExecResult

USAGE = """\
usage: tysh mcp [--http [HOST:]PORT [--json-response]] [--tools NAME…|all] [--root DIR]
                [--isolated | --overlay] [--timeout SECS] [--allow-external]
                [--max-output BYTES] [--max-memory SIZE] [--connect NAME=COMMAND]…

Serve tysh over the Model Context Protocol: stdio unless --http is given.

options:
  --http [HOST:]PORT  streamable HTTP at http://HOST:PORT/mcp (HOST 127.0.0.1 unless given)
  --json-response     over HTTP, answer each call with one JSON body rather than an event
                      stream: faster, but no progress notifications reach the client
  --tools NAME…|all   also offer these builtins (or every one) as their own MCP tools
  --root DIR          the directory the session is confined to (default: the cwd)
  --isolated          an in-memory filesystem: no host file is reachable
  --overlay           read DIR, keep writes in memory; the tools `changes` and `commit`
                      show and apply them
  --timeout SECS      each call's time limit (status 124; a call's own `timeout` may
                      lower it, never raise it); default 60, 0 for none
  --allow-external    let scripts run programs from PATH (host processes, unconfined)
  --max-output BYTES  bound each call's stdout and stderr (head and tail kept)
  --max-memory SIZE   bound a session's in-process data (suffix K, M or G)
  --connect NAME=COMMAND  give each session the MCP server COMMAND (or an http(s) URL)
                      as the command NAME (repeatable)
  --help              print this help
"""

DEFAULT_TIMEOUT = 60.0
# MCP tool names: what a builtin may be offered as
_TOOL_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")
# the operations that destroy or replace what was there
DESTRUCTIVE = frozenset({"fs.remove", "fs.overwrite", "fs.rename"})
PAGE = 200  # resources per resources/list page
_TICK = 0.25  # how often a running call looks for a client that went away
_TICKS_PER_PROGRESS = 4  # a progress notification every second


@frozen
class Options(Record):
    """What `tysh mcp` was asked to serve."""

    root: str
    isolated: bool = False
    overlay: bool = False
    timeout: float | None = DEFAULT_TIMEOUT
    allow_external: bool = False
    tools: tuple[str, ...] = ()
    max_output: int | None = None
    max_memory: int | None = None
    connect: tuple[tuple[str, Any], ...] = ()
    http: tuple[str, int] | None = None
    json_response: bool = False


SHELL_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "script": {"type": "string", "description": "the script (bash syntax)"},
        "stdin": {"type": "string", "description": "the script's standard input"},
        "timeout": {"type": "number", "minimum": 0,
                    "description": "seconds before the script is stopped (status 124)"},
    },
    "required": ["script"],
    "additionalProperties": False,
}
SHELL_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "code": {"type": "integer", "description": "the exit status"},
        "out": {"type": "string"},
        "err": {"type": "string"},
        "data": {"description": "the typed output of the last command, when it has one"},
        "truncated": {"type": "boolean", "description": "the output limit cut the streams"},
    },
    "required": ["code", "out", "err", "data", "truncated"],
}
_NO_INPUT: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}


def annotations_for(operations: tuple[str, ...] | list[str]) -> dict[str, bool]:
    """A tool's MCP hints from the operations it declares: read-only with none (and
    then idempotent), destructive when it removes, overwrites or renames, open-world
    when it runs programs or reaches the network."""
    ops = set(operations)
    return {
        "readOnlyHint": not ops,
        "destructiveHint": bool(ops & DESTRUCTIVE),
        "idempotentHint": not ops,
        "openWorldHint": any(o == "proc.exec" or o.startswith("net") for o in ops),
    }


def exposable(name: str) -> bool:
    return bool(name) and set(name) <= _TOOL_NAME_CHARS


# ---------------------------------------------------------------------------- kernels
def new_kernel(opts: Options) -> Kernel:
    """A session's kernel: the embedded sandbox with the options' limits."""
    from tysh.kernel.base.limits import Limits
    from tysh.kernel.embed.kernel import Kernel

    kw: dict[str, Any] = {}
    if opts.max_output is not None:
        kw["max_output_bytes"] = opts.max_output
    if opts.max_memory is not None:
        kw["max_memory"] = opts.max_memory
    limits = Limits(timeout=opts.timeout, **kw)
    servers = {n: t for n, t in opts.connect}
    common: dict[str, Any] = {"limits": limits, "allow_external": opts.allow_external,
                              "mcp_servers": servers}
    if opts.isolated:
        return Kernel.isolated(**common)
    if opts.overlay:
        return Kernel.overlay(opts.root, **common)
    return Kernel(opts.root, **common)


class _Session:
    """One MCP session's kernel; its calls run one at a time, in arrival order."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.lock = asyncio.Lock()


class Service:
    """The server's state: options, the worker threads scripts run on, the sessions."""

    def __init__(self, opts: Options, *, shared: bool) -> None:
        self.opts = opts
        # stdio serves one client: one session for the process
        self.shared = shared
        self._shared: _Session | None = None
        self._shared_lock = asyncio.Lock()
        self.pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=64, thread_name_prefix="tysh-mcp")
        self._tools: list[Any] | None = None

    async def session(self, ctx: Any) -> _Session:
        if self.shared:
            async with self._shared_lock:
                if self._shared is None:
                    self._shared = _Session(await self._make())
                return self._shared
        # the SDK's per-connection state and teardown (ServerSession keeps its
        # Connection private; the lowlevel context offers no other handle on it)
        conn: Any = ctx.session._connection
        state: dict[str, Any] = conn.state
        lock = state.setdefault("tysh.lock", asyncio.Lock())
        async with lock:
            sess = state.get("tysh.session")
            if sess is None:
                sess = _Session(await self._make())
                state["tysh.session"] = sess
                conn.exit_stack.push_async_callback(self._end, sess)
            assert isinstance(sess, _Session)
            return sess

    async def _make(self) -> Kernel:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, new_kernel, self.opts)

    async def _end(self, sess: _Session) -> None:
        """The connection ended: stop what its kernel runs and close its servers."""
        k = sess.kernel
        k.cancel()
        await asyncio.get_running_loop().run_in_executor(self.pool, k.close)

    async def run(self, ctx: Any, sess: _Session, work: Callable[[], ExecResult]
                  ) -> ExecResult:
        """Run `work` on a worker thread, one call at a time per session; a cancel of
        the request, or an HTTP client that disconnects, cancels the script and waits
        for it to stop, so the session is free again when the request ends. Progress
        goes out every second to a client that asked for it."""
        async with sess.lock:
            loop = asyncio.get_running_loop()
            fut = loop.run_in_executor(self.pool, work)
            ticks = 0
            try:
                while True:
                    done, _ = await asyncio.wait({fut}, timeout=_TICK)
                    if done:
                        return fut.result()
                    ticks += 1
                    if await _gone(ctx):
                        await _stop(sess, fut)
                        return fut.result()
                    if ticks % _TICKS_PER_PROGRESS == 0:
                        await _progress(ctx, ticks // _TICKS_PER_PROGRESS)
            except BaseException:
                await _stop(sess, fut)
                raise

    # ------------------------------------------------------------------ tools
    def tool_list(self) -> list[Any]:
        if self._tools is None:
            self._tools = self._build_tools()
        return self._tools

    def _build_tools(self) -> list[Any]:
        import mcp_types as types

        shell_hints = {"readOnlyHint": False, "destructiveHint": True,
                       "idempotentHint": False, "openWorldHint": self.opts.allow_external}
        out = [types.Tool(
            name="shell",
            description=("Run a bash-syntax script in this session's shell (cwd, variables "
                         "and functions persist across calls). Builtins only" +
                         ("" if not self.opts.allow_external else
                          ", and programs from PATH") +
                         "; `help` lists them, `help NAME` shows one's options."),
            input_schema=SHELL_INPUT, output_schema=SHELL_OUTPUT,
            annotations=types.ToolAnnotations.model_validate(shell_hints))]
        for t in self.builtin_tools():
            out.append(types.Tool(
                name=t.name, description=t.schema.description or t.name,
                input_schema=t.input_schema(),
                output_schema=_output_schema(t),
                annotations=types.ToolAnnotations.model_validate(
                    annotations_for(t.schema.operations))))
        if self.opts.overlay:
            out.append(types.Tool(
                name="changes", description="the files this session changed (in memory), "
                "as a unified diff; nothing is written until `commit`",
                input_schema=_NO_INPUT,
                annotations=types.ToolAnnotations.model_validate(annotations_for(()))))
            out.append(types.Tool(
                name="commit", description="write this session's changes to the root "
                "directory, then start afresh",
                input_schema=_NO_INPUT,
                annotations=types.ToolAnnotations.model_validate(
                    {"readOnlyHint": False, "destructiveHint": True,
                     "idempotentHint": False, "openWorldHint": False})))
        return out

    def builtin_tools(self) -> list[Any]:
        """The builtins offered as their own tools (`--tools`): flat ones with a JSON
        route and a name MCP allows."""
        from tysh.builtins import BUILTINS, get_builtin

        names = list(BUILTINS) if self.opts.tools == ("all",) else list(self.opts.tools)
        out = []
        for n in dict.fromkeys(names):
            t = get_builtin(n)
            if t is None or not exposable(n) or t.schema.subcommands or n == "shell":
                continue
            out.append(t)
        return out

    async def call(self, ctx: Any, name: str, args: Any) -> Any:
        import mcp_types as types

        if not isinstance(args, dict):
            return _error(f"{name}: the arguments must be a JSON object")
        if name == "shell":
            problems = _shell_problems(args)
            if problems:
                return _error("".join(f"shell: {p}\n" for p in problems))
            sess = await self.session(ctx)
            k = sess.kernel
            script, stdin = args["script"], args.get("stdin", "")
            timeout = _within(args.get("timeout"), self.opts.timeout)
            res = await self.run(ctx, sess, lambda: k.execute(script, stdin, timeout=timeout))
            return shell_result(res)
        if name in ("changes", "commit") and self.opts.overlay:
            sess = await self.session(ctx)
            return await self._overlay(ctx, sess, name)
        tool = next((t for t in self.builtin_tools() if t.name == name), None)
        if tool is None:
            return _error(f"{name}: no such tool")
        sess = await self.session(ctx)
        k = sess.kernel
        typed = _output_schema(tool) is not None
        res = await self.run(ctx, sess, lambda: k.execute_json(name, args, json_output=typed))
        result = shell_result(res)
        if typed and res.code == 0:
            return types.CallToolResult(content=result.content,
                                        structured_content=json_data(res.data),
                                        is_error=False)
        return types.CallToolResult(content=result.content, is_error=res.code != 0)

    async def _overlay(self, ctx: Any, sess: _Session, name: str) -> Any:
        from tysh.kernel.tools.output import ExecResult

        fs: Any = sess.kernel.fs

        def work() -> ExecResult:
            if name == "changes":
                return ExecResult(0, fs.diff())
            done = fs.commit()
            return ExecResult(0, "".join(f"{c.kind} {c.path}\n" for c in done))

        return shell_result(await self.run(ctx, sess, work))

    # ------------------------------------------------------------------ resources
    async def list_resources(self, ctx: Any, cursor: str | None) -> tuple[list[Any], str | None]:
        import mcp_types as types

        sess = await self.session(ctx)
        k = sess.kernel
        root = self._resource_root(k)

        def page() -> tuple[list[str], str | None]:
            got: list[str] = []
            for path in _files(k.fs, root):
                if cursor is not None and path <= cursor:
                    continue
                got.append(path)
                if len(got) == PAGE:
                    return got, path
            return got, None

        loop = asyncio.get_running_loop()
        paths, nxt = await loop.run_in_executor(self.pool, page)
        return [types.Resource(uri=_uri(p), name=p[len(root):].lstrip("/") or p)
                for p in paths], nxt

    async def read_resource(self, ctx: Any, uri: str) -> Any:
        import mcp_types as types
        from mcp.shared.exceptions import MCPError

        parsed = urllib.parse.urlparse(uri)
        if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
            raise MCPError(-32602, f"{uri}: not a file:// URI")
        path = posixpath.normpath(urllib.parse.unquote(parsed.path))
        sess = await self.session(ctx)
        k = sess.kernel
        root = self._resource_root(k)
        if not (path == root or path.startswith(root.rstrip("/") + "/")):
            raise MCPError(-32002, f"{uri}: not under the root {root}")

        def read() -> bytes:
            return k.fs.read_bytes(path)

        from tysh.kernel.fs.api import FsError

        try:
            data = await asyncio.get_running_loop().run_in_executor(self.pool, read)
        except FsError as e:
            raise MCPError(-32002, f"{uri}: {e.message}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return types.ReadResourceResult(contents=[types.BlobResourceContents(
                uri=uri, blob=base64.b64encode(data).decode("ascii"),
                mime_type="application/octet-stream")])
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, text=text, mime_type="text/plain")])

    def _resource_root(self, k: Kernel) -> str:
        return "/home/user" if self.opts.isolated else self.opts.root


def _files(fs: Any, root: str) -> Iterator[str]:
    """Every file under `root`, depth first in name order (a stable order for paging);
    symbolic links are not followed out."""
    stack = [root]
    while stack:
        d = stack.pop()
        try:
            names = sorted(fs.listdir(d))
        except Exception:  # noqa: BLE001 — an unreadable directory is skipped
            continue
        dirs: list[str] = []
        for n in names:
            p = d.rstrip("/") + "/" + n
            try:
                st = fs.stat(p, follow=False)
            except Exception:  # noqa: BLE001
                continue
            if st.kind == "directory":
                dirs.append(p)
            elif st.kind == "file":
                yield p
        stack.extend(reversed(dirs))


def _uri(path: str) -> str:
    return "file://" + urllib.parse.quote(path)


def _output_schema(tool: Any) -> dict[str, Any] | None:
    get = getattr(tool, "output_schema", None)
    return get() if callable(get) else None


def _within(asked: float | None, limit: float | None) -> float | None:
    """A call's time limit: what it asks for, never past the server's own limit."""
    if asked is None:
        return limit
    return asked if limit is None else min(float(asked), limit)


def _shell_problems(args: dict[str, Any]) -> list[str]:
    from jsonschema import Draft202012Validator

    from tysh.kernel.tools.values.raw import violations

    return [v.message for v in violations(Draft202012Validator(SHELL_INPUT), args)]


def _error(text: str) -> Any:
    import mcp_types as types

    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=True)


def shell_result(r: ExecResult) -> Any:
    """A script's result: stdout, stderr and `exit status N` as text; the whole result
    as structured content; a non-zero status is a tool error."""
    import mcp_types as types

    out = r.text_out()
    text = out + r.err + (f"exit status {r.code}\n" if r.code else "")
    data = json_data(r.data)
    structured = {"code": r.code, "out": out, "err": r.err, "data": data,
                  "truncated": r.truncated}
    return types.CallToolResult(content=[types.TextContent(text=text)],
                                structured_content=structured, is_error=r.code != 0)


def json_data(value: Any) -> Any:
    """A command's typed data as plain JSON (structured output as its `--json` form;
    anything JSON cannot hold as text)."""
    import json

    from tysh.kernel.base.values import to_json_value
    from tysh.kernel.tools.output import OutputData

    if value is None:
        return None
    value = value.to_json() if isinstance(value, OutputData) else to_json_value(value)
    return json.loads(json.dumps(value, default=str))


async def _stop(sess: _Session, fut: asyncio.Future[Any]) -> None:
    """Cancel the session's script until its call has returned (a cancel that lands
    before the call begins is repeated), shielded from the request's own cancel."""
    import anyio

    with anyio.CancelScope(shield=True):
        while not fut.done():
            sess.kernel.cancel()
            await asyncio.wait({fut}, timeout=0.05)


async def _gone(ctx: Any) -> bool:
    """Whether the HTTP client of this request has disconnected: a client that drops
    its connection sends no cancel, and its script must not run on."""
    request = getattr(ctx, "request", None)
    check = getattr(request, "is_disconnected", None)
    if check is None:
        return False
    try:
        return bool(await check())
    except Exception:  # noqa: BLE001 — a transport that cannot tell
        return False


async def _progress(ctx: Any, seconds: int) -> None:
    try:
        await ctx.session.report_progress(seconds, None, f"running for {seconds}s")
    except Exception:  # noqa: BLE001 — progress is advisory
        pass


# ---------------------------------------------------------------------------- server
def build_server(service: Service) -> Any:
    """The SDK's lowlevel server wired to `service`."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from tysh import __version__

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=service.tool_list())

    async def call_tool(ctx: Any, params: Any) -> Any:
        return await service.call(ctx, params.name, params.arguments or {})

    async def list_resources(ctx: Any, params: Any) -> Any:
        cursor = getattr(params, "cursor", None) if params is not None else None
        found, nxt = await service.list_resources(ctx, cursor)
        return types.ListResourcesResult(resources=found, next_cursor=nxt)

    async def read_resource(ctx: Any, params: Any) -> Any:
        return await service.read_resource(ctx, str(params.uri))

    return Server(
        "tysh", version=__version__,
        instructions="A typed, sh-shaped shell: run scripts with the `shell` tool.",
        on_list_tools=list_tools, on_call_tool=call_tool,
        on_list_resources=list_resources, on_read_resource=read_resource,
    )


async def serve_stdio(opts: Options) -> None:
    from mcp.server.stdio import stdio_server

    service = Service(opts, shared=True)
    server = build_server(service)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def serve_http(opts: Options) -> None:
    import uvicorn

    assert opts.http is not None
    host, port = opts.http
    service = Service(opts, shared=False)
    server = build_server(service)
    app = server.streamable_http_app(host=host, json_response=opts.json_response)
    sys.stderr.write(f"tysh mcp: serving http://{host}:{port}/mcp\n")
    sys.stderr.flush()
    uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                  lifespan="on")).run()


# ---------------------------------------------------------------------------- command line
def parse_args(argv: list[str]) -> Options | str:
    """The options, or the message for a usage error."""
    import os
    import shlex

    from tysh.kernel.base.limits import parse_seconds, parse_size

    root = os.getcwd()
    kw: dict[str, Any] = {}
    tools: list[str] = []
    connect: list[tuple[str, Any]] = []
    i = 0

    def value(opt: str) -> str:
        nonlocal i
        if i + 1 >= len(argv):
            raise _Usage(f"{opt}: option requires an argument")
        i += 1
        return argv[i]

    try:
        while i < len(argv):
            a = argv[i]
            if a == "--http":
                v = value(a)
                host, _, port = v.rpartition(":")
                if not port.isdigit() or not 0 < int(port) < 65536:
                    raise _Usage(f"--http: invalid port in '{v}'")
                kw["http"] = (host.strip("[]") or "127.0.0.1", int(port))
            elif a == "--tools":
                while i + 1 < len(argv) and not argv[i + 1].startswith("-"):
                    i += 1
                    tools.extend(x for x in argv[i].replace(",", " ").split() if x)
                if not tools:
                    raise _Usage("--tools: name the builtins, or all")
            elif a == "--root":
                root = value(a)
            elif a == "--json-response":
                kw["json_response"] = True
            elif a == "--isolated":
                kw["isolated"] = True
            elif a == "--overlay":
                kw["overlay"] = True
            elif a == "--allow-external":
                kw["allow_external"] = True
            elif a == "--timeout":
                v = value(a)
                secs = parse_seconds(v)
                if secs is None:
                    raise _Usage(f"--timeout: invalid time interval '{v}'")
                kw["timeout"] = secs or None
            elif a in ("--max-output", "--max-memory"):
                v = value(a)
                size = parse_size(v)
                if size is None:
                    raise _Usage(f"{a}: invalid size '{v}'")
                kw["max_output" if a == "--max-output" else "max_memory"] = size
            elif a == "--connect":
                v = value(a)
                name, eq, cmd = v.partition("=")
                if not eq or not name or not cmd.strip():
                    raise _Usage(f"--connect: expected NAME=COMMAND, not '{v}'")
                target: Any = cmd.strip() if cmd.strip().startswith(("http://", "https://")) \
                    else shlex.split(cmd)
                connect.append((name, target))
            else:
                raise _Usage(f"{a}: invalid option")
            i += 1
    except _Usage as e:
        return str(e)
    except ValueError as e:  # shlex: an unclosed quote
        return f"--connect: {e}"
    if kw.get("isolated") and kw.get("overlay"):
        return "--isolated and --overlay cannot be used together"
    if tools and tools != ["all"]:
        from tysh.builtins import BUILTINS

        unknown = [t for t in tools if t not in BUILTINS]
        if unknown:
            return f"--tools: no such builtin: {', '.join(unknown)}"
    if not os.path.isdir(root):
        return f"--root: {root}: not a directory"
    return Options(root=os.path.realpath(root), tools=tuple(tools), connect=tuple(connect),
                   **kw)


class _Usage(Exception):
    pass


def main(argv: list[str]) -> int:
    """`tysh mcp …`: serve until the client goes (stdio) or the process is stopped."""
    if argv[:1] in (["--help"], ["-h"]):
        sys.stdout.write(USAGE)
        return 0
    opts = parse_args(argv)
    if isinstance(opts, str):
        sys.stderr.write(f"tysh mcp: {opts}\n")
        return 2
    try:
        import mcp  # noqa: F401
    except ImportError:
        sys.stderr.write("tysh mcp: the MCP SDK is not installed (pip install 'tysh[mcp]')\n")
        return 1
    try:
        if opts.http is not None:
            serve_http(opts)
        else:
            asyncio.run(serve_stdio(opts))
    except KeyboardInterrupt:
        return 130
    except OSError as e:
        sys.stderr.write(f"tysh mcp: {e.strerror or e}\n")
        return 1
    return 0


__all__ = ["Options", "Service", "annotations_for", "build_server", "main", "new_kernel",
           "parse_args", "shell_result"]
