"""Frozen records (base/record.py): the syntax tree's classes, made without attrs, keep
the value semantics the parser, the interpreter and plans rely on."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tysh.kernel.base.record import (
    FrozenRecordError,
    Record,
    field,
    frozen,
    is_record,
    record_fields,
    replace,
)
from tysh.kernel.syntax import ast


@frozen
class Point(Record):
    """A test record."""

    x: int
    y: int = 0
    label: str | None = None

    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)


def test_fields_are_positional_or_keyword_with_class_body_defaults() -> None:
    assert (Point(1).x, Point(1).y, Point(1).label) == (1, 0, None)
    assert Point(1, 2, "a") == Point(x=1, label="a", y=2)
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Point(1, z=3)  # type: ignore[call-arg]


def test_value_semantics_equal_hash_repr_and_methods_kept() -> None:
    a, b = Point(1, 2), Point(1, 2)
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != Point(2, 1) and a != (1, 2, None)
    assert repr(a) == "Point(x=1, y=2, label=None)"
    assert a.norm1() == 3 and Point.__doc__ == "A test record."
    assert Point.__match_args__ == ("x", "y", "label")


def test_records_are_frozen_and_slotted() -> None:
    p = Point(1)
    with pytest.raises(FrozenRecordError):
        p.x = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del p.y
    with pytest.raises(AttributeError):
        p.other = 1  # type: ignore[attr-defined]
    assert not hasattr(p, "__dict__") and p.x == 1


def test_replace_copies_with_changes_and_refuses_unknown_fields() -> None:
    p = Point(1, 2, "a")
    q = replace(p, y=5)
    assert q == Point(1, 5, "a") and p == Point(1, 2, "a")
    with pytest.raises(TypeError, match="no field 'z'"):
        replace(p, z=1)


def test_pickle_and_copy_round_trip() -> None:
    p = Point(1, 2, "a")
    assert pickle.loads(pickle.dumps(p)) == p
    assert copy.copy(p) == p and copy.deepcopy(p) == p


def test_a_field_without_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError, match="without a default"):
        @frozen
        class Bad(Record):
            a: int = 0
            b: int  # type: ignore[misc]


def test_the_syntax_tree_is_made_of_records_without_attrs() -> None:
    w = ast.Word((ast.Lit("a"), ast.Quoted("b")), ast.Pos(1, 2))
    assert is_record(ast.Word) and not hasattr(ast.Word, "__attrs_attrs__")
    assert record_fields(ast.Word) == (("parts", "tuple[WordPart, ...]"), ("pos", "Pos"))
    assert w == ast.Word((ast.Lit("a"), ast.Quoted("b")), ast.Pos(1, 2))
    assert replace(w, pos=ast.NOPOS).pos is ast.NOPOS


def test_value_records_compare_like_frozen_ones_and_are_plain_slots() -> None:
    from tysh.kernel.base.argv import Flag, Operand, classify

    assert classify(["-n", "x", "--"]) == [Flag("-n"), Operand("x", True),
                                           classify(["--"])[0]]
    assert hash(Operand("x", True)) == hash(Operand("x", True))
    assert repr(Flag("-n")) == "Flag(text='-n', value=None)"
    with pytest.raises(AttributeError):
        Operand("x").other = 1  # type: ignore[attr-defined]


def test_the_generic_init_and_the_compiled_one_make_the_same_records() -> None:
    @frozen
    class Pair(Record):
        a: int
        b: str = "x"

    made = [Pair(i) if i % 2 else Pair(b="y", a=i) for i in range(40)]  # both inits
    assert made[0] == Pair(0, "y") and made[39] == Pair(39, "x")
    for bad in (lambda: Pair(), lambda: Pair(1, "a", 2), lambda: Pair(1, a=2),
                lambda: Pair(1, c=2)):
        with pytest.raises(TypeError):
            bad()


def test_post_init_checks_every_way_a_record_is_made() -> None:
    @frozen
    class Positive(Record):
        n: int = 1

        def __post_init__(self) -> None:
            if self.n <= 0:
                raise ValueError("n must be positive")

    for _ in range(20):  # past the generic __init__ too
        with pytest.raises(ValueError):
            Positive(0)
    with pytest.raises(ValueError):
        Positive(2).evolve(n=-1)
    with pytest.raises(ValueError):
        replace(Positive(2), n=0)
    assert Positive(2).evolve(n=3) == Positive(3)


def test_a_record_with_its_own_init_converts_and_evolve_goes_through_it() -> None:
    @frozen
    class Names(Record):
        names: tuple[str, ...] = ()

        def __init__(self, names: list[str] | tuple[str, ...] = ()) -> None:
            object.__setattr__(self, "names", tuple(names))

    n = Names(["a"])
    assert n.names == ("a",) and n.evolve(names=["b", "c"]).names == ("b", "c")


def test_a_record_subclass_adds_fields_after_its_bases() -> None:
    @frozen
    class Sub(Point):
        z: int = 7

    s = Sub(1, 2, "a", 3)
    assert (s.x, s.y, s.label, s.z) == (1, 2, "a", 3) and Sub(1).z == 7
    assert Sub.__record_fields__ == ("x", "y", "label", "z")  # type: ignore[attr-defined]
    assert s.evolve(x=5) == Sub(5, 2, "a", 3)
    with pytest.raises(FrozenRecordError):
        s.z = 1  # type: ignore[misc]


def test_public_classes_evolve_as_attrs_evolve_did() -> None:
    from tysh import ExecResult, Limits, ParamSchema, ToolSchema

    lim = Limits(timeout=5)
    assert lim.evolve(max_jobs=3) == Limits(timeout=5, max_jobs=3)
    with pytest.raises(ValueError):
        lim.evolve(timeout=-1)  # the timeout check holds for a copy too
    s = ToolSchema("t", params=[ParamSchema("p", aliases=["-p"])])
    assert s.params[0].aliases == ("-p",) and s.evolve(aliases=["u"]).aliases == ("u",)
    assert pickle.loads(pickle.dumps(s)) == s and pickle.loads(pickle.dumps(lim)) == lim
    r = ExecResult(1, err="boom")
    assert r.evolve(code=0) == ExecResult(0, err="boom\n")


@frozen
class _Checked(Record):
    """A record with a check of its fields and a field made by a factory."""

    n: int
    items: list[int] = field(factory=list)
    seen: list[str] = field(factory=list)

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("n must not be negative")
        self.seen.append("checked")


class _Plain(Point):
    """A plain subclass of a record class, with an __init__ of its own."""

    __slots__ = ()

    def __init__(self, text: str) -> None:
        raise AssertionError("replace must not call a plain subclass's __init__")


def _slot_copy(obj: Record, **changes: object) -> Record:
    """What replace makes, field by field through the slots."""
    cls = type(obj)
    new = object.__new__(cls)
    for c in reversed(cls.__mro__):
        for n in c.__dict__.get("__slots__", ()):
            object.__setattr__(new, n, changes[n] if n in changes else getattr(obj, n))
    post = getattr(new, "__post_init__", None)
    if post is not None:
        post()
    return new


@given(st.integers(), st.integers(), st.one_of(st.none(), st.text(max_size=3)),
       st.sampled_from(["", "x", "y", "label", "xy", "xylabel"]))
def test_replace_makes_the_record_a_slot_by_slot_copy_makes(
        x: int, y: int, label: str | None, which: str) -> None:
    changes = {k: v for k, v in (("x", x + 1), ("y", y - 1), ("label", "z")) if k in which}
    for p in (Point(x, y, label), *[_make_plain(x, y, label)]):
        q = replace(p, **changes)
        want = _slot_copy(p, **changes)
        assert type(q) is type(p)
        assert all(getattr(q, n) == getattr(want, n) for n in ("x", "y", "label"))


def _make_plain(x: int, y: int, label: str | None) -> Point:
    p = object.__new__(_Plain)
    object.__setattr__(p, "x", x)
    object.__setattr__(p, "y", y)
    object.__setattr__(p, "label", label)
    return p


def test_replace_runs_the_records_check_once_and_keeps_factory_fields() -> None:
    for _ in range(20):  # past the compiled __init__'s threshold too
        a = _Checked(1, [5])
        assert a.seen == ["checked"]
        b = replace(a, n=2)
        assert (b.n, b.items, b.items is a.items) == (2, [5], True)
        assert b.seen is a.seen and a.seen == ["checked", "checked"]
        with pytest.raises(ValueError, match="negative"):
            replace(a, n=-1)
