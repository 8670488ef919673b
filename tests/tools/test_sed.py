"""sed through the binder, with real files in a temp folder and BytesIO streams; the
compiled script and the block fast paths against the interpreter; GNU sed's messages for
bad scripts; and last lines without a newline against GNU sed. The GNU-pinned outputs are
in tests/conformance/pins/tools/sed.cases."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import reference
from harness import FakeShell, invoke
from harness_text import same

from tysh.builtins.sed import compile as sed_compile
from tysh.builtins.sed.tool import sed as sed_tool
from tysh.kernel.base.argv import classify
from tysh.kernel.embed.kernel import Kernel


def run(tmp: Path, argv: list[str], stdin: bytes = b"", json_mode: bool = False
        ) -> tuple[int, str, str, Any]:
    r = invoke(sed_tool, "sed", classify(argv), FakeShell(str(tmp)), stdin, json=json_mode)
    data = r.output.to_json() if r.output else None
    return r.code, r.out.decode(), r.err.decode(), data


@pytest.fixture
def d(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_text("one\ntwo\nthree\nfour\nfive\n")
    (tmp_path / "b.txt").write_text("foo foo\nboo\n")
    (tmp_path / "nonl").write_bytes(b"x\ny")
    return tmp_path


def out(d: Path, *argv: str, stdin: bytes = b"") -> str:
    return run(d, list(argv), stdin)[1]


def test_substitute_first_global_and_nth(d: Path) -> None:
    assert out(d, "s/o/0/", "b.txt") == "f0o foo\nb0o\n"
    assert out(d, "s/o/0/g", "b.txt") == "f00 f00\nb00\n"
    assert out(d, "s/o/0/3", "b.txt") == "foo f0o\nboo\n"
    assert out(d, "s/o/0/2g", "b.txt") == "fo0 f00\nbo0\n"


def test_ampersand_escaped_ampersand_and_groups(d: Path) -> None:
    assert out(d, "s/o/\\&&/", "b.txt") == "f&oo foo\nb&oo\n"
    assert out(d, "s/\\(f\\)\\(o*\\)/\\2\\1/", "b.txt") == "oof foo\nboo\n"
    assert out(d, "-E", "s/(b)(o+)/[\\2\\1]/", "b.txt") == "foo foo\n[oob]\n"


def test_case_conversion_in_replacement(d: Path) -> None:
    assert out(d, "s/\\(f\\)\\(o*\\)/\\U\\1\\E\\2-\\u\\2/", "b.txt") == "Foo-Oo foo\nboo\n"


def test_empty_matches_follow_gnu_not_python(d: Path) -> None:
    assert out(d, "s/x*/-/g", stdin=b"abxd\n") == "-a-b-d-\n"


def test_addresses_lines_last_regex_ranges(d: Path) -> None:
    assert out(d, "-n", "2p", "a.txt") == "two\n"
    assert out(d, "$d", "a.txt") == "one\ntwo\nthree\nfour\n"
    assert out(d, "-n", "/^t/p", "a.txt") == "two\nthree\n"
    assert out(d, "2,4d", "a.txt") == "one\nfive\n"
    assert out(d, "-n", "/two/,/four/p", "a.txt") == "two\nthree\nfour\n"
    assert out(d, "/o/!d", "a.txt") == "one\ntwo\nfour\n"


def test_step_plus_tilde_and_zero_addresses(d: Path) -> None:
    assert out(d, "-n", "1~2p", "a.txt") == "one\nthree\nfive\n"
    assert out(d, "/two/,+1d", "a.txt") == "one\nfour\nfive\n"
    assert out(d, "/one/,~4d", "a.txt") == "five\n"
    assert out(d, "0,/o/s//X/", "a.txt") == "Xne\ntwo\nthree\nfour\nfive\n"
    assert out(d, "2,1d", "a.txt") == "one\nthree\nfour\nfive\n"


def test_append_insert_change_forms(d: Path) -> None:
    assert out(d, "1a after", "b.txt") == "foo foo\nafter\nboo\n"
    assert out(d, "2i\\\nbefore", "b.txt") == "foo foo\nbefore\nboo\n"
    assert out(d, "2,3c\\\nX", "a.txt") == "one\nX\nfour\nfive\n"
    assert out(d, "$a end", "b.txt") == "foo foo\nboo\nend\n"


def test_blocks_quit_and_line_numbers(d: Path) -> None:
    assert out(d, "-n", "/three/{p;q}", "a.txt") == "three\n"
    assert out(d, "2q", "a.txt") == "one\ntwo\n"
    assert out(d, "-n", "$=", "a.txt") == "5\n"


def test_quit_exit_code(d: Path) -> None:
    assert run(d, ["3q5", "a.txt"])[:2] == (5, "one\ntwo\nthree\n")


def test_hold_space_and_multiline_commands(d: Path) -> None:
    assert out(d, "1!G;h;$!d", "a.txt") == "five\nfour\nthree\ntwo\none\n"
    assert out(d, ":a;N;$!ba;s/\\n/,/g", "a.txt") == "one,two,three,four,five\n"
    assert out(d, "$!N;s/\\n/-/", "a.txt") == "one-two\nthree-four\nfive\n"
    assert out(d, "N;P;D", "a.txt") == "one\ntwo\nthree\nfour\nfive\n"


def test_branch_on_substitution(d: Path) -> None:
    assert out(d, "s/o/X/;T;s/$/!/", "a.txt") == "Xne!\ntwX!\nthree\nfXur!\nfive\n"


def test_transliterate_and_unicode(tmp_path: Path) -> None:
    (tmp_path / "u").write_text("café über\n")
    assert out(tmp_path, "s/é/e/; y/ü/u/", "u") == "cafe uber\n"
    assert out(tmp_path, "s/caf./X/", "u") == "X über\n"


def test_unterminated_last_line_stays_unterminated(d: Path) -> None:
    assert out(d, "s/y/Y/", "nonl") == "x\nY"
    assert out(d, "p", "nonl") == "x\nx\ny\ny"
    assert out(d, "s/y/Y/", "nonl", "b.txt") == "x\nY\nfoo foo\nboo\n"


def test_files_form_one_stream_unless_separate(d: Path) -> None:
    assert out(d, "1d", "b.txt", "a.txt") == "boo\none\ntwo\nthree\nfour\nfive\n"
    assert out(d, "-s", "1d", "b.txt", "a.txt") == "boo\ntwo\nthree\nfour\nfive\n"


def test_in_place_edit(d: Path) -> None:
    assert run(d, ["-i", "s/foo/bar/", "b.txt"])[:2] == (0, "")
    assert (d / "b.txt").read_text() == "bar foo\nboo\n"


def test_missing_file_exit_2_and_continue(d: Path) -> None:
    code, o, err, _ = run(d, ["s/o/0/", "nosuch", "b.txt"])
    assert (code, o) == (2, "f0o foo\nb0o\n")
    assert "sed: can't read nosuch: No such file or directory" in err


@pytest.mark.parametrize(
    ("script", "message", "status"),
    [
        ("k", "sed: -e expression #1, char 1: unknown command: `k'", 1),
        ("s/a/b", "sed: -e expression #1, char 5: unterminated `s' command", 1),
        ("s/a/b/q", "sed: -e expression #1, char 7: unknown option to `s'", 1),
        ("p;}", "sed: -e expression #1, char 3: unexpected `}'", 1),
        ("{p", "sed: -e expression #1, char 0: unmatched `{'", 1),
        ("y/abc/de/", "sed: -e expression #1, char 9: strings for `y' command are different lengths", 1),
        ("s/\\(a\\)/\\2/", "sed: -e expression #1, char 11: invalid reference \\2 on `s' command's RHS", 1),
        ("1,2q", "sed: -e expression #1, char 4: command only uses one address", 1),
        ("bfoo", "sed: can't find label for jump to `foo'", 4),
        ("s/\\(a/x/", "Unmatched ( or \\(", 1),
    ],
)
def test_script_errors_use_gnu_wording(d: Path, script: str, message: str, status: int) -> None:
    code, o, err, _ = run(d, [script, "a.txt"])
    assert code == status and o == ""
    assert message in err


def test_second_expression_error_is_numbered(d: Path) -> None:
    err = run(d, ["-e", "p", "-e", "k", "a.txt"])[2]
    assert "sed: -e expression #2, char 1: unknown command: `k'" in err


def test_write_to_stdout_and_l_command(d: Path) -> None:
    assert out(d, "-n", "/w/w /dev/stdout", "a.txt") == "two\n"
    assert out(d, "-n", "l", stdin="é\t\n".encode()) == "\\303\\251\\t$\n"


def test_json_gives_output_lines(d: Path) -> None:
    assert run(d, ["-n", "2,3p", "a.txt"], json_mode=True)[3] == ["two", "three"]


def test_schema_declares_overwrite() -> None:
    assert sed_tool.schema.operations == ("fs.overwrite",)


# -- the compiled script and the block fast paths equal the interpreter -----------------

TRICKY = {
    "e.txt": b"one\n\nfoo two\nthree\n\nfour foo\nfive",  # empty lines, no final newline
    "u.txt": b"\xff\xfeo\nfoo \xc3\xa9\x80\n\nend\n",  # bytes that are not UTF-8
    "n.txt": b"x foo\ny\n",
}

SHAPES = [
    ["-n", "2,4p"], ["-n", "3p"], ["-n", "4,2p"], ["-n", "5,100p"], ["-n", "9,10p"],
    ["/foo/d"], ["/foo/!d"], ["-n", "/foo/p"], ["-n", "/foo/!p"], ["-n", "/o/,/nomatch/p"],
    ["-n", "/foo/,/^$/p"], ["s/o/0/;s/e/E/"], ["s/o/\\n/;s/x/y/"], ["s/o/0/;s/^/>/"],
    ["1d;$d"], ["-n", "$p"], ["-n", "$p;$="], ["$!d"], ["/foo/s/o/0/g"], ["/foo/!s/o/0/"],
    ["/o/y/oe/eo/"], ["y/oe/eo/"], ["y/o/\\n/;s/^/>/"], ["2i\\text"], ["="], ["$a\\tail"],
    ["2a\\x", "-e", "2d"], ["2,3c\\chg"], ["$c\\end"], ["0,/foo/d"], ["1~2d"], ["2,+1d"],
    ["2,~4d"], ["3q"], ["3Q5"], ["$q7"], ["/foo/{s/o/O/;p}"], ["-n", "/foo/{=;p}"], ["l"],
    ["s/\\(o\\)/\\U\\1/g"], ["s/x*/-/g"], ["s/o/0/2"], ["s/o/0/p"], ["/two/,$d"], ["F"],
    ["-E", "s/(o+)/[\\1]/g;/^$/d"], ["-n", "/o/,3p"], ["2!{s/o/0/;y/f/F/}"], ["z;="],
    ["/^$/d"], ["-n", "/^/p"], ["-n", "/$/!p"], ["/\\bfoo\\>/d"], ["/O/Id"],
    ["-n", "/^\\(foo\\|x\\)/p"], ["-n", "/e$/p"], ["-n", "2{p;=}"], ["1{/foo/d}"], ["3{/x/,/y/d}"],
    ["2p;3p;2d"], ["-n", "$!p"],
]


def _both(d: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple[Any, Any]:
    """(compiled, interpreted) runs of argv, each on fresh copies of the tricky files,
    reading a few bytes at a time so batches end mid-stream; the files afterwards too."""
    import tysh.builtins.sed.compile as comp
    import tysh.builtins.sed.streams as streams
    import tysh.builtins.sed.tool as sed_mod

    monkeypatch.setattr(streams, "READ_SIZE", 5)
    results = []
    for general in (False, True):
        for name, data in TRICKY.items():
            (d / name).write_bytes(data)
        with monkeypatch.context() as m:
            if general:
                m.setattr(comp, "ENABLED", False)
                m.setattr(sed_mod, "block_function", lambda *a, **k: None)
            r = invoke(sed_tool, "sed", classify(argv), FakeShell(str(d)), b"a foo\nb\n\n")
        files = {n: (d / n).read_bytes() for n in TRICKY}
        results.append((r.code, r.out, r.err, files))
    return results[0], results[1]


@pytest.mark.parametrize("shape", SHAPES, ids=" ".join)
@pytest.mark.parametrize("files", [[], ["e.txt"], ["u.txt", "e.txt", "n.txt"]],
                         ids=["stdin", "one", "several"])
def test_compiled_script_equals_interpreter(d: Path, monkeypatch: pytest.MonkeyPatch,
                                            shape: list[str], files: list[str]) -> None:
    fast, general = _both(d, monkeypatch, [*shape, *files])
    assert fast == general


@pytest.mark.parametrize("shape", SHAPES, ids=" ".join)
@pytest.mark.parametrize("mode", ["-s", "-i"])
def test_compiled_script_equals_interpreter_per_file(d: Path, monkeypatch: pytest.MonkeyPatch,
                                                     shape: list[str], mode: str) -> None:
    fast, general = _both(d, monkeypatch, [mode, *shape, "e.txt", "u.txt", "n.txt"])
    assert fast == general


def test_compiled_script_is_used_for_common_shapes() -> None:
    from tysh.builtins.sed.compile import compile_script
    from tysh.builtins.sed.parse import Parser
    from tysh.builtins.sed.tool import SedArgs

    for script in ("1d;$d", "/x/s/a/b/g", "-n", "2i\\t", "y/a/b/;="):
        cmds = Parser(script if script != "-n" else "p", [(0, "-e")], False).parse()
        assert compile_script(cmds, False, "\n", 70) is not None, script
    branchy = Parser(":a;N;ba", [(0, "-e")], False).parse()
    assert compile_script(branchy, False, "\n", 70) is None
    assert SedArgs is not None


# -- GNU sed's messages for scripts and files it refuses --------------------------------
# Each asserts tysh's literal output, status and a piece of its stderr, and the same of
# GNU sed when the host has it.


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_bytes(b"apple pie\nBanana\nabc abc\napple\n")
    (tmp_path / "b.txt").write_bytes(b"one\ntwo\nthree\nfour\nfive\n")
    (tmp_path / "w.txt").write_bytes(b"foobar foo\n")
    return tmp_path


def check(tmp: Path, argv: list[str], out: bytes, code: int = 0, err: str | None = None) -> None:
    same(tmp, argv, b"", out, code, err_has=err, gnu_only=True)


def test_sed_unclosed_bracket_is_an_unterminated_command(samples: Path) -> None:
    check(samples, ["sed", "-n", "/[/p", "a.txt"], b"", 1, "char 4: unterminated address regex")
    check(samples, ["sed", "s/a[/x/", "a.txt"], b"", 1, "char 7: unterminated `s' command")


def test_sed_class_syntax_error_has_no_position_and_status_4(samples: Path) -> None:
    check(samples, ["sed", "s/[:alpha:]/x/", "a.txt"], b"", 4,
          "sed: character class syntax is [[:space:]], not [:space:]")


def test_sed_ere_repetition_at_start_is_an_error(samples: Path) -> None:
    check(samples, ["sed", "-E", "s/*a/X/", "a.txt"], b"", 1, "Invalid preceding regular expression")
    check(samples, ["sed", "s/\\{1\\}a/X/", "a.txt"], b"", 1, "Invalid preceding regular expression")


def test_sed_s_flags_blanks_and_duplicates(samples: Path) -> None:
    check(samples, ["sed", "s/o/0/ g", "w.txt"], b"f00bar f00\n")
    check(samples, ["sed", "s/o/0/gg", "w.txt"], b"", 1, "char 8: multiple `g' options to `s' command")
    check(samples, ["sed", "s/o/0/pp", "w.txt"], b"", 1, "char 8: multiple `p' options to `s' command")
    check(samples, ["sed", "s/o/0/2 3", "w.txt"], b"", 1, "multiple number options to `s' command")
    check(samples, ["sed", "s/o/0/w", "w.txt"], b"", 1, "char 7: missing filename in r/R/w/W commands")


def test_sed_fatal_file_errors_exit_4(samples: Path) -> None:
    (samples / "sub").mkdir()
    check(samples, ["sed", "-f", "nosuch", "b.txt"], b"", 4, "couldn't open file nosuch")
    check(samples, ["sed", "-i", "1d"], b"", 4, "no input files")
    check(samples, ["sed", "-i", "1d", "sub"], b"", 4, "couldn't edit sub: not a regular file")
    check(samples, ["sed", "-n", "1p", "w.txt", "sub", "b.txt"], b"foobar foo\n", 4,
          "read error on sub: Is a directory")


def test_sed_brace_errors_follow_glibc(samples: Path) -> None:
    check(samples, ["sed", "-E", "s/{/X/", "b.txt"], b"", 1, "Invalid preceding regular expression")
    check(samples, ["sed", "-E", "s/a{/X/", "b.txt"], b"", 1, "Unmatched \\{")
    check(samples, ["sed", "-E", "s/a{1,x}/X/", "b.txt"], b"", 1, "Invalid content of \\{\\}")
    check(samples, ["sed", "s/\\{/X/", "b.txt"], b"", 1, "Invalid preceding regular expression")


# -- last lines without a newline, against GNU sed ---------------------------------------
# GNU keeps a per-output "missing newline" flag: a line read without its newline is output
# without one, and the newline is written before any further output to that stream (`q`
# writes it at once). Each case runs through GNU sed and through a Kernel, compiled and
# interpreted, on inputs with and without a final newline, and compares stdout bytes, the
# files left behind (-i, `w`) and the exit status.

NEWLINE_FILES = {
    "nf": b"a\nb",  # no final newline
    "wf": b"c\nd\n",
    "nf2": b"x\ny",
    "one": b"z",
    "empty": b"",
}

# (argv, stdin); `w` writes to `out`, whose content is compared too
NEWLINE_CASES: list[tuple[list[str], bytes]] = [
    (["p"], b"a\nb"),
    (["p"], b"a\nb\n"),
    (["-n", "p"], b"a\nb"),
    (["-n", "p", "nf", "nf2"], b""),
    (["-s", "p", "nf", "nf2"], b""),
    (["-s", "-n", "$p", "nf", "wf"], b""),
    (["P"], b"a\nb"),
    (["-n", "P;p"], b"z"),
    (["="], b"a\nb"),
    (["=", "nf", "wf"], b""),
    (["-s", "=", "nf", "nf2"], b""),
    (["l"], b"a\nb"),
    (["-n", "$l"], b"a\nb"),
    (["$a\\tail"], b"five"),
    (["$a\\tail"], b"five\n"),
    (["a\\X", "nf", "nf2"], b""),
    (["-s", "$a\\T", "nf", "nf2"], b""),
    (["$i\\X"], b"a\nb"),
    (["i\\X", "one", "nf"], b""),
    (["$c\\Z"], b"a\nb"),
    (["c\\Z", "nf", "nf2"], b""),
    (["$r wf"], b"a\nb"),
    (["r nf", "wf"], b""),
    (["$r empty", "nf", "nf2"], b""),
    (["r missing", "nf", "nf2"], b""),
    (["-n", "$r empty"], b"a\nb"),
    (["w out", "nf", "nf2"], b""),
    (["-s", "-n", "$w out", "nf", "nf2"], b""),
    (["-n", "$w out"], b"a\nb"),
    (["-n", "$w /dev/stdout"], b"a\nb"),
    (["q"], b"z"),
    (["$q7"], b"a\nb"),
    (["$q7"], b"a\nb\n"),
    (["-n", "p;q"], b"z"),
    (["p;Q"], b"z"),
    (["$Q3"], b"a\nb"),
    (["-s", "1q", "nf", "wf"], b""),
    (["-s", "$q", "nf", "wf"], b""),
    (["-s", "$q", "wf", "nf"], b""),
    (["-s", "$!d;q3", "nf", "wf"], b""),
    (["3q", "nf", "nf2"], b""),
    (["d"], b"a\nb"),
    (["$!d", "nf", "nf2"], b""),
    (["N;P;D"], b"a\nb"),
    (["$!N;P"], b"a\nb"),
    (["N"], b"z"),
    (["N", "nf", "one"], b""),
    (["-s", "n;d", "one", "nf"], b""),
    (["n;d"], b"z"),
    (["G"], b"a\nb"),
    (["$!h;$G"], b"a\nb"),
    (["H;x"], b"a\nb"),
    (["$!H;$x"], b"a\nb"),
    (["x"], b"a\nb"),
    (["x;p;x", "nf", "nf2"], b""),
    (["1h;$g"], b"a\nb"),
    (["y/b/B/"], b"a\nb"),
    (["s/b/B/"], b"a\nb"),
    (["-s", "s/b/B/", "nf", "nf2"], b""),
    (["-n", "s/b/B/p"], b"a\nb"),
    (["s/b/B/p", "nf", "nf2"], b""),
    (["-n", "s/b//;p;p"], b"a\nb"),
    (["$!d;=", "nf", "nf2"], b""),
    (["-n", "/b/p"], b"a\nb"),
    (["/a/d", "nf", "nf2"], b""),
    (["-n", "1,2p"], b"a\nb"),
    (["-n", "2p", "nf", "nf2"], b""),
    (["$!{p;d};{p;p}"], b"a\nb"),
    (["-n", "/b/{p;=;l}", "nf", "nf2"], b""),
    (["-z", "p"], b"a\0b"),
    (["-i", "p", "nf", "nf2"], b""),
    (["-i", "$a\\T", "nf", "wf"], b""),
    (["-i", "1q", "nf", "nf2"], b""),
    (["-i", "$q5", "nf", "nf2"], b""),
]

# `R` reads on through its file, line by line (each line as read), across the inputs of a
# run, and from the start again per file under -s / -i
NEWLINE_CASES += [
    (["R wf"], b"1\n2\n3\n"),
    (["R nf"], b"1\n2\n3\n"),
    (["R missing"], b"1\n2\n"),
    (["R wf", "nf2", "one"], b""),
    (["-s", "R wf", "nf2", "one"], b""),
    (["-i", "R nf", "wf", "nf2"], b""),
]

# ranges whose first address is a line number start even when that line went by unseen
# (`d` ended its cycle, `N`/`n` read it), unless their own absolute end has gone by too;
# past a relative end (`,+N`) the closing line is still taken. `P` of a line read without
# its newline writes none. (Found by a random differential against GNU sed.)
_SEQ = b"".join(b"%d\n" % i for i in range(1, 9))
NEWLINE_CASES += [
    (["2d;2,3s/$/X/"], _SEQ),
    (["2,3d;2,3s/$/X/"], _SEQ),
    (["2,3d;2,+1s/$/X/"], _SEQ),
    (["2,3d;2,/5/s/$/X/"], _SEQ),
    (["-n", "2,+1{N;N;=}"], _SEQ),
    (["-n", "2,3{N;N;=}"], _SEQ),
    (["2,3N;5,6d"], _SEQ),
    (["1N;1,/b/s/b/Y/p"], b" 1b c\n\n"),
    (["-n", "$P"], b"a\nb"),
]


def _tree(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(root.iterdir()) if p.is_file()}


def _setup(root: Path) -> None:
    root.mkdir()
    for name, data in NEWLINE_FILES.items():
        (root / name).write_bytes(data)


def _gnu(root: Path, argv: list[str], stdin: bytes) -> tuple[int, bytes, dict[str, bytes]]:
    r = reference.run_tool(["sed", *argv], root, stdin, gnu_only=True, timeout=20)
    assert r is not None
    return r.code, r.out, _tree(root)


def _tysh(root: Path, argv: list[str], stdin: bytes) -> tuple[int, bytes, dict[str, bytes]]:
    r = Kernel(cwd=str(root)).execute_argv("sed", argv, stdin, binary=True)
    out = r.out if isinstance(r.out, bytes) else r.out.encode()
    return r.code, out, _tree(root)


@pytest.fixture(params=[True, False], ids=["compiled", "interpreted"])
def compiled(request: pytest.FixtureRequest) -> Iterator[bool]:
    saved = sed_compile.ENABLED
    sed_compile.ENABLED = request.param
    try:
        yield request.param
    finally:
        sed_compile.ENABLED = saved


@pytest.mark.skipif(reference.have("sed", gnu_only=True) is None, reason="no GNU sed")
@pytest.mark.parametrize(("argv", "stdin"), NEWLINE_CASES, ids=[" ".join(a) for a, _ in NEWLINE_CASES])
def test_output_newlines_match_gnu_sed(tmp_path: Path, compiled: bool, argv: list[str],
                                       stdin: bytes) -> None:
    _setup(tmp_path / "gnu")
    _setup(tmp_path / "tysh")
    want = _gnu(tmp_path / "gnu", argv, stdin)
    got = _tysh(tmp_path / "tysh", argv, stdin)
    assert got == want


def test_newline_case_list_covers_the_brief() -> None:
    assert len(NEWLINE_CASES) >= 60
