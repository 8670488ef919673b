"""The planned `local`, `return` and function calls (run/plan.py) give what the general
path gives: the same output, messages and status for every script here, traced,
trapped, under `set -e`/`-u`, and where the plan hands a command back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tysh import Kernel
from tysh.kernel.base.limits import Limits
from tysh.kernel.run import plan as plan_mod

SCRIPTS = [
    # local: values, bare names, dynamic scope, `$_`, status
    'f() { local r=$1 x y="$2" z=; echo "r=$r x=${x-unset} y=$y z=[$z] _=$_"; }; f a "b c"; '
    'echo "$? ${r-none}"',
    'g() { local a=1; h; echo "g a=$a"; }; h() { echo "h a=$a"; local a=2; echo "h a=$a"; }\n'
    'a=0; g; echo "top a=$a"',
    'f() { local a=1 a=2 b=$a; echo "$a $b"; }; a=0; f',
    'f() { local x; x=5; echo $x; }; x=top; f; echo $x',
    'f() { local p=$# q=$? s="$0"; echo "$p $q $s"; }; false; f 1 2',
    # what the builtin decides: readonly, attributes, namerefs, set -a, prefix values
    'readonly R=1; k() { local R=2; echo "k $? R=$R"; }; k',
    'm() { local -i n=5; local n=7+1; echo "n=$n"; }; m',
    'm() { local -u s; local s=abc; echo $s; }; m',
    'm() { local a=(1 2); local a=x; echo "${a[@]}"; }; m',
    'm() { local -n r=t; local r=v; echo "$t"; }; t=0; m',
    'p() { local v=$v; echo "p v=$v"; }; v=outer; v=call p; echo "v=$v"',
    'set -a; q() { local e=1; env | grep "^e="; }; q',
    'local x=1; echo "$?"',
    'f() { local 1x=2 -; echo "$?"; }; f',
    'f() { local r=$RANDOM; [ -n "$r" ] && echo drawn; }; RANDOM=7; f; echo $RANDOM',
    'f() { local r=$undefined_var; echo "[$r]"; }; f',
    'f() { local r=$a; echo "$r"; }; a=(x y); f',
    # return: statuses, $?, operands the builtin refuses, outside a function
    'f() { (exit 4); return; }; f; echo "ret $?"',
    'f() { return 300; }; f; echo $?',
    'f() { return " 7"; }; f; echo $?',
    'f() { return -1; }; f; echo $?',
    'f() { s=9; return $s; echo no; }; f; echo $?',
    'f() { return x; }; f; echo "bad $?"',
    'f() { return 1 2; }; f; echo "two $?"',
    'return 5; echo "top return $?"',
    'f() { return 3; }; g() { f; echo "g $? $_"; }; g',
    'f() { return 3; }; g() { f; }; g; echo "$? $_"; g && echo no',
    'f() { echo in; return; }; g() { false; f; }; g; echo "$?"',
    'f() { if [ "$1" ]; then return 1; fi; return 2; }; f x; echo $?; f; echo $?',
    'f() { while :; do return 4; done; }; f; echo $?',
    # hooks: set -e, set -u, xtrace, traps, the call stack
    'set -e; f() { return 1; }; f || echo caught; f; echo unreached',
    'set -e; f() { local r=$1; false; echo no; }; f 1; echo unreached',
    'set -u; f() { local w=$9; echo "u $w"; }; f; echo after',
    'set -u; f() { local w=${9}; return $w; }; f 3; echo $?',
    'set -x; f() { local r=$1; return 2; }; f a; echo $?',
    "trap 'echo err $?' ERR; f() { local r=1; return 3; }; f; echo $?",
    "set -E; trap 'echo err $?' ERR; f() { local r=1; return 3; }; f; echo $?",
    "trap 'echo debug' DEBUG; f() { local r=1; return 0; }; f",
    "set -T; trap 'echo debug' DEBUG; f() { local r=1; return 0; }; f",
    'f() { local r=$1; caller 0; echo "${FUNCNAME[*]} ${BASH_LINENO[*]}"; return 0; }\n'
    'g() { f x; }\ng',
    'f() { local r=1; return 0; }; declare -F; declare -F f',
    'f() { local n=$1; [ $n -le 0 ] && return 0; f $((n - 1)); echo $n; return 0; }; f 3',
    'local() { echo "my local $*"; }; f() { local a=1; }; f',
    'return() { echo "my return"; }; f() { return 4; echo after; }; f; echo $?',
    'enable -n local; f() { local a=1; echo $?; }; f',
    'f() { local r=$1; return 0; }; i=0; while [ $i -lt 5 ]; do f $i; i=$((i+1)); done; '
    'echo "$? ${r-unset}"',
    # empty assignments, in a function's frame and the global one
    'f() { local l=1; l=; g=; echo "[$l][$g]"; }; g=1; f; echo "[$g] $?"',
    'declare -i n=5; a=(1 2); f() { n=; a=; u=; echo "[$n][${a[*]}][$u]"; }; f',
    'readonly q=1; f() { q=; echo "in $?"; }; f; echo "after $?"',
    # one assignment whose value or store fails
    'declare -i n; f() { n="1+"; echo "in $?"; }; f; echo "top $? $n"',
    'f() { x=$((1/0)); echo no; }; f; echo "top $?"',
    'f() { x=${u?gone}; echo no; }; f; echo "top $?"',
    'f() { r=$(( $1 + 1 )); echo $r; }; f 41; f 1x; echo "top $?"',
    # one assignment of arithmetic that reads an expansion (`$1`, `$x`) each time
    'f() { r=$(( $1 * 2 )); echo $r; }; f 4; f 2*3; f 010; f ""; f; echo "top $?"',
    'f() { r=$(( $1 / 0 )); echo no; }; f 5; echo "top $?"',
    'set -u; f() { r=$(( $1 + 1 )); echo no; }; f; echo "top $?"',
    'set -e; f() { r=$(( $1 - 1 )); echo "r=$r"; }; f 1; f 0; echo after',
    "trap 'echo err $?' ERR; f() { r=$(( $1 < 2 )); echo $r; }; f 1; f 3",
    'set -x; f() { r=$(( $1 + 1 )); }; f 1; echo $r',
    'readonly r=1; f() { r=$(( $1 + 1 )); echo "in $?"; }; f 1; echo "top $? $r"',
    'declare -i r; f() { r=$(( $1 + 1 )); echo $r; }; f 2; r=(9); f 3; echo ${r[@]}',
    'f() { local r=0; g() { r=$(( $1 + r )); }; g 5; g 6; echo $r; }; f; echo "${r-unset}"',
    'x=7; i=0; while [ $i -lt 3 ]; do s=$(( $x * i )); i=$((i+1)); done; echo "$s $_"',
    # a value read from one variable or positional parameter, whatever it holds
    'a=(1 2); declare -A m=([k]=v); s="x  *"; f() { p=$a; q=$m; r=$s; t="$s"; u=$unset; '
    'v=$1; w="$2"; y=$9; z=$_; echo "[$p][$q][$r][$t][$u][$v][$w][$y][$z]"; }; f "1  2" b',
    'RANDOM=3; f() { x=$RANDOM; y=$RANDOM; [ "$x" != "$y" ] && echo drawn; }; f',
    'set -u; f() { x=$1; echo "[$x]"; y=$nope; echo no; }; f a; echo "top $?"',
    'declare -n ref=target; target=t; f() { x=$ref; echo "$x"; }; f',
    'f() { for w in a b c; do [ $w = b ] && continue; x=$w; for v in 1 2; do '
    '[ $v = 2 ] && break 2; done; done; echo "$x $w"; }; f',
    # one `name=$((…))` of fixed text: every kind of target, in every kind of frame
    'x=1; x=$((x+1)); u=$((u+2)); echo "$x $u $?"',
    'readonly x=1; x=$((x+1)); echo "after $? $x"',
    'declare -i n=3; n=$((n*2)); declare -u s=a; s=$((4)); declare -l t; t=$((5)); '
    'echo "$n $s $t"',
    'a=(1 2); a=$((a+5)); declare -A m=([0]=1); m=$((7)); echo "${a[*]} ${m[0]}"',
    'declare -n r=t; t=1; r=$((r+1)); echo "$t $r"',
    'x=$((1/0)); echo no',
    'f() { x=$((1/0)); echo no; }; f; echo "top $? $x"',
    'x=$((2**-1)); echo "no $?"',
    'set -u; y=$((nope+1)); echo no',
    'v=1+2; w=$((v*2)); echo "$w"',
    'f() { r=$((r+1)); }; g() { local r=10; f; echo "g $r"; }; h() { g; }; r=0; f; h; '
    'echo "top $r"',
    'f() { local c=0; c=$((c+1)); echo "$c"; }; c=top; f; echo "$c"',
    'x=5 f() { :; }; f() { x=$((x+1)); echo "in $x"; }; x=1; x=7 f; echo "$x"',
    'set -e; f() { [ $1 -lt 2 ]; echo "f $1"; }; f 1; if f 3; then :; fi; f 3; echo no',
    "trap 'echo err' ERR; f() { [ 5 -lt $1 ]; }; f 1; echo \"$? ${PIPESTATUS[*]}\"",
    'f() { return $1; }; f 3; echo "${PIPESTATUS[*]} $?"; true | f 2; echo "${PIPESTATUS[*]}"',
    # `$(( $1 + … ))` for numbers and for texts that are expressions of their own
    'f() { r=$(( $1 + 1 )); echo "$r"; }; f 9; f -3; f 0; f 010; f 1+1; f x; x=4; f x; '
    'f 99999999999999999999; f 1/0; echo "top $?"',
    'f() { r=$(( $1 * 2 )); echo "$r"; }; f 4611686018427387904; f "2 + 3"',
    # the call stack and `$_` on entry, in the body, after the call, in forks
    'f() { echo "in:$_"; g "$@" z; echo "back:$_"; }; g() { echo "g:$_ ${FUNCNAME[*]} '
    '${BASH_LINENO[*]} ${BASH_SOURCE[*]}"; caller; caller 0; caller 1; echo "c $?"; }\n'
    'f a b; echo "top:$_"; f; echo "top:$_ ${FUNCNAME[*]-none}"',
    'f() { g; }; g() { echo "${FUNCNAME[*]}|${BASH_LINENO[*]}"; caller 0; }\n'
    '(f); echo "sub:$(f)"; f | cat; (g; (f)); echo "${FUNCNAME[*]-none} ${#BASH_LINENO[@]}"',
    "printf 'g() { caller 0; caller 1; caller 2; echo \"${FUNCNAME[*]}|${BASH_SOURCE[*]}|"
    "${BASH_LINENO[*]}\"; }\\ng x\\n' > lib.sh\n"
    'f() { . ./lib.sh; g; echo "f:$_"; }; f; (f); i=0; while [ $i -lt 2 ]; do f $i; '
    'i=$((i+1)); done; . ./lib.sh; echo "top:$_ ${#BASH_SOURCE[@]}"',
]


def _run(tmp_path: Path, src: str, **kw: Any) -> tuple[int, str, str]:
    r = Kernel(cwd=str(tmp_path), **kw).execute(src)
    return r.code, r.out, r.err


@pytest.fixture
def unplanned(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run with no statement planned: every command takes the general path."""

    def general() -> None:
        monkeypatch.setattr(plan_mod, "_step", lambda st: None)
        plan_mod._PLANS.clear()

    yield general
    plan_mod._PLANS.clear()


@pytest.mark.parametrize("src", SCRIPTS)
@pytest.mark.parametrize("where", ["top", "loop"])
def test_planned_and_general_paths_agree(tmp_path: Path, unplanned: Any, src: str,
                                         where: str) -> None:
    """`loop`: the script inside a loop, where every call site is planned too."""
    if where == "loop":
        src = f"for _ in 1; do\n{src}\ndone"
    planned = _run(tmp_path, src)
    unplanned()
    assert planned == _run(tmp_path, src)


def test_planned_paths_agree_under_a_memory_cap(tmp_path: Path, unplanned: Any) -> None:
    src = 'f() { local r=$1; echo ${#r}; }; f "$(printf "%0500d" 0)"'
    planned = _run(tmp_path, src, limits=Limits(max_memory=20_000_000))
    unplanned()
    assert planned == _run(tmp_path, src, limits=Limits(max_memory=20_000_000))
    assert planned[1] == "500\n"


def test_a_call_that_exceeds_the_depth_limit_leaves_the_same_state_on_both_paths(
        tmp_path: Path, unplanned: Any) -> None:
    """The run the limit ends unwinds every call: the next run sees an empty call stack,
    depth 0 and the same `$_`, planned or not."""

    def after() -> tuple[tuple[int, str, str], tuple[int, str, str]]:
        k = Kernel(cwd=str(tmp_path), limits=Limits(max_function_depth=20))
        r = k.execute("f() { f x$1; }; i=0; while [ $i -lt 1 ]; do f a; i=1; done")
        s = k.execute('echo "$_|${FUNCNAME[*]-none}|${#BASH_LINENO[@]}"; caller; '
                      'echo "$? ${#BASH_SOURCE[@]}"; g() { caller 0; }; g')
        assert (k.state.calls, k.state.func_depth) == ([], 0)
        return (r.code, r.out, r.err), (s.code, s.out, s.err)

    planned = after()
    assert "maximum function nesting exceeded (20)" in planned[0][2]
    unplanned()
    assert planned == after()


def test_the_function_depth_limit_holds_with_local_and_return(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_function_depth=20))
    r = k.execute("f() { local n=$1; f $(( n + 1 )); return 0; }; f 0")
    assert r.code != 0 and "maximum function nesting exceeded (20)" in r.err


def test_plain_local_and_return_do_not_run_their_builtins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tysh.builtins.shell import flow, vars

    calls: list[str] = []
    declare, texts = vars._declare, flow.texts

    def spy_declare(*a: Any, **kw: Any) -> Any:
        calls.append("local")
        return declare(*a, **kw)

    def spy_texts(*a: Any, **kw: Any) -> Any:
        calls.append("return")
        return texts(*a, **kw)

    monkeypatch.setattr(vars, "_declare", spy_declare)
    monkeypatch.setattr(flow, "texts", spy_texts)
    k = Kernel(cwd=str(tmp_path))
    src = ('f() { local r=$1 s; s=$r; return 0; }; i=0\n'
           'while [ $i -lt 20 ]; do f $i; i=$((i+1)); done; echo "$r $s"')
    assert k.execute(src).out == " \n"
    assert calls == []
    # a local the builtin must decide still reaches it
    assert k.execute("f() { local -i n=1; local n=2+3; echo $n; }; f").out == "5\n"
    assert calls == ["local", "local"]
