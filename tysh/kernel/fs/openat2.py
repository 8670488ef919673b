"""Linux's openat2(2) with RESOLVE_BENEATH, through ctypes: the host kernel resolves a
relative path beneath a directory fd in one call, refusing `..` past it, absolute
symlinks and /proc magic links (EXDEV / ELOOP), safe against concurrent renames.

`resolver()` is None where the call does not exist (another OS, an old kernel, a seccomp
filter); the confined filesystem then walks the path itself. ctypes is imported on first
use, not at start-up."""

from __future__ import annotations

import _thread
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Openat2 = Callable[[int, str, int, int], int]
    Opener = Callable[[int, str], int]

RESOLVE_NO_MAGICLINKS = 0x02
RESOLVE_BENEATH = 0x08

# the syscall number is the same on every Linux architecture (added after the tables
# were unified)
SYS_OPENAT2 = 437

_lock = _thread.allocate_lock()
_fn: Openat2 | None = None
_with_flags: Callable[[int], Opener] | None = None
_probed = False
# flags -> an opener with those flags fixed (`fixed`)
_fixed: dict[int, Opener] = {}


def _build() -> tuple[Openat2, Callable[[int], Opener]] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
    except ImportError:
        return None

    class OpenHow(ctypes.Structure):
        _fields_ = [
            ("flags", ctypes.c_uint64),
            ("mode", ctypes.c_uint64),
            ("resolve", ctypes.c_uint64),
        ]

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        syscall = libc.syscall
    except (OSError, AttributeError):
        return None
    syscall.restype = ctypes.c_long
    syscall.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p,
                        ctypes.c_size_t]
    size = ctypes.sizeof(OpenHow)
    resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS
    get_errno = ctypes.get_errno
    # os.fsencode of a str, without its two Python calls
    encoding = sys.getfilesystemencoding()
    errors = sys.getfilesystemencodeerrors()
    # one open_how per (flags, mode), kept alive here: its address is passed as is
    hows: dict[tuple[int, int], tuple[object, int]] = {}

    def openat2(dirfd: int, path: str, flags: int, mode: int) -> int:
        key = (flags, mode if flags & os.O_CREAT else 0)
        entry = hows.get(key)
        if entry is None:
            how = OpenHow(key[0], key[1], resolve)
            entry = hows[key] = (how, ctypes.addressof(how))
        fd = syscall(SYS_OPENAT2, dirfd, path.encode(encoding, errors), entry[1], size)
        if fd < 0:
            err = get_errno()
            raise OSError(err, os.strerror(err))
        return int(fd)

    def with_flags(flags: int) -> Opener:
        entry = hows.get((flags, 0))
        if entry is None:  # (kept in `hows`, which keeps it alive)
            how = OpenHow(flags, 0, resolve)
            entry = hows[flags, 0] = (how, ctypes.addressof(how))
        address = entry[1]

        def opener(dirfd: int, path: str) -> int:
            fd = syscall(SYS_OPENAT2, dirfd, path.encode(encoding, errors), address, size)
            if fd < 0:
                err = get_errno()
                raise OSError(err, os.strerror(err))
            return int(fd)

        return opener

    # probe: ENOSYS (old kernel) or EPERM (a seccomp filter) means use the walk
    base = os.open("/", os.O_PATH | os.O_CLOEXEC)
    try:
        os.close(openat2(base, ".", os.O_PATH | os.O_CLOEXEC, 0))
    except OSError:
        return None
    finally:
        os.close(base)
    return openat2, with_flags


def resolver() -> Openat2 | None:
    """openat2 beneath a directory fd, `(dirfd, relative_path, flags, mode) -> fd`
    raising OSError; None where the host kernel lacks it."""
    global _fn, _with_flags, _probed
    if not _probed:
        with _lock:
            if not _probed:
                built = _build()
                if built is not None:
                    _fn, _with_flags = built
                _probed = True
    return _fn


def fixed(flags: int) -> Opener | None:
    """`resolver()` with `flags` fixed and no creation mode, `(dirfd, relative_path) ->
    fd` raising OSError, for the open asked for most (a file read): a lookup less per
    open; None where the host kernel lacks openat2."""
    got = _fixed.get(flags)
    if got is None:
        resolver()
        if _with_flags is None:
            return None
        with _lock:
            got = _fixed.get(flags)
            if got is None:
                got = _fixed[flags] = _with_flags(flags)
    return got
