"""LazyRegex: compiled on first use, then as fast as the compiled pattern."""

import re

import pytest

from tysh.kernel.base.lazyre import LazyRegex


def test_lazy_regex_does_not_compile_until_first_use() -> None:
    rx = LazyRegex(r"(unbalanced")  # an invalid pattern costs nothing until used
    with pytest.raises(re.error):
        rx.match("x")


def test_lazy_regex_methods_match_the_compiled_pattern() -> None:
    rx = LazyRegex(r"a(b+)", re.I)
    m = rx.search("xxABBy")
    assert m is not None and m.group(1) == "BB"
    assert rx.sub("-", "ab ab") == "- -"
    assert rx.findall("ab abb") == ["b", "bb"]
    assert rx.fullmatch("ab") is not None and rx.pattern == "a(b+)"


def test_lazy_regex_stores_bound_methods_after_first_use() -> None:
    rx = LazyRegex(r"\d+")
    assert "match" not in vars(rx)
    rx.match("1")
    assert vars(rx)["match"].__self__ is vars(rx)["search"].__self__
