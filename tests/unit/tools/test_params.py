"""Reflection of a tool's attrs class into its parameter schema: types from annotations,
declaration order, aliases, help, and the canonical name."""

from __future__ import annotations

from typing import Any, Literal

import attrs
import pytest
from fixtures_schemas import HeadArgs

from tysh.kernel.bind.binder import BindError, classify
from tysh.kernel.bind.fast import bind_and_convert
from tysh.kernel.tools.params import param, reflect_params
from tysh.kernel.tools.tool import tool


def _noop(args: Any, ctx: Any) -> int:
    return 0


def test_reflection_maps_annotations_to_param_types() -> None:
    @attrs.frozen(kw_only=True)
    class A:
        s: str
        i: int = 1
        f: float = 1.5
        b: bool = False
        c: Literal["x", "y"] = "x"
        o: int | None = None
        files: tuple[str, ...] = param(positional=True, default=())
        tags: list[str] = param(factory=list)
        p: str = param(default=".", param_type="path")

    ps = {p.name: p for p in reflect_params(A)}
    assert [ps[n].param_type for n in "sifbco"] == ["string", "int", "float", "bool",
                                                    "choice", "int"]
    assert ps["c"].choices == ("x", "y")
    assert ps["s"].required and not ps["i"].required and ps["i"].default == 1
    assert ps["files"].param_type == "array" and ps["files"].positional
    assert ps["tags"].param_type == "string" and ps["tags"].repeatable
    assert ps["p"].param_type == "path"
    assert ps["b"].default is None  # a false bool is the default state, not a default value


def test_reflection_keeps_declaration_order_aliases_and_help() -> None:
    ps = reflect_params(HeadArgs)
    assert [p.name for p in ps] == ["files", "lines", "bytes", "quiet", "verbose"]
    assert ps[1].aliases == ("-n",) and ps[1].description == "print the first N lines"


def test_param_name_override_is_the_canonical_name() -> None:
    @attrs.frozen
    class A:
        max_: int = param(default=0, name="max")

    t = tool("t", args=A)(_noop)
    assert t.schema.params[0].name == "max"
    assert bind_and_convert(t, classify(["--max", "4"]))[2].max_ == 4


def test_type_hints_agree_with_typing_for_every_builtin_args_class() -> None:
    # tysh reads its own args classes' annotations without loading typing; what it reads
    # must mean what typing's own evaluation means, for every field of every builtin
    import typing

    from tysh.builtins import all_builtins
    from tysh.kernel.tools.params import annotation_type, args_fields, element_type, type_hints

    seen = 0
    todo = list(all_builtins())
    while todo:
        t = todo.pop()
        todo.extend(t.children.values())
        cls = t.args_class
        if cls is None or args_fields(cls) is None:
            continue
        ours = type_hints(cls)
        theirs = typing.get_type_hints(cls, localns={"Literal": typing.Literal,
                                                      "Any": typing.Any})
        assert ours.keys() == theirs.keys(), t.name
        for name in ours:
            assert annotation_type(ours[name]) == annotation_type(theirs[name]), (t.name, name)
            assert annotation_type(element_type(ours[name])) == \
                annotation_type(element_type(theirs[name])), (t.name, name)
        seen += 1
    assert seen > 40


def _twins() -> tuple[type, type]:
    """The same args declared as a tysh record and as an attrs class."""
    from tysh.kernel.base.record import Record, frozen

    @frozen
    class R(Record):
        word: str = param(aliases=["-w"], help="the word")
        count: int = param(1, aliases=["-c"], min=0)
        mode: Literal["a", "b"] = param("a", aliases=["-m"])
        files: tuple[str, ...] = param(positional=True, default=())
        tags: list[str] = param(factory=list, aliases=["-t"])
        quiet: bool = param(False, aliases=["-q"])

    @attrs.frozen
    class A:
        word: str = param(aliases=["-w"], help="the word")
        count: int = param(1, aliases=["-c"], min=0)
        mode: Literal["a", "b"] = param("a", aliases=["-m"])
        files: tuple[str, ...] = param(positional=True, default=())
        tags: list[str] = param(factory=list, aliases=["-t"])
        quiet: bool = param(False, aliases=["-q"])

    return R, A


def test_a_record_args_class_reflects_and_binds_as_its_attrs_twin() -> None:
    rec, att = _twins()
    assert reflect_params(rec) == reflect_params(att)
    tr, ta = tool("t", args=rec)(_noop), tool("t", args=att)(_noop)
    names = [p.name for p in reflect_params(rec)]
    for argv in (["-w", "x"], ["-qw", "x", "-c", "3", "f", "g"], ["-t", "a", "-tb", "-w", "y"],
                 ["--mode=b", "--word", "z", "--", "-f"]):
        r = bind_and_convert(tr, classify(argv))[2]
        a = bind_and_convert(ta, classify(argv))[2]
        assert type(r) is rec
        assert {n: getattr(r, n) for n in names} == attrs.asdict(a)
    for argv in (["-c", "3"], ["-w", "x", "-c", "-1"], ["-w", "x", "-m", "c"]):
        with pytest.raises(BindError) as from_record:
            bind_and_convert(tr, classify(argv))
        with pytest.raises(BindError) as from_attrs:
            bind_and_convert(ta, classify(argv))
        assert str(from_record.value) == str(from_attrs.value)


def test_a_record_args_class_makes_each_factory_default_afresh() -> None:
    rec, _ = _twins()
    one, two = rec(word="a"), rec(word="b")
    assert one.tags == [] and one.tags is not two.tags
    assert (one.count, one.mode, one.files, one.quiet) == (1, "a", (), False)


def test_param_declares_a_record_field_without_loading_attrs() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from tysh.kernel.base.record import Record, frozen\n"
        "from tysh.kernel.tools.params import param, reflect_params\n"
        "@frozen\n"
        "class R(Record):\n"
        "    s: str = param(aliases=['-s'])\n"
        "    n: int = param(2)\n"
        "    t: list[str] = param(factory=list)\n"
        "print([(p.name, p.required) for p in reflect_params(R)], R(s='a').n, R(s='a').t,\n"
        "      'attrs' in sys.modules)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split("\n")[0] == \
        "[('s', True), ('n', False), ('t', False)] 2 [] False"


def _annotations_of_builtins() -> list[tuple[str, str, type]]:
    import sys

    from tysh.builtins import BUILTINS, get_builtin

    out = []
    for name in sorted(BUILTINS):
        t = get_builtin(name)
        cls = getattr(t, "args_class", None) if t is not None else None
        if cls is None:
            continue
        for klass in cls.__mro__:
            for ann in klass.__dict__.get("__annotations__", {}).values():
                if isinstance(ann, str):
                    out.append((ann, klass.__module__, klass))
    assert out and all(m in sys.modules for _, m, _ in out)
    return out


def test_annotations_read_without_compiling_are_what_eval_gives() -> None:
    import sys

    from tysh.kernel.tools.params import _ANNOTATION_NAMES, _UNREAD, read_annotation

    for ann, module, klass in _annotations_of_builtins():
        space = {**_ANNOTATION_NAMES, **vars(sys.modules[module])}
        got = read_annotation(ann, space, dict(vars(klass)))
        assert got is not _UNREAD, ann
        assert got == eval(ann, space, dict(vars(klass))), ann  # noqa: S307


@pytest.mark.parametrize("text", ["list[int", "int]", "1 + 2", "lambda: 0", "f(x)",
                                  "a.__class__", "'a\\'b'", "int | ", "", "Nope",
                                  "dict[str, int] | None", "tuple[str, ...]", "'x'"])
def test_an_annotation_the_reader_cannot_read_is_left_to_eval(text: str) -> None:
    from tysh.kernel.tools.params import _UNREAD, read_annotation

    space: dict[str, Any] = {"__builtins__": __builtins__}
    got = read_annotation(text, space, {})
    if got is _UNREAD:
        return
    assert got == eval(text, space, {})  # noqa: S307


def test_param_meta_is_built_by_its_own_init_as_the_fields_declare_it() -> None:
    from tysh.kernel.tools.params import ParamMeta

    m = ParamMeta(aliases=("-n",), help="h", consumes=2, minimum=1)
    assert (m.aliases, m.help, m.consumes, m.minimum, m.maximum, m.positional) == (
        ("-n",), "h", 2, 1, None, False)
    assert m == ParamMeta(("-n",), "h", False, False, 2, minimum=1)
    assert m.evolve(help="g").help == "g"
    with pytest.raises(AttributeError):
        m.help = "x"  # type: ignore[misc]


def test_annotations_read_while_another_thread_is_still_importing_typing_and_abc(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A background job's first external command imports subprocess (and with it
    collections.abc and typing) on its thread while the main thread binds a tool for the
    first time: the half-imported modules in sys.modules have none of their names yet,
    and reading the builtins' annotations must not fail on them, nor read them
    differently."""
    import collections.abc
    import sys
    import types

    from tysh.builtins import all_builtins
    from tysh.kernel.bind import convert
    from tysh.kernel.tools import params
    from tysh.kernel.tools.params import is_sequence_origin, strip_optional

    classes = {t.args_class for t in all_builtins() if t.args_class is not None}
    whole = {cls: convert.class_plan(cls) for cls in classes}
    monkeypatch.setattr(convert, "_PLANS", {})
    monkeypatch.setattr(params, "_HINTS", {})
    for name in ("collections.abc", "typing"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    assert is_sequence_origin(collections.abc.Sequence)
    assert is_sequence_origin(list) and not is_sequence_origin(dict)
    assert strip_optional(int | None) == (int, True)
    def seen(plan: convert.ClassPlan) -> Any:
        return ({n: (f.field, f.shape is None, f.elem_conv, f.elem_expected)
                 for n, f in plan.fields.items()}, plan.plain, plan.str_tuples)

    for cls in classes:
        assert seen(convert.class_plan(cls)) == seen(whole[cls]), cls
