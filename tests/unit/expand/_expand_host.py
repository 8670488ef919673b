"""A dict-backed ExpandHost for the expansion tests, plus helpers to build words."""

from __future__ import annotations

from typing import Any

from tysh.kernel.fs.api import FileSystem
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.syntax import ast


class FakeHost:
    """Variables in a dict, positional parameters in a list, `$(…)` answered from a table
    keyed by the first word of the substituted script (or by a callable)."""

    def __init__(
        self,
        vars: dict[str, Any] | None = None,
        positional: list[str] | None = None,
        cwd: str = "/",
        fs: FileSystem | None = None,
        nounset: bool = False,
        subs: dict[str, Any] | None = None,
    ) -> None:
        self.vars: dict[str, Any] = dict(vars or {})
        self.pos = list(positional or [])
        self._cwd = cwd
        self.fs: FileSystem = fs or LocalFileSystem()
        self._nounset = nounset
        self.subs = dict(subs or {})
        self.sh_word_split = False  # `set -o sh_word_split`
        self.specials = {"?": "0", "$": "4242", "!": "", "0": "tysh", "-": "h"}

    @property
    def cwd(self) -> str:
        return self._cwd

    @property
    def nounset(self) -> bool:
        return self._nounset

    def byte_locale(self) -> bool:
        return False  # a UTF-8 locale: characters

    def lookup(self, name: str) -> Any:
        return self.vars.get(name)

    def assign(self, name: str, value: Any) -> None:
        self.vars[name] = value

    def assign_index(self, name: str, key: str | int, value: Any) -> None:
        cur = self.vars.get(name)
        if isinstance(cur, dict):
            cur[str(key)] = value
            return
        if not isinstance(cur, list):
            cur = [] if cur is None else [cur]
            self.vars[name] = cur
        assert isinstance(key, int)
        while len(cur) <= key:
            cur.append(None)
        cur[key] = value

    def positional(self) -> list[str]:
        return self.pos

    def special(self, name: str) -> str:
        return self.specials[name]

    def command_substitution(self, body: ast.Script) -> Any:
        key = body.statements[0].body.first.commands[0].words[0].parts[0].text  # type: ignore[union-attr]
        return self.subs[key]


def cmdsub(name: str) -> ast.CmdSub:
    """A `$(name)` part whose result the FakeHost looks up by `name`."""
    cmd = ast.SimpleCommand((), (ast.Word((ast.Lit(name),)),))
    return ast.CmdSub(ast.Script((ast.Statement(ast.AndOr(ast.Pipeline((cmd,)))),)))


def W(*parts: Any) -> ast.Word:
    """A word from parts; plain strings become Lit parts."""
    return ast.Word(tuple(ast.Lit(p) if isinstance(p, str) else p for p in parts))


def P(name: str, **kw: Any) -> ast.ParamExp:
    return ast.ParamExp(name, **kw)


def Q(text: str) -> ast.Quoted:
    return ast.Quoted(text)


def DQ(*parts: Any) -> ast.DQ:
    return ast.DQ(tuple(ast.Quoted(p) if isinstance(p, str) else p for p in parts))
