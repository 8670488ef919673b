"""find's string tests for `-name NAME`, `-name '*SUFFIX'`, `-name 'PREFIX*'` and
`-name '*PART*'` (and -path's) answer as the glob matcher does, for every name: they
are how `find -name '*.txt'` runs without loading the glob module and a regex engine."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.builtins.files.find_expr import glob_name_test, plain_name_test


class _Item:
    def __init__(self, text: str) -> None:
        self.name = text
        self.path = text


# names mix plain letters with every character a glob gives a meaning to, newlines and
# slashes (which a `*` of -path matches), and surrogate-escaped bytes
_CHARS = st.sampled_from(list("ab.x/\n ") + list("*?[]\\+@!(|)") + ["\udcff", "é"])
_TEXT = st.text(_CHARS, max_size=8)
_WORD = st.text(st.sampled_from(list("ab.x/ \né")), max_size=4)


@st.composite
def _patterns(draw: st.DrawFn) -> str:
    lead = draw(st.sampled_from(["", "*"]))
    trail = draw(st.sampled_from(["", "*"]))
    return lead + draw(_WORD) + trail


@settings(max_examples=600, deadline=None)
@given(pattern=_patterns(), text=_TEXT, whole_path=st.booleans())
def test_a_plain_name_pattern_matches_exactly_what_the_glob_matches(
        pattern: str, text: str, whole_path: bool) -> None:
    fast = plain_name_test(pattern, whole_path)
    assert fast is not None, pattern
    general = glob_name_test(pattern, False, whole_path)
    item = _Item(text)
    assert fast(item) == general(item), (pattern, text)


@settings(max_examples=300, deadline=None)
@given(pattern=_TEXT, text=_TEXT, whole_path=st.booleans())
def test_any_pattern_either_has_no_string_test_or_agrees_with_the_glob(
        pattern: str, text: str, whole_path: bool) -> None:
    fast = plain_name_test(pattern, whole_path)
    if fast is not None:
        item = _Item(text)
        assert fast(item) == glob_name_test(pattern, False, whole_path)(item), (pattern, text)


def test_a_pattern_with_glob_characters_inside_is_left_to_the_glob() -> None:
    for pattern in ("*.t?t", "a*b", "[ab]*", "*\\*", "*.@(x)", "x\\y", "**a*"):
        assert plain_name_test(pattern, False) is None, pattern
