"""MCP servers' tools as commands: a kernel's connections to MCP servers (the SDK's
`Client`, over stdio or streamable HTTP), each server's tools registered as one two-level
command (`gh search_issues 'is:open' 5`).

The SDK is asynchronous and the kernel is not: every connection lives on one event loop
in a daemon thread of its own (made at the first connect), and a command's call waits on
it from the kernel's thread, checking the run's cancel and time limit as it waits (a
cancelled wait cancels the request, which the SDK sends as `notifications/cancelled`).
Each leaf is a raw JSON Schema tool (the same route as `Kernel.register(dict, fn)`), so
arguments bind with `map_positionals` and validate with every violation listed."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tysh.kernel.base.values import to_json_text
from tysh.kernel.tools.context import Context, ToolServerError
from tysh.kernel.tools.schema import ToolSchema
from tysh.kernel.tools.tool import Outcome, Tool, ToolReturn
from tysh.kernel.tools.values.nodes import ToolDefinitionError
from tysh.kernel.tools.values.raw import raw_tool

if TYPE_CHECKING:
    from tysh.kernel.run.registry import Registry

# how long connecting (start, handshake, tools/list) may take
CONNECT_TIMEOUT = 30.0
# how often a waiting call looks at the run's cancel and time limit
_POLL = 0.02
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")


def thaw(v: Any) -> Any:
    """A tool's read-only arguments as plain JSON (dicts and lists) for the wire."""
    if isinstance(v, Mapping):
        return {str(k): thaw(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [thaw(x) for x in v]
    return v


class _Loop:
    """One asyncio loop in a daemon thread, where the SDK's clients live."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="tysh-mcp", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def submit(self, coro: Any) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)


class _Connection:
    """One server: the task that holds the SDK client open until `close()`."""

    def __init__(self, name: str, target: str, make_client: Any) -> None:
        self.name = name
        self.target = target
        self._make_client = make_client
        self.client: Any = None
        self.tools: list[Any] = []
        self.gone: str | None = None  # why the server cannot be called any more
        self._closing: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    async def open(self) -> list[Any]:
        ready: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self._closing = asyncio.Event()
        self._task = asyncio.ensure_future(self._hold(ready))
        try:
            return await ready
        except BaseException:
            self._task.cancel()
            raise

    async def _hold(self, ready: asyncio.Future[list[Any]]) -> None:
        try:
            async with self._make_client() as client:
                listed = await client.list_tools()
                tools = list(listed.tools)
                while listed.next_cursor:
                    listed = await client.list_tools(cursor=listed.next_cursor)
                    tools.extend(listed.tools)
                self.client = client
                self.tools = tools
                ready.set_result(tools)
                assert self._closing is not None
                await self._closing.wait()
        except BaseException as e:  # noqa: BLE001 — reported to the connect or a call
            if not ready.done():
                ready.set_exception(ToolServerError(_why(e)))
            self.gone = self.gone or _why(e)
            if isinstance(e, asyncio.CancelledError):
                raise
        finally:
            self.gone = self.gone or "it was disconnected"
            self.client = None

    async def call(self, tool: str, args: dict[str, Any]) -> Any:
        client = self.client
        if client is None:
            raise ToolServerError(f"the MCP server is not connected ({self.gone})")
        return await client.call_tool(tool, args)

    async def close(self) -> None:
        self.gone = "it was disconnected"
        if self._closing is not None:
            self._closing.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), 5)
            except BaseException:  # noqa: BLE001 — a server that will not end is left
                self._task.cancel()


def _why(e: BaseException) -> str:
    """A person's account of a failure deep in the SDK or the transport."""
    if isinstance(e, ToolServerError):
        return e.message
    if isinstance(e, BaseExceptionGroup):
        inner = [x for x in e.exceptions if not isinstance(x, asyncio.CancelledError)]
        if inner:
            return _why(inner[0])
    if isinstance(e, FileNotFoundError):
        return f"cannot start it: {e.strerror or 'no such file'}: {e.filename}"
    if isinstance(e, OSError):
        return f"cannot reach it: {e.strerror or e}"
    if isinstance(e, asyncio.CancelledError):
        return "it was disconnected"
    text = str(e).strip() or type(e).__name__
    lowered = text.lower()
    if "closed" in lowered or "endofstream" in type(e).__name__.lower() or \
            "brokenresource" in type(e).__name__.lower():
        return f"the server closed the connection ({text})"
    return text


class McpHub:
    """The MCP servers a kernel is connected to (see kernel/tools/context.ToolServers)."""

    def __init__(self, registry: Registry) -> None:
        self._registry = registry
        self._loop: _Loop | None = None
        self._conns: dict[str, _Connection] = {}
        self._lock = threading.Lock()

    def _submit(self, coro: Any) -> concurrent.futures.Future[Any]:
        with self._lock:
            if self._loop is None:
                self._loop = _Loop()
            loop = self._loop
        return loop.submit(coro)

    # -- ToolServers ----------------------------------------------------------------
    def connect(self, name: str, command: list[str] | None = None,
                url: str | None = None) -> tuple[list[str], list[str]]:
        if not _NAME.match(name):
            raise ToolServerError(f"{name!r} is not a usable command name")
        if self._registry.builtin(name) is not None:
            raise ToolServerError(f"{name}: a builtin has that name; choose another")
        if name in self._conns:
            raise ToolServerError(f"{name}: already connected (mcp disconnect {name} first)")
        if name in self._registry.registered:
            raise ToolServerError(f"{name}: a registered tool has that name; choose another")
        if (command is None) == (url is None):
            raise ToolServerError("connect needs a command or a URL (not both)")
        factory, target = _client_factory(command, url)
        conn = _Connection(name, target, factory)
        try:
            tools = self._submit(conn.open()).result(CONNECT_TIMEOUT)
        except ToolServerError as e:
            raise ToolServerError(f"{name}: {target}: {e.message}") from None
        except concurrent.futures.TimeoutError:
            self._submit(conn.close())
            raise ToolServerError(
                f"{name}: {target}: no answer within {CONNECT_TIMEOUT:g}s") from None
        tool, problems = command_tool(name, target, tools, self._caller(conn))
        self._conns[name] = conn
        self._registry.register(tool, namespace="mcp")
        return [t.name for t in tools], problems

    def servers(self) -> list[tuple[str, str, list[str]]]:
        return [(n, c.target, [t.name for t in c.tools]) for n, c in self._conns.items()]

    def disconnect(self, name: str) -> None:
        conn = self._conns.pop(name, None)
        if conn is None:
            raise ToolServerError(f"{name}: no such MCP server")
        self._registry.unregister(name)
        try:
            self._submit(conn.close()).result(10)
        except (concurrent.futures.TimeoutError, Exception):  # noqa: BLE001
            pass  # it is unregistered either way; its task ends with the loop

    # -- calls ------------------------------------------------------------------------
    def _caller(self, conn: _Connection) -> Any:
        def call(tool: str, args: dict[str, Any], ctx: Context) -> Any:
            fut = self._submit(conn.call(tool, args))
            while True:
                try:
                    return fut.result(_POLL)
                except concurrent.futures.TimeoutError:
                    if ctx.shell.cancelled():
                        fut.cancel()  # the SDK tells the server: notifications/cancelled
                        ctx.shell.check_boundary()
                except ToolServerError:
                    raise
                except concurrent.futures.CancelledError:
                    raise ToolServerError("the call was cancelled") from None
                except Exception as e:  # noqa: BLE001 — a dead server, a transport error
                    raise ToolServerError(_why(e)) from None

        return call


def _client_factory(command: list[str] | None, url: str | None) -> tuple[Any, str]:
    try:
        from mcp import Client, StdioServerParameters
    except ImportError:
        raise ToolServerError(
            "the MCP SDK is not installed (pip install 'tysh[mcp]')") from None

    if url is not None:
        if not re.match(r"https?://", url):
            raise ToolServerError(f"{url}: not an http:// or https:// URL")
        return (lambda: Client(url)), url
    assert command is not None
    if not command or not command[0]:
        raise ToolServerError("connect needs a command to run after --")
    params = StdioServerParameters(command=command[0], args=list(command[1:]))
    return (lambda: Client(params)), " ".join(command)


def _aliases(name: str) -> tuple[str, ...]:
    """The tool name's other spellings: `list_items` is also `list-items`, and back."""
    return tuple(a for a in dict.fromkeys([name.replace("_", "-"), name.replace("-", "_")])
                 if a != name)


def command_tool(name: str, target: str, tools: list[Any], call: Any
                 ) -> tuple[Tool, list[str]]:
    """The two-level command `name TOOL …` of a server's tools, and a message for each
    tool whose definition cannot be made a command."""
    kids: dict[str, Tool] = {}
    problems: list[str] = []
    for t in tools:
        definition: dict[str, Any] = {
            "name": t.name, "description": t.description or "",
            "inputSchema": dict(t.input_schema or {"type": "object"}),
        }
        try:
            raw = raw_tool(definition, _leaf_runner(name, t.name, call))
        except ToolDefinitionError as e:
            problems.append(f"{name}: {t.name}: skipped: {'; '.join(e.problems)}")
            continue
        schema = raw.schema.with_command_aliases(*_aliases(t.name))
        if t.output_schema:
            schema = schema.with_typed_substitution()
        kids[t.name] = raw.evolve(schema=schema)
    root = ToolSchema(name=name, description=f"the tools of the MCP server {target}",
                      subcommands=tuple(k.schema for k in kids.values()))
    return Tool(schema=root, func=None, args_class=None, children=kids), problems


def _leaf_runner(server: str, tool: str, call: Any) -> Any:
    def run(args: Any, ctx: Context) -> ToolReturn:
        try:
            result = call(tool, thaw(args), ctx)
        except ToolServerError as e:
            ctx.error(f"{tool}: {e.message}")
            return 1
        return _deliver(result, ctx)

    return run


def _deliver(result: Any, ctx: Context) -> ToolReturn:
    """Text content to stdout (stderr when the tool failed), structured content as the
    command's typed data."""
    parts: list[str] = []
    for block in result.content or ():
        kind = getattr(block, "type", "")
        if kind == "text":
            parts.append(block.text)
        elif kind in ("image", "audio"):
            parts.append(f"[{kind}: {block.mime_type}, {len(block.data) * 3 // 4} bytes]")
        elif kind == "resource_link":
            parts.append(f"[resource: {block.uri}]")
        elif kind == "resource":
            res = block.resource
            parts.append(getattr(res, "text", None) or f"[resource: {res.uri}]")
    text = "\n".join(parts)
    if text and not text.endswith("\n"):
        text += "\n"
    if result.is_error:
        ctx.stderr.write(text.encode("utf-8", "surrogateescape") if text else
                         f"{ctx.name}: the tool failed\n".encode())
        return 1
    data = result.structured_content
    if not text and data is not None and not ctx.json:
        text = to_json_text(data) + "\n"
    if text:
        ctx.write(text)
    return Outcome(0, None, data) if data is not None else 0


__all__ = ["McpHub", "command_tool", "thaw"]
