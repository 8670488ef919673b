"""Planned commands with redirections that open nothing, and planned writers (`echo`):
`fixed_redirects` builds the table `apply_redirects` builds, and a planned statement
(run/plan.py) gives what the general path gives — output, messages, status, `$_`,
typed value — at the top level, in a loop and in a function body."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from tysh import Kernel
from tysh.kernel.base.streams import NULL_IO
from tysh.kernel.run import plan as plan_mod
from tysh.kernel.run.redirects import RedirectError, apply_redirects, fixed_redirects
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.parser import parse

SCRIPTS = [
    # writers: plain words, expansions, empty expansions, options handed to the binder
    'f() { echo $1 "$2" x$3 $4; }; f a "b  c" ""; f; echo "$? $_"',
    'f() { echo $1; }; f -n; f -e; f -E; f --; f -; f -x; f "-n a"; echo "[$_]"',
    'f() { echo "$1" "$2"; }; f -n "a\\tb"; f a -n; echo "$?"',
    'a=(1 2); declare -A m=([k]=v); f() { echo $a "$a" $m; }; f',
    'set -u; f() { echo $1 $nope; echo no; }; f a; echo "top $?"',
    'f() { echo $1; }; for i in 1 2 3; do f $i; done | tail -n 1; echo "${PIPESTATUS[*]}"',
    'f() { printf "%s:%s\\n" "$1" $2; printf -v v "%s" $1; echo "$v"; }; f a b; f -n; f "" x',
    'f() { cat $1; cat "$1" 2>&1; wc -l $1 >/dev/null; echo "s $?"; }; printf "x\\n" > in; '
    'f in; f nope; f',
    'f() { set -- $1 b; echo "$# $*"; shift $1; echo "$*"; }; f 1; f 0',
    'f() { cd $1 && pwd; cd - >/dev/null; }; mkdir -p d; f d; f nope; echo "$?"',
    'exec 3>&1; f() { exec $1 >/dev/null; echo "s $?"; }; f; f ""; echo after >&3',
    'f() { read -r $1 <<<"v"; echo "${x-unset}"; }; f x',
    'f() { local $1; x=in; echo "$x"; }; x=out; f x; echo "$x"',
    'f() { declare -p $1 2>&1; export $1; }; y=1; f y; env | grep "^y="',
    'f() { type $1; command -v $1 >/dev/null; echo "s $?"; }; f echo; f nope 2>&1',
    'f() { seq $1 | wc -l; head -c $1 /dev/null; }; f 3; f x 2>&1',
    'mkdir -p d; : > in; ln -sf in ln; f() { [ -f "$1" ] && echo "f:$1"; [ -d "$1" ] || '
    'echo "nd:$1"; test -e $1; echo "e=$?"; [ -L "$1" ] 2>/dev/null; echo "l=$?"; '
    '[ -f $1 ] >&2; [ -q $1 ] 2>&1; }; for a in in d ln nope ""; do f "$a"; done',
    'x=$(f() { echo $1 >/dev/null; echo "in $?"; }; f a); echo "[$x]"',
    'echo() { builtin echo "fn $*"; }; g() { echo $1 >/dev/null; echo $1 >&2; }; g a 2>&1',
    'enable -n echo; f() { echo $1; }; f a; echo "$?"',
    # redirections that open nothing: /dev/null, copies, moves, closes
    'f() { echo $1 >/dev/null; echo "e$1" >&2; }; f a 2>&1; f b 2>/dev/null; echo "$? $_"',
    'f() { echo $1 2>&1 >/dev/null; echo $1 >/dev/null 2>&1; echo $1 &>/dev/null; }; f a',
    'f() { echo $1 >&/dev/null; echo $1 &>>/dev/null; echo $1 >>/dev/null; echo $1 >|/dev/null; '
    '}; f a; echo "$?"',
    'set -C; f() { echo $1 >/dev/null; echo "ok $?"; }; f a',
    'f() { echo $1 >&3; echo "s $?"; }; f a; exec 3>&1; f b; echo "[$_]"',
    'exec 3>&1; f() { echo $1 >&3-; echo $1 >&3; echo "s $?"; }; f a',
    'f() { echo $1 >&-; echo "s $?"; }; f a',
    'f() { echo $1 1>&2 2>&1; }; f a 2>/dev/null; echo "$?"',
    'f() { echo $1 <&-; echo $1 0<&-; echo $1 </dev/null; }; f a',
    'f() { echo $1 >&4; }; f a 4>&1; { f b; } 4>&2 2>&1',
    'f() { : >/dev/null; echo "a $?"; true 2>&1; false >&2; echo "b $?"; }; f',
    'f() { [ -f nope ] 2>/dev/null; echo "a $?"; [ x = x ] >&-; echo "b $?"; '
    '[ $1 -lt 2 ] 2>&1; echo "c $?"; }; f 1; f x',
    'g() { echo "g:$1"; }; f() { g $1 >/dev/null; g $1 >&2; g x >&3; echo "s $?"; }; f a 2>&1',
    'g() { echo "g:$1" >&2; }; f() { g $1 2>&1 >/dev/null; }; f a',
    'f() { echo $1 >/dev/stdout; echo $1 >/dev/stderr; echo $1 >/dev/fd/1; }; f a 2>&1',
    'f() { echo $1 > out.txt; echo $1 >>out.txt; cat out.txt; }; f a',
    # hooks: tracing, traps, set -e, events
    'set -x; f() { echo $1 >/dev/null; echo $1 >&2; }; f a 2>&1',
    "trap 'echo debug' DEBUG; f() { echo $1 >/dev/null; }; f a",
    "trap 'echo err $?' ERR; f() { [ $1 = b ] 2>/dev/null; }; f a; echo \"$?\"",
    'set -e; f() { false >/dev/null; echo no; }; f; echo unreached',
    'set -e; f() { [ $1 = b ] 2>&1; echo "in"; }; f b; f a; echo unreached',
]


def _run(tmp_path: Path, src: str, **kw: Any) -> tuple[int, str, str, Any]:
    r = Kernel(cwd=str(tmp_path), **kw).execute(src)
    return r.code, r.out, r.err, r.data


@pytest.fixture
def unplanned(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run with no statement planned: every command takes the general path."""

    def general() -> None:
        monkeypatch.setattr(plan_mod, "_step", lambda st, last_of_body=False: None)
        plan_mod._PLANS.clear()
        plan_mod._BODIES.clear()

    yield general
    plan_mod._PLANS.clear()
    plan_mod._BODIES.clear()


@pytest.mark.parametrize("src", SCRIPTS)
@pytest.mark.parametrize("where", ["top", "loop"])
def test_planned_writers_and_redirections_agree_with_the_general_path(
        tmp_path: Path, unplanned: Any, src: str, where: str) -> None:
    if where == "loop":
        src = f"for _ in 1 2; do\n{src}\ndone"
    planned = _run(tmp_path, src)
    for f in tmp_path.iterdir():
        if f.is_dir():
            shutil.rmtree(f)
        else:
            f.unlink()
    unplanned()
    assert planned == _run(tmp_path, src)


def test_a_planned_writer_is_the_echo_that_runs(tmp_path: Path) -> None:
    """The loop's `echo` takes the planned writer: no binding, no Context."""
    k = Kernel(cwd=str(tmp_path))
    r = k.execute('f() { echo "$1" >&2; echo $1 >/dev/null; echo $1; }; '
                  'i=0; while [ $i -lt 3 ]; do f $i; i=$((i+1)); done 2>&1')
    assert (r.code, r.out, r.err) == (0, "0\n0\n1\n1\n2\n2\n", "")


def _redirects(src: str) -> tuple[ast.Redirect, ...]:
    cmd = parse(src).statements[0].body.first.commands[0]
    assert isinstance(cmd, ast.SimpleCommand)
    return cmd.redirects


@pytest.mark.parametrize("src", [
    ": >/dev/null", ": 2>/dev/null", ": &>/dev/null", ": &>>/dev/null", ": >&/dev/null",
    ": >>/dev/null", ": >|/dev/null", ": </dev/null", ": 2>&1", ": >&2", ": 3>&-", ": <&-",
    ": >&3-", ": 2>&1 >/dev/null", ": 5<&0", ": 0>&1", ": 1>&1-",
])
def test_fixed_redirects_cover_what_opens_nothing(src: str) -> None:
    assert fixed_redirects(_redirects(src)) is not None


@pytest.mark.parametrize("src", [
    ": >out", ": >/dev/stdout", ": </dev/stdin", ": >/dev/fd/1", ": <<<x", ": <<E\nx\nE",
    ": >$f", ': >"/dev/null"x', ": 2>&/dev/null", ": >&x", ": {fd}>/dev/null",
    ": <>/dev/null", ": >&$n", ": >&٣", ": >~/x",
])
def test_fixed_redirects_leave_the_rest_to_the_general_path(src: str) -> None:
    assert fixed_redirects(_redirects(src)) is None


_FD = hs.integers(0, 4)
_REDIRECT = hs.one_of(
    hs.tuples(hs.sampled_from(["", "0", "1", "2", "3", "4"]),
              hs.sampled_from([">", ">>", ">|", "<", "&>", "&>>"]),
              hs.just("/dev/null")).map(lambda t: f"{t[0] if t[1][0] != '&' else ''}"
                                                  f"{t[1]}{t[2]}"),
    hs.tuples(hs.sampled_from(["", "0", "1", "2", "3", "4"]), hs.sampled_from([">&", "<&"]),
              hs.sampled_from(["0", "1", "2", "3", "4", "-", "0-", "1-", "3-", "4-",
                               "/dev/null"])).map(lambda t: "".join(t)),
)


@settings(max_examples=300, deadline=None)
@given(hs.lists(_REDIRECT, min_size=1, max_size=4), hs.sets(_FD))
def test_fixed_redirects_build_the_table_apply_redirects_builds(
        redirs: list[str], open_fds: set[int]) -> None:
    redirects = _redirects(": " + " ".join(redirs))
    fixed = fixed_redirects(redirects)
    if fixed is None:  # (`2>&/dev/null`: the general path's ambiguous redirect)
        assert any(r.startswith(("0>&/", "1>&/", "2>&/", "3>&/", "4>&/", "<&/", "0<&/", "1<&/",
                                 "2<&/", "3<&/", "4<&/")) for r in redirs)
        return
    streams = {fd: object() for fd in open_fds}
    fds: Any = dict(streams)
    interp = Kernel().interp
    try:
        want: Any = apply_redirects(interp, redirects, fds)
    except RedirectError:
        want = None
    got = fixed(fds)
    if want is None:
        assert got is None
    else:
        new, opened = want
        assert opened == []
        assert got is not None
        assert got.keys() == new.keys()
        assert all(got[k] is new[k] for k in new)
        assert fds == streams  # the command's own table is left as it was
        assert all(v is NULL_IO or v in streams.values() for v in got.values())
