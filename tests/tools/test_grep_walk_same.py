"""`grep -r` reads a tree's files in batches and passes over a file with no match after
one search; naming the same files on the command line reads each alone through the
general path. Both must print, report and exit alike. So must a pattern that is a plain
string, searched without a regex (kernel.text.literal), and the same string written as
a regex."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.kernel.base.limits import Limits
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.local import LocalFileSystem

FILES = {
    "a.txt": b"alpha needle\nbeta\nNEEDLE caps\n",
    "b.txt": b"nothing here\n",
    "c.txt": b"needles and pins\nno newline needle",
    "d.bin": b"bin\0ary needle\n",
    "e.txt": b"",
    "f.txt": b"bad \xff\xfe utf-8 needle\n\xc3\xa9needle\n",
    "g.txt": b"needle\n",
    "h.txt": b"x" * 70_000 + b"\nlong file needle\n",
    "i.txt": b"x needle-y\n",
}
OPTIONS = ["", "-i", "-w", "-x", "-v", "-c", "-l", "-L", "-n", "-o", "-q", "-s", "-a",
           "-I", "-iw", "-vc", "-ln", "-F"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("walk")
    (root / "d").mkdir()
    for name, data in FILES.items():
        (root / "d" / name).write_bytes(data)
    return root


def _both(root: Path, opts: str, pattern: str) -> tuple[tuple[int, str, str], ...]:
    names = " ".join(f"d/{n}" for n in sorted(FILES))
    out = []
    for k in (Kernel(cwd=str(root), limits=Limits(max_output_bytes=None)),
              Kernel(cwd=str(root), fs=LocalFileSystem(),
                     limits=Limits(max_output_bytes=None))):
        named = "" if "-h" in opts.split() else "-H"  # -r names each file, as -H does
        for src in (f"grep -r {opts} -- '{pattern}' d",
                    f"grep {named} {opts} -- '{pattern}' {names}"):
            r = k.execute(src)
            out.append((r.code, r.out, r.err))
    return tuple(out)


@pytest.mark.parametrize("opts", OPTIONS)
@pytest.mark.parametrize("pattern", ["needle", "needle$", "ne+dle", "zzz", "é"])
def test_a_walk_prints_what_naming_its_files_prints(tree: Path, opts: str, pattern: str
                                                     ) -> None:
    if pattern == "ne+dle" and "F" not in opts:
        opts = (opts + " -E").strip()
    got = _both(tree, opts, pattern)
    assert len(set(got)) == 1, got


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["-i", "-w", "-x", "-v", "-c", "-l", "-n", "-h", "-o"]),
                max_size=3, unique=True),
       st.sampled_from(["needle", "NEEDLE", "x", "a", "needle-y", "pins"]))
def test_any_mix_of_options_walks_as_it_names(tree: Path, opts: list[str], pattern: str
                                              ) -> None:
    got = _both(tree, " ".join(opts), pattern)
    assert len(set(got)) == 1, got


_WALK_PIECES = [b"needle", b"NEEDLE", b"nee", b"dle", b"x", b"\n", b"\n", b"\0", b"\xff"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_WALK_PIECES), max_size=8).map(b"".join),
                min_size=1, max_size=4),
       st.sampled_from(["", "-i", "-n", "-l", "-o", "-in", "-c", "-L", "-h"]),
       st.sampled_from(["needle", "NEEDLE", "eed", "x"]))
def test_a_walk_passes_over_only_files_naming_them_finds_nothing_in(
        contents: list[bytes], opts: str, pattern: str) -> None:
    # files read whole are passed over when the plain string is nowhere in them (with
    # or without a final newline, the needle cut by one, NUL-binary, case folded)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "d").mkdir()
        for k, content in enumerate(contents):
            (root / "d" / f"f{k}").write_bytes(content)
        names = " ".join(f"d/f{k}" for k in range(len(contents)))
        named = "" if "h" in opts else "-H"
        got = set()
        for k in (Kernel(cwd=tmp, limits=Limits(max_output_bytes=None)),
                  Kernel(cwd=tmp, fs=LocalFileSystem(), limits=Limits(max_output_bytes=None))):
            for src in (f"grep -r {opts} {pattern} d", f"grep {named} {opts} {pattern} {names}"):
                r = k.execute(src)
                got.add((r.code, r.out, r.err, json.dumps(r.data)))
        assert len(got) == 1, (contents, opts, pattern, got)


# -- a plain-string pattern (kernel.text.literal) against the same string as a regex ----

# what a pattern is made of: letters of both cases, a space, and each character some
# dialect treats specially, so that every dialect's plain strings and -F's are drawn
_PATTERN_CHARS = "abnNeE -/:.*[]^$\\+?{}()|"
_CONTENT_PIECES = [b"needle", b"NeEdLe", b"ab", b"a", b"n", b" ", b"\n", b"\n", b"\n",
                   b".*", b"[a]", b"^$", b"\\", b"(x|y)+", b"{1}", b"\0", b"\xff",
                   b"\xc3\xa9", b"\r\n"]
_GREP_OPTIONS = ["-i", "-v", "-c", "-l", "-L", "-n", "-o", "-q", "-s", "-h", "-H", "-a",
                 "-I", "-b", "-z", "-m1", "-m2", "-A1", "-B1", "-C1", "--no-group-separator",
                 "-r"]
_KINDS = {"-F": "fixed", "-G": "bre", "-E": "ere"}


def _as_regex(pattern: str) -> str:
    """The same string as a BRE that is not plain text: each special character escaped,
    inside a group (whose `\\(` alone sends it to the regex machinery)."""
    return "\\(" + "".join("\\" + c if c in "\\[.*^$" else c for c in pattern) + "\\)"


def _plain_dialects(pattern: str) -> list[str]:
    from tysh.kernel.text.literal import literal_of

    return [flag for flag, kind in _KINDS.items()
            if literal_of((pattern,), kind) is not None]  # type: ignore[arg-type]


def _same_as_regex(pattern: str, flag: str, opts: list[str], contents: list[bytes],
                   stdin: bool = False) -> None:
    """grep prints, reports, exits with and gives the value for `pattern` under `flag`,
    a plain string, as for the same string as a regex."""
    from tysh.kernel.text.literal import literal_of

    regex = _as_regex(pattern)
    assert literal_of((pattern,), _KINDS[flag]) is not None  # type: ignore[arg-type]
    assert literal_of((regex,), "bre") is None
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "d").mkdir()
        names = []
        for k, content in enumerate(contents):
            (root / "d" / f"f{k}").write_bytes(content)
            names.append(f"d/f{k}")
        k = Kernel(cwd=str(root), fs=LocalFileSystem(), limits=Limits(max_output_bytes=None))
        operands = ["d"] if "-r" in opts else names
        got = []
        for argv in ([*opts, flag, "-e", pattern, *operands],
                     [*opts, "-G", "-e", regex, *operands]):
            if stdin:
                r = k.execute_argv("grep", [a for a in argv if a not in operands],
                                   stdin=contents[0])
            else:
                r = k.execute_argv("grep", argv)
            got.append((r.code, r.out, r.err, r.data))
    assert got[0] == got[1], (pattern, flag, opts, contents)


# a pattern: mostly any, else one made of few letters (so that it overlaps itself)
_PATTERNS = st.one_of(st.text(_PATTERN_CHARS, min_size=1, max_size=6),
                      st.text("aA", min_size=1, max_size=4))


@settings(max_examples=200, deadline=None)
@given(pattern=_PATTERNS, dialect=st.integers(0, 2),
       opts=st.lists(st.sampled_from(_GREP_OPTIONS), max_size=4, unique=True),
       data=st.data(), stdin=st.booleans())
def test_a_plain_string_pattern_greps_as_its_regex_does(
        pattern: str, dialect: int, opts: list[str], data: st.DataObject, stdin: bool
) -> None:
    plain = _plain_dialects(pattern)
    flag = plain[dialect % len(plain)]  # -F takes any of them
    # the pattern itself, repeated, cut short and in other cases, among other pieces
    raw = pattern.encode()
    near = [raw, raw, raw * 2, raw[:-1], raw.upper(), raw.swapcase(), b"\n" + raw]
    piece = st.sampled_from(near + _CONTENT_PIECES)
    contents = data.draw(st.lists(st.lists(piece, max_size=25).map(b"".join),
                                  min_size=1, max_size=3))
    _same_as_regex(pattern, flag, opts, contents, stdin)


@pytest.mark.parametrize(("pattern", "opts", "content"), [
    ("aa", ["-o"], b"aaa\naaaa\n"),  # matches do not overlap
    ("aa", ["-o", "-b"], b"xaaa\naaaaa\n"),
    ("Aa", ["-o", "-i"], b"aAaA aa AA\n"),  # the text as it is, not folded
    ("ab", ["-c"], b"ab\nab\n\nab ab\nb\nab"),  # adjacent lines, each once
    ("ab", ["-c", "-z"], b"ab\0ab\0\nab\0"),
    ("ab", ["-ci"], b"AB\naB\nx\n"),
    ("ab", ["-v", "-n"], b"ab\nx\ny\nab\n"),
    ("ab", ["-A1", "-m1"], b"ab\nx\nab\ny\n"),
    ("ab", ["-l"], b"\0ab\n"),
    ("ab", [], b"\0ab\n"),
    ("b\\a", ["-n"], b"b\\a\nba\n"),
])
def test_a_plain_string_meets_the_edge_cases_as_its_regex_does(
        pattern: str, opts: list[str], content: bytes) -> None:
    flag = "-F" if "\\" in pattern else "-G"
    _same_as_regex(pattern, flag, opts, [content])
    _same_as_regex(pattern, flag, [*opts, "-r"], [content, content])


@pytest.mark.parametrize("opts", [[], ["-i"], ["-c"], ["-v"], ["-o"], ["-o", "-i"], ["-n", "-b"],
                                  ["-n"], ["-vn"], ["-cv"], ["-ci"], ["-H"], ["-in"],
                                  ["-m", "5000"], ["-vm", "5000"], ["-cz"], ["-z"], ["-l"]])
def test_a_plain_string_reads_a_file_larger_than_a_block_as_its_regex_does(
        tmp_path: Path, opts: list[str]) -> None:
    # READ_SIZE blocks: a line cut between two reads, and dense and sparse blocks
    lines = [b"x" * (k % 97) + (b"NeedLE" if k % 7 == 0 else b"needle" if k % 3 == 0
                                else b"hay") for k in range(40_000)]
    (tmp_path / "big").write_bytes(b"\n".join(lines) + b"\nneedle")
    k = Kernel(cwd=str(tmp_path), fs=LocalFileSystem(), limits=Limits(max_output_bytes=None))
    got = [k.execute_argv("grep", [*opts, "-e", p, "big"]) for p in ("needle", "\\(needle\\)")]
    assert [(r.code, r.out, r.err) for r in got][0] == [(r.code, r.out, r.err) for r in got][1]


_NEVER_FOR_A_PLAIN_STRING = ("re", "tysh.kernel.text.engine", "tysh.kernel.text.regex",
                             "threading", "warnings", "array", "math", "fnmatch")


@pytest.mark.parametrize("script", ["grep -r needle .", "grep -rin NEEDLE . ",
                                    "grep -c needle d/a.txt", "grep -F 'a.b' d/a.txt"])
def test_a_plain_string_grep_loads_no_regex_machinery(tree: Path, script: str,
                                                     tmp_path: Path) -> None:
    # json, which the probe reports with, imports re: it is imported after the count
    probe = ("import sys\nbefore = set(sys.modules)\nfrom tysh import Kernel\n"
             f"Kernel().execute({script!r})\n"
             "added = sorted(set(sys.modules) - before)\nimport json\nprint(json.dumps(added))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    # the second run counts: the first fills a cache of its own (the parser's compiled
    # patterns), as a user's first run does
    env["TYSH_CACHE_DIR"] = str(tmp_path / "cache")
    for _ in range(2):
        p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           cwd=tree, env=env, timeout=120)
        assert p.returncode == 0, p.stderr
    loaded = set(json.loads(p.stdout.strip().splitlines()[-1]))
    assert not loaded.intersection(_NEVER_FOR_A_PLAIN_STRING), sorted(
        loaded.intersection(_NEVER_FOR_A_PLAIN_STRING))


# -- what a walk on the host's filesystem (tysh -c's) reads --------------------------------

def test_a_walk_on_the_host_filesystem_reads_no_fifo_or_device_it_meets(
        tmp_path: Path) -> None:
    # a FIFO with no writer would hold a read, and /dev/zero never ends: -r passes over
    # the FIFO, -R the links to either, as GNU's `-D read` reads only named devices
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f.txt").write_bytes(b"needle\n")
    os.mkfifo(tmp_path / "d" / "ff")
    os.symlink("ff", tmp_path / "d" / "to-fifo")
    if os.path.exists("/dev/zero"):
        os.symlink("/dev/zero", tmp_path / "d" / "to-zero")
    k = Kernel(cwd=str(tmp_path), fs=LocalFileSystem(), limits=Limits(max_output_bytes=None))
    for flag in ("-r", "-R"):
        r = k.execute(f"grep {flag} needle d", timeout=10)
        assert (r.code, r.out, r.err) == (0, "d/f.txt:needle\n", ""), flag


@pytest.mark.parametrize("change", [b"needle grown\n", b"", b"need"])
def test_a_file_changed_as_a_walk_reads_it_greps_as_its_content_then(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: bytes) -> None:
    # the file grows or shrinks between the seek that gives its size and the read: the
    # walk prints what grep prints for the file as it is once changed
    (tmp_path / "d").mkdir()
    path = tmp_path / "d" / "f.txt"
    before = b"a needle\nhay\n"
    after = before + change if change.endswith(b"\n") else change
    real_lseek = os.lseek
    changed = []

    def lseek(fd: int, pos: int, how: int) -> int:
        got = real_lseek(fd, pos, how)
        if how == os.SEEK_END and not changed and os.path.samestat(os.fstat(fd),
                                                                   os.stat(path)):
            changed.append(True)
            path.write_bytes(after)
        return got

    k = Kernel(cwd=str(tmp_path), fs=LocalFileSystem(), limits=Limits(max_output_bytes=None))
    path.write_bytes(before)
    with monkeypatch.context() as m:
        m.setattr(os, "lseek", lseek)
        walked = k.execute("grep -rn needle d")
    assert changed
    named = k.execute("grep -Hn needle d/f.txt")
    assert (walked.code, walked.out, walked.err) == (named.code, named.out, named.err)
