"""Filesystem globbing through the FileSystem object: sorting, dotfiles, `**`, and the
glob options (extglob, dotglob, nocaseglob, globskipdots, globstar, GLOBIGNORE, and what
a glob matching nothing gives under failglob/nullglob)."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import make_tree

from tysh.kernel.base.errors import ExpansionError
from tysh.kernel.expand.glob import DEFAULT, GlobOptions, expand, glob
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


# -- the glob options -----------------------------------------------------------------

def opts(*on: str, ignore: str | None = None) -> GlobOptions:
    return GlobOptions.of(frozenset(on), ignore)


def test_extended_globs_select_files(tmp_path: Path, fs: LocalFileSystem) -> None:
    make(tmp_path, "a.cc", "b.cc", "a.h", "a.py", ".x.h")
    d = str(tmp_path)
    assert glob("@(*.cc|*.h)", fs, d) == ["a.cc", "a.h", "b.cc"]
    assert glob("!(*.cc|*.h)", fs, d) == ["a.py"]
    assert glob("a.?(cc|py)", fs, d) == ["a.cc", "a.py"]
    assert glob("@(*.cc|*.h)", fs, d, opts()) == []  # extglob off: literal text


def test_dotglob_nocaseglob_and_globskipdots(tmp_path: Path, fs: LocalFileSystem) -> None:
    make(tmp_path, ".rc", "Read", "sub/.deep/f")
    d = str(tmp_path)
    assert glob("*", fs, d, opts("dotglob")) == [".rc", "Read", "sub"]
    assert glob("r*", fs, d, opts("nocaseglob")) == ["Read"]
    assert glob(".*", fs, d) == [".rc"]
    assert glob(".*", fs, d, opts()) == [".", "..", ".rc"]
    assert glob("**/f", fs, d, opts("globstar", "dotglob")) == ["sub/.deep/f"]
    assert glob("**/f", fs, d) == []


def test_globstar_off_makes_double_star_a_star(tmp_path: Path, fs: LocalFileSystem) -> None:
    make(tmp_path, "top.md", "c/leaf.md", "c/d/deep.md")
    d = str(tmp_path)
    assert glob("**/*.md", fs, d) == ["c/d/deep.md", "c/leaf.md", "top.md"]
    assert glob("**/*.md", fs, d, opts()) == ["c/leaf.md"]


def test_globignore_drops_whole_path_matches(tmp_path: Path, fs: LocalFileSystem) -> None:
    make(tmp_path, "a.txt", "a.md", "d/b.txt", ".env")
    d = str(tmp_path)
    assert glob("*", fs, d, opts(ignore="*.txt")) == [".env", "a.md", "d"]
    assert glob("*/*", fs, d, opts(ignore="*.txt")) == ["d/b.txt"]
    assert glob("*/*", fs, d, opts(ignore="*/*.txt")) == []
    assert glob("[![:alnum:]]*", fs, d, opts(ignore="[[:punct:]]*")) == []


class _Host:
    def __init__(self, cwd: str, o: GlobOptions) -> None:
        self.fs = LocalFileSystem()
        self.cwd = cwd
        self.glob_options = o


def test_no_match_fails_drops_or_stays_by_the_options(tmp_path: Path) -> None:
    d = str(tmp_path)
    with pytest.raises(ExpansionError) as ei:
        expand("*.py", "*.py", _Host(d, DEFAULT))
    assert ei.value.message == "no matches: *.py (quote it to pass the pattern: '*.py')"
    assert expand("*.py", "*.py", _Host(d, opts("nullglob", "failglob"))) == []
    assert expand("*.py", "*.py", _Host(d, opts())) == ["*.py"]
