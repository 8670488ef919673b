"""The builtin tools: one table from a command name to the module that defines it.

A module is imported the first time one of its commands runs, so `echo` never loads
grep, sed or jq. Adding a builtin is a module with an `@tool` function and one line
here; `tests/unit/builtins/test_table.py` fails when a tool is missing from the table."""

from __future__ import annotations

from tysh.kernel.base.lazymod import load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tysh.kernel.tools.tool import Tool

BUILTINS: dict[str, str] = {
    # the shell's own commands: they act on the session
    "declare": "shell.vars", "typeset": "shell.vars", "local": "shell.vars",
    "export": "shell.vars", "readonly": "shell.vars", "unset": "shell.vars",
    "exit": "shell.flow", "return": "shell.flow", "break": "shell.flow",
    "continue": "shell.flow", "shift": "shell.flow",
    "read": "shell.read", "mapfile": "shell.read", "readarray": "shell.read",
    "cd": "shell.dirs", "pwd": "shell.dirs", "pushd": "shell.dirs", "popd": "shell.dirs",
    "dirs": "shell.dirs", "set": "shell.options", "shopt": "shell.options",
    "source": "shell.source", ".": "shell.source", "command": "shell.command",
    "builtin": "shell.command", "getopts": "shell.getopts", "alias": "shell.aliases",
    "unalias": "shell.aliases", "wait": "shell.jobs", "jobs": "shell.jobs",
    "complete": "shell.complete", "compgen": "shell.complete", "compopt": "shell.complete",
    "umask": "shell.resources", "ulimit": "shell.resources", "times": "shell.resources",
    "enable": "shell.enable", "hash": "shell.enable", "caller": "shell.caller",
    "history": "shell.history",
    "kill": "shell.jobs", "disown": "shell.jobs", "eval": "shell.evaluate",
    "trap": "shell.trap", "let": "shell.evaluate", "exec": "shell.execute",
    # what the session knows
    "help": "meta", "tools": "meta", "type": "meta",
    # MCP servers' tools as commands
    "mcp": "mcp.tool",
    # POSIX basics
    "echo": "core.echo", "printf": "core.echo", "test": "core.test", "[": "core.test",
    "true": "core.noop", "false": "core.noop", ":": "core.noop",
    # running other commands, and waiting
    "env": "process.env", "timeout": "process.timeout", "sleep": "process.sleep",
    "xargs": "process.xargs", "nohup": "process.nice", "nice": "process.nice",
    # text
    "cat": "text.cat", "tac": "text.cat", "rev": "text.cat", "tee": "text.cat",
    "head": "text.headtail", "tail": "text.headtail", "wc": "text.wc", "sort": "text.sort",
    "uniq": "text.uniq", "cut": "text.cut", "paste": "text.cut", "tr": "text.tr",
    "seq": "text.seq", "nl": "text.nl", "column": "text.column", "fold": "text.fold",
    "expand": "text.fold", "unexpand": "text.fold", "join": "text.join", "fmt": "text.fmt",
    "shuf": "text.shuf", "envsubst": "text.envsubst",
    # search and edit
    "grep": "search.grep", "egrep": "search.egrep", "fgrep": "search.egrep",
    "sed": "sed.tool", "awk": "awk.tool",
    # files
    "ls": "files.ls", "find": "files.find", "glob": "files.glob", "mkdir": "files.ops",
    "rm": "files.ops", "rmdir": "files.ops", "cp": "files.ops", "mv": "files.ops",
    "touch": "files.ops", "ln": "files.ops", "stat": "files.info", "basename": "files.info",
    "dirname": "files.info", "realpath": "files.info", "chmod": "files.chmod",
    "readlink": "files.readlink", "du": "files.du", "tree": "files.tree",
    "mktemp": "files.mktemp", "truncate": "files.truncate",
    # comparing
    "diff": "compare.diff", "cmp": "compare.cmp", "comm": "compare.comm",
    # checksums and encodings
    "md5sum": "digest.sums", "sha1sum": "digest.sums", "sha256sum": "digest.sums",
    "sha512sum": "digest.sums", "base64": "digest.sums", "cksum": "digest.cksum",
    "sha224sum": "digest.cksum", "sha384sum": "digest.cksum", "b2sum": "digest.cksum",
    # bytes
    "od": "bytes.od", "xxd": "bytes.xxd", "strings": "bytes.strings",
    # archives
    "gzip": "archive.gzip", "gunzip": "archive.gzip", "zcat": "archive.gzip",
    "tar": "archive.tar",
    # applying diffs
    "patch": "patch.tool",
    # JSON
    "jq": "json.jq", "fromjson": "json.values", "tojson": "json.values", "keys": "json.values",
    "values": "json.values", "typeof": "json.values", "split": "json.values",
    # arithmetic
    "expr": "calc.expr", "bc": "calc.bc", "factor": "calc.factor", "numfmt": "calc.numfmt",
    # the system
    "date": "system.date", "which": "system.which", "yes": "system.info",
    "printenv": "system.info", "nproc": "system.info", "uname": "system.info",
    "whoami": "system.info", "hostname": "system.info", "id": "system.ids", "tty": "system.ids",
}

_by_module: dict[str, dict[str, Tool]] = {}


def module_tools(module: str) -> dict[str, Tool]:
    """The tools a builtin module defines (every module-level `Tool`), by name."""
    found = _by_module.get(module)
    if found is None:
        from tysh.kernel.tools.tool import Tool

        mod = load(f"tysh.builtins.{module}")  # (one module loads at a time: see load)
        found = {v.name: v for v in vars(mod).values() if isinstance(v, Tool)}
        _by_module[module] = found
    return found


def get_builtin(name: str) -> Tool | None:
    """The builtin tool of that name, importing its module on first use; None when there
    is no such builtin."""
    module = BUILTINS.get(name)
    if module is None:
        return None
    return module_tools(module).get(name)


def all_builtins() -> list[Tool]:
    """Every builtin, in the table's order."""
    out: list[Tool] = []
    for name in BUILTINS:
        t = get_builtin(name)
        if t is not None:
            out.append(t)
    return out
