"""Flags with an optional attached value (GNU's `-i[SUFFIX]`, `--in-place[=SUFFIX]`):
a bare spelling is the flag, text attached to it (or after `=`) is its value, and the next
word is never taken. `sed -i.bak` is the case users type."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
import reference

from tysh import Kernel
from tysh.kernel.base.argv import classify
from tysh.kernel.base.record import Record
from tysh.kernel.bind.binder import BindError
from tysh.kernel.bind.convert import bind_and_convert_general
from tysh.kernel.bind.fast import bind_and_convert
from tysh.kernel.tools.params import param
from tysh.kernel.tools.schema import param_from_json, param_json_schema, param_to_json
from tysh.kernel.tools.tool import tool


@attrs.frozen(repr=False, eq=False)
class EdArgs(Record):
    in_place: bool | str = param(False, aliases=["-i"], param_type="bool", optional_value=True)
    quiet: bool = param(False, aliases=["-n"])
    operands: tuple[str, ...] = param((), positional=True)


@tool("ed-like", args=EdArgs, description="a tool with -i[SUFFIX]")
def ed_like(args: EdArgs, ctx: object) -> int:
    return 0


@pytest.mark.parametrize(
    ("line", "in_place", "quiet", "operands"),
    [
        ("f", False, False, ("f",)),
        ("-i f", True, False, ("f",)),
        ("-i.bak f", ".bak", False, ("f",)),
        ("-ni.bak f", ".bak", True, ("f",)),
        ("--in-place f", True, False, ("f",)),
        ("--in-place=.orig f", ".orig", False, ("f",)),
        ("-i -n f", True, True, ("f",)),
    ],
)
def test_optional_value_is_attached_or_absent_and_never_the_next_word(
    line: str, in_place: object, quiet: bool, operands: tuple[str, ...]
) -> None:
    for bind in (bind_and_convert, bind_and_convert_general):
        _, _, inst = bind(ed_like, classify(line.split()))
        assert (inst.in_place, inst.quiet, inst.operands) == (in_place, quiet, operands)


def test_optional_value_refuses_a_non_text_value() -> None:
    from tysh.kernel.base.argv import Flag

    with pytest.raises(BindError):
        bind_and_convert_general(ed_like, [Flag("--in-place", {"a": 1})])


def test_optional_value_survives_the_wire_form_and_its_json_schema_allows_text() -> None:
    p = ed_like.schema.params[0]
    assert p.optional_value
    assert param_from_json(param_to_json(p)) == p
    assert param_json_schema(p)["oneOf"] == [{"type": "boolean"}, {"type": "string"}]


def test_help_shows_the_optional_value_after_an_equals_sign() -> None:
    out = Kernel.isolated().execute("sed --help").out
    assert "-i, --in-place[=TEXT]" in out


SED_CASES = [
    ("sed -i.bak s/a/b/ f; cat f f.bak", "b\na\n"),
    ("sed -i s/a/b/ f; ls; cat f", "f\nb\n"),
    ("sed --in-place=.orig -e s/a/c/ f; cat f f.orig", "c\na\n"),
    ("mkdir bk; sed -i'bk/*.old' s/a/d/ f; cat f bk/f.old", "d\na\n"),
    ("sed -i'old_*' s/a/e/ f; cat f old_f", "e\na\n"),
    ("sed -ni.b p f; cat f.b f", "a\na\n"),
]


@pytest.mark.parametrize(("script", "want"), SED_CASES)
def test_sed_in_place_keeps_a_backup_named_by_the_suffix_as_gnu_sed(
    tmp_path: Path, script: str, want: str
) -> None:
    (tmp_path / "f").write_text("a\n")
    r = Kernel(cwd=str(tmp_path)).execute(script)
    assert (r.out, r.err, r.code) == (want, "", 0)
    if reference.have("sed", gnu_only=True):
        gnu = tmp_path / "gnu"
        gnu.mkdir()
        (gnu / "f").write_text("a\n")
        done = reference.run_bash(script, gnu)
        if done is not None:
            assert done.text == want
