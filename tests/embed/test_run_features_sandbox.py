"""eval, exec, trap and process substitution run in the same sandboxed interpreter as
the script: none of them reaches a host program or a file outside the root."""

from __future__ import annotations

from pathlib import Path

import pytest

from tysh import Kernel

_CODE = [
    "eval '/bin/echo escaped'",
    "exec /bin/echo escaped",
    "trap '/bin/echo escaped' EXIT; exit 0",
    "trap '/bin/echo escaped' ERR; false",
    "cat <(/bin/echo escaped)",
    "echo x > >(/bin/cat)",
    "eval 'exec 3</etc/passwd'; cat <&3",
    "exec </etc/passwd; read line; echo \"$line\"",
    "trap 'cat /etc/passwd' EXIT",
    "diff <(cat /etc/passwd) /dev/null",
]


@pytest.mark.parametrize("src", _CODE)
def test_no_host_program_and_no_file_outside_the_root(tmp_path: Path, src: str) -> None:
    r = Kernel(str(tmp_path)).execute(src, timeout=10)
    assert "escaped" not in r.out and "root:" not in r.out
    assert "internal error" not in r.err
