"""Frozen records built fast on the aftermath's hot path (issue 26 item 5).

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``; setting its slots one by
one through their descriptors still costs a call per field. A *draft* is a plain class with the very same
slots: its fields are set by ordinary attribute stores, then ``__class__`` makes it the frozen record
(CPython allows it because the two layouts are the same). The result is the record itself, equal to one
built by ``__init__`` field for field (tests/engine/test_aftermath_seeded.py).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def draft_of(cls: type[Any]) -> type[Any]:
    """A mutable twin of the frozen slotted dataclass ``cls`` (same slots, same order, nothing else)."""
    names = tuple(f.name for f in fields(cls))
    if getattr(cls, "__slots__", None) != names:
        raise TypeError(f"{cls.__name__} must be a slotted dataclass with no other slots")
    draft = type(f"{cls.__name__}Draft", (), {"__slots__": names, "__module__": cls.__module__})
    probe = draft()
    probe.__class__ = cls  # fails here, at import, if the layouts ever differ
    return draft
