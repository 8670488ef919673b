"""The misc family: readlink shuf join fmt envsubst id tty nohup nice — unit tests in a
sandbox and differential tests against the GNU tools when they are installed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tysh import Kernel


def sandbox(**files: str) -> Kernel:
    return Kernel.isolated(files={k.replace("__", "/"): v for k, v in files.items()})


def gnu(tool: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(shutil.which(tool) is None, reason=f"GNU {tool} not installed")


def host(cmd: list[str], cwd: Path, stdin: str = "") -> tuple[int, str, str]:
    p = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True,
                       env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    return p.returncode, p.stdout, p.stderr


# ------------------------------------------------------------------ readlink

def test_readlink_prints_a_links_target_and_fails_silently_on_a_file(tmp_path: Path) -> None:
    (tmp_path / "t").write_text("")
    (tmp_path / "l").symlink_to("t")
    res = Kernel(cwd=str(tmp_path)).execute("readlink l; readlink t; echo $?")
    assert (res.out, res.err) == ("t\n1\n", "")


def test_readlink_verbose_reports_a_non_link(tmp_path: Path) -> None:
    (tmp_path / "t").write_text("")
    res = Kernel(cwd=str(tmp_path)).execute("readlink -v t")
    assert (res.code, res.err) == (1, "readlink: t: Invalid argument\n")


def test_readlink_f_needs_all_but_the_last_component() -> None:
    k = sandbox(**{"d__f": "x"})
    res = k.execute("cd d; readlink -f f; readlink -f nope; readlink -f a/b; echo $?; "
                    "readlink -e nope; echo $?; readlink -m a/../b")
    d = k.execute("pwd").out.strip()
    assert res.out == f"{d}/f\n{d}/nope\n1\n1\n{d}/b\n"


@gnu("readlink")
def test_readlink_matches_gnu_on_links_and_canonical_names(tmp_path: Path) -> None:
    (tmp_path / "t").write_text("")
    (tmp_path / "l").symlink_to("t")
    (tmp_path / "l2").symlink_to("l")
    for args in (["l", "l2"], ["-f", "l2"], ["-v", "t"], ["-fv", "no/x"], ["-n", "l", "l2"],
                 ["-e", "l2", "nope"]):
        want = host(["readlink", *args], tmp_path)
        res = Kernel(cwd=str(tmp_path)).execute("readlink " + " ".join(args))
        assert (res.code, res.out, res.err) == want
    assert host(["readlink", "-f", "l2"], tmp_path)[1] == str((tmp_path / "t").resolve()) + "\n"


# ------------------------------------------------------------------ shuf

def test_shuf_outputs_a_permutation_of_its_lines() -> None:
    res = sandbox().execute("shuf", stdin="a\nb\nc\nd")
    assert sorted(res.out.splitlines()) == ["a", "b", "c", "d"]


def test_shuf_random_source_is_deterministic() -> None:
    k = sandbox(**{"seed": "some bytes"})
    a = k.execute("shuf -i 1-20 --random-source=seed").out
    assert a == k.execute("shuf -i 1-20 --random-source=seed").out
    assert sorted(map(int, a.split())) == list(range(1, 21))


def test_shuf_n_caps_and_repeat_draws_with_replacement() -> None:
    k = sandbox()
    assert len(k.execute("shuf -n 2 -e a b c").out.splitlines()) == 2
    out = k.execute("shuf -r -n 50 -e x").out
    assert out == "x\n" * 50
    assert k.execute("shuf -r -e a b | head -n 3 | wc -l").out.strip() == "3"


def test_shuf_huge_range_with_n_is_cheap() -> None:
    out = sandbox().execute("shuf -i 1-1000000000000 -n 3").out.split()
    assert len(out) == 3 and all(1 <= int(v) <= 10**12 for v in out)


def test_shuf_reports_gnu_errors() -> None:
    k = sandbox()
    res = k.execute("shuf -e -i 1-2")
    assert (res.code, res.err.splitlines()[0]) == (1, "shuf: cannot combine -e and -i options")
    assert k.execute("shuf -i 3-1").err == "shuf: invalid input range: '3-1'\n"
    assert k.execute("shuf -n x").err == "shuf: invalid line count: 'x'\n"
    assert k.execute("shuf -i 2-1; echo $?").out == "0\n"


def test_shuf_o_writes_the_file() -> None:
    k = sandbox(**{"f": "1\n2\n"})
    res = k.execute("shuf -o f f; sort f")
    assert res.out == "1\n2\n"


def test_shuf_json_gives_lines_or_numbers() -> None:
    k = sandbox()
    assert sorted(json.loads(k.execute("shuf --json -e a b").out)) == ["a", "b"]
    assert sorted(json.loads(k.execute("shuf --json -i 1-3").out)) == [1, 2, 3]


# ------------------------------------------------------------------ join

J1 = "h x\nb 1\na 2\nc 3\n"
J2 = "h y\na 9\nb 8\nc 7\n"


def test_join_pairs_lines_and_warns_about_disorder_at_the_end() -> None:
    res = sandbox(j1=J1, j2=J2).execute("join j1 j2")
    assert res.out == "h x y\nb 1 8\nc 3 7\n"
    assert res.err == "join: j1:3: is not sorted: a 2\njoin: input is not in sorted order\n"
    assert res.code == 1


def test_join_check_order_stops_at_the_first_disorder() -> None:
    res = sandbox(j1=J1, j2=J2).execute("join --check-order j1 j2")
    assert (res.code, res.out, res.err) == (1, "", "join: j1:2: is not sorted: b 1\n")


def test_join_unpairable_and_only_unpairable_lines() -> None:
    k = sandbox(a="a 1\nb 2\nd 4\n", b="a x\nc y\nd z\n")
    assert k.execute("join -a1 a b").out == "a 1 x\nb 2\nd 4 z\n"
    assert k.execute("join -v2 a b").out == "c y\n"
    assert k.execute("join -a1 -a2 -o 0,1.2,2.2 -e - a b").out == (
        "a 1 x\nb 2 -\nc - y\nd 4 z\n")


def test_join_separator_auto_format_and_empty_filler() -> None:
    k = sandbox(m1="a,,1\nb,2\n", m2="a,X\nb,Y,Z\n")
    assert k.execute("join -t, -e E -o auto m1 m2").out == "a,E,1,X\nb,2,E,Y\n"


def test_join_fields_ignore_case_and_header() -> None:
    k = sandbox(a="K V\n1 A\n2 b\n", b="V W\na x\nB y\n")
    assert k.execute("join --header -i -1 2 -2 1 a b").out == "V K W\nA 1 x\nb 2 y\n"


def test_join_json_gives_fields_per_line() -> None:
    res = sandbox(a="a 1\n", b="a 2\n").execute("join --json a b")
    assert json.loads(res.out) == [["a", "1", "2"]]


@gnu("join")
@pytest.mark.parametrize("opts", [
    "", "-a1", "-a2", "-v1", "-a1 -a2 -e X -o 0,1.2,2.2", "-o auto -e -", "--header",
    "-j 1 -t ' '", "-i", "--nocheck-order -a1", "--check-order",
])
def test_join_matches_gnu(tmp_path: Path, opts: str) -> None:
    (tmp_path / "a").write_text("h n\nA 1\nb 2\nc 3 x\nc 4\ne 5\nd 6\n")
    (tmp_path / "b").write_text("h m\na x\nc y\nc z\nf w\n")
    want = subprocess.run(f"join {opts} a b", shell=True, cwd=tmp_path, capture_output=True,
                          text=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    res = Kernel(cwd=str(tmp_path)).execute(f"join {opts} a b")
    assert (res.code, res.out, res.err) == (want.returncode, want.stdout, want.stderr)


# ------------------------------------------------------------------ fmt

PARA = ("The quick brown fox jumps over the lazy dog. It was a dark and stormy night;\n"
        "the rain fell in torrents. Except at occasional intervals, when it was checked\n"
        "by a violent gust of wind which swept up the streets.\n\n  Indented (second)\n"
        "  paragraph here.\n")


def test_fmt_fills_paragraphs_to_the_width() -> None:
    res = sandbox(p=PARA).execute("fmt -w 40 p")
    assert res.out == (
        "The quick brown fox jumps over the lazy\n"
        "dog. It was a dark and stormy night;\n"
        "the rain fell in torrents. Except\n"
        "at occasional intervals, when it was\n"
        "checked by a violent gust of wind which\n"
        "swept up the streets.\n\n  Indented (second) paragraph here.\n")


def test_fmt_split_only_does_not_join_lines() -> None:
    assert sandbox().execute("fmt -s -w 10", stdin="aa bb cc dd\nee\n").out == (
        "aa bb\ncc dd\nee\n")


def test_fmt_prefix_formats_only_prefixed_lines() -> None:
    res = sandbox().execute("fmt -p '# ' -w 20", stdin="# a b\n# c d\ncode x\n")
    assert res.out == "# a b c d\ncode x\n"


@gnu("fmt")
@pytest.mark.parametrize("opts", ["", "-w 40", "-u", "-p the", "-g 50",
                                  "-w 10"])
def test_fmt_matches_gnu(tmp_path: Path, opts: str) -> None:
    (tmp_path / "p").write_text(PARA * 3 + "\n\tTabbed  double  spaced. Words here.\n")
    want = subprocess.run(f"fmt {opts} p", shell=True, cwd=tmp_path, capture_output=True,
                          text=True)
    res = Kernel(cwd=str(tmp_path)).execute(f"fmt {opts} p")
    assert (res.code, res.out) == (want.returncode, want.stdout)


# ------------------------------------------------------------------ envsubst

def test_envsubst_replaces_exported_variables_only() -> None:
    res = sandbox().execute("export A=1; B=2; envsubst",
                            stdin="$A ${A} $B ${A:-x} $ $1\n")
    assert res.out == "1 1  ${A:-x} $ $1\n"


def test_envsubst_shell_format_restricts_and_v_lists() -> None:
    k = sandbox()
    assert k.execute("export A=1 B=2; envsubst '$B'", stdin="$A $B\n").out == "$A 2\n"
    assert k.execute("envsubst -v '$A ${B} $A'").out == "A\nB\nA\n"
    assert k.execute("envsubst -v").err == "envsubst: missing arguments\n"
    assert json.loads(k.execute("envsubst -v --json '$A $B'").out) == ["A", "B"]


@gnu("envsubst")
def test_envsubst_matches_gnu(tmp_path: Path) -> None:
    text = "a $FOO ${BAR} $NOPE ${FOO:-x} $ ${ $1 $$FOO \\$FOO ${FOO\n"
    want = subprocess.run(["envsubst"], input=text, capture_output=True, text=True,
                          env={"FOO": "foo", "BAR": "bar"}).stdout
    res = Kernel(cwd=str(tmp_path)).execute("export FOO=foo BAR=bar; envsubst", stdin=text)
    assert res.out == want == "a foo bar  ${FOO:-x} $ ${ $1 $foo \\foo ${FOO\n"


# ------------------------------------------------------------------ id, tty

def test_id_in_a_sandbox_is_the_neutral_user() -> None:
    k = sandbox()
    assert k.execute("id").out == "uid=1000(user) gid=1000(user) groups=1000(user)\n"
    assert k.execute("id -u; id -un; id -G; id -gn").out == "1000\nuser\n1000\nuser\n"
    res = k.execute("id bob")
    assert (res.code, res.err) == (1, "id: 'bob': no such user\n")


def test_id_rejects_conflicting_choices() -> None:
    k = sandbox()
    assert k.execute("id -n").err == (
        "id: cannot print only names or real IDs in default format\n")
    assert k.execute("id -u -g").err == 'id: cannot print "only" of more than one choice\n'


def test_id_json_is_a_record() -> None:
    data = json.loads(sandbox().execute("id --json").out)
    assert data == {"uid": 1000, "user": "user", "gid": 1000, "group": "user",
                    "groups": [{"id": 1000, "name": "user"}]}


@gnu("id")
def test_id_on_the_host_matches_gnu(tmp_path: Path) -> None:
    from tysh.kernel.fs.local import LocalFileSystem

    k = Kernel()
    if type(k.fs) is not LocalFileSystem:
        pytest.skip("the default kernel is sandboxed here")
    for opts in ("-u", "-un", "-g", "-G", "-Gn"):
        want = host(["id", *opts.split()], tmp_path)[1]
        got = k.execute(f"id {opts}").out
        assert got == want


def test_tty_says_not_a_tty_without_a_terminal() -> None:
    k = sandbox()
    res = k.execute("tty; echo $?; tty -s; echo $?")
    assert res.out == "not a tty\n1\n1\n"


# ------------------------------------------------------------------ nohup, nice

def test_nohup_runs_the_command() -> None:
    res = sandbox().execute("nohup echo hi; nohup; echo $?")
    assert res.out == "hi\n125\n"
    assert res.err.startswith("nohup: missing operand\n")


def test_nice_prints_zero_and_runs_commands() -> None:
    k = sandbox()
    assert k.execute("nice; nice -n 5 echo a; nice -5 echo b; nice --adjustment=2 echo c").out \
        == "0\na\nb\nc\n"
    res = k.execute("nice -n x true; echo $?")
    assert (res.out, res.err) == ("125\n", "nice: invalid adjustment 'x'\n")
    assert k.execute("nice -n 3; echo $?").out == "125\n"


def test_tools_declare_their_operations() -> None:
    from tysh.builtins import get_builtin

    ops = {n: set(t.schema.operations) for n in ("nohup", "nice", "shuf", "join", "fmt", "id")
           if (t := get_builtin(n)) is not None}
    assert ops == {"nohup": {"proc.exec"}, "nice": {"proc.exec"}, "shuf": {"fs.overwrite"},
                   "join": set(), "fmt": set(), "id": set()}
