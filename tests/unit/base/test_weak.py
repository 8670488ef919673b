"""WeakMembers: a weakly held set (membership, iteration over the living, and a member
leaving when collected), as weakref.WeakSet behaves for the kernel's uses."""

from __future__ import annotations

import gc

from tysh.kernel.base.weak import WeakMembers


class _Thing:
    pass


def test_members_are_found_and_iterated_while_alive() -> None:
    s = WeakMembers()
    a, b = _Thing(), _Thing()
    s.add(a)
    s.add(b)
    s.add(a)
    assert a in s and b in s and _Thing() not in s
    assert sorted(map(id, s)) == sorted([id(a), id(b)])
    assert len(s) == 2


def test_a_collected_member_leaves_the_set() -> None:
    s = WeakMembers()
    a = _Thing()
    s.add(a)
    del a
    gc.collect()
    assert list(s) == [] and len(s) == 0


def test_a_new_object_at_a_dead_members_address_is_not_a_member() -> None:
    s = WeakMembers()
    for _ in range(200):  # CPython reuses freed addresses: one of these takes an old id
        s.add(_Thing())
        fresh = _Thing()
        assert fresh not in s
    assert len(s) == 0


def test_discard_removes_only_that_member() -> None:
    s = WeakMembers()
    a, b = _Thing(), _Thing()
    s.add(a)
    s.add(b)
    s.discard(a)
    s.discard(_Thing())
    assert a not in s and b in s
