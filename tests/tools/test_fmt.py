"""fmt: filling paragraphs, -s and -p (the GNU pins are
tests/conformance/pins/tools/fmt.cases)."""

from __future__ import annotations

from tysh import Kernel


def sandbox(**files: str) -> Kernel:
    return Kernel.isolated(files={k.replace("__", "/"): v for k, v in files.items()})


PARA = ("The quick brown fox jumps over the lazy dog. It was a dark and stormy night;\n"
        "the rain fell in torrents. Except at occasional intervals, when it was checked\n"
        "by a violent gust of wind which swept up the streets.\n\n  Indented (second)\n"
        "  paragraph here.\n")


def test_fmt_fills_paragraphs_to_the_width() -> None:
    res = sandbox(p=PARA).execute("fmt -w 40 p")
    assert res.out == (
        "The quick brown fox jumps over the lazy\n"
        "dog. It was a dark and stormy night;\n"
        "the rain fell in torrents. Except\n"
        "at occasional intervals, when it was\n"
        "checked by a violent gust of wind which\n"
        "swept up the streets.\n\n  Indented (second) paragraph here.\n")


def test_fmt_split_only_does_not_join_lines() -> None:
    assert sandbox().execute("fmt -s -w 10", stdin="aa bb cc dd\nee\n").out == (
        "aa bb\ncc dd\nee\n")


def test_fmt_prefix_formats_only_prefixed_lines() -> None:
    res = sandbox().execute("fmt -p '# ' -w 20", stdin="# a b\n# c d\ncode x\n")
    assert res.out == "# a b c d\ncode x\n"
