"""render_help: usage, description, params with spellings/types/defaults/required marks,
subcommands with aliases, examples."""

from __future__ import annotations

import pytest
from fixtures_schemas import CP, CUT, GREP, HEAD, KV, TEST

from tysh.kernel.tools.help import render_help


def test_help_has_usage_description_and_examples() -> None:
    h = render_help(HEAD.schema)
    assert h.startswith("usage: head [OPTIONS] [FILES...]\n\noutput the first part of files\n")
    assert "examples:\n  head -n 5 notes.txt\n      first 5 lines" in h


def test_help_lists_spellings_types_and_defaults() -> None:
    h = render_help(HEAD.schema)
    line = next(x for x in h.splitlines() if "--lines" in x)
    assert "-n, --lines N" in line and "(int)" in line and "[default: 10]" in line


def test_help_marks_required_params() -> None:
    assert "[required]" in next(x for x in render_help(CUT.schema).splitlines()
                                if "--fields" in x)
    assert "usage: cp [OPTIONS] SRC... DEST" in render_help(CP.schema)


def test_help_shows_choices_and_repeatable() -> None:
    h = render_help(GREP.schema)
    assert "--color {auto|always|never}" in h
    assert "-e, --regexp TEXT" in h and "repeatable" in h


def test_help_of_a_group_lists_subcommands_with_aliases() -> None:
    h = render_help(KV.schema, ["st"])
    assert "usage: kv store [OPTIONS] COMMAND" in h
    assert "get (g)" in h and "put (p)" in h and "list (ls)" in h


def test_help_of_a_leaf_shows_its_full_path_and_inherited_options() -> None:
    h = render_help(KV.schema, ["store", "put"])
    assert h.startswith("usage: kv store put [OPTIONS] KEY VALUE")
    assert "--tag TEXT TEXT" in h
    inherited = h.split("inherited options:")[1]
    assert "-N, --namespace" in inherited


def test_help_of_an_unknown_path_raises_key_error() -> None:
    with pytest.raises(KeyError):
        render_help(KV.schema, ["nope"])


def test_help_of_a_raw_tool_mentions_no_help_interception() -> None:
    h = render_help(TEST.schema)
    assert "--help" not in h and "[ARG]..." in h
