"""Which external programs a session may run, and where they run.

`ExternalPolicy` is the kernel's answer to "may this program run, and how": an
allow-list (names as a script writes them, or absolute paths), and a runner —
"host" (a plain child process), "bwrap" (the program confined by bubblewrap to the
kernel's root and a read-only system), or a callable the embedder supplies (a
container, a remote worker). A policy may also carry a refusal: the reason no program
can run at all (bwrap missing, an in-memory filesystem), said whenever one is asked for.

The bwrap profile: the kernel's root bound read-write at its own path; /usr, /bin,
/sbin and /lib* read-only; /etc read-only without its secrets (shadow files, sudoers,
ssh host keys, TLS private keys); a private /tmp (the kernel's scratch directory when it
has one, else an empty tmpfs); a fresh /proc, read-only (no sysctl writes), and /dev; new PID, IPC and UTS namespaces,
and a new network namespace (no network) unless `network=True`; every capability
dropped; the program in a new session (no terminal to inject keystrokes into) and
killed when the kernel's child goes; only the session's exported environment; rlimits
from `Limits` set before bwrap starts and inherited by everything inside."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterable
from typing import IO, Any

from tysh.kernel.base.limits import Limits
from tysh.kernel.base.record import Record, frozen

# callable(argv, cwd, env, stdin, stdout, stderr, limits) -> status
Runner = Callable[[list[str], str, dict[str, str], IO[bytes], IO[bytes], IO[bytes], Limits],
                  int]

# directories of the host system a sandboxed program sees read-only (when present)
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")

# what /etc keeps from a sandboxed program: credentials, host keys, private keys
ETC_SECRETS = frozenset({
    "shadow", "shadow-", "gshadow", "gshadow-", "sudoers", "sudoers.d", ".pwd.lock",
    "security", "krb5.keytab", "credstore", "credstore.encrypted", "ipsec.secrets",
    "wireguard", "NetworkManager", "ppp", "chap-secrets", "libvirt", "docker",
})
# directories of /etc shown one level deeper, without their secret entries
ETC_PARTIAL: dict[str, Callable[[str], bool]] = {
    "ssh": lambda name: name.startswith("ssh_host_"),
    "ssl": lambda name: name == "private",
}


@frozen
class ExternalPolicy(Record):
    """`allowed`: None for every program, else names (matched against the command word)
    and absolute paths (matched against the program found). `runner`: "host", "bwrap"
    or a callable. `root`: the host directory bwrap binds read-write (the kernel's
    root). `scratch`: the host directory a sandboxed program sees as /tmp, or a function
    that gives it (None: an empty tmpfs). `refusal`: why no program may run here, or None."""

    allowed: frozenset[str] | None
    runner: str | Runner
    root: str | None = None
    # the host directory, or a function giving it (made on first use; None: a tmpfs)
    scratch: str | Callable[[], str | None] | None = None
    network: bool = False
    refusal: str | None = None

    def allows_name(self, name: str) -> bool:
        """Whether the command word may run at all (before it is looked up)."""
        allowed = self.allowed
        if allowed is None:
            return True
        if "/" not in name:
            return name in allowed
        return any(a.startswith("/") for a in allowed)

    def allows(self, name: str, host: str) -> bool:
        """Whether the program `host` that the command word `name` found may run."""
        allowed = self.allowed
        if allowed is None:
            return True
        if "/" not in name and name in allowed:
            return True
        paths = [a for a in allowed if a.startswith("/")]
        if not paths:
            return False
        if host in paths:
            return True
        real = os.path.realpath(host)
        return any(os.path.realpath(a) == real for a in paths)

    def refused(self, name: str) -> str:
        """The message for a program this policy does not allow."""
        allowed = self.allowed
        shown = ", ".join(sorted(allowed)) if allowed else "none"
        return f"tysh: {name}: command not found (external commands are disabled; " \
               f"allowed: {shown})"


def make_policy(
    allow: bool | Iterable[str],
    runner: str | Runner | None,
    *,
    sandboxed: bool,
    root: str | None,
    scratch: str | Callable[[], str | None] | None = None,
    network: bool = False,
    overlay: bool = False,
) -> ExternalPolicy | None:
    """The policy of a kernel: None when no program may run. `sandboxed`: the preset
    confines files (bwrap is then the default runner); `root`: its host directory (None
    for an in-memory filesystem); `overlay`: its writes are kept in memory."""
    if allow is False:
        return None
    if allow is True:
        allowed: frozenset[str] | None = None
    else:
        if isinstance(allow, (str, bytes)):
            raise TypeError("allow_external: a list of program names or paths, not one string")
        names = []
        for a in allow:
            if not isinstance(a, str) or not a or "\0" in a:
                raise ValueError(f"allow_external: {a!r} is not a program name or path")
            if "/" in a and not a.startswith("/"):
                raise ValueError(f"allow_external: {a!r}: a path must be absolute")
            names.append(a)
        allowed = frozenset(names)
    if runner is None:
        runner = "bwrap" if sandboxed else "host"
    elif isinstance(runner, str):
        if runner not in ("bwrap", "host"):
            raise ValueError(f"runner must be 'bwrap', 'host' or a callable, not {runner!r}")
    elif not callable(runner):
        raise TypeError(f"runner must be 'bwrap', 'host' or a callable, not {runner!r}")
    refusal = None
    if not callable(runner):
        if root is None:
            refusal = ("an in-memory filesystem (Kernel.isolated) has no host directory "
                       "for a program to run in; pass runner=callable to run programs "
                       "elsewhere")
        elif overlay:
            refusal = ("under Kernel.overlay a program would write to the real files "
                       "behind the overlay; use Kernel(root) to run programs in the "
                       "sandbox, or runner=callable")
    return ExternalPolicy(allowed, runner, root, scratch, network, refusal)


# ------------------------------------------------------------------ bwrap

_BWRAP: tuple[str | None, str] | None = None


def bwrap_status() -> tuple[str | None, str]:
    """(the path of a bwrap that can build this sandbox, "") or (None, why not). Tried
    once per process: present and able to create its namespaces (a non-root user
    without user namespaces, or a container without the privilege, cannot)."""
    global _BWRAP
    if _BWRAP is None:
        _BWRAP = _probe_bwrap()
    return _BWRAP


def _probe_bwrap() -> tuple[str | None, str]:
    import shutil

    path = shutil.which("bwrap", path="/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin")
    if path is None:
        return None, "bwrap is not installed (Debian/Ubuntu package bubblewrap)"
    true = shutil.which("true", path="/usr/bin:/bin")
    if true is None:
        return None, "no `true` program to try bwrap with"
    argv = bwrap_argv(path, true, [true], "/", root=None, scratch=None, network=False)
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError) as e:
        return None, f"bwrap cannot run: {e}"
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, "bwrap is present but cannot create its sandbox" + (
            f" ({why[-1]})" if why else f" (status {done.returncode})")
    return path, ""


def bwrap_argv(
    bwrap: str,
    program: str,
    argv: list[str],
    cwd: str,
    *,
    root: str | None,
    scratch: str | None,
    network: bool,
) -> list[str]:
    """The bwrap command line that runs `program` with `argv[1:]` in `cwd` (see the
    module docstring for the profile). Mounts are listed parents first, so the root
    bound inside /tmp (or /tmp inside the root) ends up as each should."""
    out = [bwrap, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc",
           "--unshare-uts"]
    if not network:
        out.append("--unshare-net")
    if os.geteuid() == 0:
        out += ["--cap-drop", "ALL"]
    mounts: list[tuple[str, list[str]]] = []
    for d in SYSTEM_DIRS:
        if os.path.islink(d):
            mounts.append((d, ["--symlink", os.readlink(d), d]))
        elif os.path.isdir(d):
            mounts.append((d, ["--ro-bind", d, d]))
    mounts += _etc_mounts()
    # read-only as a whole: a program running as the host's root (CI) could otherwise
    # write /proc/sys (kernel.core_pattern runs a command as root on the host)
    mounts.append(("/proc", ["--proc", "/proc", "--remount-ro", "/proc"]))
    mounts.append(("/dev", ["--dev", "/dev"]))
    private_tmp = root is None or not _within("/tmp", root)
    if private_tmp:
        if scratch is not None:
            mounts.append(("/tmp", ["--bind", scratch, "/tmp"]))
        else:
            mounts.append(("/tmp", ["--tmpfs", "/tmp"]))
    if root is not None:
        mounts.append((root, ["--bind", root, root]))
    # a parent before what is mounted inside it; equal depth keeps the order above
    mounts.sort(key=lambda m: m[0].rstrip("/").count("/") if m[0] != "/" else 0)
    for _, args in mounts:
        out += args
    if any(m[0] == "/etc" for m in mounts):
        out += ["--remount-ro", "/etc"]  # last: its entries are mounted on it first
    out += ["--chdir", cwd, "--", program, *argv[1:]]
    return out


def _within(path: str, root: str) -> bool:
    """Whether `path` is `root` or inside it."""
    root = root.rstrip("/")
    return path == root or path.startswith(root + "/") or root == ""


def _etc_mounts() -> list[tuple[str, list[str]]]:
    """/etc as an empty tmpfs with each entry but the secrets bound read-only on it."""
    try:
        names = sorted(os.listdir("/etc"))
    except OSError:
        return []
    out: list[tuple[str, list[str]]] = [("/etc", ["--tmpfs", "/etc"])]
    for name in names:
        if name in ETC_SECRETS:
            continue
        path = "/etc/" + name
        hide = ETC_PARTIAL.get(name)
        if hide is not None and os.path.isdir(path) and not os.path.islink(path):
            out.append((path, ["--dir", path]))
            try:
                inner = sorted(os.listdir(path))
            except OSError:
                continue
            for sub in inner:
                if not hide(sub):
                    out.append(_mirror(path + "/" + sub))
            continue
        out.append(_mirror(path))
    return out


def _mirror(path: str) -> tuple[str, list[str]]:
    if os.path.islink(path):
        return path, ["--symlink", os.readlink(path), path]
    return path, ["--ro-bind", path, path]


def scratch_dir(policy: ExternalPolicy) -> str | None:
    """The host directory a sandboxed program sees as /tmp (made now if need be)."""
    scratch = policy.scratch
    return scratch() if callable(scratch) else scratch


def inside_path(host: str, scratch: str | None) -> str:
    """The path a program under bwrap knows the host path `host` by: the same, except
    below the scratch directory, which it sees at /tmp."""
    if scratch is not None and _within(host, scratch):
        return "/tmp" + host[len(scratch.rstrip("/")):]
    return host


def visible_inside(host: str, root: str | None) -> bool:
    """Whether a program at `host` exists inside the sandbox (the system directories
    and the kernel's root are all it shows of the host)."""
    if root is not None and _within(host, root):
        return True
    return any(_within(host, d) for d in SYSTEM_DIRS)


def sandbox_rlimits(limits: Limits, timeout: float | None,
                    session: dict[int, tuple[int, int]] | None) -> dict[int, tuple[int, int]]:
    """The rlimits a sandboxed program starts with: the session's `ulimit`s, lowered to
    `limits` (hard and soft alike, so the program cannot raise them again), with the
    call's time left as CPU seconds."""
    import math
    import resource

    out = dict(session or {})
    want: list[tuple[int, int | None]] = [
        (resource.RLIMIT_AS, limits.external_memory),
        (resource.RLIMIT_NPROC, limits.external_processes),
        (resource.RLIMIT_FSIZE, limits.external_file_size),
        (resource.RLIMIT_CPU, None if timeout is None else max(1, math.ceil(timeout))),
    ]
    for res, cap in want:
        if cap is None:
            continue
        soft, hard = out.get(res, (-1, -1))
        soft = cap if soft < 0 else min(soft, cap)
        hard = cap if hard < 0 else min(hard, cap)
        out[res] = (min(soft, hard), hard)
    return out


def run_hook(
    runner: Runner,
    argv: list[str],
    cwd: str,
    env: dict[str, str],
    streams: tuple[Any, Any, Any],
    limits: Limits,
) -> int:
    """Call the embedder's runner; its status must be an int 0-255 (anything else, or
    an exception, is reported as the runner's failure, status 126)."""
    status = runner(list(argv), cwd, dict(env), *streams, limits)
    if isinstance(status, bool) or not isinstance(status, int):
        raise TypeError(f"the runner returned {status!r}, not an exit status")
    return status & 0xFF
