"""sort: orders, keys, merge, checks, output file, and the key functions behind them.
The GNU-pinned merge, dictionary, version and human cases are in
tests/conformance/pins/tools/sort.cases."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from harness_text import ok, run, same, write
from hypothesis import given
from hypothesis import strategies as st


def sort(tmp: Path, stdin: str, *argv: str) -> str:
    return ok(["sort", *argv], tmp, stdin).text


def test_sort_default_is_code_point_order(tmp_path: Path) -> None:
    assert sort(tmp_path, "b\nApple\n_u\na\n10\n9\né\n") == "10\n9\nApple\n_u\na\nb\né\n"


def test_sort_numeric_treats_junk_as_zero_and_compares_values(tmp_path: Path) -> None:
    assert sort(tmp_path, "  5\n10x\nabc\n-1\n3\n", "-n") == "-1\nabc\n3\n  5\n10x\n"


def test_sort_numeric_ties_fall_back_to_whole_line_unless_stable(tmp_path: Path) -> None:
    data = "2 zebra\n1 mango\n2 apple\n1 kiwi\n"
    assert sort(tmp_path, data, "-k1,1n") == "1 kiwi\n1 mango\n2 apple\n2 zebra\n"
    assert sort(tmp_path, data, "-s", "-k1,1n") == "1 mango\n1 kiwi\n2 zebra\n2 apple\n"


def test_sort_reverse_numeric_reverses_the_last_resort_too(tmp_path: Path) -> None:
    assert sort(tmp_path, "1 a\n1 b\n2 c\n", "-rn") == "2 c\n1 b\n1 a\n"


def test_sort_key_with_own_options_does_not_inherit_global_reverse(tmp_path: Path) -> None:
    assert sort(tmp_path, "b 2\na 1\nc 1\n", "-r", "-k2,2n") == "c 1\na 1\nb 2\n"


def test_sort_multiple_keys_with_per_key_reverse(tmp_path: Path) -> None:
    assert sort(tmp_path, "b 2\na 2\nc 1\na 1\n", "-k2,2n", "-k1,1r") == "c 1\na 1\nb 2\na 2\n"


def test_sort_separator_and_character_positions(tmp_path: Path) -> None:
    data = "x,b3\ny,a9\nz,a1\n"
    assert sort(tmp_path, data, "-t,", "-k2.2") == "z,a1\nx,b3\ny,a9\n"
    assert sort(tmp_path, data, "-t", ",", "-k2,2") == "z,a1\ny,a9\nx,b3\n"


def test_sort_key_includes_leading_blanks_unless_b(tmp_path: Path) -> None:
    data = "x  b\ny a\n"
    assert sort(tmp_path, data, "-k2,2") == "x  b\ny a\n"
    assert sort(tmp_path, data, "-b", "-k2,2") == "y a\nx  b\n"


def test_sort_unique_keeps_first_of_each_equal_run(tmp_path: Path) -> None:
    assert sort(tmp_path, "b\na\nb\n", "-u") == "a\nb\n"
    assert sort(tmp_path, "x 1\ny 01\n", "-k2n", "-u") == "x 1\n"


def test_sort_fold_case_orders_upper_before_lower_on_ties(tmp_path: Path) -> None:
    assert sort(tmp_path, "b\nB\na\nA\n", "-f") == "A\na\nB\nb\n"


def test_sort_human_numeric_orders_by_suffix_then_value(tmp_path: Path) -> None:
    assert sort(tmp_path, "2K\n1M\n500\n1G\n3k\n-1K\n", "-h") == "-1K\n500\n2K\n3k\n1M\n1G\n"


def test_sort_version_order(tmp_path: Path) -> None:
    data = "file10\nfile2\nv1.10\nv1.9\nv1.2.1\na-1.0~rc1\na-1.0\n"
    assert sort(tmp_path, data, "-V") == "a-1.0~rc1\na-1.0\nfile2\nfile10\nv1.2.1\nv1.9\nv1.10\n"


def test_sort_general_numeric_puts_non_numbers_then_nan_first(tmp_path: Path) -> None:
    assert sort(tmp_path, "1e3\nabc\nnan\n-inf\n2\n", "-g") == "abc\nnan\n-inf\n2\n1e3\n"


def test_sort_month_names(tmp_path: Path) -> None:
    assert sort(tmp_path, "MAR\njan\nxyz\nFeb\n", "-M") == "xyz\njan\nFeb\nMAR\n"


def test_sort_adds_missing_final_newline_per_file(tmp_path: Path) -> None:
    write(tmp_path, "a", "b\na")
    write(tmp_path, "c", "c")
    assert run(["sort", "a", "c"], tmp_path).out == b"a\nb\nc\n"


def test_sort_missing_file_exits_2_without_output(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    r = run(["sort", "a", "nosuch"], tmp_path)
    assert (r.code, r.out) == (2, b"")


def test_sort_output_file_may_be_an_input(tmp_path: Path) -> None:
    write(tmp_path, "a", "b\na\n")
    r = run(["sort", "-o", "a", "a"], tmp_path)
    assert (r.code, r.out, (tmp_path / "a").read_bytes()) == (0, b"", b"a\nb\n")


def test_sort_check_reports_first_disorder(tmp_path: Path) -> None:
    r = run(["sort", "-c"], tmp_path, stdin="a\nc\nb\n")
    assert r.code == 1 and "-:3: disorder: b" in r.err
    assert run(["sort", "-C"], tmp_path, stdin="a\nb\n").code == 0


def test_sort_invalid_key_is_a_usage_error(tmp_path: Path) -> None:
    r = run(["sort", "-k0"], tmp_path, stdin="a\n")
    assert r.code == 2 and "field number is zero" in r.err


def test_sort_json_gives_sorted_lines(tmp_path: Path) -> None:
    assert run(["sort", "--json"], tmp_path, stdin="b\na\n").json() == ["a", "b"]


def test_sort_text_keys_with_nul_bytes_fall_back_to_tuple_keys(tmp_path: Path) -> None:
    assert sort(tmp_path, "x b\0z\ny a\0z\nw a\0y\n", "-k2") == "w a\0y\ny a\0z\nx b\0z\n"


def test_sort_stable_passes_order_like_comparing_keys_in_turn() -> None:
    import random

    from tysh.builtins.text.sort_keys import KeyOpts, key_passes, make_sort_key, parse_key

    rnd = random.Random(4)
    words = [b"a", b"b", b"10", b"9", b"-1", b" x", b"B"]
    lines = [b" ".join(rnd.choice(words) for _ in range(3)) for _ in range(300)]
    for specs, rev in ((["2,2n", "1,1r"], False), (["3", "1,1n"], True), (["2r", "1.2"], False)):
        keys = [parse_key(s, KeyOpts(reverse=rev)) for s in specs]
        expected = sorted(lines, key=make_sort_key(keys, None, rev, True), reverse=rev)
        got = sorted(lines, reverse=rev)
        for fn, descending in reversed(key_passes(keys, None)):
            got.sort(key=fn, reverse=descending)
        assert got == expected, specs


def test_numeric_values_in_bulk_equal_numeric_value_per_line() -> None:
    import random

    from tysh.builtins.text.sort_keys import numeric_value, numeric_values

    rnd = random.Random(5)
    alphabet = [b"", b" ", b"\t", b"-", b".", b"0", b"7", b"42", b"x", b"1e3", b"\xff"]
    for _ in range(300):
        lines = [b"".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 6)))
                 for _ in range(rnd.randint(1, 8))]
        assert numeric_values(lines) == list(map(numeric_value, lines)), lines
    long = [b"12345678901234567890", b"12345678901234567891"]
    assert numeric_values(long)[0] != numeric_values(long)[1]
    assert numeric_values([b"a\nb", b"3"]) == [0.0, 3.0]  # -z lines may hold newlines


def test_sort_random_groups_equal_lines_and_keeps_every_line(tmp_path: Path) -> None:
    data = "a\nb\na\nc\nb\na\n"
    r = run(["sort", "-R"], tmp_path, data)
    assert r.code == 0
    lines = r.text.splitlines()
    assert sorted(lines) == sorted(data.splitlines())
    runs = [k for i, k in enumerate(lines) if i == 0 or lines[i - 1] != k]
    assert sorted(runs) == ["a", "b", "c"]  # each value forms one run


def test_sort_random_is_incompatible_with_numeric(tmp_path: Path) -> None:
    r = run(["sort", "-Rn"], tmp_path, "1\n")
    assert (r.code, r.err) == (2, "sort: options '-nR' are incompatible\n")


def test_sort_dictionary_with_numeric_is_incompatible(tmp_path: Path) -> None:
    r = same(tmp_path, ["sort", "-k1bd,1n"], "1\n", "", code=2)
    assert r.err == "sort: options '-dn' are incompatible\n"
    r = same(tmp_path, ["sort", "-hdr"], "1\n", "", code=2)
    assert r.err == "sort: options '-dh' are incompatible\n"


def test_sort_version_and_random_may_be_combined(tmp_path: Path) -> None:
    r = run(["sort", "-RV"], tmp_path, "a\nb\n")
    assert r.code == 0 and sorted(r.text.splitlines()) == ["a", "b"]


def test_sort_incompatible_letters_in_gnu_order(tmp_path: Path) -> None:
    r = same(tmp_path, ["sort", "-n", "-g"], "1\n", "", code=2)
    assert r.err == "sort: options '-gn' are incompatible\n"
    r = same(tmp_path, ["sort", "-hM"], "1\n", "", code=2)
    assert r.err == "sort: options '-hM' are incompatible\n"


_FLAGS = ("numeric_sort", "general_numeric_sort", "human_numeric_sort", "version_sort",
          "month_sort", "reverse", "unique", "ignore_case", "ignore_leading_blanks",
          "dictionary_order", "ignore_nonprinting", "stable", "random_sort", "merge",
          "zero_terminated")


@given(st.sets(st.sampled_from(_FLAGS), max_size=4),
       st.sampled_from([(), ("2",), ("1,1n",), ("2.2b,3r",)]),
       st.sampled_from([None, ",", "ab", "\\0"]))
def test_the_plain_sort_plan_is_the_one_key_planning_makes(
        flags: set[str], key: tuple[str, ...], sep: str | None) -> None:
    from tysh.builtins.text.sort import _PLAIN, SortArgs, _plan, _planned
    from tysh.builtins.text.sort_keys import SortKeyError

    a = SortArgs(key=key, field_separator=sep, **{f: True for f in flags})
    try:
        general = _planned(a)
    except SortKeyError as e:
        with pytest.raises(SortKeyError, match=re.escape(str(e))):
            _plan(a)
        return
    got = _plan(a)
    plain = not key and sep is None and flags <= {"reverse", "unique", "stable", "merge",
                                                    "zero_terminated"}
    assert any(got is p for p in _PLAIN) is plain
    if plain:
        assert got == general and general.key is None and general.eq_key is None


_MERGE_LINES = st.lists(st.sampled_from(["a", "b", "B", "10", "9", "-1", "a b", "", "é"]),
                        max_size=12)


@given(inputs=st.lists(_MERGE_LINES, min_size=1, max_size=3),
       options=st.lists(st.sampled_from(["-u", "-r", "-n", "-f", "-k2"]), unique=True,
                        max_size=3),
       last_unterminated=st.booleans())
def test_sort_merge_streamed_to_stdout_is_the_merge_written_to_a_file(
        tmp_path_factory: pytest.TempPathFactory, inputs: list[list[str]],
        options: list[str], last_unterminated: bool) -> None:
    """`sort -m` to stdout merges as it reads; with -o it reads every input first. Both
    give the same lines, sorted inputs or not, for every option the merge orders by."""
    tmp = tmp_path_factory.mktemp("merge")
    names = []
    for i, lines in enumerate(inputs):
        text = "".join(line + "\n" for line in lines)
        if last_unterminated and text:
            text = text[:-1]
        names.append(write(tmp, f"in{i}", text))
    streamed = run(["sort", "-m", *options, *names], tmp)
    written = run(["sort", "-m", *options, "-o", "out", *names], tmp)
    assert (streamed.code, written.code) == (0, 0)
    assert streamed.text == (tmp / "out").read_text()
