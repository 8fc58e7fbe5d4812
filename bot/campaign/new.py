"""A new campaign's state, straight from its scenario: pure, no database.

:func:`from_scenario` builds the very :class:`CampaignState` that creating a campaign through the
services and loading it back from the repository gives (every id aside): the same keys, each Force's
leader keyed ``{force}-leader``, scheduled reinforcements pending, each side's capital, supply in
hand and income, camp (RU-19), and the rule options merged as the services merge them (the map's
adjacency, then the scenario's options, then the GM's). Turn 1's seed is not drawn here: the core
draws it on first use (:func:`.dice.turn_dice`), from the ``fresh_seed`` the caller passes then.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.engine.errors import InvalidInput
from bot.engine.model import Climate
from bot.engine.phases import first_position
from bot.engine.tables import RuleBook, default_rulebook
from bot.scenario import Scenario, UnitSpec, fold_name, names_of

from .lifecycle import check_options
from .settings import Settings
from .state import (
    CampaignState,
    CampaignStatus,
    ForceState,
    ForceStatus,
    LeaderState,
    Recruit,
    SideState,
    UnitState,
)

TEXT_DIRECTION = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Unicode's text-direction marks, embeddings, overrides and isolates: in a name they turn the text
shown after it around (an RTL override makes "Campaign" read backwards in every message quoting it)."""


def campaign_name(text: str) -> str:
    """A campaign's name as a member typed it, refused when it is empty, over 100 characters, has no
    visible character (spaces and invisible characters only) or holds a text-direction control (issue 24,
    item 7); surrounding spaces dropped."""
    name = text.strip()
    if not 1 <= len(name) <= 100:
        raise InvalidInput("A campaign name is 1 to 100 characters.")
    if not fold_name(name):
        raise InvalidInput("A campaign name needs a visible character: this one has only spaces and invisible "
                           "characters.")
    if (ch := next((c for c in name if c in TEXT_DIRECTION), None)) is not None:
        raise InvalidInput("A campaign name may not hold a text-direction control (U+{code}): it turns the text "
                           "around it. Type the name without it.", code=f"{ord(ch):04X}")
    return name


MAX_NAME = 100


def leader_key(force: str) -> str:
    """The key of the leader a scenario gives a Force."""
    return f"{force}-leader"


def campaign_options(spec: Scenario, options: Mapping[str, Any] | None = None,
                     rules: RuleBook | None = None) -> dict[str, Any]:
    """The rule options of a new campaign: the rules' defaults, the map's adjacency (RU-11), the
    scenario's options, then ``options`` (the GM's), each checked against the rules' choices."""
    return check_options({"adjacency": spec.map.adjacency, **spec.options, **(options or {})},
                         rules or default_rulebook())


def capitals(spec: Scenario) -> dict[str, str]:
    """Each side's capital square (the first its map names, in map order)."""
    out: dict[str, str] = {}
    for sq, cell in spec.map.cells.items():
        if cell.capital and cell.stronghold is not None:
            out.setdefault(cell.stronghold, str(sq))
    return out


def _camp(spec: Scenario, side: str) -> str:
    """A side's camp as kept: empty for a side that is its own camp (RU-19)."""
    camp = spec.camp_of(side)
    return "" if camp == side else camp


def unit_state(u: UnitSpec) -> UnitState:
    """A unit of the scenario as it starts: at its full SP."""
    return UnitState(u.key, u.name, u.sp, u.sp, u.type, u.quality, u.mercenary, u.flag)


def recruits(spec: Scenario, side: str) -> tuple[Recruit, ...]:
    """The side's pool of new units (``supply.recruits``, RU-24)."""
    return tuple(Recruit(unit_state(r.unit), r.cost) for r in spec.recruits.get(side, ()))


def from_scenario(spec: Scenario, *, campaign_id: int, name: str, gm_id: int, options: Mapping[str, Any] | None = None,
                  rules: RuleBook | None = None) -> CampaignState:
    """The state of a campaign just created from ``spec``: turn 1 at its first phase, nobody on a side
    yet, no seed drawn. ``options``: the GM's rule options over the scenario's (refused, naming the
    option, when the rules do not allow them)."""
    rules = rules or default_rulebook()
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise InvalidInput("A campaign name is 1 to 100 characters.")
    opts = campaign_options(spec, options, rules)
    settings = Settings.from_options(opts, rules)
    pos = first_position(opts)
    cmap = spec.map if spec.map.adjacency == settings.adjacency else replace(spec.map, adjacency=settings.adjacency)
    capital = capitals(spec)
    sides = {
        s.key: SideState(s.key, s.name, s.colour, s.nation, capital=capital.get(s.key),
                         supply=spec.supply.get(s.key, 0), supply_income=spec.supply.get(s.key, 0),
                         camp=_camp(spec, s.key), recruits=recruits(spec, s.key))
        for s in spec.sides
    }
    forces = {
        f.key: ForceState(
            f.key, f.side, f.name, str(f.square), f.order, None, f.scouts,
            ForceStatus.PENDING if f.arrives_turn is not None else ForceStatus.ACTIVE, f.arrives_turn,
            units=tuple(unit_state(u) for u in f.units),
            small_boats=f.small_boats, horse_rafts=f.horse_rafts,
        )
        for f in spec.forces
    }
    leaders = {leader_key(f.key): LeaderState(leader_key(f.key), f.leader.name, f.leader.cv, force=f.key)
               for f in spec.forces}
    return CampaignState(
        id=campaign_id, name=name, turn=pos.turn, phase=pos.phase, status=CampaignStatus.ACTIVE, settings=settings,
        climate=Climate(spec.climate.value), theatre=spec.theatre.value, start_date=spec.start_date, map=cmap,
        sight=spec.sight, gm_id=gm_id, gm_role_id=None, weather=None, holdings={}, sides=sides, forces=forces,
        leaders=leaders, options=opts, last_turn=spec.last_turn, tables=spec.tables, names=names_of(spec),
    )
