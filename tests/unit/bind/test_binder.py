"""The argv binder: typed binding rule by rule, raw_argv, verbatim, --json and
map_positionals, one rule per test, against the fixture schemas."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fixtures_schemas import CP, CUT, FIND, GREP, HEAD, KV, SEARCH, TEST, WRAP, WRAP_OWN

from tysh.kernel.base.argv import DOUBLE_DASH
from tysh.kernel.bind.binder import (
    BindError,
    DoubleDash,
    Flag,
    Operand,
    ToolArgs,
    bind,
    classify,
    compiled,
    select_leaf,
)
from tysh.kernel.bind.fast import bind_and_convert
from tysh.kernel.tools.schema import ParamSchema, ToolSchema
from tysh.kernel.tools.tool import Tool


def b(t: Tool | ToolSchema, line: str) -> ToolArgs:
    schema = t if isinstance(t, ToolSchema) else t.schema
    return bind(schema, classify(line.split()))


def inst(t: Tool, line: str) -> Any:
    return bind_and_convert(t, classify(line.split()))[2]


def errors(t: Tool | ToolSchema, line: str) -> list[str]:
    with pytest.raises(BindError) as ei:
        if isinstance(t, Tool):
            bind_and_convert(t, classify(line.split()))
        else:
            bind(t, classify(line.split()))
    assert ei.value.status == 2
    return ei.value.violations


# -- classify ---------------------------------------------------------------------------


def test_classify_double_dash_flags_and_operands() -> None:
    assert classify(["--", "-n5", "--lines=5", "-5", "-", "---", "a=b", "--9", "x"]) == [
        DoubleDash(), Flag("-n5"), Flag("--lines=5"), Operand("-5", True), Operand("-", True),
        Operand("---", True), Operand("a=b", True), Operand("--9", True), Operand("x", True),
    ]


def test_classify_non_ascii_letter_after_dash_is_an_operand() -> None:
    assert classify(["-é", "--ü"]) == [Operand("-é", True), Operand("--ü", True)]


def test_binder_reexports_the_argv_classes() -> None:
    from tysh.kernel.base import argv

    assert Flag is argv.Flag and Operand is argv.Operand and DoubleDash is argv.DoubleDash


# -- rule 2, 3, 4: spellings ------------------------------------------------------------


def test_bundled_bools_in_any_order_are_the_same() -> None:
    a = b(GREP, "-ic x")
    c = b(GREP, "-ci x")
    assert a.flags == c.flags == {"ignore_case", "count"}


def test_short_attached_short_separate_long_equals_long_separate_bind_alike() -> None:
    got = {b(HEAD, v).named["lines"] for v in ["-n5", "-n 5", "--lines=5", "--lines 5"]}
    assert got == {5}


def test_option_order_does_not_matter() -> None:
    x = inst(HEAD, "f.txt -n 3")
    y = inst(HEAD, "-n 3 f.txt")
    assert x == y and x.lines == 3 and x.files == ("f.txt",)


def test_bundle_ends_with_a_value_taking_letter_taking_the_rest() -> None:
    x = inst(HEAD, "-qn5 x")
    assert x == inst(HEAD, "-q -n 5 x")
    assert x.quiet and x.lines == 5


def test_bundle_value_letter_at_the_end_takes_the_next_word() -> None:
    assert inst(HEAD, "-qn 7").lines == 7


def test_multi_letter_single_dash_alias_matches_whole() -> None:
    x = inst(FIND, ". -name *.py -maxdepth 2")
    assert x.name == "*.py" and x.maxdepth == 2 and x.paths == (".",)


def test_bool_option_accepts_true_and_false_after_equals() -> None:
    assert b(HEAD, "--quiet=true").flags == {"quiet"}
    off = b(HEAD, "--quiet=false")
    assert "quiet" not in off.flags and off.named["quiet"] is False
    assert inst(HEAD, "--quiet=false").quiet is False


def test_bool_option_rejects_other_values() -> None:
    assert errors(HEAD, "--quiet=perhaps") == [
        "head: invalid value 'perhaps' for '--quiet': expected true or false"]


def test_later_bool_occurrence_wins_over_an_earlier_false() -> None:
    ta = b(HEAD, "--quiet=false -q")
    assert ta.flags == {"quiet"} and "quiet" not in ta.named


# -- rule 5: value-taking options take the next word whatever it looks like -------------


def test_value_option_takes_a_flag_looking_next_word() -> None:
    ta = b(GREP, "-e -x f")
    assert ta.named["regexp"] == ["-x"]
    assert ta.positional == ["f"]


def test_value_option_takes_a_negative_number() -> None:
    assert inst(HEAD, "-n -2 f").lines == -2


def test_value_option_takes_a_double_dash_as_its_value() -> None:
    ta = b(GREP, "-e -- f")
    assert ta.named["regexp"] == ["--"] and ta.positional == ["f"]


def test_dash_number_and_lone_dash_are_operands() -> None:
    ta = b(HEAD, "-5 -")
    assert ta.positional == ["-5", "-"]
    assert ta.named == {} and ta.flags == set()


def test_everything_after_double_dash_is_an_operand() -> None:
    ta = b(HEAD, "-n 1 -- -q --lines=4 -- x")
    assert ta.positional == ["-q", "--lines=4", "--", "x"]
    assert ta.named == {"lines": 1} and ta.flags == set()


# -- rule 6: repetition ---------------------------------------------------------------------


def test_non_repeatable_option_keeps_its_last_occurrence() -> None:
    assert inst(HEAD, "-n 1 -n 2 --lines=3").lines == 3


def test_repeatable_option_accumulates_in_order() -> None:
    assert inst(GREP, "-e a --regexp b -ec x").regexp == ("a", "b", "c")


def test_consumes_two_accumulates_pairs() -> None:
    x = inst(KV, "store put k v --tag a b --tag c d")
    assert x.tag == (("a", "b"), ("c", "d"))


def test_consumes_two_with_one_word_left_needs_two_values() -> None:
    assert errors(KV, "store put k v --tag a") == [
        "kv store put: option '--tag' needs 2 values"]


def test_consumes_two_inline_value_counts_as_the_first() -> None:
    ta = b(KV, "store put k v --tag=a b")
    assert ta.named["tag"] == [["a", "b"]]


def test_non_repeatable_consumes_keeps_the_last_tuple() -> None:
    s = ToolSchema("pt", params=[ParamSchema("point", "int", consumes=2)])
    assert b(s, "--point 1 2 --point 3 4").named["point"] == [3, 4]


def test_typed_list_flag_value_extends_a_repeatable_option() -> None:
    ta = bind(GREP.schema, [Flag("--regexp", value=["a", "b"]), Operand("f", True)])
    assert ta.named["regexp"] == ["a", "b"]


def test_typed_flag_value_is_converted() -> None:
    ta = bind(HEAD.schema, [Flag("--lines", value=7)])
    assert ta.named["lines"] == 7


# -- rule 7: key=value is an operand ------------------------------------------------------


def test_key_value_words_are_operands() -> None:
    assert b(HEAD, "a=b").positional == ["a=b"]


# -- rule 8: positional matching, conversion, required, violations together ----------------


def test_fixed_positionals_after_the_variadic_take_from_the_back() -> None:
    x = inst(CP, "a b c d")
    assert x.src == ("a", "b", "c") and x.dest == "d"


def test_fixed_positional_before_the_variadic_takes_from_the_front() -> None:
    x = inst(GREP, "pat f1 f2")
    assert x.pattern == "pat" and x.files == ("f1", "f2")


def test_surplus_operands_without_variadic_are_unexpected() -> None:
    assert errors(KV, "store get k extra") == ["kv store get: unexpected argument 'extra'"]


def test_missing_required_argument_names_it_in_upper_case() -> None:
    assert "cp: missing required argument 'DEST'" in errors(CP, "")


def test_missing_required_option_uses_its_long_spelling() -> None:
    assert errors(CUT, "f") == ["cut: missing required option '--fields'"]


def test_unknown_long_option_suggests_the_closest_spelling() -> None:
    assert errors(HEAD, "--lnes 3") == [
        "head: unknown option '--lnes' (did you mean '--lines'?)"]


def test_unknown_multi_letter_single_dash_word_suggests_the_whole_spelling() -> None:
    assert errors(FIND, ". -nmae x") == [
        "find: unknown option '-nmae' (did you mean '-name'?)"]


def test_unknown_letter_in_a_bundle_is_named_alone() -> None:
    assert errors(HEAD, "-qz") == ["head: unknown option '-z'"]


def test_invalid_int_names_the_spelling_the_user_wrote() -> None:
    assert errors(HEAD, "-n x") == ["head: invalid value 'x' for '-n': expected an integer"]
    assert errors(HEAD, "--lines=x") == [
        "head: invalid value 'x' for '--lines': expected an integer"]
    assert errors(HEAD, "-nx") == ["head: invalid value 'x' for '-n': expected an integer"]


def test_invalid_choice_lists_the_choices() -> None:
    assert errors(GREP, "--color=blue x") == [
        "grep: invalid value 'blue' for '--color': expected one of auto, always, never"]


def test_missing_value_bad_int_and_two_missing_required_are_reported_together() -> None:
    s = ToolSchema("mk", params=[
        ParamSchema("name", "string", required=True, positional=True),
        ParamSchema("size", "int", required=True, aliases=("-s",)),
        ParamSchema("count", "int", aliases=("-c",)),
        ParamSchema("mode", "string", required=True),
        ParamSchema("label", "string", aliases=("-l",)),
    ])
    assert errors(s, "-c x -l") == [
        "mk: invalid value 'x' for '-c': expected an integer",
        "mk: option '-l' needs a value",
        "mk: missing required argument 'NAME'",
        "mk: missing required option '--size'",
        "mk: missing required option '--mode'",
    ]


def test_a_required_option_written_without_its_value_is_not_also_missing() -> None:
    assert errors(CUT, "-f") == ["cut: option '-f' needs a value"]


def test_bind_error_text_is_the_violation_lines_each_prefixed_with_the_tool() -> None:
    with pytest.raises(BindError) as ei:
        bind(HEAD.schema, classify(["--lnes", "-n"]))
    lines = str(ei.value).splitlines()
    assert len(lines) == 2 and all(x.startswith("head: ") for x in lines)


def test_positional_values_are_converted_to_the_class_element_type() -> None:
    import attrs

    from tysh.kernel.tools.params import param
    from tysh.kernel.tools.tool import tool

    @attrs.frozen
    class SeqArgs:
        numbers: tuple[int, ...] = param(positional=True)

    seq = tool("seq", args=SeqArgs)(lambda a, c: 0)
    assert inst(seq, "1 -2 3").numbers == (1, -2, 3)
    assert errors(seq, "1 a b") == [
        "seq: invalid value 'a' for 'NUMBERS': expected an integer",
        "seq: invalid value 'b' for 'NUMBERS': expected an integer",
    ]


def test_typed_operand_values_are_accepted_where_the_type_fits() -> None:
    s = ToolSchema("t", params=[ParamSchema("n", "int", positional=True),
                                ParamSchema("rest", "array", positional=True)])
    ta = bind(s, [Operand(5), Operand([1, 2]), Operand({"a": 1})])
    assert ta.bound == {"n": 5, "rest": [[1, 2], {"a": 1}]}


# -- rule 9: help -----------------------------------------------------------------------


def test_long_help_sets_help_and_hides_other_violations() -> None:
    ta = b(HEAD, "--lnes -n x --help")
    assert ta.help


def test_dash_h_is_help_when_the_tool_does_not_declare_it() -> None:
    assert b(HEAD, "-h").help
    assert b(HEAD, "-qh").help


def test_dash_h_binds_when_the_tool_declares_it() -> None:
    s = ToolSchema("du", params=[ParamSchema("human", "bool", aliases=("-h",))])
    ta = b(s, "-h")
    assert not ta.help and ta.flags == {"human"}


def test_help_returns_no_instance_from_bind_and_convert() -> None:
    ta, leaf, obj = bind_and_convert(CUT, classify(["--help"]))
    assert ta.help and obj is None and leaf is CUT


def test_help_on_a_subcommand_selects_its_leaf() -> None:
    ta = b(KV, "st g --help")
    assert ta.help and ta.path == ["store", "get"]


def test_owned_output_tools_get_no_help_interception() -> None:
    s = ToolSchema("own", params=[]).with_owned_output()
    assert errors(s, "--help") == ["own: unknown option '--help'"]


# -- rule 1: select_leaf -------------------------------------------------------------


def test_command_aliases_route_to_the_canonical_path() -> None:
    ta, leaf, obj = bind_and_convert(KV, classify(["st", "g", "k"]))
    assert ta.path == ["store", "get"] and leaf.func is not None and obj.key == "k"
    assert ta.prog == "kv store get"


def test_select_leaf_returns_path_and_leaf_schema() -> None:
    path, leaf = select_leaf(KV.schema, classify(["store", "ls"]))
    assert path == ["store", "list"] and leaf.name == "list"


def test_select_leaf_skips_values_of_ancestor_options() -> None:
    ta = b(KV, "-d store store -N get get k")
    assert ta.path == ["store", "get"]
    assert ta.named == {"db": "store", "namespace": "get"} and ta.bound == {"key": "k"}


def test_leaf_inherits_ancestor_options_nearest_wins() -> None:
    x = inst(KV, "--verbose store -N ns get k")
    assert x.verbose and x.namespace == "ns"


def test_operands_running_out_at_a_group_make_it_the_leaf() -> None:
    ta = b(KV, "store")
    assert ta.path == ["store"] and ta.leaf.name == "store" and ta.leaf.subcommands


def test_computed_selector_word_fails() -> None:
    with pytest.raises(BindError) as ei:
        bind(KV.schema, [Operand("store", literal=False)])
    assert ei.value.violations[0].startswith(
        "kv: a subcommand name must be written literally")


def test_unknown_subcommand_lists_choices_and_closest_match() -> None:
    assert errors(KV, "store gte k") == [
        "kv store: unknown subcommand 'gte' (choices: get, put, list) (did you mean 'get'?)"]


def test_double_dash_stops_the_subcommand_walk() -> None:
    assert errors(KV, "-- store") == ["kv: unexpected argument 'store'"]


def test_errors_of_a_subcommand_are_prefixed_with_the_full_path() -> None:
    assert errors(KV, "st put k v --ttl soon") == [
        "kv store put: invalid value 'soon' for '--ttl': expected an integer"]


def test_select_leaf_raises_on_unknown_subcommand() -> None:
    with pytest.raises(BindError):
        select_leaf(KV.schema, classify(["nope"]))


# -- raw_argv -----------------------------------------------------------------------------


def test_raw_argv_keeps_words_in_source_order() -> None:
    assert b(TEST, "0 -gt -5").positional == ["0", "-gt", "-5"]
    assert b(TEST, "x = -n").positional == ["x", "=", "-n"]


def test_raw_argv_lifts_nothing_and_keeps_double_dash() -> None:
    ta = b(TEST, "--json --help -- --x=y")
    assert ta.positional == ["--json", "--help", "--", "--x=y"]
    assert not ta.json and not ta.help and ta.named == {} and ta.flags == set()


def test_raw_argv_keeps_typed_values() -> None:
    ta = bind(TEST.schema, [Operand(3), Flag("-eq"), Operand([1])])
    assert ta.positional == [3, "-eq", [1]]


def test_raw_argv_tool_gets_its_tool_args_from_bind_and_convert() -> None:
    ta, leaf, obj = bind_and_convert(TEST, classify(["-n", "x"]))
    assert obj is ta and leaf is TEST


# -- verbatim -------------------------------------------------------------------------


def test_verbatim_keeps_every_word_and_double_dash() -> None:
    ta = b(WRAP, "-x --y=1 -- z")
    assert ta.words == ["-x", "--y=1", "--", "z"]
    assert ta.positional == [] and ta.named == {} and ta.flags == set()


def test_verbatim_removes_json_before_double_dash_and_applies_it() -> None:
    ta = b(WRAP, "a --json b -- --json")
    assert ta.words == ["a", "b", "--", "--json"] and ta.json


def test_verbatim_keeps_json_when_the_tool_owns_its_output() -> None:
    ta = b(WRAP_OWN, "a --json")
    assert ta.words == ["a", "--json"]


def test_verbatim_renders_a_typed_flag_value_as_compact_json() -> None:
    ta = bind(WRAP.schema, [Flag("--data", value={"a": [1, 2]})])
    assert ta.words == ['--data={"a":[1,2]}']


def test_verbatim_bad_json_value_is_a_usage_error() -> None:
    assert errors(WRAP, "--json=maybe") == [
        "wrap: invalid value 'maybe' for '--json': "
        "expected one of true, false, 1, 0, yes, no, on, off"]


# Verbatim binding keeps each word's kind: a tool that parses its own options (echo,
# printf) takes only words that arrived as Flags as options, so a glob result spelled
# like an option stays an operand.


def test_verbatim_marks_the_words_that_arrived_as_flags() -> None:
    ta = bind(WRAP.schema, [Flag("-n"), Operand("-n"), Operand("x", True), DOUBLE_DASH,
                            Flag("-e")])
    assert ta.words == ["-n", "-n", "x", "--", "-e"]
    assert ta.flag_words == frozenset({0, 4})


def test_verbatim_flag_indices_follow_words_after_lifting_json() -> None:
    ta = bind(WRAP.schema, [Flag("--json"), Operand("-v"), Flag("-v")])
    assert ta.words == ["-v", "-v"] and ta.json
    assert ta.flag_words == frozenset({1})


def test_verbatim_owned_json_stays_a_flag_word() -> None:
    ta = bind(WRAP_OWN.schema, [Flag("--json"), Operand("a", True)])
    assert ta.words == ["--json", "a"] and ta.flag_words == frozenset({0})


def test_echo_prints_a_glob_result_named_like_an_option(tmp_path: Path) -> None:
    (tmp_path / "-n").touch()
    (tmp_path / "a.txt").touch()
    p = subprocess.run([sys.executable, "-m", "tysh", "-c", "echo *; echo -n lit; echo"],
                       capture_output=True, cwd=tmp_path, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout == b"-n a.txt\nlit\n"


# -- --json -------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["--json", "--json=true", "--json=1", "--json=yes", "--json=on"])
def test_json_spellings_switch_to_json(word: str) -> None:
    ta = b(HEAD, f"f {word}")
    assert ta.json and ta.positional == ["f"] and "json" not in ta.named


@pytest.mark.parametrize("word", ["--json=false", "--json=0", "--json=no", "--json=off", "--json="])
def test_json_false_spellings_leave_text(word: str) -> None:
    assert not b(HEAD, word).json


@pytest.mark.parametrize("word", ["--json=maybe", "--json=TRUE"])
def test_other_json_values_fail(word: str) -> None:
    assert len(errors(HEAD, word)) == 1


def test_json_after_double_dash_is_an_operand() -> None:
    ta = b(HEAD, "-- --json")
    assert not ta.json and ta.positional == ["--json"]


def test_json_never_reaches_params_even_if_declared() -> None:
    s = ToolSchema("t", params=[ParamSchema("json", "bool")])
    ta = b(s, "--json")
    assert ta.json and ta.flags == set()


def test_owned_json_binds_to_the_declared_param() -> None:
    s = ToolSchema("own").with_owned_output()
    ta = b(s, "--json")
    assert ta.flags == {"json"} and ta.json
    assert "json" in b(s, "--json=yes").flags
    assert errors(s, "--json=maybe")


def test_json_lifted_on_a_subcommand_leaf() -> None:
    ta = b(KV, "store get k --json")
    assert ta.json and ta.bound == {"key": "k"}


# -- map_positionals ------------------------------------------------------------------


def test_map_positionals_fills_named_params_in_schema_order() -> None:
    ta = b(SEARCH, "cats 5")
    assert ta.named == {"query": "cats", "limit": 5} and ta.positional == []


def test_map_positionals_skips_params_given_by_name_and_bools() -> None:
    ta = b(SEARCH, "--query cats 5 de --exact")
    assert ta.named == {"query": "cats", "limit": 5, "lang": "de"}
    assert ta.flags == {"exact"}


def test_map_positionals_never_maps_operands_after_double_dash() -> None:
    ta = b(SEARCH, "cats -- 5")
    assert ta.named == {"query": "cats"} and ta.positional == ["5"]


def test_map_positionals_surplus_operands_stay_positional() -> None:
    ta = b(SEARCH, "q 1 en extra more")
    assert ta.positional == ["extra", "more"]


def test_map_positionals_runs_before_the_required_check() -> None:
    assert errors(SEARCH, "") == ["search: missing required option '--query'"]
    assert b(SEARCH, "q").named == {"query": "q"}


def test_map_positionals_converts_mapped_values() -> None:
    assert errors(SEARCH, "q many") == [
        "search: invalid value 'many' for '--limit': expected an integer"]


# -- tables --------------------------------------------------------------------------


def test_lookup_tables_are_built_once_per_schema() -> None:
    assert compiled(HEAD.schema) is compiled(HEAD.schema)
    b(HEAD, "-n 1")
    assert compiled(HEAD.schema) is compiled(HEAD.schema)


def test_equal_but_distinct_schemas_get_their_own_tables() -> None:
    s1 = ToolSchema("a", params=[ParamSchema("x", "int")])
    s2 = ToolSchema("a", params=[ParamSchema("x", "int")])
    assert compiled(s1) is not compiled(s2)
