"""Filesystem globbing through the FileSystem object: sorting, dotfiles, `**`."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import make_tree

from tysh.kernel.expand.glob import glob
from tysh.kernel.fs.local import LocalFileSystem


def make(root: Path, *names: str) -> None:
    make_tree(root, *names, content=lambda n: "x")


@pytest.fixture
def fs() -> LocalFileSystem:
    return LocalFileSystem()


def test_star_results_sorted_bytewise(tmp_path: Path, fs: LocalFileSystem) -> None:
    make(tmp_path, "c.txt", "a.txt", "b.txt", "d.log", "B", "C")
    assert glob("*.txt", fs, str(tmp_path)) == ["a.txt", "b.txt", "c.txt"]
    assert glob("*", fs, str(tmp_path)) == ["B", "C", "a.txt", "b.txt", "c.txt", "d.log"]


def test_question_mark_and_brackets(tmp_path: Path, fs: LocalFileSystem) -> None:
    make(tmp_path, "a1", "a2", "a10", "b1", "x5", "xa", "xB")
    assert glob("a?", fs, str(tmp_path)) == ["a1", "a2"]
    assert glob("a??", fs, str(tmp_path)) == ["a10"]
    assert glob("[!a]1", fs, str(tmp_path)) == ["b1"]
    assert glob("x[a-z]", fs, str(tmp_path)) == ["xa"]


def test_dotfiles_need_an_explicit_dot(tmp_path: Path, fs: LocalFileSystem) -> None:
    make(tmp_path, ".hidden", "visible")
    assert glob("*", fs, str(tmp_path)) == ["visible"]
    assert glob(".h*", fs, str(tmp_path)) == [".hidden"]
    assert glob("?hidden", fs, str(tmp_path)) == []


def test_subdirectory_segments(tmp_path: Path, fs: LocalFileSystem) -> None:
    make(tmp_path, "d/x.md", "d/y.md", "z.md", "e/")
    assert glob("d/*.md", fs, str(tmp_path)) == ["d/x.md", "d/y.md"]
    assert glob("*/*.md", fs, str(tmp_path)) == ["d/x.md", "d/y.md"]
    assert glob("*/", fs, str(tmp_path)) == ["d/", "e/"]


def test_globstar_recurses_zero_or_more_directories(tmp_path: Path, fs: LocalFileSystem) -> None:
    make(tmp_path, "a.txt", "d/b.txt", "d/e/c.txt", "d/e/f.md", "z.txt")
    assert glob("**/*.txt", fs, str(tmp_path)) == ["a.txt", "d/b.txt", "d/e/c.txt", "z.txt"]
    assert glob("d/**/*.md", fs, str(tmp_path)) == ["d/e/f.md"]


def test_globstar_skips_hidden_unless_segment_starts_with_dot(
    tmp_path: Path, fs: LocalFileSystem
) -> None:
    make(tmp_path, "top.txt", ".hid/x.txt", "d/.y.txt", "d/z.txt")
    assert glob("**/*.txt", fs, str(tmp_path)) == ["d/z.txt", "top.txt"]
    make(tmp_path, ".cfg/a.conf", ".cfg/sub/b.conf", ".cfg/.deep/c.conf")
    assert glob(".cfg/**/*.conf", fs, str(tmp_path)) == [".cfg/a.conf", ".cfg/sub/b.conf"]


def test_escaped_glob_characters_match_literally(tmp_path: Path, fs: LocalFileSystem) -> None:
    make(tmp_path, "a*b", "axb")
    assert glob("a\\*b", fs, str(tmp_path)) == ["a*b"]
    assert glob("a*b", fs, str(tmp_path)) == ["a*b", "axb"]


def test_absolute_pattern_gives_absolute_results(tmp_path: Path, fs: LocalFileSystem) -> None:
    make(tmp_path, "q1", "q2")
    assert glob(f"{tmp_path}/q*", fs, "/") == [f"{tmp_path}/q1", f"{tmp_path}/q2"]


def test_no_match_and_missing_directory_give_empty(tmp_path: Path, fs: LocalFileSystem) -> None:
    assert glob("*.nomatch", fs, str(tmp_path)) == []
    assert glob("nodir/*", fs, str(tmp_path)) == []


def test_goes_through_the_filesystem_object(tmp_path: Path) -> None:
    class CountingFs(LocalFileSystem):
        calls = 0

        def listdir(self, path: str) -> list[str]:
            CountingFs.calls += 1
            return super().listdir(path)

    make(tmp_path, "a.txt")
    assert glob("*.txt", CountingFs(), str(tmp_path)) == ["a.txt"]
    assert CountingFs.calls == 1
