"""shopt: globstar is always on; bash's other options are refused with the reason."""

from __future__ import annotations

from tysh.kernel.embed.kernel import Kernel


def run(src: str) -> tuple[int, str, str]:
    r = Kernel.isolated().execute(src)
    return r.code, r.out, r.err


def test_turning_globstar_on_succeeds_and_queries_report_it_on() -> None:
    assert run("shopt -s globstar; echo $?")[1] == "0\n"
    assert run("shopt -q globstar")[0] == 0
    assert run("shopt globstar")[1] == "globstar       \ton\n"
    assert run("shopt -p globstar nullglob")[1] == "shopt -s globstar\nshopt -u nullglob\n"


def test_options_tysh_lacks_are_refused_with_the_reason() -> None:
    code, _, err = run("shopt -s nullglob")
    assert code == 1 and "nullglob: cannot be turned on" in err and "[ -e ]" in err
    code, _, err = run("shopt -u globstar")
    assert code == 1 and "always recursive" in err
    assert run("shopt -q nullglob")[0] == 1


def test_unknown_names_and_options_get_bash_messages() -> None:
    code, _, err = run("shopt -s nosuch")
    assert code == 1 and "nosuch: invalid shell option name" in err
    code, _, err = run("shopt -x")
    assert code == 2 and "usage: shopt [-pqsu]" in err


def test_expand_aliases_is_kept_by_the_session() -> None:
    k = Kernel.isolated()
    assert k.execute("shopt -q expand_aliases").code == 1
    assert k.execute("shopt -s expand_aliases; shopt -q expand_aliases").code == 0
    assert k.execute("shopt -p expand_aliases").out == "shopt -s expand_aliases\n"
    assert k.execute("shopt -u expand_aliases; shopt expand_aliases").out == \
        "expand_aliases \toff\n"
