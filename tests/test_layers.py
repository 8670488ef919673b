"""The package's layering, checked on its own source with `ast` (imports inside functions
count too):

1. each folder imports only the folders its entry in LAYERS allows, so a lower layer never
   reaches a higher one and the kernel never imports `tysh.builtins`; builtins reach the
   interpreter only through the declared session protocol — no `cast(...)` to it and no
   `getattr` probes of `ctx.shell`;
2. no import cycle among modules at run time (imports under TYPE_CHECKING do not run);
3. no module imports another module's `_private` name, or a `_private` package from
   outside the package that holds it;
4. no folder holds more than 20 modules.

Every rule is also shown to fail on a violation planted in a copy of the tree."""

from __future__ import annotations

import ast
import shutil
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

SRC = Path(__file__).resolve().parent.parent / "tysh"

BASE = "tysh.kernel.base"
SYNTAX = "tysh.kernel.syntax"
FS = "tysh.kernel.fs"
TOOLS = "tysh.kernel.tools"
VALUES = "tysh.kernel.tools.values"
BIND = "tysh.kernel.bind"
TEXT = "tysh.kernel.text"
EXPAND = "tysh.kernel.expand"
RUN = "tysh.kernel.run"
COMMON = "tysh.builtins._common"

# What a builtin family may use: the kernel's stages below the interpreter, and the
# helpers the families share. Families never import each other.
BUILTIN = (BASE, SYNTAX, FS, TOOLS, TEXT, EXPAND, COMMON)

# folder -> the folders (and their subfolders) its modules may import besides its own.
LAYERS: dict[str, tuple[str, ...]] = {
    "tysh": ("tysh",),  # the command line and the public API see everything
    "tysh.kernel": (),
    BASE: (),
    SYNTAX: (BASE,),
    FS: (BASE,),
    TOOLS: (BASE, FS, VALUES),  # the JSON side of a tool is compiled by its values
    VALUES: (BASE, FS, TOOLS),
    BIND: (BASE, TOOLS),
    TEXT: (BASE, FS, TOOLS),
    EXPAND: (BASE, SYNTAX, FS, TEXT),
    RUN: (BASE, SYNTAX, FS, TOOLS, BIND, TEXT, EXPAND),
    "tysh.kernel.embed": ("tysh.kernel",),
    "tysh.builtins": BUILTIN,
    "tysh.builtins.shell": (*BUILTIN, "tysh.kernel.run.session", "tysh.kernel.run.state"),
    "tysh.repl": ("tysh.kernel", "tysh.builtins"),
    "tysh.acp": ("tysh.kernel",),  # event consumers and the ACP terminal, above the kernel
    # the MCP server sits above the embedding API, as the REPL does; the client makes
    # registered tools from the kernel's tool modules
    "tysh.mcp": ("tysh.kernel", "tysh.builtins"),
}
FAMILY = "tysh.builtins."  # every other folder under it is a family: BUILTIN

# folder -> single modules it may import without their subpackages: the composition root
# hands the builtin table to the registry, and nothing else of the builtins reaches the
# kernel.
EXACT: dict[str, tuple[str, ...]] = {
    "tysh.kernel.embed": ("tysh.builtins", "tysh.mcp.client"),
    "tysh.mcp": ("tysh",),  # the version it reports
}

MAX_MODULES = 20


@attrs.frozen
class Import:
    """One import statement's target as seen from `source` (a dotted module name)."""

    source: str
    target: str  # the module imported, or the module a name was imported from
    names: tuple[str, ...]  # names taken with `from target import ...`
    line: int
    type_only: bool  # under `if TYPE_CHECKING:`


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def folder_of(module: str, root: Path) -> str:
    """The package a module lives in (a package's __init__ lives in the package)."""
    path = root.parent.joinpath(*module.split("."))
    return module if path.is_dir() else module.rpartition(".")[0]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(root: Path, path: Path) -> Iterator[Import]:
    source = module_name(root, path)
    package = source if path.name == "__init__.py" else source.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def walk(node: ast.AST, type_only: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    yield from walk_one(stmt, True)
                for stmt in child.orelse:
                    yield from walk_one(stmt, type_only)
                continue
            yield from walk_one(child, type_only)

    def walk_one(node: ast.AST, type_only: bool) -> Iterator[Import]:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "tysh":
                    yield Import(source, a.name, (), node.lineno, type_only)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = package.split(".")
                pkg = pkg[: len(pkg) - (node.level - 1)]
                base = ".".join([*pkg, base] if base else pkg)
            if base.split(".")[0] == "tysh":
                names = tuple(a.name for a in node.names)
                yield Import(source, base, names, node.lineno, type_only)
        else:
            yield from walk(node, type_only)

    yield from walk(tree, False)


def modules(root: Path) -> dict[str, Path]:
    return {module_name(root, p): p for p in sorted(root.rglob("*.py"))}


def targets(imp: Import, known: dict[str, Path]) -> list[str]:
    """The modules an import loads: `from pkg import mod` names a module too."""
    out = [imp.target]
    for n in imp.names:
        if f"{imp.target}.{n}" in known:
            out.append(f"{imp.target}.{n}")
    return out


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def allowed_for(folder: str) -> tuple[str, ...]:
    if folder in LAYERS:
        return LAYERS[folder]
    if folder.startswith(FAMILY):
        return BUILTIN
    raise KeyError(f"folder {folder} has no entry in LAYERS")


def layer_violations(root: Path) -> list[str]:
    known = modules(root)
    out: list[str] = []
    for mod, path in known.items():
        folder = folder_of(mod, root)
        allowed = allowed_for(folder)
        for imp in imports_of(root, path):
            for t in targets(imp, known):
                tf = folder_of(t, root) if t in known else t
                if tf == folder:
                    continue
                if any(_within(t, a) for a in allowed) or t in EXACT.get(folder, ()):
                    continue
                out.append(f"{mod}:{imp.line} imports {t}")
    return out


def probe_violations(root: Path) -> list[str]:
    """`cast(...)` to the interpreter and `getattr` probes of the session in builtins."""
    out: list[str] = []
    for mod, path in modules(root).items():
        if not _within(mod, "tysh.builtins"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id == "cast" and node.args:
                target = ast.unparse(node.args[0])
                if "Interpreter" in target:
                    out.append(f"{mod}:{node.lineno} casts to {target}")
            if node.func.id in ("getattr", "hasattr") and node.args:
                obj = ast.unparse(node.args[0])
                if obj.endswith("shell") or obj.endswith("ctx"):
                    out.append(f"{mod}:{node.lineno} probes {obj} with {node.func.id}")
    return out


def import_graph(root: Path) -> dict[str, set[str]]:
    known = modules(root)
    graph: dict[str, set[str]] = {m: set() for m in known}
    for mod, path in known.items():
        for imp in imports_of(root, path):
            if imp.type_only:
                continue
            for t in targets(imp, known):
                if t in known and t != mod:
                    graph[mod].add(t)
                    # importing a.b.c runs a/__init__ and a/b/__init__ first
                    parent = t.rpartition(".")[0]
                    while parent and parent in known and parent != mod:
                        graph[mod].add(parent)
                        parent = parent.rpartition(".")[0]
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def private_violations(root: Path) -> list[str]:
    known = modules(root)
    out: list[str] = []
    for mod, path in known.items():
        for imp in imports_of(root, path):
            for n in imp.names:
                if n.startswith("_") and not n.startswith("__") and imp.target != mod:
                    if f"{imp.target}.{n}" in known and _within(mod, imp.target):
                        continue  # a private submodule of the importer's own package
                    out.append(f"{mod}:{imp.line} imports {n} from {imp.target}")
            for t in targets(imp, known):
                parts = t.split(".")
                for i, part in enumerate(parts):
                    if part.startswith("_") and not part.startswith("__"):
                        owner = ".".join(parts[:i])
                        if not _within(mod, owner):
                            out.append(f"{mod}:{imp.line} imports private {t}")
                        break
    return out


def crowded_folders(root: Path) -> list[str]:
    out = []
    for d in sorted(p for p in root.rglob("*") if p.is_dir() and p.name != "__pycache__"):
        n = len([p for p in d.glob("*.py") if p.name != "__init__.py"])
        if n > MAX_MODULES:
            out.append(f"{d.relative_to(root.parent)} holds {n} modules")
    return out


def test_each_folder_imports_only_the_layers_below_it() -> None:
    assert layer_violations(SRC) == []


def test_builtins_reach_the_session_only_through_its_protocol() -> None:
    assert probe_violations(SRC) == []


def test_no_import_cycle_at_run_time() -> None:
    assert cycles(import_graph(SRC)) == []


def test_no_module_imports_a_private_name_of_another() -> None:
    assert private_violations(SRC) == []


def test_no_folder_holds_more_than_twenty_modules() -> None:
    assert crowded_folders(SRC) == []


def test_every_folder_has_a_layer_entry() -> None:
    for mod in modules(SRC):
        allowed_for(folder_of(mod, SRC))


# --- each rule fails on a planted violation --------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tysh"
    shutil.copytree(SRC, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")


def test_a_planted_upward_import_is_reported(tree: Path) -> None:
    _append(tree / "kernel/base/errors.py",
            "def f() -> None:\n    from tysh.builtins import get_builtin  # noqa\n")
    assert any("tysh.kernel.base.errors" in v and "tysh.builtins" in v
               for v in layer_violations(tree))


def test_a_planted_cast_to_the_interpreter_is_reported(tree: Path) -> None:
    _append(tree / "builtins/text/wc.py", "def g(ctx):\n    return cast('Interpreter', ctx.shell)\n")
    assert any("casts" in v for v in probe_violations(tree))


def test_a_planted_cycle_is_reported(tree: Path) -> None:
    _append(tree / "kernel/base/values.py",
            "def f() -> None:\n    import tysh.kernel.base.errors  # noqa\n")
    _append(tree / "kernel/base/errors.py",
            "def g() -> None:\n    import tysh.kernel.base.values  # noqa\n")
    assert ["tysh.kernel.base.errors", "tysh.kernel.base.values"] in cycles(import_graph(tree))


def test_a_cycle_only_under_type_checking_is_not_one(tree: Path) -> None:
    _append(tree / "kernel/base/values.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    import tysh.kernel.base.errors  # noqa\n")
    _append(tree / "kernel/base/errors.py", "import tysh.kernel.base.values  # noqa\n")
    assert all("tysh.kernel.base.errors" not in c for c in cycles(import_graph(tree)))


def test_a_planted_private_import_is_reported(tree: Path) -> None:
    _append(tree / "kernel/run/pipeline.py", "from tysh.kernel.base.values import _secret  # noqa\n")
    assert any("_secret" in v for v in private_violations(tree))


def test_a_planted_crowded_folder_is_reported(tree: Path) -> None:
    for i in range(MAX_MODULES + 1):
        (tree / "kernel/base" / f"extra{i}.py").write_text("")
    assert any("kernel/base" in v for v in crowded_folders(tree))
