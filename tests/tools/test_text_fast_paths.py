"""The text tools' short paths for the commonest calls give what their general paths give:
plain `cat` copies as `iter_inputs` with `chunks` would, `lines_json` lends its copying
stream to the command's own Context and gives it back, a kept value reads the same."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness import FakeShell
from harness_text import run, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysh.builtins._common.lines import Kept, chunks, kept_value, lines_json
from tysh.builtins._common.operands import InputStatus, copy_inputs, iter_inputs
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Outcome

_OPERANDS = ["a", "empty", "missing", "dir", "-", "/dev/stdin", "/dev/fd/0", "a/"]


def _ctx(cwd: Path, stdin: bytes) -> Context:
    return Context("cat", io.BytesIO(stdin), io.BytesIO(), io.BytesIO(), LocalFileSystem(),
                   FakeShell(str(cwd)))


def _by_iter_inputs(ctx: Context, files: tuple[str, ...]) -> int:
    status = InputStatus()
    for _name, f in iter_inputs(ctx, files, status):
        for chunk in chunks(f):
            ctx.stdout.write(chunk)
    return 1 if status.failed else 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(_OPERANDS), max_size=4), st.binary(max_size=20))
def test_copy_inputs_writes_reports_and_fails_as_iter_inputs_with_chunks(
        tmp_path: Path, files: list[str], stdin: bytes) -> None:
    write(tmp_path, "a", b"A\nb\xff")
    write(tmp_path, "empty", b"")
    (tmp_path / "dir").mkdir(exist_ok=True)
    fast, slow = _ctx(tmp_path, stdin), _ctx(tmp_path, stdin)
    got = copy_inputs(fast, tuple(files), fast.stdout)
    want = _by_iter_inputs(slow, tuple(files))
    assert got == want
    for ctx_a, ctx_b in ((fast, slow),):
        assert ctx_a.stdout.getvalue() == ctx_b.stdout.getvalue()  # type: ignore[attr-defined]
        assert ctx_a.stderr.getvalue() == ctx_b.stderr.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize("opts", [["-u"], []])
def test_cat_without_byte_changing_options_copies_files_and_stdin_in_order(
        tmp_path: Path, opts: list[str]) -> None:
    write(tmp_path, "a", b"A\x00\xff")
    r = run(["cat", *opts, "a", "-", "nope", "a"], tmp_path, stdin="S")
    assert (r.code, r.out) == (1, b"A\x00\xffSA\x00\xff")
    assert r.err == "cat: nope: No such file or directory\n"


def test_the_text_tools_values_are_the_lines_they_wrote(tmp_path: Path) -> None:
    from tysh.kernel.embed.kernel import Kernel

    write(tmp_path, "in.txt", "pear\napple\n")
    k = Kernel(cwd=str(tmp_path))
    for src, lines in [("cat in.txt", ["pear", "apple"]), ("cat <<< hi", ["hi"]),
                       ("sort in.txt", ["apple", "pear"]), ("tr a-z A-Z < in.txt", ["PEAR", "APPLE"]),
                       ("uniq in.txt", ["pear", "apple"]), ("head -n 1 in.txt", ["pear"]),
                       ("cat in.txt | sort | uniq | tr a-z A-Z | head -n 1", ["APPLE"])]:
        for _ in range(2):  # first and later runs alike
            r = k.execute(src)
            assert (r.code, r.data) == (0, lines), src


def _body(args: list[str], ctx: Context) -> int:
    args.append(type(ctx.stdout).__name__)
    ctx.stdout.write(b"x\ny\n")
    return 3


def test_lines_json_lends_the_copying_stream_and_gives_the_context_back(
        tmp_path: Path) -> None:
    ctx = _ctx(tmp_path, b"")
    out = ctx.stdout
    seen: list[str] = []
    ret = lines_json(ctx, _body, seen)
    assert seen == ["Kept"] and ctx.stdout is out
    assert isinstance(ret, Outcome) and ret.code == 3 and ret.output is not None
    assert out.getvalue() == b"x\ny\n"  # type: ignore[attr-defined]
    assert ret.output.to_json() == ["x", "y"]


def test_lines_json_gives_the_context_back_when_the_body_raises(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path, b"")
    out = ctx.stdout

    def boom(args: None, c: Context) -> int:
        raise BrokenPipeError

    with pytest.raises(BrokenPipeError):
        lines_json(ctx, boom, None)
    assert ctx.stdout is out


def test_lines_json_without_a_readable_value_writes_straight_through(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path, b"")
    ctx.keeps_value = False
    seen: list[str] = []
    assert lines_json(ctx, _body, seen) == 3
    assert seen == ["BytesIO"]


def test_a_kept_value_is_the_lines_or_the_shape_of_the_text_and_none_past_the_cap() -> None:
    kept = Kept(io.BytesIO())
    kept.write(b"a\nb")
    assert kept_value(kept).to_json() == ["a", "b"]
    assert kept_value(kept, str.upper).to_json() == "A\nB"
    big = Kept(io.BytesIO())
    big.write(b"x" * (1 << 21))
    assert kept_value(big).to_json() is None


_COUNT = st.one_of(
    st.text(alphabet="0123456789", min_size=1, max_size=6),
    st.text(alphabet="0123456789٣۴߅²KkMmGbiB x-", max_size=6),
)


@given(_COUNT)
def test_a_count_of_digits_alone_reads_as_the_suffix_grammar_reads_it(text: str) -> None:
    from tysh.builtins._common import lines

    m = lines._COUNT_RE.fullmatch(text)
    if m is None:
        assert lines.parse_count(text) is None
    elif not m.group(2) and not m.group(3):
        assert lines.parse_count(text) == int(m.group(1))


def test_head_reports_a_bad_count_every_time_and_reads_a_good_one_alike(tmp_path: Path) -> None:
    write(tmp_path, "a", "1\n2\n3\n")
    for _ in range(3):
        r = run(["head", "-n", "x2", "a"], tmp_path)
        assert (r.code, r.err) == (1, "head: invalid number of lines: 'x2'\n")
        assert run(["head", "-n", "2", "a"], tmp_path).out == b"1\n2\n"
        assert run(["head", "-c", "2", "a"], tmp_path).out == b"1\n"
        assert run(["head", "-n", "-2", "a"], tmp_path).out == b"1\n"


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, Path]:
    from tysh.kernel.embed.kernel import Kernel

    d = tmp_path_factory.mktemp("onefile")
    (d / "empty").write_bytes(b"")
    return Kernel(cwd=str(d)), d


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=30).map(lambda b: b.replace(b"\r", b"")),
       st.sampled_from(["-n 2", "-n -1", "-c 3", "-c -2", "-n 0", "", "-z -n 1"]),
       st.booleans())
def test_head_of_one_operand_writes_and_values_as_with_a_second_empty_one(
        kernel_dir: tuple[object, Path], data: bytes, opts: str, missing: bool) -> None:
    # one operand takes the short path; `-q` with a second, empty operand the general
    # per-file one: the same text, status, errors and value
    k, d = kernel_dir
    (d / "in").write_bytes(data)
    name = "nope" if missing else "in"
    one = k.execute(f"head {opts} {name}")  # type: ignore[attr-defined]
    two = k.execute(f"head -q {opts} {name} empty")  # type: ignore[attr-defined]
    assert (one.code, one.out, one.err, one.data) == (two.code, two.out, two.err, two.data)
    piped = k.execute(f"head {opts} {name} | cat")  # type: ignore[attr-defined]
    assert (piped.out, piped.err) == (one.out, one.err)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"b", b"", b"A", b"a\0"]), max_size=12),
       st.booleans(), st.sampled_from([1, 2, 3, 1 << 18]), st.booleans())
def test_uniq_without_options_writes_what_the_run_counting_path_writes(
        lines: list[bytes], terminated: bool, size: int, zero: bool) -> None:
    # reads of `size` bytes split lines across chunks as a pipe would
    from tysh.builtins.text import uniq as u

    sep = b"\0" if zero else b"\n"
    data = sep.join(lines) + (sep if terminated and lines else b"")
    args = u.UniqArgs(zero_terminated=zero)
    assert u._plain(args)
    plain, general = io.BytesIO(), io.BytesIO()
    u._uniq_plain(_Trickle(data, size), plain, sep, None)
    u._uniq_stream(args, _Trickle(data, size), general, None, None)
    assert plain.getvalue() == general.getvalue()


class _Trickle:
    """A stream that gives at most `size` bytes a read, as a pipe may."""

    def __init__(self, data: bytes, size: int) -> None:
        self._src = io.BytesIO(data)
        self._size = size

    def read1(self, n: int = -1) -> bytes:
        return self._src.read(min(n, self._size) if n >= 0 else self._size)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["b", "a", "", "A", "a b", "é"]), max_size=9),
       st.sampled_from([[], ["-r"], ["-z"], ["-u"], ["-s"]]))
def test_sort_of_one_step_writes_what_the_stepped_sort_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: list[str],
        opts: list[str]) -> None:
    from tysh.builtins.text import sort as sort_mod

    sep = "\0" if "-z" in opts else "\n"
    data = "".join(line + sep for line in lines)
    short = run(["sort", *opts], tmp_path, stdin=data)
    with monkeypatch.context() as m:
        m.setattr(sort_mod, "STEP", 2)  # every input of three lines or more: in steps
        stepped = run(["sort", *opts], tmp_path, stdin=data)
    assert (short.code, short.out, short.err) == (stepped.code, stepped.out, stepped.err)
