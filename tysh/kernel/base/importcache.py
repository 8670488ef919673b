"""tysh's own modules for the `tysh` command, read from one file in the per-user cache.

A cold `tysh -c` imports some sixty of the package's modules. Through the ordinary
import system each costs a directory search, then a stat, an open, reads and a close
of its `.pyc`. Here every module the command has used is kept in one file. A module
costs a stat of its source (its modification time and size must be those recorded,
or the ordinary import system loads it) and one read at a known offset: about a tenth
of a cold `echo hi`'s instructions.

The file is written only by the command, after a run that imported a module it did
not hold (or held stale); the next run reads the new file. It holds code, so it lives
only in `cache_dir()`, which is this user's alone (see there). Embedders never get the
finder: it is installed by the `tysh` script, not by `import tysh`.

File layout: the modules' marshalled code one after another, then the index (marshal
of {module name: (offset, length, path under the package's folder, is a package, source
mtime in ns, source size)}), then 16 bytes: the index's offset and length,
little-endian. A refresh writes it front to back holding one module's code at a time."""

from __future__ import annotations

import marshal  # (built into the interpreter: no import cost)
import os
import sys

from tysh.kernel.base.cache import cache_dir, checksum, write_atomic_parts

try:  # what importlib.machinery re-exports, without the cost of importing it (warnings)
    from _frozen_importlib import ModuleSpec
    from _frozen_importlib_external import MAGIC_NUMBER, SourceFileLoader, cache_from_source
except ImportError:  # an interpreter without the frozen import system's modules
    from importlib.machinery import ModuleSpec, SourceFileLoader
    from importlib.util import MAGIC_NUMBER, cache_from_source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from types import CodeType, ModuleType

_TAIL = 16
_FORMAT = 2  # in the file's name: a file of another layout is never read
_CODE = type(checksum.__code__)


class _CachedLoader(SourceFileLoader):
    """A source file's loader that has the module's code already: it executes that
    once (a reload reads the file as usual). Everything else (`__file__`, source for
    tracebacks and `inspect`, resources) is the ordinary source loader's."""

    def __init__(self, fullname: str, path: str, code: CodeType) -> None:
        super().__init__(fullname, path)
        self._code: CodeType | None = code

    def get_code(self, fullname: str) -> CodeType | None:
        code = self._code
        if code is not None and fullname == self.name:
            self._code = None
            return code
        return super().get_code(fullname)


Entry = tuple[int, int, str, bool, int, int]


class ImportCache:
    """A meta path finder for the modules of one package held in one file; a module it
    does not hold, or holds for another version of its source, it leaves to the finders
    after it and notes (`missed`), so `refresh` can add it."""

    def __init__(self, package: str, root: str, path: str) -> None:
        self.package = package
        self.root = root  # the package's folder
        self.path = path
        self.missed = False
        self._prefix = package + "."
        self._index: dict[str, Entry] = {}
        self._served: set[str] = set()  # the modules read from the file by this process
        self._fd = -1
        try:
            # (non-blocking: a FIFO put in its place must not hold the start up)
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            self.missed = True  # no file yet: the first run writes one
            return
        try:
            tail = os.pread(fd, _TAIL, os.fstat(fd).st_size - _TAIL)
            at, size = int.from_bytes(tail[:8], "little"), int.from_bytes(tail[8:], "little")
            index = marshal.loads(os.pread(fd, size, at))
            if type(index) is not dict:
                raise ValueError("not an index")
        except (OSError, ValueError, EOFError, TypeError, OverflowError, MemoryError):
            os.close(fd)
            self.missed = True
            return
        self._fd = fd
        self._index = index

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        entry = self._index.get(name)
        if entry is None:
            if name.startswith(self._prefix):
                self.missed = True
            return None
        code = self._code(entry)
        if code is None:
            self.missed = True
            return None
        self._served.add(name)
        origin = os.path.join(self.root, entry[2])  # (a str: _code joined it already)
        spec = ModuleSpec(name, _CachedLoader(name, origin, code), origin=origin,
                          is_package=entry[3])
        spec.has_location = True
        if entry[3]:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        return spec

    def _code(self, entry: Entry) -> CodeType | None:
        """The entry's code when its source is the one it was made from, else None."""
        try:
            offset, length, rel, _, mtime, size = entry
            st = os.stat(os.path.join(self.root, rel))
            if st.st_mtime_ns != mtime or st.st_size != size:
                return None
            code = marshal.loads(os.pread(self._fd, length, offset))
        except (OSError, ValueError, EOFError, TypeError, OverflowError, MemoryError):
            return None  # (an entry of another shape too: a file of another format)
        return code if type(code) is _CODE else None

    def refresh(self) -> None:
        """Write the file anew with every module of the package this process has
        imported from source files under the package's folder, each with the code of its
        source as it is now (the old file's entry when still current, else the source's
        `.pyc` when current, else the source compiled), and the old file's other
        entries whose sources are unchanged. Nothing is written when nothing was missed;
        a file that cannot be written only leaves the next start slower."""
        if not self.missed:
            return
        # per module: (name, its code's offset in the old file or its source file to
        # make it from, path under the package, is a package, source mtime, size)
        plan: list[tuple[str, int | str, str, bool, int, int]] = []
        made = False  # whether any module's code is not the old file's
        root = os.path.join(self.root, "")
        # the old file's other modules stay while their sources are unchanged (one this
        # process did not import is not read through: a damaged one is found, and made
        # anew, by the next process that imports it)
        for name, entry in self._index.items():
            if name not in sys.modules and self._unchanged(entry):
                plan.append((name, entry[0], *entry[2:]))
        for name, module in list(sys.modules.items()):
            if name != self.package and not name.startswith(self._prefix):
                continue
            spec = getattr(module, "__spec__", None)
            origin = getattr(spec, "origin", None)
            if spec is None or type(origin) is not str or not origin.startswith(
                    root) or not origin.endswith(".py"):
                continue
            pkg = bool(spec.submodule_search_locations)
            old = self._index.get(name)
            if old is not None and self._unchanged(old) and (
                    name in self._served or self._code(old) is not None):
                plan.append((name, old[0], *old[2:]))
                continue
            try:
                st = os.stat(origin)
            except OSError:
                continue
            made = True
            plan.append((name, origin, origin[len(root):], pkg, st.st_mtime_ns, st.st_size))
        if not made and {p[0] for p in plan} == self._index.keys():
            self.missed = False  # (a module it cannot hold: nothing new to write)
            return
        write_atomic_parts(self.path, self._parts(plan))
        self.missed = False

    def _unchanged(self, entry: Entry) -> bool:
        """Whether the entry's source has the mtime and size it was made from (and the
        entry the shape this format gives it)."""
        try:
            at, length, rel, _, mtime, size = entry
            if type(at) is not int or type(length) is not int:
                return False
            st = os.stat(os.path.join(self.root, rel))
            return st.st_mtime_ns == mtime and st.st_size == size
        except (OSError, ValueError, TypeError):
            return False  # (an entry of another shape: a file of another format)

    def _parts(self, plan: list[tuple[str, int | str, str, bool, int, int]]) -> Iterator[bytes]:
        """The new file's bytes, a module's code at a time, then its index and tail."""
        index: dict[str, Entry] = {}
        offset = 0
        for name, where, rel, pkg, mtime, size in plan:
            if isinstance(where, int):
                length = self._index[name][1]
                code = os.pread(self._fd, length, where)
                if len(code) != length:
                    raise OSError("the old file is shorter than its index")
            else:
                made = _source_code(where, mtime, size)
                if made is None:
                    continue
                code = made
            index[name] = (offset, len(code), rel, pkg, mtime, size)
            offset += len(code)
            yield code
        table = marshal.dumps(index)
        yield table
        yield offset.to_bytes(8, "little") + len(table).to_bytes(8, "little")


def _source_code(origin: str, mtime_ns: int, size: int) -> bytes | None:
    """The marshalled code of the source file: its `.pyc`'s when current, else the
    source compiled; None when the file is not the one stat saw, or cannot be read or
    compiled."""
    data = _pyc_code(origin, mtime_ns // 1_000_000_000, size)
    if data is not None:
        return data
    try:
        with open(origin, "rb") as f:
            source = f.read()
            if os.fstat(f.fileno()).st_mtime_ns != mtime_ns or len(source) != size:
                return None  # changed since: the next run finds it stale
        return marshal.dumps(compile(source, origin, "exec", dont_inherit=True,
                                     optimize=sys.flags.optimize))
    except (OSError, SyntaxError, ValueError):
        return None


def _pyc_code(origin: str, mtime: int, size: int) -> bytes | None:
    """The marshalled code of the source's `.pyc` when the `.pyc` is this
    interpreter's and was made from a source of that mtime and size (the check the
    import system makes), else None."""
    try:
        with open(cache_from_source(origin), "rb") as f:  # (where the import system puts it)
            data = f.read()
    except (OSError, NotImplementedError):  # (NotImplementedError: no cache tag)
        return None
    if (len(data) < 16 or data[:4] != MAGIC_NUMBER or data[4:8] != b"\0\0\0\0"
            or int.from_bytes(data[8:12], "little") != mtime & 0xFFFFFFFF
            or int.from_bytes(data[12:16], "little") != size & 0xFFFFFFFF):
        return None
    return data[16:]


def cache_file(root: str) -> str | None:
    """Where the cache of the package at `root` lives for this interpreter: one file per
    installation, interpreter version and optimization level."""
    d = cache_dir()
    if d is None:
        return None
    key = f"{root}\0{sys.version}\0{sys.flags.optimize}\0{MAGIC_NUMBER!r}"
    return os.path.join(
        d, f"modules{_FORMAT}-{sys.implementation.cache_tag}-{checksum(key):08x}.bin")


_installed: ImportCache | None = None


def install(package: str, root: str) -> ImportCache | None:
    """Put the cache of the package's modules (the package's folder is `root`) first on
    `sys.meta_path`: the `tysh` script calls this before it imports the command line.
    None when there is no cache directory (or no positioned reads: not POSIX)."""
    global _installed
    if _installed is not None:
        return _installed
    path = cache_file(root) if hasattr(os, "pread") else None  # (POSIX reads at offsets)
    if path is None:
        return None
    _installed = ImportCache(package, root, path)
    sys.meta_path.insert(0, _installed)
    return _installed


def refresh_installed() -> None:
    """`refresh` of the installed cache, at the end of a command's run."""
    if _installed is not None:
        try:
            _installed.refresh()
        except (OSError, ValueError, MemoryError):
            pass  # the cache is only speed
