"""A tool's Context, as the kernel makes one per call (`new_context`) and as a class call
makes it."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from tysh.kernel.base.limits import NO_CHARGES, Charges, Meter
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.tools.context import Context, new_context

_KERNEL = Kernel()


@given(name=st.text(max_size=8), json=st.booleans(), isatty=st.booleans(),
       path=st.lists(st.text(max_size=4), max_size=3).map(tuple),
       charged=st.booleans(), keeps=st.booleans())
def test_a_context_made_for_a_call_is_the_class_calls(
        name: str, json: bool, isatty: bool, path: tuple[str, ...], charged: bool,
        keeps: bool) -> None:
    streams = (io.BytesIO(), io.BytesIO(), io.BytesIO())
    charges = Charges(Meter()) if charged else NO_CHARGES
    interp = _KERNEL.interp
    made = new_context(name, *streams, interp.fs, interp, json, isatty, path, charges, keeps)
    ref = Context(name, *streams, interp.fs, interp, json, isatty, False, path, charges, keeps)
    assert type(made) is Context
    for slot in Context.__slots__:  # every field is set, and as the class call sets it
        assert getattr(made, slot) is getattr(ref, slot), slot
    assert made == ref
