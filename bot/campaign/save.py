"""Save a running campaign as a scenario: its map and Forces as they stand, to start another campaign from.

:func:`as_scenario` writes the plain data of a scenario file (docs/scenario-format.md) that
:func:`bot.scenario.parse_scenario_text` reads back, and :func:`scenario_yaml` the file itself. Pure:
the GM's download (the full state: no fog of war) is the service's (:func:`bot.services.exchange.save_scenario`).

What the file holds, and what the format cannot say:

- **The map**, whole: size, adjacency (the campaign's, as set now), sight, terrain as rows with the
  legend of the characters they use, rivers by flow, roads, tracks, bridges, rapids, reefs,
  territories, strongholds (each with its owner: who *holds* one now is not in the format), capitals and
  named places. Squares are written as ranges where they make rectangles (``A1:F3``).
- **The sides** (key, name, colour, nation), the **alliances** (each camp of two or more sides), the
  **supply** income of each side (FC-2; the points in hand start again at the income) and the recruits it
  may still buy (RU-24), the rule
  **options** as set now, climate and theatre.
- **The Forces on the map**, where they stand, with their order, scouts, boats and horse rafts (MC-5.3)
  and units at their current SP (their original SP becomes that SP); destroyed units (0 SP) and Forces
  with no unit left are left out, and so are Forces off the map for good. Each Force's leader in
  command, with his Command Value: a wounded leader comes back fit (the format has no status); a dead,
  crippled or captured one (CC-1) is left out, and the Force's New Leader commands (the one the campaign
  appointed, or one named after the Force, with the fallen leader's Command Value).
- **Reinforcements still to come**, their turns counted from the saved turn (the new campaign's turn 1):
  one due this turn, or held off its square, comes on turn 2.
- ``start_date`` is the date of the saved turn; ``description`` says which campaign and turn.
- The scenario's own **weather**, **calendar** and **events** tables (RU-10), as the campaign plays them.

Refused, naming the Forces, when the format cannot start them where they stand: Forces of enemy camps
on one square (a battle not yet fought, or a draw both stayed after) and a Force on water (MC-5.3).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

import yaml

from bot.engine.errors import InvalidInput
from bot.engine.grid import COMPASS
from bot.engine.leaders import Commander, replacement_for
from bot.engine.model import Feature, Order, Quality, Square, UnitType
from bot.engine.seasons import turn_date
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.scenario import DEFAULT_LEGEND, LIMITS, RECRUITS, fold_name

from .rulebook import rules_for
from .state import CampaignState, ForceState, ForceStatus, LeaderState, Recruit

_CHAR = {terrain: ch for ch, terrain in DEFAULT_LEGEND.items()}
"""Terrain -> the default legend's character (every terrain has one)."""

_FEATURES = (("roads", Feature.ROAD), ("tracks", Feature.CARAVAN_TRACK), ("bridges", Feature.BRIDGE),
             ("rapids", Feature.RAPIDS), ("reefs", Feature.REEFS))

FIRST_REINFORCEMENT_TURN = 2
"""The earliest turn a scenario's reinforcement may arrive (docs/scenario-format.md, reinforcements)."""


def saved_description(state: CampaignState, *, rules: RuleBook | None = None) -> Msg:
    """The saved scenario's description: which campaign, turn and date it was saved from."""
    return Msg("Saved from the campaign {campaign!r} at turn {turn} ({date}): its map and Forces as they stood "
               "then.", campaign=state.name, turn=state.turn, date=current_date(state, rules=rules).isoformat())


def current_date(state: CampaignState, *, rules: RuleBook | None = None) -> dt.date:
    """The date of the campaign's current turn (RU-10 calendar, the scenario's own if it has one): the saved
    scenario's start date."""
    return turn_date(state.start_date, state.turn, rules=rules_for(state, rules or default_rulebook()))


def as_scenario(state: CampaignState, *, name: str | None = None, description: str | None = None,
                rules: RuleBook | None = None) -> dict[str, Any]:
    """The campaign as a scenario document (plain data, as ``yaml.safe_load`` reads a scenario file).

    ``name``: the scenario's name (default: the campaign's); ``description``: its description (default:
    :func:`saved_description`, in English). Raises :class:`InvalidInput` when Forces stand where a
    scenario cannot start them (see the module's notes)."""
    rules = rules or default_rulebook()
    forces = [f for f in state.forces.values() if _kept(f)]
    on_map = [f for f in forces if f.status is ForceStatus.ACTIVE]
    _check_positions(state, on_map)
    leaders = _Leaders(state)
    data: dict[str, Any] = {
        "name": _text(name if name is not None else state.name)[:LIMITS.name].strip() or _text(state.name),
        "description": _text(description if description is not None
                             else saved_description(state, rules=rules))[:LIMITS.description],
        "climate": state.climate.value,
        "theatre": _value(state.theatre),
        "start_date": current_date(state, rules=rules),
        **({"last_turn": max(1, state.last_turn - state.turn + 1)} if state.last_turn is not None else {}),
        "map": map_data(state),
        "sides": [_side(state, key) for key in state.sides],
    }
    if alliances := _alliances(state):
        data["alliances"] = alliances
    data["forces"] = [_force(f, leaders) for f in on_map]
    later = [f for f in forces if f.status is ForceStatus.PENDING]
    if later:
        data["reinforcements"] = [{"turn": _arrives(state, f), "force": _force(f, leaders)} for f in later]
    supply: dict[str, Any] = {k: min(s.supply_income, 1000) for k, s in state.sides.items() if s.supply_income > 0}
    if recruits := {k: [_recruit(r) for r in s.recruits] for k, s in state.sides.items() if s.recruits}:
        supply[RECRUITS] = recruits  # RU-24: the new units each side may still buy
    if supply:
        data["supply"] = supply
    specs = rules.mc.options
    data["options"] = {k: v for k, v in state.settings.as_options().items() if k in specs}
    data |= state.tables.to_data()  # the scenario's own weather, calendar and events tables (RU-10)
    return data


def scenario_yaml(state: CampaignState, *, name: str | None = None, description: str | None = None,
                  rules: RuleBook | None = None) -> str:
    """The campaign as a scenario file (YAML, UTF-8 text): :func:`as_scenario` written with the map's rows one
    per line (a picture of the map), short lists and mappings inline, no anchors or aliases."""
    return dump(as_scenario(state, name=name, description=description, rules=rules))


# --- the map ---------------------------------------------------------------------------------


def map_data(state: CampaignState) -> dict[str, Any]:
    """``map``: every cell of the campaign's map, as the scenario format writes it."""
    cmap = state.map
    cells = cmap.cells
    rows = ["".join(_CHAR[cmap.cell(Square(c, r)).terrain.value] for c in range(cmap.width))
            for r in range(cmap.height)]
    used = sorted({ch for row in rows for ch in row}, key=list(DEFAULT_LEGEND).index)
    out: dict[str, Any] = {
        "width": cmap.width, "height": cmap.height, "adjacency": cmap.adjacency, "sight": state.sight,
        "legend": {ch: DEFAULT_LEGEND[ch] for ch in used}, "rows": _Rows(rows),
    }
    by_flow: dict[str | None, list[Square]] = {}
    for sq, cell in cells.items():
        if Feature.RIVER in cell.features:
            by_flow.setdefault(cell.river_flow if cell.river_flow in COMPASS else None, []).append(sq)
    rivers = [{"squares": ranges(stretch), **({"flow": flow} if flow else {})}
              for flow in (None, *COMPASS) if flow in by_flow for stretch in _stretches(by_flow[flow])]
    if rivers:
        out["rivers"] = rivers
    for field_name, feature in _FEATURES:
        if squares := [sq for sq, cell in cells.items() if feature in cell.features]:
            out[field_name] = ranges(squares)
    for field_name, attr in (("territories", "territory"), ("strongholds", "stronghold")):
        owned: dict[str, list[Square]] = {}
        for sq, cell in cells.items():
            side = getattr(cell, attr)
            if side is not None:
                owned.setdefault(side, []).append(sq)
        if owned:
            out[field_name] = {side: ranges(owned[side]) for side in _in_side_order(state, owned)}
    capitals: dict[str, str] = {}
    for sq in sorted(cells, key=_reading_order):
        cell = cells[sq]
        if cell.capital and cell.stronghold is not None:
            capitals.setdefault(cell.stronghold, str(sq))
    if capitals:
        out["capitals"] = {side: capitals[side] for side in _in_side_order(state, capitals)}
    places: dict[str, Any] = {}
    for sq in sorted(cells, key=_reading_order):
        place = getattr(cells[sq], "place", None)
        if place is not None:
            kind = _value(getattr(place, "kind", "town"))
            name = _named(state, f"place:{sq}", place.name)
            places[str(sq)] = name if kind == "town" and isinstance(name, str) else {"name": name, "kind": kind}
    if places:
        out["places"] = places
    return out


def ranges(squares: Iterable[Square]) -> list[str]:
    """Squares as few names as rectangles allow: runs along each row, merged with the same run on the
    rows below (``A1:F3``), in reading order; each square named once."""
    by_row: dict[int, list[int]] = {}
    for sq in set(squares):
        by_row.setdefault(sq.row, []).append(sq.col)
    open_: dict[tuple[int, int], list[int]] = {}
    """(first col, last col) -> [first row, last row] of a rectangle still growing downwards."""
    done: list[tuple[int, int, int, int]] = []
    for row in sorted(by_row):
        cols = sorted(by_row[row])
        runs: list[tuple[int, int]] = []
        for c in cols:
            if runs and runs[-1][1] == c - 1:
                runs[-1] = (runs[-1][0], c)
            else:
                runs.append((c, c))
        grown: dict[tuple[int, int], list[int]] = {}
        for run in runs:
            rect = open_.pop(run, None)
            if rect is not None and rect[1] == row - 1:
                rect[1] = row
                grown[run] = rect
            else:
                if rect is not None:
                    done.append((rect[0], run[0], rect[1], run[1]))
                grown[run] = [row, row]
        done += [(rect[0], run[0], rect[1], run[1]) for run, rect in open_.items()]
        open_ = grown
    done += [(rect[0], run[0], rect[1], run[1]) for run, rect in open_.items()]
    out = []
    for top, left, bottom, right in sorted(done):
        a, b = Square(left, top), Square(right, bottom)
        out.append(str(a) if a == b else f"{a}:{b}")
    return out


def _stretches(squares: list[Square]) -> list[list[Square]]:
    """River squares of one flow in stretches of squares that touch (8 ways), each from its first square
    in reading order: one entry per stretch of a river reads better than one per direction of the map."""
    left = set(squares)
    out: list[list[Square]] = []
    for start in sorted(squares, key=_reading_order):
        if start not in left:
            continue
        left.discard(start)
        stretch, todo = [start], [start]
        while todo:
            sq = todo.pop()
            for dc, dr in COMPASS.values():
                if sq.col + dc < 0 or sq.row + dr < 0:
                    continue
                nb = Square(sq.col + dc, sq.row + dr)
                if nb in left:
                    left.discard(nb)
                    stretch.append(nb)
                    todo.append(nb)
        out.append(stretch)
    return out


def _reading_order(sq: Square) -> tuple[int, int]:
    return sq.row, sq.col


def _in_side_order(state: CampaignState, keyed: Mapping[str, Any]) -> list[str]:
    """The keys of ``keyed``: the sides' first, in their order, then any other (refused by the parser)."""
    return [k for k in state.sides if k in keyed] + sorted(k for k in keyed if k not in state.sides)


# --- sides and Forces ------------------------------------------------------------------------


def _side(state: CampaignState, key: str) -> dict[str, Any]:
    s = state.sides[key]
    out: dict[str, Any] = {"key": key, "name": _named(state, f"side:{key}", s.name)}
    colour = _text(s.colour)
    if len(colour) == 7 and colour.startswith("#") and all(c in "0123456789abcdefABCDEF" for c in colour[1:]):
        out["colour"] = colour
    if s.nation:
        out["nation"] = _text(s.nation)[:LIMITS.nation]
    return out


def _alliances(state: CampaignState) -> list[list[str]]:
    """Each camp of two or more sides (RU-19), its sides in the campaign's order."""
    camps: dict[str, list[str]] = {}
    for key in state.sides:
        camps.setdefault(state.camps[key], []).append(key)
    return [keys for keys in camps.values() if len(keys) > 1]


def _kept(force: ForceState) -> bool:
    """A Force the scenario holds: on the map or still to come, with a unit left."""
    if not any(u.sp > 0 for u in force.units) or force.square is None:
        return False
    return force.status is ForceStatus.PENDING or force.active


def _check_positions(state: CampaignState, on_map: list[ForceState]) -> None:
    by_square: dict[str, list[ForceState]] = {}
    for f in on_map:
        sq = state.map.parse(f.square or "")
        if state.map.cell(sq).terrain.is_water:
            raise InvalidInput("{force} is on water at {square}: a scenario starts its Forces on land. Save the "
                               "campaign once it has landed (MC-5.3).", force=f.name, square=str(sq))
        by_square.setdefault(str(sq), []).append(f)
    for square, here in by_square.items():
        if any(state.camps.hostile(a.side, b.side) for a in here for b in here):
            raise InvalidInput("{forces} stand on {square}, enemies on one square: a scenario starts enemies apart. "
                               "Save the campaign once they have parted (after the battle, or their next "
                               "move).", forces=Msg.join(", ", [f.name for f in here]), square=square)


def _arrives(state: CampaignState, force: ForceState) -> int:
    """The turn a reinforcement arrives in the new campaign, whose turn 1 is the saved turn."""
    due = (force.arrives_turn or state.turn) - state.turn + 1
    return min(max(due, FIRST_REINFORCEMENT_TURN), 1000)


class _Leaders:
    """The leader the scenario gives each Force, names kept apart (the parser refuses two alike)."""

    def __init__(self, state: CampaignState) -> None:
        self.state = state
        self.fallen: dict[str, LeaderState] = {}
        """A Force's leader who commands no more, when no New Leader has taken over: his Command Value passes on."""
        self.names: set[str] = set()

    def of(self, force: ForceState) -> dict[str, Any]:
        ld = self.state.commander(force.key)
        if ld is not None and replacement_for(ld.status) is not Commander.NEW_LEADER:
            name, cv = _text(ld.name), ld.cv
        else:
            name, cv = f"New Leader of {_text(force.name)}", ld.cv if ld is not None else 0
        name = name[:LIMITS.name].strip()
        if fold_name(name) in self.names:
            suffix = f" ({force.key})"
            name = name[:LIMITS.name - len(suffix)].rstrip() + suffix
        self.names.add(fold_name(name))
        return {"name": name, "cv": min(max(cv, -3), 10)}


def _force(force: ForceState, leaders: _Leaders) -> dict[str, Any]:
    out: dict[str, Any] = {"key": force.key, "name": _named(leaders.state, f"force:{force.key}", force.name),
                           "side": force.side, "square": force.square}
    if force.order is not Order.EXPLORE:
        out["order"] = force.order.value
    if force.scouts:
        out["scouts"] = min(force.scouts, 20)
    if force.small_boats:
        out["small_boats"] = True
    if force.horse_rafts:
        out["horse_rafts"] = True
    out["leader"] = leaders.of(force)
    out["units"] = [_unit(u) for u in force.units if u.sp > 0]
    return out


def _recruit(r: Recruit) -> dict[str, Any]:
    out = _unit(r.unit)
    if r.cost != r.unit.sp:
        out["cost"] = min(r.cost, 10_000)
    return out


def _unit(u: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"key": u.key, "name": _text(u.name), "sp": min(u.sp, 10_000)}
    if u.type is not UnitType.INFANTRY:
        out["type"] = u.type.value
    if u.quality is not Quality.AVERAGE:
        out["quality"] = u.quality.value
    if u.mercenary:
        out["mercenary"] = True
    if not u.flag:
        out["flag"] = False
    return out


def _named(state: CampaignState, slot: str, name: str) -> Any:
    """A name as the scenario format writes it: in every language the campaign has it in (issue 23,
    ``{en: Austria, fr: Autriche}``), or as its text."""
    said = state.names.get(slot)
    if said and len(said) > 1:
        return {lang: _text(text) for lang, text in said.items()}
    return _text(name)


def _text(value: Any) -> str:
    """Plain text (a :class:`Msg` or another ``str`` subclass is written as the text it shows)."""
    return str.__str__(value) if isinstance(value, str) else str(value)


def _value(value: Any) -> str:
    return str(getattr(value, "value", value))


# --- YAML ------------------------------------------------------------------------------------


class _Rows(list[str]):
    """The map's rows: one per line, each quoted."""


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True  # the parser refuses aliases


_Dumper.add_representer(_Rows, lambda dumper, rows: dumper.represent_sequence(
    "tag:yaml.org,2002:seq", [_Quoted(r) for r in rows], flow_style=False))


class _Quoted(str):
    pass


_Dumper.add_representer(_Quoted, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", str(text),
                                                                               style='"'))


def dump(data: Mapping[str, Any]) -> str:
    """A scenario's plain data as YAML: keys in the order given, the map's rows one per line, other short
    lists and mappings inline; always the same text for the same data."""
    return yaml.dump(dict(data), Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None,
                     width=120)
