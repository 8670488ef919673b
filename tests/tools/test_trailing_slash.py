"""`name/` names a directory: on a regular file every tool refuses with GNU's words
(`Not a directory`) and nothing is removed, overwritten or created — under each
sandboxed preset. Expected messages are GNU coreutils 9's for the same commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import Kernel

PRESETS = ["confined", "isolated", "overlay"]

SETUP = "echo F > f; echo G > g; echo H > h; mkdir d; ln -s f l; ln -s d dl; "

# (command, status, stderr) — GNU's answers
CASES = [
    ("rm f/", 1, "rm: cannot remove 'f/': Not a directory\n"),
    ("rm -f f/", 0, ""),
    ("rm -rf f/", 0, ""),
    ("rm -r f/", 1, "rm: cannot remove 'f/': Not a directory\n"),
    ("rm l/", 1, "rm: cannot remove 'l/': Not a directory\n"),
    ("rmdir f/", 1, "rmdir: failed to remove 'f/': Not a directory\n"),
    ("rmdir dl/", 1, "rmdir: failed to remove 'dl/': Symbolic link not followed\n"),
    ("mv g f/", 1, "mv: cannot stat 'f/': Not a directory\n"),
    ("mv g n/", 1, "mv: cannot move 'g' to 'n/': Not a directory\n"),
    ("mv f/ x", 1, "mv: cannot stat 'f/': Not a directory\n"),
    ("cp h f/", 1, "cp: cannot stat 'f/': Not a directory\n"),
    ("cp h n/", 1, "cp: cannot create regular file 'n/': Not a directory\n"),
    ("cp f/ y", 1, "cp: cannot stat 'f/': Not a directory\n"),
    ("ln f/ z", 1, "ln: failed to access 'f/': Not a directory\n"),
    ("find f/ -delete", 1, "find: 'f/': Not a directory\n"),
    ("ls f/", 2, "ls: cannot access 'f/': Not a directory\n"),
    ("chmod 600 f/", 1, "chmod: cannot access 'f/': Not a directory\n"),
    ("du f/", 1, "du: cannot access 'f/': Not a directory\n"),
    ("stat f/", 1, "stat: cannot statx 'f/': Not a directory\n"),
    ("cat f/", 1, "cat: f/: Not a directory\n"),
    ("head f/", 1, "head: cannot open 'f/' for reading: Not a directory\n"),
    ("sed -i s/F/X/ f/", 2, "sed: can't read f/: Not a directory\n"),
    ("echo x > f/", 1, "tysh: f/: Is a directory\n"),
    ("mkdir f/", 1, "mkdir: cannot create directory 'f/': File exists\n"),
]


def _kernel(preset: str, root: Path) -> Kernel:
    if preset == "confined":
        return Kernel(cwd=str(root))
    if preset == "overlay":
        return Kernel.overlay(str(root))
    return Kernel.isolated()


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(("cmd", "code", "err"), CASES, ids=[c[0] for c in CASES])
def test_a_file_named_with_a_slash_is_refused_and_kept(tmp_path: Path, preset: str,
                                                       cmd: str, code: int, err: str) -> None:
    k = _kernel(preset, tmp_path)
    assert k.execute(SETUP).code == 0
    r = k.execute(cmd)
    assert (r.code, r.err) == (code, err)
    after = k.execute("cat f g; ls")
    assert after.out == "F\nG\nd\ndl\nf\ng\nh\nl\n"


@pytest.mark.parametrize("preset", PRESETS)
def test_a_directory_named_with_a_slash_still_works(tmp_path: Path, preset: str) -> None:
    k = _kernel(preset, tmp_path)
    r = k.execute(SETUP + "cp g d/; mv h d/; cp -r d e/; ls d/ e/; rm -r e/; rmdir d/ 2>&1; "
                  "rm d/g d/h; rmdir d/; ls")
    assert r.code == 0, r.err
    assert r.out == ("d/:\ng\nh\n\ne/:\ng\nh\n"
                     "rmdir: failed to remove 'd/': Directory not empty\n"
                     "dl\nf\ng\nl\n")
