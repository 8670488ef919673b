"""shopt: the glob options are tysh's own (failglob, globstar, extglob and globskipdots on
by default); bash's other options are refused."""

from __future__ import annotations

from tysh.kernel.embed.kernel import Kernel


def run(src: str) -> tuple[int, str, str]:
    r = Kernel.isolated().execute(src)
    return r.code, r.out, r.err


def test_glob_options_start_as_tysh_sets_them_and_queries_report_them() -> None:
    assert run("shopt -s globstar; echo $?")[1] == "0\n"
    assert run("shopt -q globstar")[0] == 0
    assert run("shopt globstar")[1] == "globstar       \ton\n"
    assert run("shopt -p globstar nullglob failglob extglob")[1] == (
        "shopt -s globstar\nshopt -u nullglob\nshopt -s failglob\nshopt -s extglob\n")


def test_glob_options_can_be_turned_on_and_off() -> None:
    assert run("shopt -s nullglob dotglob; shopt -q nullglob dotglob")[0] == 0
    assert run("shopt -u failglob globstar; shopt -p failglob globstar")[1] == (
        "shopt -u failglob\nshopt -u globstar\n")


def test_options_tysh_lacks_are_refused() -> None:
    code, _, err = run("shopt -s autocd")
    assert code == 1 and "autocd: cannot be turned on" in err
    assert run("shopt -u autocd")[0] == 0
    assert run("shopt -q autocd")[0] == 1


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
