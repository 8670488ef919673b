"""Language behaviours found by differential testing against bash (hunt-lang).

Each case states the behaviour, asserts tysh's literal output and status, and, when
/bin/bash is present, checks that bash agrees (so a case is bash's behaviour, not a guess)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import Kernel

BASH = shutil.which("bash")


def _tysh(script: str, cwd: Path) -> tuple[str, int]:
    # validate=False: run like the CLI (an embedded kernel refuses some scripts up front)
    r = Kernel(cwd=str(cwd), env={"HOME": str(cwd)}, validate=False).execute(script)
    return r.text_out(), r.code


def _bash(script: str, cwd: Path) -> tuple[str, int]:
    assert BASH is not None
    p = subprocess.run([BASH, "-c", script], cwd=cwd, capture_output=True, text=True,
                       timeout=20, env={"PATH": "/usr/bin:/bin", "HOME": str(cwd)})
    return p.stdout, p.returncode


def _check(script: str, out: str, code: int, tmp_path: Path) -> None:
    assert _tysh(script, tmp_path) == (out, code)
    if BASH is not None:
        assert _bash(script, tmp_path) == (out, code)


# (id, script, stdout, status)
CASES = [
    ("quoted_array_literal_keys_lose_their_quotes_in_declare",
     'declare -A m=(["a b"]=1 [c]="x y"); for k in "${!m[@]}"; do echo "<$k>=<${m[$k]}>"; done'
     " | sort",
     "<a b>=<1>\n<c>=<x y>\n", 0),
    ("declare_array_literal_expands_its_elements",
     'v="1 2"; declare -a a=($v "$v"); echo ${#a[@]}; printf "<%s>" "${a[@]}"; echo',
     "3\n<1><2><1 2>\n", 0),
    ("local_array_literal_expands_and_keeps_quoted_elements",
     'f() { local -a a=("x y" "$1"); printf "<%s>" "${a[@]}"; echo; }; f arg',
     "<x y><arg>\n", 0),
    ("quoted_parenthesised_text_in_declare_is_a_plain_string",
     'declare a="(x y)"; echo "$a" "${#a[@]}"',
     "(x y) 1\n", 0),
    ("declare_a_reads_a_quoted_list_into_the_array_without_expanding_it",
     'declare -a a="([5]=x [1]=y z)"; declare -p a; declare -A "m=([k]=v)"; declare -p m',
     'declare -a a=([1]="y" [2]="z" [5]="x")\ndeclare -A m=([k]="v" )\n', 0),
    ("declare_integer_array_literal_evaluates_elements",
     "declare -ai a=(1+1 7/2); echo ${a[@]}",
     "2 3\n", 0),
    ("declare_append_array_literal_appends",
     "declare -a a=(1 2); declare -a a+=(3); echo ${a[@]}",
     "1 2 3\n", 0),
    ("assoc_array_literal_without_keys_pairs_keys_and_values",
     "declare -A m; m=(k1 v1 k2 v2 k3); echo \"${m[k1]} ${m[k2]} [${m[k3]}] ${#m[@]}\"",
     "v1 v2 [] 3\n", 0),
    ("declare_p_quotes_control_characters_ansi_c_style",
     "x=$'a\\nb\\tc'; declare -p x; a=($'p\\nq' r); declare -p a",
     "declare -- x=$'a\\nb\\tc'\ndeclare -a a=([0]=$'p\\nq' [1]=\"r\")\n", 0),
    ("declare_p_shows_assoc_keys_bare_or_double_quoted",
     'declare -A m=(["a b"]=1); declare -p m',
     'declare -A m=(["a b"]="1" )\n', 0),
    ("declare_F_with_names_prints_bare_names",
     "f() { :; }; declare -F f; declare -F",
     "f\ndeclare -f f\n", 0),
    ("local_cannot_shadow_a_readonly_global",
     "readonly RO=1; f() { local RO=2; echo \"$? $RO\"; }; f 2>/dev/null",
     "1 1\n", 0),
    ("local_may_shadow_a_callers_readonly_local",
     "h() { local -r X=1; k; }; k() { local X=2; echo \"k $X\"; }; h",
     "k 2\n", 0),
    ("read_rejects_an_invalid_name_after_assigning_the_earlier_ones",
     'read a 1x <<< "p q" 2>/dev/null; echo "$? [$a]"',
     "1 [p]\n", 0),
    ("read_assigns_an_array_element_name",
     "read 'a[2]' <<< v; echo \"${a[2]} ${#a[@]}\"",
     "v 1\n", 0),
    ("read_d_empty_splits_records_at_nul",
     "printf 'a\\0b c\\0' | while IFS= read -r -d '' f; do echo \"[$f]\"; done",
     "[a]\n[b c]\n", 0),
    ("read_d_empty_slurps_a_here_document_with_status_1",
     "read -r -d '' t <<'EOF'\nm1\nm2\nEOF\necho \"$? [$t]\"",
     "1 [m1\nm2]\n", 0),
    ("read_N_does_not_split_or_trim",
     "read -N 4 x <<< ' ab '; echo \"[$x]\"; IFS=: read -N 4 x y <<< 'a:bcd'; echo \"[$x][$y]\"",
     "[ ab ]\n[a:bc][]\n", 0),
    ("read_accepts_e",
     "read -e x <<< e; echo \"[$x] $?\"",
     "[e] 0\n", 0),
    ("cd_empty_string_stays_put",
     'cd ""; echo $?; [ "$PWD" = "$(pwd)" ] && echo same',
     "0\nsame\n", 0),
    ("cd_too_many_arguments_is_status_1",
     "cd / /tmp 2>/dev/null; echo $?",
     "1\n", 0),
    ("exit_with_too_many_arguments_ends_the_script_with_1",
     "exit 5 2 2>/dev/null; echo no",
     "", 1),
    ("return_with_too_many_arguments_ends_the_script_with_1",
     "f() { return 1 2; }; f 2>/dev/null; echo no",
     "", 1),
    ("shift_with_too_many_arguments_ends_the_script_with_1",
     "set -- a b; shift 1 2 2>/dev/null; echo no",
     "", 1),
    ("noglob_option_turns_globbing_off",
     "touch a.txt b.txt; set -f; echo *.txt; for f in *.txt; do echo $f; done; set +f; echo *.txt",
     "*.txt\n*.txt\na.txt b.txt\n", 0),
    ("ansi_c_string_ends_at_a_nul",
     "printf '%s|' $'a\\0b' $'x\\x00y'; echo",
     "a|x|\n", 0),
    ("single_quotes_stay_in_a_default_word_inside_double_quotes",
     "echo \"${x:-'def'}\" ${x:-'def'} \"${x:-'}'}\"; y=1; echo \"${y:+'alt'}\" \"${y/1/'r'}\"",
     "'def' def '}'\n'alt' r\n", 0),
    ("single_quotes_are_removed_in_an_error_message_word",
     "(: \"${x:?'msg'}\") 2>&1 | sed 's/^.*: //'",
     "msg\n", 0),
    ("command_substitution_runs_with_errexit_off",
     'set -e; x=$(false; echo still); echo "$x"; f() { false; echo cont; }; y=$(f); echo "$y"',
     "still\ncont\n", 0),
    ("command_substitution_status_still_stops_errexit",
     "set -e; x=$(false); echo unreached",
     "", 1),
    ("fatal_expansion_error_in_a_subshell_is_status_1",
     "(: ${u:?}) 2>/dev/null; echo $?; x=$(: ${u:?}) 2>/dev/null; echo $?; "
     "set -u; { echo $nope; } 2>/dev/null | cat; echo ${PIPESTATUS[0]}",
     "1\n1\n1\n", 0),
    ("fatal_expansion_error_in_a_simple_pipeline_stage_is_status_127",
     "set -u; echo $nope 2>/dev/null | cat; echo ${PIPESTATUS[0]}",
     "127\n", 0),
    ("at_Q_quotes_a_value_for_reuse_as_input",
     "x=\"it's\"; echo \"${x@Q}\"; y=$'a\\tb'; echo \"${y@Q}\"; e=; echo \"[${e@Q}][${u@Q}]\"",
     "'it'\\''s'\n$'a\\tb'\n[''][]\n", 0),
    ("at_Q_quotes_each_array_element",
     "a=(x 'y z'); echo \"${a[@]@Q}\"",
     "'x' 'y z'\n", 0),
    ("at_U_L_u_E_transform_the_value",
     "x=hEllo; y='a\\tb'; echo \"${x@U} ${x@u} ${x@L}\"; echo \"${y@E}\"",
     "HELLO HEllo hello\na\tb\n", 0),
    ("indirect_prefix_lists_set_variable_names",
     "foo_a=1; foo_b=2; fooc=3; declare foo_unset; echo \"${!foo_*}\"; "
     "for n in \"${!foo_@}\"; do echo \"[$n]\"; done",
     "foo_a foo_b\n[foo_a]\n[foo_b]\n", 0),
    ("declare_l_and_u_convert_every_later_assignment",
     "declare -l lo=ABC; echo $lo; lo+=DEF; echo $lo; declare -u up; read up <<< 'from read'; "
     "echo $up; for up in a; do :; done; echo $up; x=KEEP; declare -l x; echo $x",
     "abc\nabcdef\nFROM READ\nA\nKEEP\n", 0),
    ("local_u_and_declare_u_arrays_convert_elements",
     "f() { local -u v=$1; echo $v; }; f lower; declare -u a=(x y); a+=(w); a[5]=z; "
     "echo ${a[@]}; declare -p a",
     'LOWER\nX Y W Z\ndeclare -au a=([0]="X" [1]="Y" [2]="W" [5]="Z")\n', 0),
    ("substitution_pattern_may_start_with_a_slash",
     'x=a/b/c; echo "${x////_}" "${x///b/Q}" "${x///_}" "${x/#//Z}" "${x/%//}"',
     "a_b_c aQ/c a/b/c /Za/b/c a/b/c/\n", 0),
    ("substitution_of_an_empty_value_matched_by_the_pattern",
     'x=; echo "[${x/*/X}][${x//*/X}][${x//?/X}]"; a=("" b); echo "${a[@]//*/Y}"',
     "[X][X][]\nY Y\n", 0),
    ("arithmetic_error_abandons_the_rest_of_its_line_only",
     "f() { echo $((1/0)); echo in-f; }\nf; echo same\necho next $?\nx=abc; echo \"${x:2:-3}\"; "
     "echo same\necho last $?",
     "next 1\nlast 1\n", 0),
    ("arithmetic_error_abandons_its_line_even_under_errexit",
     "set -e; echo $((1/0)); echo same\necho next $?",
     "next 1\n", 0),
    ("getopts_past_the_end_sets_optind_after_the_last_argument",
     'set -- -v -v; while getopts v o; do echo $o; done; set -- -v; '
     'while getopts v o; do echo again; done; echo $OPTIND; '
     'set -- -v; OPTIND=0; getopts v o; echo "$? $OPTIND $o"',
     "v\nv\n2\n0 2 v\n", 0),
    ("indirect_reference_to_a_whole_array",
     'a=(x "y z"); d="a[@]"; printf "<%s>" "${!d}"; echo; e="a[*]"; printf "<%s>" "${!e}"; echo; '
     'set -- p q; at="@"; echo "${!at}"',
     "<x><y z>\n<x y z>\np q\n", 0),
    ("lineno_is_the_line_of_the_running_statement",
     'echo $LINENO\nf() {\n  echo "f $LINENO"\n}\nf\nif true; then\n  echo "if $LINENO"\nfi',
     "1\nf 3\nif 7\n", 0),
    ("fatal_expansion_error_at_top_level_ends_with_127",
     ": ${u:?} 2>/dev/null; echo no",
     "", 127),
]


@pytest.mark.parametrize("script,out,code", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_matches_bash(script: str, out: str, code: int, tmp_path: Path) -> None:
    _check(script, out, code, tmp_path)


def test_process_substitution_after_a_redirection_names_the_feature() -> None:
    r = Kernel(validate=False).execute("while read -r l; do echo $l; done < <(echo x)")
    assert r.code == 2
    assert "process substitution '<(…)' is not supported" in r.err
    r = Kernel(validate=False).execute("echo x > >(cat)")
    assert "process substitution '>(…)' is not supported" in r.err


def test_bash_dynamic_variables_are_set(tmp_path: Path) -> None:
    out, code = _tysh(
        'for v in UID EUID PPID BASHPID SECONDS EPOCHSECONDS HOSTNAME OSTYPE OPTIND; do '
        '[[ -n ${!v} ]] || echo "unset $v"; done; '
        '[[ $SECONDS =~ ^[0-9]+$ && $EPOCHSECONDS =~ ^[0-9]{10}$ ]] && echo numeric; '
        '[[ $EPOCHREALTIME =~ ^[0-9]+\\.[0-9]{6}$ ]] && echo real; '
        'echo "$OPTIND"; set -o pipefail; echo "$SHELLOPTS"',
        tmp_path)
    assert out == "numeric\nreal\n1\nbraceexpand:hashall:interactive-comments:pipefail\n"
    assert code == 0


# -- time ------------------------------------------------------------------------------


def _time_report(err: str) -> list[str]:
    return [line.split("\t")[0] if "\t" in line else line.split(" ")[0]
            for line in err.splitlines()]


def test_time_reports_real_user_sys_on_stderr_in_bash_format() -> None:
    import re

    from tysh import Kernel

    r = Kernel.isolated().execute("time echo hi | tr a-z A-Z")
    assert r.out == "HI\n"
    assert re.fullmatch(r"\nreal\t0m\d\.\d{3}s\nuser\t0m\d\.\d{3}s\nsys\t0m\d\.\d{3}s\n", r.err)


def test_time_p_uses_the_posix_format_and_the_status_is_the_pipelines() -> None:
    import re

    from tysh import Kernel

    r = Kernel.isolated().execute("time -p false; echo $?")
    assert r.out == "1\n"
    assert re.fullmatch(r"real \d+\.\d\d\nuser \d+\.\d\d\nsys \d+\.\d\d\n", r.err)


def test_time_and_bang_combine_in_either_order_as_in_bash() -> None:
    from tysh import Kernel

    k = Kernel.isolated()
    for src in ("time ! false; echo $?", "! time false; echo $?"):
        r = k.execute(src)
        assert r.out == "0\n" and _time_report(r.err) == ["", "real", "user", "sys"]


def test_time_is_a_word_outside_command_position() -> None:
    from tysh import Kernel

    assert Kernel.isolated().execute("echo time; type -t time").out == "time\nkeyword\n"


def test_uid_euid_and_ppid_are_read_only_as_in_bash() -> None:
    from tysh import Kernel

    k = Kernel.isolated()
    for name in ("UID", "EUID", "PPID"):
        r = k.execute(f"{name}=5; echo not reached")
        assert (r.out, r.err) == ("", f"tysh: {name}: readonly variable\n")
    # an embedder's env may still give them values
    assert Kernel.isolated(env={"UID": "7"}).execute("echo $UID").out == "7\n"
