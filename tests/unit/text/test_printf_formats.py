"""The printf format engine: bash 5.2's printf builtin, output compared byte for byte."""

from __future__ import annotations

import pytest

from tysh.kernel.text.printf import (
    expand_b_escapes,
    expand_echo_escapes,
    expand_format_escapes,
    format_printf,
    parse_format,
    shell_quote,
)


def out(fmt: str, *args: object) -> str:
    return format_printf(fmt, list(args)).text


def raw(fmt: str, *args: object) -> bytes:
    return format_printf(fmt, list(args)).text.encode("utf-8", "surrogateescape")


@pytest.mark.parametrize(
    ("fmt", "args", "expected"),
    [
        ("%s\n", ["hello"], "hello\n"),
        ("%s=%s\n", ["k1", "v1", "k2"], "k1=v1\nk2=\n"),
        ("[%s][%d]\n", [], "[][0]\n"),
        ("%d %i %d\n", ["42", "-7", "+3"], "42 -7 3\n"),
        ("%x %X %o\n", ["255", "255", "8"], "ff FF 10\n"),
        ("%.2f %f %.0f\n", ["3.14159", "2", "2.5"], "3.14 2.000000 2\n"),
        ("[%5s][%-5s][%s]\n", ["ab", "cd", "ef"], "[   ab][cd   ][ef]\n"),
        ("%05d|%5d|%-5d|\n", ["42", "42", "42"], "00042|   42|42   |\n"),
        ("%c%c\n", ["hello", "world"], "hw\n"),
        ("%b\n", ["a\\tb", "l1\\nl2"], "a\tb\nl1\nl2\n"),
        ("%s\n", ["a\\tb"], "a\\tb\n"),
        ("100%%\n", [], "100%\n"),
        ("%d %d\n", ["'A", "'a"], "65 97\n"),
        ("%d %d %d\n", ["0x1F", "010", "7"], "31 8 7\n"),
        ("%x %o %u\n", ["-1", "-1", "-1"],
         "ffffffffffffffff 1777777777777777777777 18446744073709551615\n"),
        ("%#o %#x %+x\n", ["8", "255", "255"], "010 0xff ff\n"),
        ("%5.1f|%-8.3e|%G|%g\n", ["3.14159", "1234.5", "0.00001", "100000000"],
         "  3.1|1.234e+03|1E-05|1e+08\n"),
        ("%*d|%-*d|%.*f\n", ["5", "1", "4", "2", "2", "3.14159"], "    1|2   |3.14\n"),
        ("%*d|\n", ["-5", "1"], "1    |\n"),
        ("%.3d|%+d|% d|%+.2f\n", ["5", "5", "5", "1"], "005|+5| 5|+1.00\n"),
        ("%10.4s|\n", ["abcdefg"], "      abcd|\n"),
        ("%-#10x|%#X\n", ["255", "0"], "0xff      |0\n"),
        ("%e\n", ["0x10"], "1.600000e+01\n"),
        ("%.2f %.2f %.2f\n", ["inf", "nan", "-inf"], "inf nan -inf\n"),
        ("%08.3f|%-+6d|%+06d\n", ["3.14159", "5", "-5"], "0003.142|+5    |-00005\n"),
        ("%#.3g|%g|%g\n", ["1", "1e-5", "123456789"], "1.00|1e-05|1.23457e+08\n"),
        ("%a %.2a\n", ["1", "3.5"], "0x8p-3 0xe.00p-2\n"),
        ("%.0d|%o|%#o\n", ["0", "0", "0"], "|0|0\n"),
        ("%5c|%-3c|\n", ["x", "y"], "    x|y  |\n"),
        ("%.3b|%-5b|\n", ["abcdef", "a\\tb"], "abc|a\tb  |\n"),
        ("% 5d|% -5d|%+5s|\n", ["3", "3", "ab"], "    3| 3   |   ab|\n"),
        ("%c|\n", ["éa"], "é|\n"),
        ("%d\n", ["'é"], "233\n"),
    ],
)
def test_conversion_matches_bash(fmt: str, args: list[str], expected: str) -> None:
    assert out(fmt, *args) == expected


def test_format_is_reused_while_arguments_remain() -> None:
    assert out("%s %s\n", "a", "b", "c", "d") == "a b\nc d\n"


def test_format_without_conversions_prints_once_and_ignores_arguments() -> None:
    assert out("x\n", "a", "b") == "x\n"


def test_missing_arguments_read_as_empty_and_zero() -> None:
    assert out("[%s|%d|%f|%c|%b]\n") == "[|0|0.000000|\0|]\n"


def test_typed_values_render_as_text() -> None:
    assert out("%s %s %d %s\n", [1, 2], None, 7, True) == "[1,2]  7 true\n"


def test_invalid_number_reports_prints_zero_and_continues_with_status_1() -> None:
    r = format_printf("%d|%d\n", ["abc", "5"])
    assert r.text == "0|5\n"
    assert r.status == 1
    assert r.errors == ("abc: invalid number",)


def test_trailing_junk_after_a_number_keeps_the_leading_digits() -> None:
    r = format_printf("%d\n", ["12abc"])
    assert (r.text, r.status, r.errors) == ("12\n", 1, ("12abc: invalid number",))


def test_octal_argument_with_eight_is_invalid() -> None:
    r = format_printf("%d\n", ["08"])
    assert (r.text, r.status) == ("0\n", 1)


def test_leading_whitespace_in_number_is_allowed_but_trailing_is_not() -> None:
    assert format_printf("%d\n", [" 12"]).status == 0
    assert format_printf("%d\n", ["12 "]).status == 1


def test_empty_hex_prefix_is_an_invalid_hex_number() -> None:
    r = format_printf("%i\n", ["0x"])
    assert r.errors == ("0x: invalid hex number",)


def test_invalid_float_reports_and_prints_zero() -> None:
    r = format_printf("%f\n", ["abc"])
    assert (r.text, r.status) == ("0.000000\n", 1)


def test_out_of_range_integer_clamps_with_a_warning_and_status_0() -> None:
    r = format_printf("%d %d\n", ["9223372036854775808", "-9223372036854775809"])
    assert r.text == "9223372036854775807 -9223372036854775808\n"
    assert r.status == 0
    assert len(r.errors) == 2 and "out of range" in r.errors[0]


def test_invalid_conversion_stops_output_with_status_1() -> None:
    r = format_printf("ab%k|x\n", [])
    assert (r.text, r.status) == ("ab", 1)
    assert r.errors == ("`k': invalid format character",)


def test_percent_at_end_is_missing_format_character() -> None:
    r = format_printf("abc%", [])
    assert (r.text, r.status) == ("abc", 1)
    assert "missing format character" in r.errors[0]


def test_percent_with_width_is_not_a_literal_percent() -> None:
    assert format_printf("%5%", []).status == 1


def test_b_backslash_c_stops_all_further_output() -> None:
    r = format_printf("%b|%s\n", ["x\\cy", "z"])
    assert (r.text, r.status) == ("x", 0)


def test_backslash_c_in_the_format_is_literal() -> None:
    assert out("a\\cb") == "a\\cb"


def test_format_escapes() -> None:
    assert out("a\\tb\\\\c\\n\\101\\n") == "a\tb\\c\nA\n"
    assert out('a\\"\\?\\q') == 'a"?\\q'
    assert out("\\x41\\u00e9\\101\\0101|") == "Aé A\x081|".replace(" ", "")


def test_hex_escape_without_digits_stays_literal() -> None:
    assert out("\\x") == "\\x"
    assert out("%b", "\\x") == "\\x"


def test_high_byte_escapes_write_raw_bytes() -> None:
    assert raw("\\xff\\377") == b"\xff\xff"
    assert raw("%b", "\\0377") == b"\xff"


def test_b_accepts_octal_with_and_without_leading_zero() -> None:
    assert out("%b", "\\0101 \\101 \\x41") == "A A A"


def test_s_does_not_expand_escapes() -> None:
    assert out("%s", "\\x41") == "\\x41"


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("a b", "a\\ b"),
        ("", "''"),
        ("a\nb", "$'a\\nb'"),
        ("tab\tx", "$'tab\\tx'"),
        ("~x", "\\~x"),
        ("#a", "\\#a"),
        ("a=b,c", "a=b\\,c"),
        ("it's", "it\\'s"),
        ("é", "é"),
        ("$HOME*", "\\$HOME\\*"),
    ],
)
def test_q_quotes_like_bash(text: str, quoted: str) -> None:
    assert shell_quote(text) == quoted
    assert out("%q", text) == quoted


def test_time_conversion_formats_epoch_seconds() -> None:
    assert out("%(%Y)T", "0") in ("1970", "1969")


def test_length_modifiers_are_accepted_and_ignored() -> None:
    assert out("%ld %lld %hhd %zu", "1", "2", "3", "4") == "1 2 3 4"


def test_parsed_formats_are_cached() -> None:
    assert parse_format("%s-%d") is parse_format("%s-%d")


def test_echo_escapes_need_a_leading_zero_for_octal() -> None:
    assert expand_echo_escapes("\\101\\0101") == ("\\101A", False)


def test_echo_escapes_keep_quote_escapes_literal() -> None:
    assert expand_echo_escapes("\\\"\\'\\?") == ("\\\"\\'\\?", False)


def test_echo_escapes_stop_at_backslash_c() -> None:
    assert expand_echo_escapes("keep\\cdrop") == ("keep", True)


def test_b_escapes_report_stop() -> None:
    assert expand_b_escapes("a\\cb") == ("a", True)


def test_format_escapes_text_without_backslash_is_returned_as_is() -> None:
    s = "plain text"
    assert expand_format_escapes(s) is s


def test_unicode_escapes() -> None:
    assert out("\\u00e9\\U0001F600") == "é\U0001f600"


def test_c_with_an_empty_argument_writes_a_nul_like_bash() -> None:
    assert out("[%3c]", "") == "[  \0]"


def test_inf_and_nan_are_padded_with_spaces_even_with_zero_flag() -> None:
    assert out("%05f|%+06E", "inf", "nan") == "  inf|  +NAN"


def test_alternate_octal_of_zero_with_zero_precision_prints_a_zero() -> None:
    assert out("%#.0o|%.0o", "0", "0") == "0|"


def test_absurd_field_width_is_refused_instead_of_allocating() -> None:
    r = format_printf("[%*d]", ["99999999999", "1"])
    assert r.text == "[1]" and r.status == 1 and "too large" in r.errors[-1]
