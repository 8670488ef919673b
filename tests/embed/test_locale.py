"""The shell's locale: which of bytes or characters `${#x}`, substrings and patterns
count. The CLI starts as bash does — the locale its environment names, the C locale when
none is named, whatever Python's own start-up (PEP 538) did to LC_CTYPE — and an
embedded kernel, given no locale variable, counts characters (UTF-8)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import Kernel

SCRIPT = 's=μ; touch _x_ _μ_; echo "${#s}" _?_ "[$LC_CTYPE]"'


def _cli(env: dict[str, str], cwd: Path, *flags: str) -> str:
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    p = subprocess.run([sys.executable, "-m", "tysh", *flags, "-c", SCRIPT],
                       env={**base, **env}, cwd=cwd, capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stdout.decode()


@pytest.mark.parametrize(("env", "want"), [
    ({}, "2 _x_ []"),                                    # nothing named: C, as bash
    ({"LC_CTYPE": "C"}, "2 _x_ []"),                     # Python made it C.UTF-8
    ({"LC_COLLATE": "C.UTF-8"}, "2 _x_ []"),             # collation is not the ctype
    ({"LANG": "C"}, "2 _x_ []"),
    ({"LANG": "C.UTF-8"}, "1 _x_ _μ_ []"),
    ({"LANG": "C.UTF-8", "LC_CTYPE": "C"}, "2 _x_ [C]"),  # LC_CTYPE outranks LANG
    ({"LC_ALL": "C"}, "2 _x_ []"),
    ({"LC_ALL": "C.UTF-8", "LANG": "C"}, "1 _x_ _μ_ []"),  # LC_ALL outranks both
    ({"LC_CTYPE": "C.UTF-8"}, "1 _x_ _μ_ [C.UTF-8]"),
])
@pytest.mark.parametrize("flags", [(), ("--no-external",)])
def test_the_cli_starts_in_the_locale_its_environment_names(
        tmp_path: Path, env: dict[str, str], want: str, flags: tuple[str, ...]) -> None:
    assert _cli(env, tmp_path, *flags) == want + "\n"


def test_the_cli_in_the_c_locale_passes_no_invented_lc_ctype_to_programs(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "tysh", "-c", "env | grep -c '^LC_CTYPE=' ; :"],
                       env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, cwd=tmp_path,
                       capture_output=True, timeout=60)
    assert p.stdout == b"0\n"


def test_the_cli_goes_back_to_c_when_a_script_unsets_every_locale_variable(
        tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "tysh", "-c",
                        's=μ; echo ${#s}; unset LC_ALL LC_CTYPE LANG; echo ${#s}'],
                       env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}, cwd=tmp_path,
                       capture_output=True, timeout=60)
    assert p.stdout == b"1\n2\n"


def test_an_embedded_kernel_without_locale_variables_counts_characters(tmp_path: Path) -> None:
    for k in (Kernel(cwd=str(tmp_path)), Kernel.isolated()):
        assert k.execute('s=μé; echo "${#s} ${s:1} ${s#?}"').out == "2 é é\n"
        assert k.execute('LC_ALL=C; echo "${#s}"; unset LC_ALL; echo "${#s}"').out == "4\n2\n"


def test_an_embedded_kernel_given_lang_c_counts_bytes(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), env={"LANG": "C"})
    assert k.execute('s=μé; echo "${#s}"; LANG=en_US.UTF-8; echo "${#s}"').out == "4\n2\n"


def test_ascii_text_gives_the_same_answers_in_both_locales(tmp_path: Path) -> None:
    script = 's=abc; echo "${#s} ${s:1:1} ${s//?/.} ${s^^}"; [[ $s == a?c ]] && echo m'
    k = Kernel(cwd=str(tmp_path))
    assert k.execute(script).out == k.execute("LC_ALL=C; " + script).out == "3 b ... ABC\nm\n"
