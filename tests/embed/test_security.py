"""The sandbox (summarized in docs/security.md): attempts to read or
write outside the root of an embedded `Kernel()`, and to reach external programs when
they are off. Each attempt must be denied with a clear message — never a traceback —
and nothing outside the root may change: sentinel files outside keep their content and
mtime, and no new file appears outside the root or in /tmp."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.confined import ConfinedFileSystem

# what `hostid` (the external used here: coreutils has it, tysh does not) prints
HOSTID_OUTPUT = re.compile(r"^[0-9a-f]{8}$", re.M)

MARK = f"tysh_sec_probe_{os.getpid()}"
DENIED = "Permission denied (outside the sandbox)"
NOT_FOUND = "No such file or directory"
NO_EXTERNAL = "command not found (external commands are disabled)"

# (id, script, expectation): ("denied", text in err, status non-zero), ("out", exact
# stdout) or ("no-leak", text that must not be in stdout). Placeholders: {mark} a file
# name under /tmp, {base} the folder holding the root and the outside files.
ATTEMPTS: list[tuple[str, str, tuple[str, str]]] = [
    # reading outside
    ("cat-parent", "cat ../out/secret.txt", ("denied", DENIED)),
    ("cat-absolute", "cat /etc/passwd", ("denied", DENIED)),
    ("cat-base-absolute", "cat {base}/out/secret.txt", ("denied", DENIED)),
    ("cat-symlink-out", "cat lnk", ("denied", DENIED)),
    ("cat-via-dir-symlink", "cat up/secret.txt", ("denied", DENIED)),
    ("redirect-in-absolute", "cat < /etc/passwd", ("denied", DENIED)),
    ("redirect-in-symlink", "wc -c < lnk", ("denied", DENIED)),
    ("read-builtin", "read -r line < /etc/passwd", ("denied", DENIED)),
    ("while-read", "while read -r l; do echo $l; done < ../out/secret.txt",
     ("denied", DENIED)),
    ("cmdsub-read", "x=$(cat /etc/passwd)", ("denied", DENIED)),
    ("head-proc", "cat /proc/self/environ", ("denied", DENIED)),
    ("dev-zero", "head -c 4 /dev/zero", ("denied", DENIED)),
    ("dev-null-allowed", "echo x > /dev/null; cat /dev/null; echo ok", ("out", "ok\n")),
    ("stat", "stat /etc/passwd", ("denied", DENIED)),
    ("jq-file", "jq . /etc/passwd", ("denied", DENIED)),
    ("grep-r-root", "grep -r root /", ("denied", DENIED)),
    ("grep-R-follows-links", "grep -R SECRET .", ("denied", DENIED)),
    ("realpath-parent", "realpath ..", ("denied", DENIED)),
    ("test-f", "test -f /etc/passwd; echo $?", ("out", "1\n")),
    ("test-e-parent", "[ -e ../out/secret.txt ] && echo yes || echo no", ("out", "no\n")),
    ("cond-f-symlink", "[[ -f lnk ]] && echo yes || echo no", ("out", "no\n")),
    ("source-absolute", "source /etc/profile", ("denied", DENIED)),
    ("dot-parent", ". ../out/secret.txt", ("denied", DENIED)),
    # listing outside
    ("ls-root", "ls /", ("denied", DENIED)),
    ("ls-parent", "ls ..", ("denied", DENIED)),
    ("ls-dir-symlink", "ls up/", ("no-leak", "secret.txt")),
    ("find-root", "find / -maxdepth 1", ("denied", DENIED)),
    ("find-parent", "find .. -name secret.txt", ("denied", DENIED)),
    ("find-follow-links", "find -L . -name secret.txt", ("out", "")),
    ("glob-root", "echo /*", ("denied", "no matches: /*")),
    ("glob-parent", "echo ../*", ("denied", "no matches: ../*")),
    ("glob-etc", "echo /etc/*", ("denied", "no matches: /etc/*")),
    ("glob-through-symlink", "echo up/*", ("denied", "no matches: up/*")),
    ("glob-double-star", "echo /**/passwd", ("denied", "no matches")),
    ("glob-dotglob-double-star", "shopt -s dotglob; echo /**/passwd", ("denied", "no matches")),
    ("glob-dotdot-by-pattern", "shopt -u globskipdots; echo ..*/*", ("denied", "no matches")),
    ("glob-extglob-parent", "echo @(..|up)/*", ("denied", "no matches")),
    ("glob-literal-outside", "shopt -u failglob; echo ../* /etc/*", ("out", "../* /etc/*\n")),
    ("glob-ignore-outside", "GLOBIGNORE=x; echo ../.* up/.*", ("denied", "no matches")),
    # moving the working directory out
    ("cd-parent", "cd ..", ("denied", DENIED)),
    ("cd-root", "cd /", ("denied", DENIED)),
    ("cd-tmp", "cd /tmp && ls /tmp", ("private", "")),
    ("cd-symlink", "cd up", ("denied", DENIED)),
    ("cd-home-parent", "cd ~/..", ("denied", DENIED)),
    ("cd-HOME-var", "HOME=/; cd", ("denied", DENIED)),
    ("cd-OLDPWD", "OLDPWD=/; cd -", ("denied", DENIED)),
    ("cd-loop-then-write",
     "for i in 1 2 3 4 5 6 7 8; do cd .. 2>/dev/null; done; echo x > escaped.txt; "
     "cat {base}/root/escaped.txt", ("out", "x\n")),
    # writing outside
    ("redirect-out-absolute", "echo x > /tmp/{mark}", ("private", "")),
    ("redirect-out-host-dir", "echo x > /var/tmp/{mark}", ("denied", DENIED)),
    ("redirect-append-parent", "echo x >> ../out/secret.txt", ("denied", DENIED)),
    ("redirect-new-parent", "echo x > ../new.txt", ("denied", DENIED)),
    ("redirect-through-symlink", "echo x > lnk", ("denied", DENIED)),
    ("redirect-append-symlink", "echo x >> lnk", ("denied", DENIED)),
    ("redirect-into-dir-symlink", "echo x > up/new.txt", ("denied", DENIED)),
    ("heredoc-out", "cat > ../out/hd.txt <<EOF\nx\nEOF", ("denied", DENIED)),
    ("tee-tmp", "echo a | tee /tmp/{mark}", ("private", "a\n")),
    ("touch-tmp", "touch /tmp/{mark}", ("private", "")),
    ("mkdir-parent", "mkdir ../x", ("denied", DENIED)),
    ("mkdir-p-dotdot", "mkdir -p a/../../z", ("denied", DENIED)),
    ("cp-in-out", "cp /etc/passwd .", ("denied", "cannot stat")),
    ("cp-out", "echo hi > in.txt; cp in.txt ../copied", ("denied", DENIED)),
    ("cp-r-parent", "cp -r .. here", ("denied", "cannot stat")),
    ("cp-symlink-then-read", "cp lnk copy.txt; cat copy.txt", ("denied", DENIED)),
    ("mv-out", "echo hi > in.txt; mv in.txt ../moved", ("denied", DENIED)),
    ("mv-in", "mv ../out/secret.txt here", ("denied", "cannot stat")),
    ("rm-parent", "rm -rf ..", ("denied", "refusing to remove")),
    ("rm-outside-file", "rm ../out/secret.txt", ("denied", "cannot remove")),
    ("rm-through-dir-symlink", "rm -rf up/*", ("denied", "no matches")),
    ("rmdir-parent", "rmdir ../out", ("denied", DENIED)),
    ("hard-link-out", "ln ../out/secret.txt hl", ("denied", "failed to access")),
    ("hard-link-symlink", "ln lnk hl", ("denied", DENIED)),
    ("symlink-out-then-read", "ln -s ../out/secret.txt s2; cat s2", ("denied", DENIED)),
    ("symlink-created-outside", "ln -s x ../sl", ("denied", DENIED)),
    ("sed-i-outside", "sed -i s/S/X/ ../out/secret.txt", ("denied", DENIED)),
    ("sed-i-symlink", "sed -i s/S/X/ lnk", ("denied", DENIED)),
    ("chmod-outside", "chmod 777 ../out/secret.txt", ("denied", DENIED)),
    ("touch-outside-mtime", "touch -d 2000-01-01 ../out/secret.txt", ("denied", DENIED)),
    ("name-newline-dotdot", "echo x > $'a\\n/../../evil'", ("denied", DENIED)),
    ("dir-named-dotdot-newline",
     "mkdir $'..\\n'; cd $'..\\n'; cd ..; cd .. 2>/dev/null; echo x > $'..\\n'/f; "
     "cat {base}/root/$'..\\n'/f", ("out", "x\n")),
    ("name-dotdot-computed", 'p=..; cat "$p/out/secret.txt"', ("denied", DENIED)),
]

EXTERNAL_ATTEMPTS: list[tuple[str, str]] = [
    ("direct", "hostid"),
    ("absolute-path", "/usr/bin/hostid"),
    ("env", "env hostid"),
    ("env-i", "env -i hostid"),
    ("env-path", "env PATH=/usr/bin:/bin hostid"),
    ("prefix-path", "PATH=/usr/bin:/bin hostid"),
    ("xargs", "echo x | xargs hostid"),
    ("xargs-env", "echo hostid | xargs -I{} env {}"),
    ("find-exec", "find . -maxdepth 0 -exec hostid \\;"),
    ("find-execdir", "find . -maxdepth 0 -execdir hostid \\;"),
    ("timeout", "timeout 5 hostid"),
    ("command", "command hostid"),
    ("command-p", "command -p hostid"),
    ("builtin", "builtin hostid"),
    ("exec", "exec hostid"),
    ("escaped-name", "\\hostid"),
    ("computed-name", "c=hostid; $c"),
    ("script-in-root", "printf '#!/bin/sh\\nhostid\\n' > s.sh; chmod +x s.sh; ./s.sh"),
    ("sh-c", "sh -c hostid"),
    ("bash-c", "bash -c hostid"),
    ("python", "python3 -c 'import os; os.system(\"hostid\")'"),
    ("nohup", "nohup hostid"),
]


def _tree(base: Path) -> dict[str, tuple[bytes, int] | None]:
    """Every path under `base` outside the root, with content and mtime of files."""
    out: dict[str, tuple[bytes, int] | None] = {}
    for dirpath, dirs, files in os.walk(base):
        rel = os.path.relpath(dirpath, base)
        if rel == "root" or rel.startswith("root/"):
            dirs[:] = []
            continue
        for name in dirs:
            out[os.path.join(rel, name)] = None
        for name in files:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            data = os.readlink(p).encode() if os.path.islink(p) else Path(p).read_bytes()
            out[os.path.join(rel, name)] = (data, st.st_mtime_ns)
    return out


@pytest.fixture()
def sandbox(tmp_path: Path) -> Any:
    """base/root is the kernel's root; base/out holds a secret, reachable from inside
    only through symlinks `lnk` (the file) and `up` (its folder)."""
    base = tmp_path
    root = base / "root"
    root.mkdir()
    (base / "out").mkdir()
    (base / "out" / "secret.txt").write_text("SECRET\n")
    (base / "out" / "dir").mkdir()
    (root / "lnk").symlink_to(base / "out" / "secret.txt")
    (root / "up").symlink_to(base / "out")
    before = _tree(base)
    k = Kernel(cwd=str(root), env={"HOME": str(root), "PATH": "/usr/bin:/bin"})
    assert isinstance(k.fs, ConfinedFileSystem) and not k.allow_external
    yield base, root, k
    assert _tree(base) == before
    assert not os.path.exists(f"/tmp/{MARK}")


def _inside(k: Kernel, root: Path) -> bool:
    """Whether the session's cwd is in the root or in the kernel's private /tmp."""
    return k.cwd == str(root) or k.cwd.startswith(str(root) + "/") or (
        k.cwd == "/tmp" or k.cwd.startswith("/tmp/")) and k.fs.in_scratch(k.cwd)


def _clean(r: Any) -> None:
    assert "Traceback" not in r.err and "internal error" not in r.err, r.err
    assert "SECRET" not in r.text_out() and "SECRET" not in r.err
    assert "root:x:0" not in r.text_out()


@pytest.mark.parametrize(("script", "expect"), [a[1:] for a in ATTEMPTS],
                         ids=[a[0] for a in ATTEMPTS])
def test_attempt_outside_the_root_is_denied(sandbox: Any, script: str,
                                            expect: tuple[str, str]) -> None:
    base, root, k = sandbox
    r = k.execute(script.format(base=base, mark=MARK))
    _clean(r)
    how, text = expect
    if how == "denied":
        assert r.code != 0 and text in r.err, (r.code, r.out, r.err)
    elif how == "private":
        # the kernel's own /tmp, in memory: the host's gets nothing (the fixture checks)
        assert r.code == 0 and r.out == text, (r.code, r.out, r.err)
    elif how == "out":
        assert r.out == text, (r.out, r.err)
    else:
        assert text not in r.text_out()
    assert _inside(k, root)
    assert k.execute("echo still-usable").out == "still-usable\n"


@pytest.mark.parametrize("script", [a[1] for a in EXTERNAL_ATTEMPTS],
                         ids=[a[0] for a in EXTERNAL_ATTEMPTS])
def test_external_commands_are_unreachable_when_off(sandbox: Any, script: str) -> None:
    _base, _root, k = sandbox
    r = k.execute(script)
    _clean(r)
    assert not HOSTID_OUTPUT.search(r.text_out())
    assert any(t in r.err for t in (NO_EXTERNAL, "not supported", "not a shell builtin")), \
        r.err


def test_table_has_at_least_forty_filesystem_attempts() -> None:
    assert len(ATTEMPTS) >= 40 and len({a[0] for a in ATTEMPTS}) == len(ATTEMPTS)


def test_the_cwd_never_leaves_the_root_across_a_session(sandbox: Any) -> None:
    _base, root, k = sandbox
    for script in ("cd ..", "cd /", "cd up", "cd ~/..", "mkdir -p d/e; cd d/e; cd ../../..",
                   "cd /tmp"):
        k.execute(script)
        assert _inside(k, root), script


def test_isolated_kernel_reaches_no_host_file(tmp_path: Path) -> None:
    (tmp_path / "host.txt").write_text("HOST\n")
    k = Kernel.isolated()
    r = k.execute(f"cat {tmp_path}/host.txt; cat /etc/passwd; ls {tmp_path}; echo x > "
                  f"{tmp_path}/new.txt; echo done")
    assert r.out.endswith("done\n") and "HOST" not in r.out and "root:x:0" not in r.out
    assert sorted(os.listdir(tmp_path)) == ["host.txt"]


def test_ordinary_work_inside_the_root_is_not_hindered(sandbox: Any) -> None:
    _base, root, k = sandbox
    script = (
        "mkdir -p a/b/c && cd a/b && echo hi > c/f.txt && cd ../.. && "
        "ln -s a/b/c/f.txt inner && cat inner && cp -r a copy && mv copy moved && "
        "find moved -name f.txt && ls -R moved | head -n 1 && rm -rf moved && "
        "test -f a/b/c/f.txt && realpath a/b && cd a && cd .. && pwd"
    )
    r = k.execute(script)
    assert (r.code, r.err) == (0, "")
    assert r.out == f"hi\nmoved/b/c/f.txt\nmoved:\n{root}/a/b\n{root}\n"


def test_sandboxed_kernel_shell_variables_do_not_tell_the_host_identity() -> None:
    # bash computes $HOSTNAME, $UID and $EUID on read; in a sandbox they are neutral,
    # matching `hostname` and `whoami` there, while the host's own kernel tells the truth
    import socket

    from tysh.kernel.fs.local import LocalFileSystem

    for k in (Kernel.isolated(), Kernel()):
        assert k.execute('echo "$HOSTNAME $UID $EUID"; (echo $UID)').out == \
            "localhost 1000 1000\n1000\n"
    host = Kernel(fs=LocalFileSystem())
    assert host.execute('echo "$HOSTNAME $UID"').out == \
        f"{socket.gethostname()} {os.getuid()}\n"
    assert Kernel.isolated(env={"HOSTNAME": "box"}).execute("echo $HOSTNAME").out == "box\n"
