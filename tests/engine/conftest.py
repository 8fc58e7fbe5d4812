"""Shared fixtures for the map-campaign engine tests (RULES.md sections MC and RU).

Everything here is plain data: no I/O except the ``rules_copy`` fixture, which copies the bundled
``rules/`` directory into a temporary directory so that a test can edit one number or break one
field and load the result.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.engine.grid import CampaignMap
from bot.engine.model import Cell, Force, Leader, Order, Quality, Reaction, Square, Unit, UnitType
from bot.engine.tables import RuleBook, default_rulebook, load_rulebook, rules_dir

FRANCE = "france"
AUSTRIA = "austria"


@pytest.fixture(scope="session")
def rules() -> RuleBook:
    """The bundled tables, as the engine loads them by default."""
    return default_rulebook()


def build_unit(
    uid: str = "u1",
    *,
    name: str | None = None,
    sp: int = 6,
    quality: Quality = Quality.AVERAGE,
    mercenary: bool = False,
    type: UnitType = UnitType.INFANTRY,
) -> Unit:
    return Unit(uid, name or f"Unit {uid}", sp, type=type, quality=quality, mercenary=mercenary)


def build_force(
    fid: str = "f1",
    *,
    name: str | None = None,
    side: str = FRANCE,
    square: str | Square = "C3",
    cv: int = 0,
    leader: str = "Davout",
    order: Order = Order.EXPLORE,
    reaction: Reaction | None = None,
    scouts: int = 0,
    units: tuple[Unit, ...] | None = None,
) -> Force:
    sq = square if isinstance(square, Square) else Square.parse(square)
    return Force(
        fid,
        name or f"Force {fid}",
        side,
        sq,
        Leader(leader, cv),
        units if units is not None else (build_unit(f"{fid}-u1"),),
        order=order,
        reaction=reaction,
        scouts=scouts,
    )


def build_map(
    width: int = 10, height: int = 10, cells: Mapping[str, Cell] | None = None, *, adjacency: int = 8
) -> CampaignMap:
    return CampaignMap(width, height, {Square.parse(k): v for k, v in (cells or {}).items()}, adjacency=adjacency)


@pytest.fixture(scope="session")
def make_unit() -> Callable[..., Unit]:
    """Factory: ``make_unit("u1", sp=8, quality=Quality.ELITE)``."""
    return build_unit


@pytest.fixture(scope="session")
def make_force() -> Callable[..., Force]:
    """Factory: ``make_force("f1", side="france", square="C3", cv=2, order=Order.DEFEND)``.

    Session-scoped (the factories are pure), so hypothesis tests may use them too. The leader's
    Command Value defaults to 0 so that a scripted face plus the listed modifiers is
    the whole total.
    """
    return build_force


@pytest.fixture(scope="session")
def make_map() -> Callable[..., CampaignMap]:
    """Factory: ``make_map(10, 10, {"D4": Cell(terrain=Terrain.SEA)}, adjacency=4)``."""
    return build_map


@dataclass
class RulesCopy:
    """A private copy of ``rules/`` that a test may edit and load."""

    path: Path

    def edit(self, filename: str, old: str, new: str) -> None:
        """Replace the one occurrence of ``old`` in ``filename`` by ``new``."""
        file = self.path / filename
        text = file.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} should occur exactly once in {filename}"
        file.write_text(text.replace(old, new), encoding="utf-8")

    def load(self) -> RuleBook:
        return load_rulebook(self.path)


@pytest.fixture
def rules_copy(tmp_path: Path) -> RulesCopy:
    """A tmp_path copy of the bundled ``rules/`` directory."""
    target = tmp_path / "rules"
    shutil.copytree(rules_dir(), target)
    return RulesCopy(target)
