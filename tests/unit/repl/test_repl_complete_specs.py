"""The REPL's completion honours `complete` specs (builtins/shell/complete.py): word
lists, actions, -F functions with COMP_* set, compopt, -o default falling back to the
schema-driven completion, -E for an empty line."""

from __future__ import annotations

from tysh.kernel.embed.kernel import Kernel
from tysh.repl.complete import Engine


def texts(engine: Engine, before: str) -> list[str]:
    return [c.text for c in engine.complete(before)]


def kernel() -> Kernel:
    k = Kernel.isolated(files={"src/a.py": "", "src/sub/b.py": "", "notes.txt": ""})
    return k


def test_a_word_list_spec_completes_arguments() -> None:
    k = kernel()
    k.execute("complete -W 'start stop status' svc")
    e = Engine(k)
    assert texts(e, "svc st") == ["start", "stop", "status"]
    assert texts(e, "svc x") == []


def test_a_function_spec_sees_comp_words_and_its_replies_are_used() -> None:
    k = kernel()
    k.execute(
        '_svc() { log="${COMP_WORDS[*]}|$COMP_CWORD|$COMP_LINE|$COMP_POINT|$1|$2|$3";'
        ' COMPREPLY=(alpha beta); }; complete -F _svc svc')
    e = Engine(k)
    assert texts(e, "svc run be") == ["alpha", "beta"]
    # the function ran in the session with bash's variables and arguments
    k.execute('_svc() { echo "${COMP_WORDS[*]}|$COMP_CWORD|$COMP_LINE|$COMP_POINT|'
              '$1|$2|$3" > /tmp/seen; COMPREPLY=(); }')
    texts(e, "svc run be")
    assert k.execute("cat /tmp/seen").out == "svc run be|2|svc run be|10|svc|be|run\n"


def test_directory_actions_mark_folders() -> None:
    k = kernel()
    k.execute("complete -d cdx; complete -f ed")
    e = Engine(k)
    assert texts(e, "cdx s") == ["src/"]
    assert texts(e, "ed n") == ["notes.txt"]
    assert texts(e, "cdx src/") == ["src/sub/"]


def test_default_falls_back_to_the_usual_completion() -> None:
    k = kernel()
    k.execute("complete -o default -W 'one two' mycmd; complete -W 'one two' strict")
    e = Engine(k)
    assert texts(e, "mycmd t") == ["two"]
    assert texts(e, "mycmd no") == ["notes.txt"]
    assert texts(e, "strict no") == []


def test_compopt_in_a_function_changes_the_running_completion() -> None:
    k = kernel()
    k.execute("_f() { COMPREPLY=(src); compopt -o filenames; }; complete -F _f f")
    assert texts(Engine(k), "f s") == ["src/"]


def test_a_command_without_a_spec_keeps_the_schema_completion() -> None:
    k = kernel()
    k.execute("complete -W 'x' other")
    assert "--lines" in texts(Engine(k), "head --li")


def test_the_default_spec_covers_every_command_without_one() -> None:
    k = kernel()
    k.execute("complete -W 'from-default' -D")
    assert texts(Engine(k), "anything fr") == ["from-default"]
