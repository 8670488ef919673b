"""The session state: scoping, attributes, arrays, copies; bash's dynamic and read-only
variables."""

from __future__ import annotations

import pytest

from tysh import Kernel
from tysh.kernel.base.errors import VarError
from tysh.kernel.run.state import State


def test_env_variables_are_exported_and_readable() -> None:
    s = State("/tmp", {"HOME": "/h"})
    assert s.get("HOME") == "/h"
    assert s.exported_env()["HOME"] == "/h"


def test_unexported_variables_stay_out_of_the_environment() -> None:
    s = State("/", {})
    s.set("x", "1")
    assert "x" not in s.exported_env()
    s.set("y", "2", export=True)
    assert s.exported_env()["y"] == "2"


def test_local_shadows_global_and_disappears_when_frame_pops() -> None:
    s = State("/", {})
    s.set("x", "global")
    s.push_frame()
    s.declare_local("x").value = "local"
    assert s.get("x") == "local"
    s.set("x", "changed")
    s.pop_frame()
    assert s.get("x") == "global"


def test_assignment_in_function_without_local_is_dynamic_scope() -> None:
    s = State("/", {})
    s.push_frame()
    s.declare_local("v").value = "outer-local"
    s.push_frame()
    s.set("v", "inner")  # reaches the caller's local, as bash does
    s.pop_frame()
    assert s.get("v") == "inner"
    s.pop_frame()
    assert s.get("v") is None


def test_readonly_assignment_raises() -> None:
    s = State("/", {})
    v = s.set("r", "1")
    v.readonly = True
    with pytest.raises(VarError):
        s.set("r", "2")


def test_sparse_array_index_assignment_pads_with_holes() -> None:
    s = State("/", {})
    s.set_index("a", 3, "x")
    assert s.get("a") == [None, None, None, "x"]


def test_unsetting_last_element_trims_array() -> None:
    s = State("/", {})
    s.set("a", ["1", "2", "3"])
    s.unset_index("a", 2)
    s.append_values("a", ["4"])
    assert s.get("a") == ["1", "2", "4"]


def test_assoc_array_index_assignment_uses_string_keys() -> None:
    s = State("/", {})
    s.set("m", {})
    s.set_index("m", "k", "v")
    assert s.get("m") == {"k": "v"}


def test_copy_is_independent() -> None:
    s = State("/", {})
    s.set("a", ["1"])
    c = s.copy()
    c.set_index("a", 0, "changed")
    c.set("b", "new")
    assert s.get("a") == ["1"]
    assert s.get("b") is None


def test_a_copy_shares_no_mutable_field_but_the_read_only_ones() -> None:
    """A fork takes every field over at once and then copies the mutable ones: a field
    added to State without a copy of its own would be shared with the parent, which
    this catches (the meter and the tables are shared on purpose)."""
    k = Kernel.isolated()
    k.execute("f() { :; }; alias ll='ls -l'; set -- a b; trap '' USR1; trap 'echo' ERR; "
              "set -E; false; f")
    parent = k.state
    parent.comp_options = {"nospace"}
    shared = {"meter", "tables", "disabled"}
    for child in (parent.copy(), parent.copy_reading_variables()):
        assert child.comp_options is None
        assert child.subshell == parent.subshell + 1
        assert child.traps == {"SIGUSR1": "", "ERR": "echo"}
        assert child.traps_shown == parent.traps
        containers = [n for n in State.__slots__ if n != "__weakref__"
                      and isinstance(getattr(child, n), (list, dict, set, bytearray))]
        assert {"functions", "options", "positional", "traps"} <= set(containers)
        for name in containers:
            if name not in shared and name != "frames":
                assert getattr(child, name) is not getattr(parent, name), name
    assert parent.copy().frames is not parent.frames
    assert parent.copy().frames[0] is not parent.frames[0]
    assert parent.copy_reading_variables().frames[0] is parent.frames[0]


def test_a_copy_for_reading_shares_what_its_command_cannot_change() -> None:
    """Without traps, the copy a pipeline stage that changes nothing of the session gets
    shares the session's containers but its own frame list and traps; with traps it is
    `copy` but for the variables (pinned above)."""
    k = Kernel.isolated()
    k.execute("f() { :; }; alias ll='ls -l'; set -- a b; set -o pipefail")
    parent = k.state
    parent.comp_options = {"nospace"}
    child = parent.copy_reading_variables()
    assert child.comp_options is None  # a completion's options are never inherited
    assert (child.subshell, child.traps, child.traps_shown) == (parent.subshell + 1, {}, None)
    assert child.traps is not parent.traps
    assert child.frames == parent.frames and child.frames is not parent.frames
    for name in ("functions", "aliases", "options", "shopt", "positional", "calls",
                 "func_files", "pipestatus"):
        assert getattr(child, name) is getattr(parent, name), name
    assert (child.key_text, child.key_index) == (None, None)
    assert parent.key_text is not None


def test_special_parameters() -> None:
    s = State("/", {})
    s.positional = ["a", "b"]
    s.last_status = 3
    assert s.get("#") == "2"
    assert s.get("1") == "a"
    assert s.get("?") == "3"
    assert s.get("@") == ["a", "b"]
    s.options.add("errexit")
    assert "e" in s.get("-")


# -- bash's dynamic and read-only variables, through a kernel -------------------------


def test_bash_dynamic_variables_are_set(cli_kernel: Kernel) -> None:
    r = cli_kernel.execute(
        'for v in UID EUID PPID BASHPID SECONDS EPOCHSECONDS HOSTNAME OSTYPE OPTIND; do '
        '[[ -n ${!v} ]] || echo "unset $v"; done; '
        '[[ $SECONDS =~ ^[0-9]+$ && $EPOCHSECONDS =~ ^[0-9]{10}$ ]] && echo numeric; '
        '[[ $EPOCHREALTIME =~ ^[0-9]+\\.[0-9]{6}$ ]] && echo real; '
        'echo "$OPTIND"; set -o pipefail; echo "$SHELLOPTS"')
    out, code = r.text_out(), r.code
    assert out == "numeric\nreal\n1\nbraceexpand:hashall:interactive-comments:pipefail\n"
    assert code == 0


def test_uid_euid_and_ppid_are_read_only_as_in_bash() -> None:
    k = Kernel.isolated()
    for name in ("UID", "EUID", "PPID"):
        r = k.execute(f"{name}=5; echo not reached")
        assert (r.out, r.err) == ("", f"tysh: {name}: readonly variable\n")
    # an embedder's env may still give them values
    assert Kernel.isolated(env={"UID": "7"}).execute("echo $UID").out == "7\n"
