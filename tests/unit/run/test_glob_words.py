"""Globs in the shell: pattern-valued options take a glob as written, variable-name
operands are never globbed, the glob options change what a glob gives, and extended
patterns stay within the time limit."""

from __future__ import annotations

import time

from tysh.kernel.embed.kernel import Kernel


def run(k: Kernel, src: str) -> tuple[int, str, str]:
    r = k.execute(src)
    return r.code, r.out, r.err


SETUP = "mkdir -p sub; echo x > a.py; echo x > sub/b.py; echo x > c.txt; "


def test_pattern_valued_options_pass_the_glob_as_written(isolated: Kernel) -> None:
    run(isolated, SETUP)
    assert run(isolated, "grep -rl x --include=*.py | sort") == (0, "a.py\nsub/b.py\n", "")
    assert run(isolated, "grep -rl x --include *.py . | sort")[1] == "./a.py\n./sub/b.py\n"
    assert run(isolated, "grep -rl x --exclude=*.py | sort")[1] == "c.txt\n"
    assert run(isolated, "find . -name *.py | sort")[1] == "./a.py\n./sub/b.py\n"
    assert run(isolated, "ls -I *.py")[1] == "c.txt\nsub\n"
    # an ordinary operand still globs, and a missing match is still an error
    assert run(isolated, "grep -l x *.py")[1] == "a.py\n"
    code, _, err = run(isolated, "grep -l x *.nope")
    assert code == 1 and "no matches: *.nope" in err


def test_the_schema_declares_which_options_take_a_pattern() -> None:
    from tysh.builtins import get_builtin

    grep = get_builtin("grep")
    find = get_builtin("find")
    assert grep is not None and find is not None
    assert {"--include", "--exclude", "--exclude-dir"} <= grep.schema.unglobbed_options()
    assert "--regexp" not in grep.schema.unglobbed_options()
    assert {"-name", "-path", "-regex"} <= find.schema.unglobbed_options()


def test_subscripted_names_are_never_globbed(isolated: Kernel) -> None:
    run(isolated, "touch a1 b1 c1")
    assert run(isolated, "a=(x y z); unset a[1]; echo ${a[@]}")[1] == "x z\n"
    assert run(isolated, "read b[1] <<< hi; echo ${b[1]}")[1] == "hi\n"
    assert run(isolated, "printf -v c[1] %s pp; echo ${c[1]}")[1] == "pp\n"
    assert run(isolated, "declare d[1]=v; echo ${d[1]}")[1] == "v\n"
    assert run(isolated, "printf '%s\\n' ?1")[1] == "a1\nb1\nc1\n"


def test_shopt_changes_what_a_glob_gives() -> None:
    def fresh(src: str) -> tuple[int, str, str]:
        k = Kernel.isolated()
        run(k, "touch .rc Read")
        return run(k, src)

    code, _, err = fresh("echo *.zz")
    assert code == 1 and "no matches: *.zz (quote it to pass the pattern: '*.zz')" in err
    assert fresh("shopt -u failglob; echo *.zz") == (0, "*.zz\n", "")
    assert fresh("shopt -s nullglob; echo a *.zz b")[1] == "a b\n"
    assert fresh("shopt -s dotglob; echo *")[1] == ".rc Read\n"
    assert fresh("shopt -s nocaseglob; echo r*")[1] == "Read\n"
    assert fresh("GLOBIGNORE=R*; echo *")[1] == ".rc\n"
    assert fresh("echo !(R*)")[0] == 1  # a dotfile needs a leading dot


def test_nocasematch_applies_to_case_and_double_brackets_only(isolated: Kernel) -> None:
    src = ("shopt -s nocasematch; [[ a == A ]] && echo 1; [[ a =~ ^A$ ]] && echo 2; "
           "case A in a) echo 3;; esac; x=a; echo ${x#A}")
    assert run(isolated, src)[1] == "1\n2\n3\na\n"


def test_a_costly_extended_pattern_ends_at_the_time_limit() -> None:
    k = Kernel.isolated()
    src = 'x=$(printf "a%.0s" {1..4000}); [[ $x == *(!(x))*(!(y))q ]]; echo done'
    t0 = time.monotonic()
    r = k.execute(src, timeout=0.5)
    assert r.code == 124 and "time limit" in r.err
    assert time.monotonic() - t0 < 5
    # the same pattern on a short text is quick and right
    assert k.execute('[[ abc == *(!(x))*(!(y)) ]] && echo yes').out == "yes\n"
