"""shopt: the session keeps every bash option a script sets; -o reaches set's options."""

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


def test_every_bash_option_is_kept_by_the_session() -> None:
    k = Kernel.isolated()
    assert k.execute("shopt -q nullglob").code == 1
    assert k.execute("shopt -s nullglob xpg_echo; echo $?").out == "0\n"
    assert k.execute("shopt -p nullglob xpg_echo").out == (
        "shopt -s nullglob\nshopt -s xpg_echo\n")
    assert k.execute("shopt -u globstar; shopt -q globstar").code == 1


def test_shopt_o_prints_and_sets_the_set_options() -> None:
    assert run("shopt -po nounset; set -u; shopt -po nounset")[1] == (
        "set +o nounset\nset -o nounset\n")
    assert run("shopt -so errexit; echo $-")[1] == "ehB\n"


def test_shopt_p_prints_the_valid_names_and_fails_for_an_invalid_one() -> None:
    code, out, err = run("shopt -p nullglob bogus")
    assert code == 1 and out == "shopt -u nullglob\n" and "bogus: invalid shell option name" in err


def test_compat_bash_turns_off_the_tysh_glob_defaults() -> None:
    assert run("shopt -p failglob globstar")[1] == "shopt -s failglob\nshopt -s globstar\n"
    r = Kernel.isolated(compat="bash").execute("shopt -p failglob globstar")
    assert r.out == "shopt -u failglob\nshopt -u globstar\n"


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
