"""A campaign's state as JSON and back: :func:`encode` and :func:`decode`, versioned, every value checked.

:func:`encode` writes a :class:`~bot.campaign.state.CampaignState` as plain JSON values (a *state
document*); :func:`decode` reads one back, refusing with an :class:`InvalidInput` that names the field
(``sides[2].key``, ``forces[3].units[0].sp``) whatever a document holds that the rules could never
reach: an unknown enum, a malformed or repeated key, a square off the map, SP out of range, a
reference to a side, Force, unit, leader or battle that does not exist, a name that is invisible or
another's, a date or option the rules do not allow, camps that contradict each other, a seed that does
not match its published hash. What decodes is a state every reader and every rule can work on.

The document, version 3 (:data:`VERSION`)::

    {"version": 3, "id", "name", "turn", "phase", "status", "climate", "theatre", "start_date",
     "last_turn", "sight", "gm_id", "gm_role_id", "weather",
     "settings": {option: value},           # the rule options (RU-22), typed by Settings
     "options": {"_bot": ..., ...},         # the bot's own bookkeeping kept with them
     "holdings": {square: side},
     "map": {"width", "height", "adjacency",
             "cells": [{"square", "terrain", "features", "territory", "stronghold", "capital", "river_flow",
                        "place": null or {"name", "kind"}}]},
     "sides": [{"key", "name", "colour", "nation", "capital", "battles_won", "battles_lost",
                "strongholds_taken", "strongholds_lost", "holds_enemy_capital", "lost_capital", "supply",
                "supply_income", "movement_modifier", "done", "must_test", "defeated", "last_seen", "camp",
                "purchases": [{"turn", "kind", "force", "unit", "count", "reduced", "cost"}],
                "recruits": [{"unit": {...as a Force's unit}, "cost"}]}],
     "forces": [{"key", "side", "name", "square", "order", "reaction", "scouts", "status", "arrives_turn",
                 "wtf_marker", "small_boats", "horse_rafts", "units": [{"key", "name", "sp", "original_sp", "type", "quality",
                                          "mercenary", "flag", "heroic"}]}],
     "leaders": [{"key", "name", "cv", "status", "kind", "designation", "force"}],
     "declarations": [{"turn", "phase", "force", "side", "kind", "payload"}],   # payload: :mod:`.plain`
     "battles": [{"number", "turn", "square", "forces", "sides", "status",
                  "report", "scouting", "aftermath"}],                           # each part: :mod:`.plain`
     "glory": [{"side", "turn", "amount", "reason", "kind", "rule", "battle", "subject"}],
     "leader_events": [{"leader", "turn", "status", "reason"}],
     "seeds": [{"turn", "seed", "sha256", "chain_head", "reseeded_after"}],
     "players": [{"member", "side"}],
     "requests": [{"member", "side", "name"}],   # members asking to join, waiting for the GM
     "tables": {"weather", "calendar", "events"},  # the scenario's own RU-10 tables, each optional
     "names": {"side:au": {"en": "Austria", "fr": "Autriche"}}}  # names in other languages (issue 23)

Every field is written, every time (a battle's parts and a declaration's payload leave out what is
empty, :mod:`.plain`); lists keep the state's order, so ``encode(decode(doc)) == doc``.

**Version 3** holds a battle's scouting, report and aftermath and a declaration's payload as typed parts
of the state (:mod:`.plain` writes and reads them, in the shape version 2 had); its aftermath adds the
GM's choices in a disputed report (``taken``) and the sides that agreed to a quick battle
(``quick_agreed``), which version 2 could not carry. A document of version 2 is read as it is.

``requests`` came later within version 2: a document without it has no request waiting; so did
``last_turn`` (the scenario's last turn, RU-25: without it, none) and a
cell's ``place`` (the name a scenario gives a square, :class:`~bot.engine.model.Place`): a cell without
it names no place; and a Force's ``small_boats`` and ``horse_rafts`` (what its scenario states for its
moves by water, MC-5.3): a Force without them has no such statement; and ``tables``, the scenario's own
weather, calendar and random-events tables (RU-10, each of its rules file's shape): a document without it
plays the house rules; and a side's ``recruits``, the new units it may still buy (FC-2, RU-24): a side
without it has none; and ``names``, the scenario's title, sides, Forces and places in other languages
(issue 23): a document without it names them in one language.

**Fair play.** A turn's seed is written only once it is revealed (docs/dice.md): a document never holds
the seed of a turn still being played, not even for the GM, and a seed a document gives for a turn not
yet ended is refused (an import draws the current turn's seed anew). So ``decode(encode(state))`` is
``state`` without its unrevealed seed.

**The previous format.** Exports of version 1 held the database rows (``"tables"``) beside the campaign
row's fields; :func:`decode` reads them too, converting them first, and its refusals then name the
field of the version-1 file (``tables.unit[4].sp``).

The log that an export carries beside the state is checked by :func:`decode_log`: only the code's own
message templates, and every roll of an ended turn re-derived from that turn's revealed seed.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import cache, partial
from typing import Any

from bot.engine.camps import CAMP_JOINER
from bot.engine.cc_model import GloryKind, Theatre
from bot.engine.dice import seed_commitment
from bot.engine.errors import EngineError, InvalidInput
from bot.engine.field_commander import PurchaseKind
from bot.engine.grid import COMPASS, CampaignMap
from bot.engine.model import (
    Cell,
    Climate,
    Feature,
    LeaderStatus,
    Order,
    Place,
    PlaceKind,
    Quality,
    Reaction,
    Square,
    Terrain,
    UnitType,
)
from bot.engine.phases import Phase
from bot.engine.reports import parse_report, report_data
from bot.engine.rolls import Roll, record_from_dict
from bot.engine.tables import HOUSE_TABLES, ScenarioTables, TableProblem, default_rulebook, read_scenario_tables
from bot.engine.text import Msg, UnknownMessage
from bot.engine.uploads import bad_character, bad_character_msg
from bot.engine.verify import FORMAT as ROLL_LOG_FORMAT
from bot.engine.verify import OWN_TABLES, key_turn, verify_log
from bot.scenario import COLOUR_RE, KEY_RE, LIMITS, NAME_LANGUAGES, START_DATE_RANGE, fold_name

from .audience import entry_visibility
from .events import EventKind
from .plain import (
    AGREED,
    WINNER,
    aftermath_data,
    aftermath_from,
    payload_data,
    payload_from,
    report_from,
    scouting_data,
    scouting_from,
)
from .settings import Settings
from .state import (
    Battle,
    BattleStatus,
    CampaignState,
    CampaignStatus,
    Declaration,
    DeclarationKind,
    ForceState,
    ForceStatus,
    GloryEntry,
    JoinRequest,
    LeaderEvent,
    LeaderKind,
    LeaderState,
    Recruit,
    SideState,
    SupplyPurchase,
    TurnSeed,
    UnitState,
)

VERSION = 3
"""The state document's version (and the export file's: :mod:`bot.services.exchange`)."""
READ_VERSIONS = (2, 3)
"""The state documents :func:`decode` reads (an export file of version 1 too, converted)."""
FORMAT = "aide-de-camp/campaign"
"""An export file's ``format``: a state document under ``"state"``, with the log (version 2), or the
rows of version 1."""
MAX_INT = 2**63 - 1
"""BIGINT: Discord ids are 64-bit snowflakes."""
MAX_TURN = 10_000
MAX_SP = 10_000
"""SP of one unit: a scenario's most (bot/scenario.py), and a GM's correction's."""
MAX_COUNT = 100_000
"""Tallies (battles won, strongholds taken, supply points), battle numbers."""
MAX_ROWS = 200_000
MAX_LOCAL_NAMES = 2_000
"""Names in other languages a campaign document may carry (its title, sides, Forces and places)."""
"""Entries a document (or a log) may hold in all."""
MAX_LOG_TEXT = 4_000
"""A log entry's stored plain text, in characters."""
MAX_REASON = 200
MAX_SUBJECT = 100
MAX_SCOUTS = 100
MAX_PATH = 30
MAX_BOT_OPTIONS = 20
HEX64_RE = re.compile(r"^[0-9a-f]{64}$")
TOKEN_RE = re.compile(r"^[0-9a-f]{1,64}$")
RULE_RE = re.compile(r"^(MC|CC|FC|RU|BR)-\d{1,2}(\.\d{1,2})?$")
BATTLE_VISIBILITY_RE = re.compile(r"^battle:[1-9]\d{0,5}$")
BOT_OPTIONS = ("_bot", "_reminded", "_rev")
LOCAL_BOT_OPTIONS = ("card", "requests_card")
"""Bot settings of this server only (a message id in its channel), never exported."""
"""The bot's own bookkeeping kept among a campaign's options (``_`` keys, never rule options)."""
AFTERMATH_KEYS = ("sp_before", "commanders", "rolled", "retreats", "fates", "trophies", "claims", "draft", "taken",
                  AGREED)
"""A battle's claims and Phase 4 bookkeeping (:class:`~.state.Aftermath`); the last two since version 3."""
TAKEN = ("of", "fields")
ORDER_PAYLOAD = ("order", "roll")
MOVE_PAYLOAD = ("start", "path", "allowance", "by_water", "small_boats", "horse_rafts", "roll")
MOVE_PAYLOAD_OPTIONAL = ("start", "by_water", "small_boats", "horse_rafts")
"""``start`` and ``by_water``: written by every version of the bot but the first ones; the boats and
rafts of a move by water (MC-5.3), for a scout's re-roll (FC-3)."""
LOG_FIELDS = ("turn", "phase", "kind", "visibility", "text", "data", "roll_key", "undone", "created_at")

DOCUMENT = ("version", "id", "name", "turn", "phase", "status", "climate", "theatre", "start_date", "sight",
            "gm_id", "gm_role_id", "weather", "settings", "options", "holdings", "map", "sides", "forces",
            "leaders", "declarations", "battles", "glory", "leader_events", "seeds", "players", "requests",
            "last_turn", "tables", "names")
DOCUMENT_OPTIONAL = ("requests", "last_turn", "tables", "names")
"""Fields a document of version 2 written before them leaves out."""
MAP = ("width", "height", "adjacency", "cells")
CELL = ("square", "terrain", "features", "territory", "stronghold", "capital", "river_flow", "place")
CELL_OPTIONAL = ("place",)
"""Fields of a cell that a document written before them leaves out."""
PLACE = ("name", "kind")
SIDE = ("key", "name", "colour", "nation", "capital", "battles_won", "battles_lost", "strongholds_taken",
        "strongholds_lost", "holds_enemy_capital", "lost_capital", "supply", "supply_income", "movement_modifier",
        "done", "must_test", "defeated", "last_seen", "camp", "purchases", "recruits")
SIDE_OPTIONAL = ("recruits",)
"""A side's recruit pool (RU-24): a document written before it leaves it out (the side has none)."""
RECRUIT = ("unit", "cost")
PURCHASE = ("turn", "kind", "force", "unit", "count", "reduced", "cost")
FORCE = ("key", "side", "name", "square", "order", "reaction", "scouts", "status", "arrives_turn", "wtf_marker",
         "units", "small_boats", "horse_rafts")
FORCE_OPTIONAL = ("small_boats", "horse_rafts")
"""What a scenario states for a Force's moves by water (MC-5.3): a document written before leaves them out
(the Force has no such statement)."""
UNIT = ("key", "name", "sp", "original_sp", "type", "quality", "mercenary", "flag", "heroic")
LEADER = ("key", "name", "cv", "status", "kind", "designation", "force")
DECLARATION = ("turn", "phase", "force", "side", "kind", "payload")
BATTLE = ("number", "turn", "square", "forces", "sides", "status", "report", "scouting", "aftermath")
GLORY = ("side", "turn", "amount", "reason", "kind", "rule", "battle", "subject")
LEADER_EVENT = ("leader", "turn", "status", "reason")
SEED = ("turn", "seed", "sha256", "chain_head", "reseeded_after")
PLAYER = ("member", "side")
REQUEST = ("member", "side", "name")


# --- encode ------------------------------------------------------------------------------------------


def _report_doc(value: Any, where: str) -> None:
    """A stored BR document (a side's claim or the GM's draft), without its battle number."""
    if not isinstance(value, dict):
        raise InvalidInput("{where}: expected an object, got {name}", where=where, name=_type_name(value))
    try:
        parse_report({"battle": "0", **value})
    except EngineError as exc:
        raise InvalidInput("{where}: {reason}", where=where, reason=exc.text) from None


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data (what payloads, reports and the Phase 4 bookkeeping hold)."""
    return json.loads(json.dumps(value))


def _exported(key: str, value: Any) -> Any:
    """A bot option as an export carries it: without what names a message of this server's channel (the
    phase card's id)."""
    if key == "_bot" and isinstance(value, dict):
        return {k: v for k, v in value.items() if k not in LOCAL_BOT_OPTIONS}
    return value


def encode(state: CampaignState) -> dict[str, Any]:
    """``state`` as plain JSON values (the module doc's document), without the seed of any turn not
    yet revealed."""
    return {
        "version": VERSION, "id": state.id, "name": state.name, "turn": state.turn, "phase": int(state.phase),
        "status": state.status.value, "climate": state.climate.value, "theatre": state.theatre,
        "start_date": state.start_date.isoformat(), "last_turn": state.last_turn, "sight": state.sight,
        "gm_id": state.gm_id,
        "gm_role_id": state.gm_role_id, "weather": state.weather,
        "settings": state.settings.as_options(),
        "options": _copy({k: _exported(k, v) for k, v in state.options.items() if k in BOT_OPTIONS}),
        "holdings": dict(state.holdings),
        "map": {"width": state.map.width, "height": state.map.height, "adjacency": state.map.adjacency,
                "cells": [_encode_cell(sq, c) for sq, c in state.map.cells.items()]},
        "sides": [_encode_side(s) for s in state.sides.values()],
        "forces": [_encode_force(f) for f in state.forces.values()],
        "leaders": [{"key": ld.key, "name": ld.name, "cv": ld.cv, "status": ld.status.value, "kind": ld.kind.value,
                     "designation": ld.designation.value if ld.designation else None, "force": ld.force}
                    for ld in state.leaders.values()],
        "declarations": [{"turn": d.turn, "phase": int(d.phase), "force": d.force, "side": d.side,
                          "kind": d.kind.value, "payload": _copy(payload_data(d.payload))} for d in state.declarations],
        "battles": [{"number": b.number, "turn": b.turn, "square": b.square, "forces": list(b.forces),
                     "sides": list(b.sides), "status": b.status.value,
                     "report": None if b.report is None else report_data(b.report),
                     "scouting": scouting_data(b.scouting), "aftermath": _copy(aftermath_data(b.aftermath))}
                    for b in state.battles.values()],
        "glory": [{"side": g.side, "turn": g.turn, "amount": g.amount, "reason": str(g.reason), "kind": g.kind,
                   "rule": g.rule, "battle": g.battle, "subject": g.subject} for g in state.glory],
        "leader_events": [{"leader": e.leader, "turn": e.turn, "status": e.status.value, "reason": str(e.reason)}
                          for e in state.leader_events],
        "seeds": [{"turn": s.turn, "seed": s.seed_hex, "sha256": s.sha256, "chain_head": s.chain_head,
                   "reseeded_after": s.reseeded_after} for s in state.seeds.values() if s.revealed],
        "players": [{"member": m, "side": side} for m, side in state.players.items()],
        "requests": [{"member": r.member, "side": r.side, "name": r.name} for r in state.requests.values()],
        "tables": state.tables.to_data(),
        "names": {slot: dict(said) for slot, said in state.names.items()},
    }


GAME = ("turn", "phase", "status", "weather", "holdings", "sides", "forces", "leaders", "declarations", "battles",
        "glory", "leader_events")
"""What an undo snapshot keeps of a document: the game a phase resolution changes (not the map, which
never changes, nor the members, seeds and settings, which undo leaves as they are now)."""


def encode_game(state: CampaignState) -> dict[str, Any]:
    """The :data:`GAME` part of :func:`encode`'s document (an undo snapshot, issue 26 item 3)."""
    game = replace(state, map=CampaignMap(state.map.width, state.map.height, {}, state.map.adjacency))
    doc = encode(game)
    return {k: doc[k] for k in GAME}


def decode_game(game: Mapping[str, Any], now: CampaignState) -> CampaignState:
    """The state ``now`` with the game :func:`encode_game` kept put back, every value checked against
    ``now``'s map, as any document is (:func:`decode`)."""
    doc = encode(now)
    doc.update({k: game[k] for k in GAME if k in game})
    back = decode(doc)
    return replace(now, turn=back.turn, phase=back.phase, status=back.status, weather=back.weather,
                   holdings=back.holdings, sides=back.sides, forces=back.forces, leaders=back.leaders,
                   declarations=back.declarations, battles=back.battles, glory=back.glory,
                   leader_events=back.leader_events)


def _encode_cell(sq: Square, c: Cell) -> dict[str, Any]:
    return {"square": str(sq), "terrain": c.terrain.value, "features": sorted(f.value for f in c.features),
            "territory": c.territory, "stronghold": c.stronghold, "capital": c.capital, "river_flow": c.river_flow,
            "place": None if c.place is None else {"name": c.place.name, "kind": c.place.kind.value}}


def _encode_side(s: SideState) -> dict[str, Any]:
    return {"key": s.key, "name": s.name, "colour": s.colour, "nation": s.nation, "capital": s.capital,
            "battles_won": s.battles_won, "battles_lost": s.battles_lost, "strongholds_taken": s.strongholds_taken,
            "strongholds_lost": s.strongholds_lost, "holds_enemy_capital": s.holds_enemy_capital,
            "lost_capital": s.lost_capital, "supply": s.supply, "supply_income": s.supply_income,
            "movement_modifier": s.movement_modifier, "done": s.done, "must_test": str(s.must_test),
            "defeated": s.defeated, "last_seen": dict(s.last_seen), "camp": s.camp,
            "purchases": [{"turn": p.turn, "kind": p.kind.value, "force": p.force, "unit": p.unit, "count": p.count,
                           "reduced": p.reduced, "cost": p.cost} for p in s.purchases],
            "recruits": [{"unit": _encode_unit(r.unit), "cost": r.cost} for r in s.recruits]}


def _encode_unit(u: UnitState) -> dict[str, Any]:
    return {"key": u.key, "name": u.name, "sp": u.sp, "original_sp": u.original_sp, "type": u.type.value,
            "quality": u.quality.value, "mercenary": u.mercenary, "flag": u.flag, "heroic": u.heroic}


def _encode_force(f: ForceState) -> dict[str, Any]:
    return {"key": f.key, "side": f.side, "name": f.name, "square": f.square, "order": f.order.value,
            "reaction": f.reaction.value if f.reaction else None, "scouts": f.scouts, "status": f.status.value,
            "arrives_turn": f.arrives_turn, "wtf_marker": f.wtf_marker, "small_boats": f.small_boats,
            "horse_rafts": f.horse_rafts,
            "units": [_encode_unit(u) for u in f.units]}


# --- refusals ----------------------------------------------------------------------------------------


def _at(where: str, name: str | int) -> str:
    if isinstance(name, int):
        return f"{where}[{name}]"
    return f"{where}.{name}" if where else name


def _shown(value: Any) -> str:
    return str(value)[:40]


def fail(where: str, what: Msg, value: Any = None) -> InvalidInput:
    """The refusal of the field ``where``: its value (cut short) and what was expected."""
    if value is None:
        return InvalidInput("{where}: {what}", where=where or "(top)", what=what)
    return InvalidInput("{where}: {value!r}: {what}", where=where or "(top)", value=_shown(value), what=what)


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _obj(value: Any, where: str, names: Sequence[str], optional: Iterable[str] = ()) -> Mapping[str, Any]:
    """An object with the fields ``names`` (those of ``optional`` may be left out), and no other."""
    if not isinstance(value, dict):
        raise InvalidInput("{where}: expected an object, got {name}", where=where or "(top)", name=_type_name(value))
    if unknown := sorted(str(k) for k in value if k not in names):
        raise InvalidInput("{where}: unknown field(s) {map}", where=where or "(top)", map=", ".join(unknown)[:200])
    skip = set(optional)
    for name in names:
        if name not in value and name not in skip:
            raise InvalidInput("{where}: missing", where=_at(where, name))
    return value


def _list(value: Any, where: str, most: int) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidInput("{where}: expected a list, got {name}", where=where, name=_type_name(value))
    if len(value) > most:
        raise fail(where, Msg("at most {limit:,} entries", limit=most))
    return value


def _int(value: Any, where: str, low: int, high: int, *, optional: bool = False) -> Any:
    if optional and value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_INT:
        raise InvalidInput("{where}: expected a whole number (at most {max_int:,} in size), got {value!r}",
                           where=where, max_int=MAX_INT, value=_shown(value))
    if not low <= value <= high:
        raise fail(where, Msg("a whole number from {low:,} to {high:,}", low=low, high=high), value)
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput("{where}: expected true or false, got {value!r}", where=where, value=_shown(value))
    return value


def _text(value: Any, where: str, most: int, *, optional: bool = False) -> Any:
    if optional and value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput("{where}: expected text, got {name}", where=where, name=_type_name(value))
    if len(value) > most:
        raise fail(where, Msg("at most {max_len} characters, got {n_v}", max_len=most, n_v=len(value)))
    if (char := bad_character(value)) is not None:
        raise fail(where, bad_character_msg(char))
    return value


def _one_of(value: Any, where: str, allowed: Iterable[Any], *, optional: bool = False) -> Any:
    """One of ``allowed`` (a dict or set is looked up by hash: references to thousands of keys)."""
    if optional and value is None:
        return None
    if not isinstance(allowed, dict | set | frozenset):
        allowed = tuple(allowed)
    if isinstance(value, bool) or not isinstance(value, str | int) or value not in allowed:
        shown = ", ".join(str(a) for a, _ in zip(allowed, range(50), strict=False))
        raise fail(where, Msg("not one of {allowed}", allowed=shown[:200]), value if value is not None else "null")
    return value


@cache
def _values(kind: Any) -> dict[Any, None]:
    return dict.fromkeys(m.value for m in kind)


def _enum(kind: Any, value: Any, where: str, *, optional: bool = False) -> Any:
    if optional and value is None:
        return None
    return kind(_one_of(value, where, _values(kind)))


def _key(value: Any, where: str) -> str:
    if not isinstance(value, str) or not KEY_RE.match(value):
        raise fail(where, Msg("a key is 1 to 32 lowercase letters, digits, - or _"), value if value is not None
                   else "null")
    return value


def _name(value: Any, where: str, most: int = LIMITS.name) -> str:
    """A name as the scenario's rules have it: visible (not only spaces or invisible characters), at most
    ``most`` characters, clean."""
    if not isinstance(value, str) or not value.strip() or len(value) > most:
        raise fail(where, Msg("a name is 1 to {limit} characters", limit=most), value if value is not None
                   else "null")
    if not fold_name(value):
        raise fail(where, Msg("{v!r} has no visible character: invisible (format) characters and spaces only",
                              v=_shown(value)))
    return _text(value, where, most)


def _square(value: Any, where: str, cmap: CampaignMap, *, optional: bool = False) -> Any:
    """A square of the map, written as the bot writes it (``D4``)."""
    if optional and value is None:
        return None
    try:
        sq = Square.parse(value) if isinstance(value, str) else None
    except EngineError:
        sq = None
    if sq is None:
        raise fail(where, Msg("not a square"), value if value is not None else "null")
    if not cmap.contains(sq):
        raise fail(where, Msg("not a square of the {width}x{height} map", width=cmap.width, height=cmap.height),
                   value)
    if str(sq) != value:
        raise fail(where, Msg("write the square as {square}", square=str(sq)), value)
    return value


def _place(value: Any, where: str) -> Place | None:
    """A cell's place: null, or its name (as a scenario's, :data:`LIMITS.place <bot.scenario.ScenarioLimits>`
    characters at most) and kind."""
    if value is None:
        return None
    p = _obj(value, where, PLACE)
    return Place(_name(p["name"], _at(where, "name"), LIMITS.place), _enum(PlaceKind, p["kind"], _at(where, "kind")))


def _hex64(value: Any, where: str, *, optional: bool = False) -> Any:
    if optional and value is None:
        return None
    if not isinstance(value, str) or not HEX64_RE.match(value):
        raise fail(where, Msg("a SHA-256 is 64 lowercase hexadecimal digits"), value if value is not None else "null")
    return value


def _unique(where: str | Callable[[int], str], values: Iterable[Any]) -> None:
    seen: set[Any] = set()
    for i, v in enumerate(values):
        if v in seen:
            raise fail(where if isinstance(where, str) else where(i), Msg("two rows share it"), v)
        seen.add(v)


def _names(named: Sequence[tuple[str, str | None, str]], keys: Iterable[str], taken_key: Msg | None) -> None:
    """Names of one kind (their path, their own key, the name): none the key of another (``keys``), when
    ``taken_key`` says why, and no two alike, compared as scenarios compare them
    (:func:`bot.scenario.fold_name`): a reader who types a key gets the thing with that key, one who
    types a name the one thing with that name."""
    all_keys = set(keys)
    first: dict[str, str] = {}
    for where, own, name in named:
        folded = fold_name(name)
        if taken_key is not None and folded in all_keys and folded != own:
            raise fail(where, taken_key, name)
        if folded in first:
            raise fail(where, Msg("{name!r} is also the name of {other} (names are compared without case and "
                                  "invisible characters)", name=_shown(name), other=first[folded]))
        first[folded] = where


expect_object = _obj
"""An object with the given fields (those of ``optional`` may be left out), and no other."""
expect_text = _text
"""Clean text of at most the given length."""
expect_one_of = _one_of
"""One of the allowed values."""


# --- decode ------------------------------------------------------------------------------------------


def decode(data: Any) -> CampaignState:
    """The state a document holds (:func:`encode`'s, or the ``"state"`` of an export file of version 2,
    or an export file of version 1, converted), every value checked; :class:`InvalidInput` naming the
    field otherwise. The state holds no seed of a turn not yet ended."""
    if isinstance(data, dict) and data.get("format") == FORMAT:
        if data.get("version") == 1:
            return _decode_v1(data)
        if data.get("version") not in READ_VERSIONS or isinstance(data.get("version"), bool):
            version = data.get("version")
            raise InvalidInput("Unsupported export version {get!r}: this bot reads versions 1, 2 and 3.",
                               get=version if isinstance(version, int) else _shown(version))
        return _Decoder("state").document(data.get("state"))
    return _Decoder("").document(data)


@dataclass
class _Refs:
    """What entries may refer to, gathered before they are read."""

    sides: tuple[str, ...] = ()
    forces: dict[str, str] | None = None
    """Force key -> its side key."""
    units: dict[str, str] | None = None
    """Unit key -> its Force's key."""
    leaders: dict[str, None] | None = None
    battles: dict[int, None] | None = None


class _Decoder:
    def __init__(self, base: str) -> None:
        self.base = base
        self.refs = _Refs()
        self.cmap = CampaignMap(2, 2)
        self.turn = 1
        self.phase = Phase.WEATHER
        self.status = CampaignStatus.ACTIVE
        self.side_states: dict[str, SideState] = {}
        self.recruit_keys: set[str] = set()

    def at(self, name: str) -> str:
        return _at(self.base, name)

    # --- the document ---------------------------------------------------------------------------

    def document(self, data: Any) -> CampaignState:
        doc = _obj(data, self.base, DOCUMENT, optional=DOCUMENT_OPTIONAL)
        if doc["version"] not in READ_VERSIONS or isinstance(doc["version"], bool):
            raise fail(self.at("version"), Msg("not one of {allowed}", allowed=", ".join(map(str, READ_VERSIONS))),
                       doc["version"])
        at = self.at
        name = _name(doc["name"], at("name"))
        self.turn = _int(doc["turn"], at("turn"), 1, MAX_TURN)
        self.phase = Phase(_int(doc["phase"], at("phase"), 0, max(Phase)))
        self.status = _enum(CampaignStatus, doc["status"], at("status"))
        climate = _enum(Climate, doc["climate"], at("climate"))
        theatre = _one_of(doc["theatre"], at("theatre"), _values(Theatre))
        start = self.date(doc["start_date"], at("start_date"))
        last_turn = _int(doc.get("last_turn"), at("last_turn"), 1, MAX_TURN, optional=True)
        sight = _int(doc["sight"], at("sight"), 0, 20)
        campaign_id = _int(doc["id"], at("id"), 0, MAX_INT)
        gm_id = _int(doc["gm_id"], at("gm_id"), 0, MAX_INT)
        gm_role_id = _int(doc["gm_role_id"], at("gm_role_id"), 1, MAX_INT, optional=True)
        tables = self.tables(doc.get("tables", {}))
        weather = _one_of(doc["weather"], at("weather"), tables.apply(default_rulebook()).weather.kinds, optional=True)
        settings = self.settings(doc["settings"])
        options = {**settings.as_options(), **self.options(doc["options"])}
        lists = {k: _list(doc[k], at(k), MAX_ROWS) for k in ("sides", "forces", "leaders", "declarations",
                                                              "battles", "glory", "leader_events", "seeds",
                                                              "players")}
        lists["requests"] = _list(doc.get("requests", []), at("requests"), MAX_ROWS)
        if sum(len(v) for v in lists.values()) > MAX_ROWS:
            raise fail(self.base, Msg("at most {limit:,} entries", limit=MAX_ROWS))
        self.keys(lists)
        self.cmap = self.map(doc["map"], settings)
        sides = self.sides(lists["sides"])
        forces = self.forces(lists["forces"])
        leaders = self.leaders(lists["leaders"])
        self.names(sides, forces, leaders)
        holdings = self.holdings(doc["holdings"])
        for i, s in enumerate(sides.values()):
            for j, p in enumerate(s.purchases):
                self.purchase_refs(p, _at(_at(_at(at("sides"), i), "purchases"), j), s.key, forces)
        return CampaignState(
            id=campaign_id, name=name, turn=self.turn, phase=self.phase, status=self.status, settings=settings,
            climate=climate, theatre=theatre, start_date=start, map=self.cmap, sight=sight, gm_id=gm_id,
            gm_role_id=gm_role_id, weather=weather, holdings=holdings, sides=sides, forces=forces, leaders=leaders,
            declarations=self.declarations(lists["declarations"], forces),
            battles=self.battles(lists["battles"], forces, leaders),
            glory=self.glory(lists["glory"]), leader_events=self.leader_events(lists["leader_events"]),
            seeds=self.seeds(lists["seeds"]), players=(players := self.players(lists["players"])),
            requests=self.requests(lists["requests"], players), options=options, last_turn=last_turn, tables=tables,
            names=self.local_names(doc.get("names", {}), sides, forces),
        )

    def local_names(self, value: Any, sides: Mapping[str, Any], forces: Mapping[str, Any]) -> dict[str, dict[str, str]]:
        """The scenario's names in other languages (issue 23, item 4): ``title``, ``side:KEY``, ``force:KEY`` and
        ``place:SQUARE``, each of a side, Force or square of this campaign, to names by language."""
        where = self.at("names")
        if not isinstance(value, dict):
            raise InvalidInput("{where}: expected an object, got {name}", where=where, name=_type_name(value))
        if len(value) > MAX_LOCAL_NAMES:
            raise fail(where, Msg("at most {limit:,} entries", limit=MAX_LOCAL_NAMES))
        out: dict[str, dict[str, str]] = {}
        for slot, said in value.items():
            at = _at(where, str(slot)[:40])
            kind, _, key = str(slot).partition(":")
            known = (kind == "title" and not key) or (kind == "side" and key in sides) \
                or (kind == "force" and key in forces) or (kind == "place" and self._is_square(key))
            if not known:
                raise fail(at, Msg("not a name of this campaign: title, side:KEY, force:KEY or place:SQUARE"))
            if not isinstance(said, dict) or not said:
                raise fail(at, Msg("expected names by language, like en: Austria, fr: Autriche"))
            for lang in said:
                if lang not in NAME_LANGUAGES:
                    raise fail(_at(at, str(lang)[:8]), Msg("not a language of the bot: {languages}",
                                                            languages=", ".join(NAME_LANGUAGES)))
            most = LIMITS.place if kind == "place" else LIMITS.name
            out[str(slot)] = {lang: _name(text, _at(at, lang), most) for lang, text in said.items()}
        return out

    def _is_square(self, text: str) -> bool:
        try:
            return self.cmap.contains(Square.parse(text))
        except (ValueError, InvalidInput):
            return False

    def tables(self, value: Any) -> ScenarioTables:
        """The scenario's own RU-10 tables, read as a scenario's are (the same readers, the same bounds)."""
        where = self.at("tables")
        _obj(value, where, HOUSE_TABLES, optional=HOUSE_TABLES)
        try:
            return read_scenario_tables(value, default_rulebook(), root=where)
        except TableProblem as problem:
            raise fail(problem.path.replace(".[", "["), problem.what) from None

    @staticmethod
    def date(value: Any, where: str) -> dt.date:
        if not isinstance(value, str):
            raise InvalidInput("{where}: expected a date or time, got {value!r}", where=where, value=_shown(value))
        try:
            day = dt.date.fromisoformat(value)
        except ValueError:
            raise InvalidInput("{where}: {value!r} is not an ISO date or time", where=where,
                               value=_shown(value)) from None
        if value != day.isoformat():
            raise InvalidInput("{where}: {value!r} is not an ISO date or time", where=where, value=_shown(value))
        earliest, latest = START_DATE_RANGE
        if not earliest <= day <= latest:
            raise InvalidInput("{where}: from {earliest} to {latest}", where=where, earliest=earliest.isoformat(),
                               latest=latest.isoformat())
        return day

    def settings(self, value: Any) -> Settings:
        names = tuple(f.name for f in fields(Settings))
        given = _obj(value, self.at("settings"), names, optional=names)
        try:
            return Settings.from_options(given)
        except InvalidInput as exc:
            raise InvalidInput("{where}: {reason}", where=self.at("settings"), reason=exc.text) from None

    def options(self, value: Any) -> dict[str, Any]:
        """The bot's bookkeeping kept among the options (its settings' values are the services' to
        check: :mod:`bot.services.exchange`)."""
        where = self.at("options")
        given = _obj(value, where, BOT_OPTIONS, optional=BOT_OPTIONS)
        if "_bot" in given:
            bot = given["_bot"]
            at = _at(where, "_bot")
            if not isinstance(bot, dict):
                raise InvalidInput("{where}: expected an object, got {name}", where=at, name=_type_name(bot))
            if len(bot) > MAX_BOT_OPTIONS:
                raise fail(at, Msg("at most {limit:,} entries", limit=MAX_BOT_OPTIONS))
            for k, v in bot.items():
                _key(k, at)
                ok = isinstance(v, bool) or (isinstance(v, int) and 0 <= v <= MAX_INT) \
                    or (isinstance(v, str) and len(v) <= 40 and bad_character(v) is None)
                if not ok:
                    raise fail(_at(at, k), Msg("true, false, a word or a whole number"), v)
        if "_reminded" in given:
            reminded = given["_reminded"]
            if not isinstance(reminded, list) or len(reminded) > 10 or not all(
                    isinstance(r, str) and len(r) <= 8 and bad_character(r) is None for r in reminded):
                raise fail(_at(where, "_reminded"), Msg("a short list of reminder tags"))
        if "_rev" in given and not (isinstance(given["_rev"], str) and TOKEN_RE.match(given["_rev"])):
            raise fail(_at(where, "_rev"), Msg("a short hexadecimal token"), given["_rev"])
        return _copy(dict(given))

    # --- keys, the map, names ---------------------------------------------------------------------

    def keys(self, lists: Mapping[str, list[Any]]) -> None:
        """Every side, Force, unit and leader key and battle number, well formed and unique, before any
        entry that refers to them is read."""
        sides_at, forces_at = self.at("sides"), self.at("forces")
        side_keys = [_key(_obj(s, _at(sides_at, i), SIDE, optional=SIDE_OPTIONAL)["key"], _at(_at(sides_at, i), "key"))
                     for i, s in enumerate(lists["sides"])]
        _unique(lambda i: _at(_at(sides_at, i), "key"), side_keys)
        if not 2 <= len(side_keys) <= LIMITS.sides:
            raise fail(sides_at, Msg("a campaign needs at least two sides") if len(side_keys) < 2
                       else Msg("at most {limit} sides", limit=LIMITS.sides))
        forces: dict[str, str] = {}
        units: dict[str, str] = {}
        for i, f in enumerate(lists["forces"]):
            fat = _at(forces_at, i)
            f = _obj(f, fat, FORCE, optional=FORCE_OPTIONAL)
            key = _key(f["key"], _at(fat, "key"))
            if key in forces:
                raise fail(_at(fat, "key"), Msg("two rows share it"), key)
            forces[key] = f["side"] if isinstance(f["side"], str) else ""
            for k, u in enumerate(_list(f["units"], _at(fat, "units"), MAX_ROWS)):
                uat = _at(_at(fat, "units"), k)
                ukey = _key(_obj(u, uat, UNIT)["key"], _at(uat, "key"))
                if ukey in units:
                    raise fail(_at(uat, "key"), Msg("two rows share it"), ukey)
                units[ukey] = key
        if len(forces) > LIMITS.forces:
            raise fail(forces_at, Msg("at most {limit:,} entries", limit=LIMITS.forces))
        leaders_at = self.at("leaders")
        leader_keys = [_key(_obj(ld, _at(leaders_at, i), LEADER)["key"], _at(_at(leaders_at, i), "key"))
                       for i, ld in enumerate(lists["leaders"])]
        _unique(lambda i: _at(_at(leaders_at, i), "key"), leader_keys)
        battles_at = self.at("battles")
        numbers = [_int(_obj(b, _at(battles_at, i), BATTLE)["number"], _at(_at(battles_at, i), "number"), 1, MAX_COUNT)
                   for i, b in enumerate(lists["battles"])]
        _unique(lambda i: _at(_at(battles_at, i), "number"), numbers)
        self.refs = _Refs(tuple(side_keys), forces, units, dict.fromkeys(leader_keys), dict.fromkeys(numbers))

    def map(self, value: Any, settings: Settings) -> CampaignMap:
        where = self.at("map")
        m = _obj(value, where, MAP)
        width = _int(m["width"], _at(where, "width"), 2, LIMITS.map_side)
        height = _int(m["height"], _at(where, "height"), 2, LIMITS.map_side)
        adjacency = _one_of(m["adjacency"], _at(where, "adjacency"), (8, 4))
        if adjacency != settings.adjacency:
            raise fail(_at(where, "adjacency"), Msg("the map's adjacency is the settings' ({adjacency})",
                                                    adjacency=settings.adjacency), adjacency)
        grid = CampaignMap(width, height, {}, adjacency)
        cells: dict[Square, Cell] = {}
        cells_at = _at(where, "cells")
        for i, c in enumerate(_list(m["cells"], cells_at, width * height)):
            at = _at(cells_at, i)
            c = _obj(c, at, CELL, optional=CELL_OPTIONAL)
            sq = Square.parse(_square(c["square"], _at(at, "square"), grid))
            if sq in cells:
                raise fail(_at(at, "square"), Msg("two rows share it"), c["square"])
            features = _list(c["features"], _at(at, "features"), len(Feature))
            kinds = frozenset(_enum(Feature, f, _at(at, "features")) for f in features)
            if len(kinds) != len(features):
                raise fail(_at(at, "features"), Msg("two rows share it"))
            cell = Cell(_enum(Terrain, c["terrain"], _at(at, "terrain")), kinds,
                        _one_of(c["territory"], _at(at, "territory"), self.refs.sides, optional=True),
                        _one_of(c["stronghold"], _at(at, "stronghold"), self.refs.sides, optional=True),
                        _bool(c["capital"], _at(at, "capital")),
                        _one_of(c["river_flow"], _at(at, "river_flow"), COMPASS, optional=True),
                        _place(c.get("place"), _at(at, "place")))
            if cell.capital and cell.stronghold is None:
                raise fail(_at(at, "capital"), Msg("a capital is a stronghold of its side"))
            if cell.river_flow is not None and Feature.RIVER not in kinds:
                raise fail(_at(at, "river_flow"), Msg("only a river square has a flow"), cell.river_flow)
            cells[sq] = cell
        return CampaignMap(width, height, cells, adjacency)

    def names(self, sides: Mapping[str, SideState], forces: Mapping[str, ForceState],
              leaders: Mapping[str, LeaderState]) -> None:
        at = self.at
        _names([(_at(_at(at("sides"), i), "name"), s.key, s.name) for i, s in enumerate(sides.values())], sides,
               Msg("a side may not be named like another side's key"))
        _names([(_at(_at(at("forces"), i), "name"), f.key, f.name) for i, f in enumerate(forces.values())], forces,
               Msg("a Force may not be named like another Force's key"))
        # Two Forces may each have a "Reserve Artillery": a unit's name is read within its Force.
        units = self.refs.units or {}
        for i, f in enumerate(forces.values()):
            _names([(_at(_at(_at(_at(at("forces"), i), "units"), k), "name"), u.key, u.name)
                    for k, u in enumerate(f.units)],
                   units, Msg("a unit may not be named like another unit's key"))
        # Leaders in command are named to the players (fates, rosters): no two alike.
        _names([(_at(_at(at("leaders"), i), "name"), None, ld.name) for i, ld in enumerate(leaders.values())
                if ld.force is not None], (), None)

    # --- sides, Forces, leaders ----------------------------------------------------------------------

    def sides(self, items: list[Any]) -> dict[str, SideState]:
        out: dict[str, SideState] = {}
        forces = self.refs.forces or {}
        for i, raw in enumerate(items):
            where = _at(self.at("sides"), i)
            s = _obj(raw, where, SIDE, optional=SIDE_OPTIONAL)
            key = s["key"]
            f = partial(_at, where)
            colour = _text(s["colour"], f("colour"), 7)
            if not COLOUR_RE.match(colour):
                raise fail(f("colour"), Msg("a colour like #1f4e9c"), colour)
            capital = _square(s["capital"], f("capital"), self.cmap, optional=True)
            if capital is not None:
                cell = self.cmap.cell(Square.parse(capital))
                if not (cell.capital and cell.stronghold == key):
                    raise fail(f("capital"), Msg("not a capital of this side on the map"), capital)
            last_seen = s["last_seen"]
            if not isinstance(last_seen, dict):
                raise InvalidInput("{where}: expected an object, got {name}", where=f("last_seen"),
                                   name=_type_name(last_seen))
            for force, square in last_seen.items():
                _one_of(force, f("last_seen"), forces)
                _square(square, _at(f("last_seen"), force), self.cmap)
            purchases = tuple(self.purchase(p, _at(f("purchases"), j))
                              for j, p in enumerate(_list(s["purchases"], f("purchases"), MAX_ROWS)))
            out[key] = SideState(
                key=key, name=_name(s["name"], f("name")), colour=colour,
                nation=_text(s["nation"], f("nation"), LIMITS.nation), capital=capital,
                battles_won=_int(s["battles_won"], f("battles_won"), 0, MAX_COUNT),
                battles_lost=_int(s["battles_lost"], f("battles_lost"), 0, MAX_COUNT),
                strongholds_taken=_int(s["strongholds_taken"], f("strongholds_taken"), 0, MAX_COUNT),
                strongholds_lost=_int(s["strongholds_lost"], f("strongholds_lost"), 0, MAX_COUNT),
                holds_enemy_capital=_bool(s["holds_enemy_capital"], f("holds_enemy_capital")),
                lost_capital=_bool(s["lost_capital"], f("lost_capital")),
                supply=_int(s["supply"], f("supply"), 0, MAX_COUNT),
                movement_modifier=_int(s["movement_modifier"], f("movement_modifier"), -6, 6),
                done=_bool(s["done"], f("done")), must_test=_text(s["must_test"], f("must_test"), MAX_REASON),
                defeated=_bool(s["defeated"], f("defeated")), last_seen=dict(last_seen),
                camp=_text(s["camp"], f("camp"), 300),
                supply_income=_int(s["supply_income"], f("supply_income"), 0, MAX_COUNT), purchases=purchases,
                recruits=self.recruits(s.get("recruits", []), f("recruits")),
            )
        self.camps(out)
        self.side_states = out
        return out

    def recruits(self, value: Any, where: str) -> tuple[Recruit, ...]:
        """A side's recruit pool (RU-24): new units at full strength, keyed apart from every other unit."""
        out = []
        for j, raw in enumerate(_list(value, where, MAX_ROWS)):
            at = _at(where, j)
            r = _obj(raw, at, RECRUIT)
            unit = self.unit(r["unit"], _at(at, "unit"))
            if unit.key in (self.refs.units or {}) or unit.key in self.recruit_keys:
                raise fail(_at(_at(at, "unit"), "key"), Msg("another unit has this key"), unit.key)
            if not 0 < unit.sp == unit.original_sp:
                raise fail(_at(_at(at, "unit"), "sp"), Msg("a recruit is at its full SP, at least 1"), unit.sp)
            self.recruit_keys.add(unit.key)
            out.append(Recruit(unit, _int(r["cost"], _at(at, "cost"), 0, MAX_COUNT)))
        return tuple(out)

    def purchase(self, value: Any, where: str) -> SupplyPurchase:
        p = _obj(value, where, PURCHASE)
        return SupplyPurchase(
            turn=_int(p["turn"], _at(where, "turn"), 1, self.turn),
            kind=_enum(PurchaseKind, p["kind"], _at(where, "kind")),
            force=_one_of(p["force"], _at(where, "force"), self.refs.forces or {}),
            unit=_text(p["unit"], _at(where, "unit"), LIMITS.key),
            count=_int(p["count"], _at(where, "count"), 0, MAX_SP),
            reduced=_bool(p["reduced"], _at(where, "reduced")),
            cost=_int(p["cost"], _at(where, "cost"), 0, MAX_COUNT),
        )

    def purchase_refs(self, p: SupplyPurchase, where: str, side: str, forces: Mapping[str, ForceState]) -> None:
        if forces[p.force].side != side:
            raise fail(_at(where, "force"), Msg("not a Force of {side}", side=side), p.force)
        if p.unit and p.unit not in {u.key for u in forces[p.force].units}:
            raise fail(_at(where, "unit"), Msg("not a unit of {force}", force=p.force), p.unit)

    def camps(self, sides: Mapping[str, SideState]) -> None:
        """RU-19: a side in no alliance is its own camp (``""``); an allied side's camp is its alliance's
        side keys, sorted, joined by ``+``, and there are at least two camps."""
        members: dict[str, list[str]] = {}
        for s in sides.values():
            if s.camp:
                members.setdefault(s.camp, []).append(s.key)
        for i, s in enumerate(sides.values()):
            if s.camp and (len(members[s.camp]) < 2 or s.camp != CAMP_JOINER.join(sorted(members[s.camp]))):
                raise fail(_at(_at(self.at("sides"), i), "camp"),
                           Msg("a camp is its allied sides' keys, sorted and joined by + (RU-19)"), s.camp)
        if len({s.camp or s.key for s in sides.values()}) < 2:
            raise fail(self.at("sides"), Msg("every side would be of one camp: a campaign needs at least two camps "
                                             "(RU-19)"))

    def forces(self, items: list[Any]) -> dict[str, ForceState]:
        out: dict[str, ForceState] = {}
        for i, raw in enumerate(items):
            where = _at(self.at("forces"), i)
            f = _obj(raw, where, FORCE, optional=FORCE_OPTIONAL)
            a = partial(_at, where)
            status = _enum(ForceStatus, f["status"], a("status"))
            square = _square(f["square"], a("square"), self.cmap, optional=status is ForceStatus.REMOVED)
            arrives = _int(f["arrives_turn"], a("arrives_turn"), 1, MAX_TURN, optional=status is not ForceStatus.PENDING)
            units = tuple(self.unit(u, _at(a("units"), k)) for k, u in enumerate(f["units"]))
            out[f["key"]] = ForceState(
                key=f["key"], side=_one_of(f["side"], a("side"), self.refs.sides), name=_name(f["name"], a("name")),
                square=square, order=_enum(Order, f["order"], a("order")),
                reaction=_enum(Reaction, f["reaction"], a("reaction"), optional=True),
                scouts=_int(f["scouts"], a("scouts"), 0, MAX_SCOUTS), status=status, arrives_turn=arrives,
                wtf_marker=_bool(f["wtf_marker"], a("wtf_marker")), units=units,
                small_boats=_bool(f.get("small_boats", False), a("small_boats")),
                horse_rafts=_bool(f.get("horse_rafts", False), a("horse_rafts")),
            )
        return out

    def unit(self, value: Any, where: str) -> UnitState:
        u = _obj(value, where, UNIT)
        original = _int(u["original_sp"], _at(where, "original_sp"), 0, MAX_SP)
        return UnitState(
            key=u["key"], name=_name(u["name"], _at(where, "name")), sp=_int(u["sp"], _at(where, "sp"), 0, original),
            original_sp=original, type=_enum(UnitType, u["type"], _at(where, "type")),
            quality=_enum(Quality, u["quality"], _at(where, "quality")),
            mercenary=_bool(u["mercenary"], _at(where, "mercenary")), flag=_bool(u["flag"], _at(where, "flag")),
            heroic=_bool(u["heroic"], _at(where, "heroic")),
        )

    def leaders(self, items: list[Any]) -> dict[str, LeaderState]:
        out: dict[str, LeaderState] = {}
        command: set[str] = set()
        for i, raw in enumerate(items):
            where = _at(self.at("leaders"), i)
            ld = _obj(raw, where, LEADER)
            force = _one_of(ld["force"], _at(where, "force"), self.refs.forces or {}, optional=True)
            if force is not None and force in command:
                raise fail(_at(where, "force"), Msg("another leader already commands this Force"), force)
            if force is not None:
                command.add(force)
            out[ld["key"]] = LeaderState(
                key=ld["key"], name=_name(ld["name"], _at(where, "name")), cv=_int(ld["cv"], _at(where, "cv"), -3, 10),
                status=_enum(LeaderStatus, ld["status"], _at(where, "status")),
                kind=_enum(LeaderKind, ld["kind"], _at(where, "kind")),
                designation=_enum(UnitType, ld["designation"], _at(where, "designation"), optional=True), force=force,
            )
        return out

    def holdings(self, value: Any) -> dict[str, str]:
        where = self.at("holdings")
        if not isinstance(value, dict):
            raise InvalidInput("{where}: expected an object, got {name}", where=where, name=_type_name(value))
        for square, side in value.items():
            at = _at(where, _shown(square))
            _square(square, at, self.cmap)
            if self.cmap.cell(Square.parse(square)).stronghold is None:
                raise fail(at, Msg("no stronghold stands there"), square)
            _one_of(side, at, self.refs.sides)
        return dict(value)

    # --- the turn's declarations, battles, ledgers --------------------------------------------------

    def declarations(self, items: list[Any], forces: Mapping[str, ForceState]) -> tuple[Declaration, ...]:
        out: list[Declaration] = []
        seen: set[tuple[int, str]] = set()
        for i, raw in enumerate(items):
            where = _at(self.at("declarations"), i)
            d = _obj(raw, where, DECLARATION)
            turn = _int(d["turn"], _at(where, "turn"), self.turn, self.turn)
            phase = Phase(_int(d["phase"], _at(where, "phase"), int(Phase.ORDERS), int(self.phase)))
            kind = _enum(DeclarationKind, d["kind"], _at(where, "kind"))
            if (kind is DeclarationKind.ORDER) != (phase is Phase.ORDERS) or phase > Phase.MOVEMENT:
                raise fail(_at(where, "kind"), Msg("an order is declared in Phase 1, a move in Phase 2"), kind.value)
            force = _one_of(d["force"], _at(where, "force"), forces)
            side = _one_of(d["side"], _at(where, "side"), self.refs.sides)
            if forces[force].side != side:
                raise fail(_at(where, "side"), Msg("not the side of {force}", force=force), side)
            if (int(phase), force) in seen:
                raise fail(_at(where, "force"), Msg("two rows share it"), force)
            seen.add((int(phase), force))
            payload = self.payload(d["payload"], _at(where, "payload"), kind, turn, phase, force)
            out.append(Declaration(turn, phase, force, side, kind, payload_from(kind, payload)))
        return tuple(out)

    def payload(self, value: Any, where: str, kind: DeclarationKind, turn: int, phase: Phase,
                force: str) -> dict[str, Any]:
        if kind is DeclarationKind.ORDER:
            p = _obj(value, where, ORDER_PAYLOAD)
            _enum(Order, p["order"], _at(where, "order"))
        else:
            p = _obj(value, where, MOVE_PAYLOAD, optional=MOVE_PAYLOAD_OPTIONAL)
            path = p["path"]
            if not isinstance(path, list) or not 1 <= len(path) <= MAX_PATH:
                raise fail(_at(where, "path"), Msg("a path of 1 to 30 squares"))
            for j, sq in enumerate(path):
                _square(sq, _at(_at(where, "path"), j), self.cmap)
            _int(p["allowance"], _at(where, "allowance"), 0, MAX_PATH)
            if "start" in p:
                _square(p["start"], _at(where, "start"), self.cmap)
            for flag in ("by_water", "small_boats", "horse_rafts"):
                if flag in p:
                    _bool(p[flag], _at(where, flag))
        roll = _roll(p["roll"], _at(where, "roll"), batch=False)
        prefix = f"t{turn}/p{int(phase)}/force:{force}/"
        if not roll.key.startswith(prefix):
            raise fail(_at(_at(where, "roll"), "key"), Msg("this declaration's roll key starts with {prefix}", prefix=prefix),
                       roll.key)
        return _copy(dict(p))

    def battles(self, items: list[Any], forces: Mapping[str, ForceState],
                leaders: Mapping[str, LeaderState]) -> dict[int, Battle]:
        out: dict[int, Battle] = {}
        camps = {k: s.camp or k for k, s in self.side_states.items()}
        for i, raw in enumerate(items):
            where = _at(self.at("battles"), i)
            b = _obj(raw, where, BATTLE)
            a = partial(_at, where)
            number = b["number"]
            turn = _int(b["turn"], a("turn"), 1, self.turn)
            square = _square(b["square"], a("square"), self.cmap)
            status = _enum(BattleStatus, b["status"], a("status"))
            sides = _list(b["sides"], a("sides"), LIMITS.sides)
            for s in sides:
                _one_of(s, a("sides"), self.refs.sides)
            _unique(a("sides"), sides)
            if len(sides) < 2:
                raise fail(a("sides"), Msg("a battle is fought by two sides or more"))
            if len({camps.get(s, s) for s in sides}) < 2:
                raise fail(a("sides"), Msg("a battle is fought between two camps or more (RU-20)"))
            battle_forces = _list(b["forces"], a("forces"), LIMITS.forces)
            for k in battle_forces:
                _one_of(k, a("forces"), forces)
                if forces[k].side not in sides:
                    raise fail(a("forces"), Msg("its side {side} does not fight this battle", side=forces[k].side), k)
            _unique(a("forces"), battle_forces)
            for s in sides:
                if not any(forces[k].side == s for k in battle_forces):
                    raise fail(a("sides"), Msg("none of the battle's Forces is of this side"), s)
            report = b["report"]
            if report is not None:
                if status is BattleStatus.PENDING:
                    raise fail(a("report"), Msg("a pending battle has no report yet"))
                try:
                    # stored as given, without its battle number (bot/campaign/aftermath.py)
                    parse_report({"battle": str(number), **report} if isinstance(report, dict) else report)
                except EngineError as exc:
                    raise InvalidInput("{where}: {reason}", where=a("report"), reason=exc.text) from None
            scouting = self.scouting(b["scouting"], a("scouting"), sides)
            aftermath = self.aftermath(b["aftermath"], a("aftermath"), sides, battle_forces, forces, leaders)
            out[number] = Battle(number, turn, square, tuple(battle_forces), tuple(sides), status,
                                 report_from(report, number), scouting_from(scouting),
                                 aftermath_from(aftermath, number))
        return out

    def scouting(self, value: Any, where: str, sides: Sequence[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise InvalidInput("{where}: expected an object, got {name}", where=where, name=_type_name(value))
        for k, v in value.items():
            _one_of(k, where, (*sides, WINNER))
            if k == WINNER:
                _one_of(v, _at(where, k), sides, optional=True)
            else:
                _int(v, _at(where, k), 0, 100)
        return _copy(value)

    def aftermath(self, value: Any, where: str, sides: Sequence[str], battle_forces: Sequence[str],
                  forces: Mapping[str, ForceState], leaders: Mapping[str, LeaderState]) -> dict[str, Any]:
        """Phase 4's bookkeeping (:mod:`bot.campaign.aftermath`): each part refers to the battle's own
        sides, Forces and units."""
        a = _obj(value, where, AFTERMATH_KEYS, optional=AFTERMATH_KEYS)
        units = dict.fromkeys(u.key for k in battle_forces for u in forces[k].units)

        def part(name: str) -> dict[str, Any]:
            v = a.get(name, {})
            if not isinstance(v, dict):
                raise InvalidInput("{where}: expected an object, got {name}", where=_at(where, name),
                                   name=_type_name(v))
            return v

        for k, sp in part("sp_before").items():
            _one_of(k, _at(where, "sp_before"), units)
            _int(sp, _at(_at(where, "sp_before"), k), 0, MAX_SP)
        for k, led in part("commanders").items():
            at = _at(_at(where, "commanders"), k)
            _one_of(k, _at(where, "commanders"), battle_forces)
            led = _obj(led, at, ("key", "name"))
            _one_of(led["key"], _at(at, "key"), leaders)
            _name(led["name"], _at(at, "name"))
        for k, rolled in part("rolled").items():
            _one_of(k, _at(where, "rolled"), sides)
            _bool(rolled, _at(_at(where, "rolled"), k))
        for k, dest in part("retreats").items():
            _one_of(k, _at(where, "retreats"), battle_forces)
            _square(dest, _at(_at(where, "retreats"), k), self.cmap, optional=True)
        for k, fate in part("fates").items():
            _name(k, _at(where, "fates"))
            _enum(LeaderStatus, fate, _at(_at(where, "fates"), k), optional=True)
        for k, doc in part("claims").items():  # each side's part of the report (bot/campaign/claims.py)
            _one_of(k, _at(where, "claims"), sides)
            _report_doc(doc, _at(_at(where, "claims"), k))
        if a.get("draft") is not None:  # the GM's report waiting for confirmation
            _report_doc(a["draft"], _at(where, "draft"))
        for k, taken in part("trophies").items():
            captor, _, victim = str(k).partition(">")
            if captor not in units or victim not in units:
                raise fail(_at(where, "trophies"), Msg("a captor's and a victim's unit keys, joined by >"), k)
            if taken is not None:
                _bool(taken, _at(_at(where, "trophies"), k))
        if a.get("taken") is not None:  # the GM's choices in a dispute (version 3)
            self.taken(a["taken"], _at(where, "taken"))
        agreed = _list(a.get(AGREED, []), _at(where, AGREED), LIMITS.sides)
        for s in agreed:  # the sides that agreed to a quick battle (RU-27, version 3)
            _one_of(s, _at(where, AGREED), sides)
        _unique(_at(where, AGREED), agreed)
        return _copy(dict(a))

    @staticmethod
    def taken(value: Any, where: str) -> None:
        """The GM's choices in a disputed report: the claims' fingerprint, and a camp (its sides' keys) by field
        index."""
        t = _obj(value, where, TAKEN)
        if not (isinstance(t["of"], str) and TOKEN_RE.match(t["of"])):
            raise fail(_at(where, "of"), Msg("a short hexadecimal token"), t["of"])
        chosen = t["fields"]
        if not isinstance(chosen, dict):
            raise InvalidInput("{where}: expected an object, got {name}", where=_at(where, "fields"),
                               name=_type_name(chosen))
        if len(chosen) > MAX_BOT_OPTIONS * 10:
            raise fail(_at(where, "fields"), Msg("at most {limit:,} entries", limit=MAX_BOT_OPTIONS * 10))
        for i, camp in chosen.items():
            if not (isinstance(i, str) and i.isascii() and i.isdigit() and len(i) <= 4):
                raise fail(_at(where, "fields"), Msg("a whole number from {low:,} to {high:,}", low=0, high=9999), i)
            _text(camp, _at(_at(where, "fields"), i), 300)

    def glory(self, items: list[Any]) -> tuple[GloryEntry, ...]:
        out = []
        for i, raw in enumerate(items):
            where = _at(self.at("glory"), i)
            g = _obj(raw, where, GLORY)
            rule = _text(g["rule"], _at(where, "rule"), 12)
            if not RULE_RE.match(rule):
                raise fail(_at(where, "rule"), Msg("a rule id like CC-4"), rule)
            out.append(GloryEntry(
                side=_one_of(g["side"], _at(where, "side"), self.refs.sides),
                turn=_int(g["turn"], _at(where, "turn"), 1, self.turn),
                amount=_int(g["amount"], _at(where, "amount"), -1_000, 1_000),
                reason=_text(g["reason"], _at(where, "reason"), MAX_REASON),
                kind=_one_of(g["kind"], _at(where, "kind"), _values(GloryKind)), rule=rule,
                battle=_one_of(g["battle"], _at(where, "battle"), self.refs.battles or {}, optional=True),
                subject=_text(g["subject"], _at(where, "subject"), MAX_SUBJECT),
            ))
        return tuple(out)

    def leader_events(self, items: list[Any]) -> tuple[LeaderEvent, ...]:
        out = []
        for i, raw in enumerate(items):
            where = _at(self.at("leader_events"), i)
            e = _obj(raw, where, LEADER_EVENT)
            out.append(LeaderEvent(
                leader=_one_of(e["leader"], _at(where, "leader"), self.refs.leaders or {}),
                turn=_int(e["turn"], _at(where, "turn"), 1, self.turn),
                status=_enum(LeaderStatus, e["status"], _at(where, "status")),
                reason=_text(e["reason"], _at(where, "reason"), MAX_REASON),
            ))
        return tuple(out)

    def seeds(self, items: list[Any]) -> dict[int, TurnSeed]:
        """Revealed seeds only, of ended turns (and of the last one once the campaign has ended), each
        matching the SHA-256 published for it."""
        out: dict[int, TurnSeed] = {}
        last = self.turn if self.status is CampaignStatus.ENDED else self.turn - 1
        for i, raw in enumerate(items):
            where = _at(self.at("seeds"), i)
            s = _obj(raw, where, SEED)
            turn = _int(s["turn"], _at(where, "turn"), 1, MAX_TURN)
            if turn > last:
                raise fail(where, Msg("only the seeds of ended turns are revealed"))
            if turn in out:
                raise fail(_at(where, "turn"), Msg("two rows share it"), turn)
            seed, published = s["seed"], s["sha256"]
            if not (isinstance(seed, str) and HEX64_RE.match(seed) and isinstance(published, str)
                    and HEX64_RE.match(published)):
                raise fail(where, Msg("a seed and its SHA-256 are 64 lowercase hexadecimal digits each"))
            if seed_commitment(bytes.fromhex(seed)) != published:
                raise fail(where, Msg("the seed does not match the SHA-256 published for it"))
            out[turn] = TurnSeed(turn, seed, published, True, _hex64(s["chain_head"], _at(where, "chain_head"),
                                                                     optional=True),
                                 _hex64(s["reseeded_after"], _at(where, "reseeded_after"), optional=True))
        return out

    def players(self, items: list[Any]) -> dict[int, str]:
        out: dict[int, str] = {}
        for i, raw in enumerate(items):
            where = _at(self.at("players"), i)
            p = _obj(raw, where, PLAYER)
            member = _int(p["member"], _at(where, "member"), 1, MAX_INT)
            if member in out:
                raise fail(_at(where, "member"), Msg("two rows share it"), member)
            out[member] = _one_of(p["side"], _at(where, "side"), self.refs.sides)
        return out

    def requests(self, items: list[Any], players: Mapping[int, str]) -> dict[int, JoinRequest]:
        """Requests to join: one per member, from members who play no side yet."""
        out: dict[int, JoinRequest] = {}
        for i, raw in enumerate(items):
            where = _at(self.at("requests"), i)
            r = _obj(raw, where, REQUEST)
            member = _int(r["member"], _at(where, "member"), 1, MAX_INT)
            if member in out:
                raise fail(_at(where, "member"), Msg("two rows share it"), member)
            if member in players:
                raise fail(_at(where, "member"), Msg("already plays a side"), member)
            out[member] = JoinRequest(member, _one_of(r["side"], _at(where, "side"), self.refs.sides),
                                      _text(r["name"], _at(where, "name"), 100))
        return out


def _roll(value: Any, where: str, *, batch: bool = True) -> Any:
    """A roll record as the bot writes it (:meth:`Roll.to_dict`, or a batch's), read back: its faces
    whole numbers on its dice."""
    try:
        record = record_from_dict(value) if batch else Roll.from_dict(value)
        faces = value["dice"]
        ok = isinstance(faces, list) and all(type(d) is int and 1 <= d <= record.sides for d in faces)
    except (KeyError, TypeError, ValueError, AttributeError, EngineError):
        ok = False
    if not ok:
        raise fail(where, Msg("not a roll record"))
    return record



def _undo_record(value: dict[str, Any], where: str, kind: str) -> None:
    """A chained undo as :func:`bot.store.log.log_undo` writes it: only in an undo entry, its fields those."""
    fields = {"kind", "key", "after", "prev", "msg"}
    ok = kind == "undo" and set(value) <= fields and {"kind", "key", "after", "prev"} <= set(value) and all(
        isinstance(value[f], str) and re.fullmatch(r"[0-9a-f]{64}", value[f]) for f in ("after", "prev"))
    if not ok:
        raise fail(where, Msg("not an undo record"))


# --- the log -----------------------------------------------------------------------------------------

LOG_OPTIONAL = ("visibility", "data", "roll_key", "undone", "created_at")
_FORMATTER_FIELDS = re.compile(r"[{}]")
"""A template with a field: an older log's plain text is read as a message only when it is one with none."""
LOG_KINDS = tuple(k.value for k in EventKind)


def decode_log(entries: Any, state: CampaignState, where: str = "log") -> list[dict[str, Any]]:
    """The log an export carries beside ``state``, checked: each entry's fields and values, its message
    one of the code's own templates (text is data: nothing from a file is ever used as a template), and
    every roll a readable record whose dice re-derive from its turn's revealed seed (a forged or edited
    die of an ended turn is refused; the current turn's dice are drawn anew on import). The entries
    as the log stores them (``created_at`` a time).

    Visibilities (issue 24, item 5): the file's is kept only where the entry's content says it is right,
    else the entry is the GM's alone (:mod:`.audience`): ``gm`` stands; a roll's must be its key's audience
    (a Force's side, the general's side, a battle's camps, or public for the rest); a message stands as
    public only when its template is one the code writes publicly and never to a side or a battle, and any
    other label on a message is the GM's (a side's news cannot tell whose it is). So a private entry
    relabelled public, or one side's relabelled another's, is never shown beyond the GM."""
    from bot.i18n.text import known_templates

    if not isinstance(entries, list) or len(entries) > MAX_ROWS:
        raise InvalidInput("log: expected a list of at most 200,000 entries")
    visibilities = ("public", "gm", *(f"side:{s}" for s in state.sides))
    known = known_templates()
    force_sides = {f.key: f.side for f in state.forces.values()}
    rolls: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    for i, raw in enumerate(entries):
        at = _at(where, i)
        e = _obj(raw, at, LOG_FIELDS, optional=LOG_OPTIONAL)
        text = _text(e["text"], _at(at, "text"), MAX_ROWS * 10)
        if len(text) > MAX_LOG_TEXT:
            raise InvalidInput("{where}.text: at most {max_chars:,} characters", where=at, max_chars=MAX_LOG_TEXT)
        visibility = _text(e.get("visibility", "public"), _at(at, "visibility"), 40)
        if not BATTLE_VISIBILITY_RE.match(visibility):  # battle:N, a battle's camps
            _one_of(visibility, _at(at, "visibility"), visibilities)
        data = e.get("data")
        if data is not None and not isinstance(data, dict):
            raise InvalidInput("{where}: expected an object, got {name}", where=_at(at, "data"), name=_type_name(data))
        template = None if data and "msg" in data else text
        if data and "msg" in data:
            try:
                template = Msg.from_json(data["msg"], known=known).template
            except UnknownMessage as exc:
                raise InvalidInput("{where}.data.msg: {reason}", where=at, reason=str(exc)[:200]) from None
        roll_key = _text(e.get("roll_key"), _at(at, "roll_key"), 200, optional=True)
        # Its text would be shown verbatim (issue 24, item 5); an older log's plain message is kept when
        # it is one of the bot's templates without fields.
        if not roll_key and not (data and "msg" in data) and (text not in known or _FORMATTER_FIELDS.search(text)):
            raise InvalidInput("{where}: an entry that is not a roll must carry one of the bot's messages (data.msg)",
                               where=at)
        # Only where its content says the file's visibility is right; else the GM's (bot/campaign/audience.py).
        visibility = entry_visibility(visibility, roll_key=roll_key, template=template, force_sides=force_sides)
        entry = {"turn": _int(e["turn"], _at(at, "turn"), 1, state.turn),
                 "phase": _int(e["phase"], _at(at, "phase"), 0, max(Phase)),
                 "kind": _one_of(e["kind"], _at(at, "kind"), LOG_KINDS), "visibility": visibility, "text": text,
                 "data": data, "roll_key": roll_key, "undone": _bool(e.get("undone", False), _at(at, "undone")),
                 "created_at": _time(e.get("created_at"), _at(at, "created_at"))}
        if roll_key:
            if isinstance(data, dict) and data.get("kind") == "undo":  # the GM's undo, chained (issue 24)
                _undo_record(data, _at(at, "data"), entry["kind"])
            else:
                _roll(data, _at(at, "data"))
            assert data is not None
            if data.get("key") != roll_key:
                raise fail(_at(at, "roll_key"), Msg("does not name the roll it holds"), roll_key)
            rolls.append({**data, "turn": key_turn(roll_key) or 0, "undone": entry["undone"]})
        out.append(entry)
    revealed = {s.turn: s for s in state.seeds.values() if s.revealed}
    turns = [{"turn": t, "seed_sha256": revealed[t].sha256, "seed": revealed[t].seed_hex,
              "reseeded_after": revealed[t].reseeded_after} if t in revealed
             else {"turn": t, "seed_sha256": None, "seed": None} for t in range(1, state.turn + 1)]
    own = {k: v for k, v in state.tables.to_data().items() if k in OWN_TABLES}  # its weather and events (RU-10)
    report = verify_log({"format": ROLL_LOG_FORMAT, "version": 1, "rolls": rolls, "turns": turns, "tables": own})
    if not report.ok:
        first = report.mismatches[0].msg() if report.mismatches else report.problems[0] if report.problems \
            else Msg("turn {turn}: bad seed", turn=report.bad_seeds[0])  # said in the reader's language (issue 23)
        raise InvalidInput("log: the rolls do not re-derive from their turn seeds: {first}",
                           first=first if len(first) <= 200 else str(first)[:200])
    return out


EARLIEST_TIME = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
LATEST_AHEAD = dt.timedelta(days=366)
"""Every time a file carries lies between 2000 and a year from now (issue 24, item 5: a year-9999 time at
offset -14:00 is past the last time Python or a database can hold once in UTC)."""


def _time(value: Any, where: str) -> dt.datetime:
    if value is None:
        return dt.datetime.now(dt.UTC)
    if not isinstance(value, str):
        raise InvalidInput("{where}: expected a date or time, got {value!r}", where=where, value=_shown(value))
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        raise InvalidInput("{where}: {value!r} is not an ISO date or time", where=where, value=_shown(value)) from None
    if parsed.tzinfo is None:
        raise InvalidInput("{where}: times must carry their time zone", where=where)
    try:
        utc = parsed.astimezone(dt.UTC)
    except OverflowError:
        utc = None
    if utc is None or not EARLIEST_TIME <= utc <= dt.datetime.now(dt.UTC) + LATEST_AHEAD:
        raise InvalidInput("{where}: {value!r} is out of range: a time from 2000 to a year from now", where=where,
                           value=_shown(value))
    return utc


def expect_time(value: Any, where: str, *, optional: bool = False) -> dt.datetime | None:
    """A time with its zone, in UTC, within :data:`EARLIEST_TIME` and a year from now (None: left out,
    when ``optional``)."""
    if value is None and optional:
        return None
    return _time(value, where)


# --- version 1: the rows -----------------------------------------------------------------------------

V1_CAMPAIGN = ("name", "scenario", "options", "language", "climate", "theatre", "start_date", "turn", "phase",
               "status", "weather", "holdings", "map_width", "map_height", "adjacency", "sight")
V1_CAMPAIGN_DEFAULTS = {"theatre": "other"}
"""Fields an export made before they existed does not carry."""
V1_TABLES: dict[str, tuple[str, ...]] = {
    "turn_seed": ("turn", "seed_hex", "sha256", "revealed", "chain_head", "reseeded_after"),
    "map_square": ("col", "row", "terrain", "features", "territory", "stronghold", "capital", "river_flow"),
    "player": ("side_key", "member_id", "away_until"),
    "side": ("key", "name", "colour", "nation", "camp", "capital", "battles_won", "battles_lost", "strongholds_taken",
             "strongholds_lost", "holds_enemy_capital", "lost_capital", "supply", "supply_income",
             "movement_modifier", "done", "must_test", "defeated", "channel_id", "last_seen", "supply_purchases"),
    "force": ("side_key", "key", "name", "square", "order", "reaction", "scouts", "state", "arrives_turn",
              "wtf_marker"),
    "leader": ("force_key", "key", "name", "cv", "status", "kind", "designation"),
    "leader_event": ("leader_key", "turn", "status", "reason", "created_at"),
    "unit": ("force_key", "key", "name", "sp", "original_sp", "type", "quality", "mercenary", "flag", "heroic"),
    "declaration": ("turn", "phase", "force_key", "side_key", "kind", "payload", "created_at"),
    "battle": ("number", "turn", "square", "force_keys", "side_keys", "state", "report", "scouting", "aftermath",
               "thread_id"),
    "glory_entry": ("side_key", "turn", "amount", "kind", "reason", "rule", "battle", "subject", "created_at"),
}
"""Each table of a version-1 export and its fields (the ids of the exporting server, ``channel_id``,
``thread_id``, and the rows' times are dropped)."""
_REQUIRED = object()


class _V1:
    """A version-1 export converted to a state document, remembering where each part came from."""

    def __init__(self) -> None:
        self.paths: list[tuple[str, str]] = []

    def came(self, new: str, old: str, renamed: Iterable[tuple[str, str]] = ()) -> None:
        self.paths.append((new, old))
        self.paths += [(_at(new, n), _at(old, o)) for n, o in renamed]

    def where(self, path: str) -> str:
        """The version-1 field of a document's path."""
        best = ("", "")
        for new, old in self.paths:
            if len(new) > len(best[0]) and (path == new or path.startswith((new + ".", new + "["))):
                best = (new, old)
        return best[1] + path[len(best[0]):] if best[0] else path

    def retarget(self, text: Msg) -> Msg:
        """A refusal naming the version-1 field."""
        params = {k: self.where(v) if k in ("where", "other") and isinstance(v, str)
                  else self.retarget(v) if isinstance(v, Msg) else v for k, v in text.params.items()}
        return Msg(text.template, **params) if text.params else text  # i18n: passes a template on

    @staticmethod
    def pick(row: Mapping[str, Any], fields_: Iterable[tuple[str, str, Any]]) -> dict[str, Any]:
        """(new name, old name, default) of a row: a field the row lacks takes its default, or stays
        missing (and is refused as such) when it has none."""
        out: dict[str, Any] = {}
        for new, old, default in fields_:
            if old in row:
                out[new] = row[old]
            elif default is not _REQUIRED:
                out[new] = default
        return out

    def convert(self, data: Mapping[str, Any]) -> dict[str, Any]:
        camp = data.get("campaign")
        if not isinstance(camp, dict):
            raise InvalidInput("{where}: expected an object, got {name}", where="campaign", name=_type_name(camp))
        for k in V1_CAMPAIGN:
            if k not in camp and k not in V1_CAMPAIGN_DEFAULTS:
                raise InvalidInput("{where}: missing", where=_at("campaign", k))
        tables = self.tables(data.get("tables"))
        options = camp["options"]
        if not isinstance(options, dict):
            raise InvalidInput("{where}: expected an object, got {name}", where="campaign.options",
                               name=_type_name(options))
        settings = {k: v for k, v in options.items() if not str(k).startswith("_")}
        settings.setdefault("adjacency", camp["adjacency"])
        turn = camp["turn"]
        for new, old in (("name", "name"), ("turn", "turn"), ("phase", "phase"), ("status", "status"),
                         ("climate", "climate"), ("theatre", "theatre"), ("start_date", "start_date"),
                         ("sight", "sight"), ("weather", "weather"), ("holdings", "holdings"), ("settings", "options"),
                         ("options", "options"), ("map.width", "map_width"), ("map.height", "map_height"),
                         ("map.adjacency", "adjacency"), ("map", "")):
            self.came(new, _at("campaign", old) if old else "campaign")
        for new, old in (("sides", "side"), ("forces", "force"), ("leaders", "leader"),
                         ("declarations", "declaration"), ("battles", "battle"), ("glory", "glory_entry"),
                         ("leader_events", "leader_event"), ("seeds", "turn_seed"), ("players", "player"),
                         ("map.cells", "map_square")):
            self.came(new, f"tables.{old}")
        width = camp["map_width"]
        return {
            "version": VERSION, "id": 0, "name": camp["name"], "turn": turn, "phase": camp["phase"],
            "status": camp["status"], "climate": camp["climate"], "theatre": camp.get("theatre", "other"),
            "start_date": camp["start_date"], "sight": camp["sight"], "gm_id": 0, "gm_role_id": None,
            "weather": camp["weather"], "settings": settings,
            "options": {k: v for k, v in options.items() if str(k).startswith("_")}, "holdings": camp["holdings"],
            "map": {"width": width, "height": camp["map_height"], "adjacency": camp["adjacency"],
                    "cells": self.cells(tables["map_square"], width)},
            "sides": self.rows(tables["side"], "sides", "tables.side", _V1_SIDE),
            "forces": self.forces(tables["force"], tables["unit"]),
            "leaders": self.rows(tables["leader"], "leaders", "tables.leader", _V1_LEADER),
            "declarations": self.rows(tables["declaration"], "declarations", "tables.declaration", _V1_DECLARATION,
                                      keep=lambda r: r.get("turn") == turn),
            "battles": self.rows(tables["battle"], "battles", "tables.battle", _V1_BATTLE),
            "glory": self.rows(tables["glory_entry"], "glory", "tables.glory_entry", _V1_GLORY),
            "leader_events": self.rows(tables["leader_event"], "leader_events", "tables.leader_event",
                                       _V1_LEADER_EVENT),
            "seeds": self.seeds(tables["turn_seed"], turn),
            "players": self.rows(tables["player"], "players", "tables.player", _V1_PLAYER),
        }

    @staticmethod
    def tables(value: Any) -> dict[str, list[dict[str, Any]]]:
        if not isinstance(value, dict):
            raise InvalidInput("{where}: expected an object, got {name}", where="tables", name=_type_name(value))
        if unknown := sorted(str(k) for k in value if k not in V1_TABLES):
            raise InvalidInput("tables: unknown table(s) {map}", map=", ".join(unknown)[:200])
        out: dict[str, list[dict[str, Any]]] = {}
        total = 0
        for name, names in V1_TABLES.items():
            rows = _list(value.get(name, []), f"tables.{name}", MAX_ROWS)
            total += len(rows)
            if total > MAX_ROWS:
                raise InvalidInput("tables: more than {max_rows:,} rows", max_rows=MAX_ROWS)
            out[name] = [dict(_obj(r, f"tables.{name}[{i}]", names, optional=names)) for i, r in enumerate(rows)]
        if not out["side"]:
            raise InvalidInput("tables.side: a campaign needs its sides")
        return out

    def rows(self, rows: list[dict[str, Any]], new: str, old: str, spec: Sequence[tuple[str, str, Any]],
             keep: Callable[[dict[str, Any]], bool] = lambda r: True) -> list[dict[str, Any]]:
        out = []
        renamed = [(n, o) for n, o, _ in spec if n != o]
        for i, r in enumerate(rows):
            if keep(r):
                self.came(_at(new, len(out)), _at(old, i), renamed)
                out.append(self.pick(r, spec))
        return out

    def forces(self, forces: list[dict[str, Any]], units: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = self.rows(forces, "forces", "tables.force", _V1_FORCE)
        index = {f.get("key"): i for i, f in enumerate(out) if isinstance(f.get("key"), str)}
        for f in out:
            f["units"] = []
        for i, u in enumerate(units):
            key = u.get("force_key")
            if not isinstance(key, str) or key not in index:
                raise fail(f"tables.unit[{i}].force_key", Msg("not one of {allowed}",
                                                              allowed=", ".join(index)[:200]), key)
            owner = out[index[key]]
            self.came(_at(_at(f"forces[{index[key]}]", "units"), len(owner["units"])), f"tables.unit[{i}]")
            owner["units"].append(self.pick(u, _V1_UNIT))
        return out

    def cells(self, rows: list[dict[str, Any]], width: Any) -> list[dict[str, Any]]:
        most = (width if isinstance(width, int) and not isinstance(width, bool) else LIMITS.map_side) - 1
        out = []
        for i, r in enumerate(rows):
            at = f"tables.map_square[{i}]"
            col = _int(r.get("col"), _at(at, "col"), 0, max(most, 0))
            row = _int(r.get("row"), _at(at, "row"), 0, MAX_COUNT)
            self.came(f"map.cells[{i}]", at, [("square", "col")])
            out.append({"square": str(Square(col, row)), **self.pick(r, _V1_CELL)})
        return out

    def seeds(self, rows: list[dict[str, Any]], turn: Any) -> list[dict[str, Any]]:
        """The revealed seeds (of ended turns). An export of version 1 held the current turn's seed as
        null, or, made by older versions, the live seed: ignored, the import draws it anew."""
        out = []
        for i, r in enumerate(rows):
            at = f"tables.turn_seed[{i}]"
            if _bool(r.get("revealed", False), _at(at, "revealed")):
                self.came(f"seeds[{len(out)}]", at, [("seed", "seed_hex")])
                out.append(self.pick(r, _V1_SEED))
            elif isinstance(r.get("turn"), int) and isinstance(turn, int) and r["turn"] < turn:
                raise fail(at, Msg("turn {seed_turn} has ended, so its seed must be revealed", seed_turn=r["turn"]))
        return out


_V1_SIDE = (("key", "key", _REQUIRED), ("name", "name", _REQUIRED), ("colour", "colour", "#888888"),
            ("nation", "nation", ""), ("capital", "capital", None), ("battles_won", "battles_won", 0),
            ("battles_lost", "battles_lost", 0), ("strongholds_taken", "strongholds_taken", 0),
            ("strongholds_lost", "strongholds_lost", 0), ("holds_enemy_capital", "holds_enemy_capital", False),
            ("lost_capital", "lost_capital", False), ("supply", "supply", 0), ("supply_income", "supply_income", None),
            ("movement_modifier", "movement_modifier", 0), ("done", "done", False), ("must_test", "must_test", ""),
            ("defeated", "defeated", False), ("last_seen", "last_seen", {}), ("camp", "camp", ""),
            ("purchases", "supply_purchases", []), ("recruits", "recruits", []))
_V1_FORCE = (("key", "key", _REQUIRED), ("side", "side_key", _REQUIRED), ("name", "name", _REQUIRED),
             ("square", "square", None), ("order", "order", "explore"), ("reaction", "reaction", None),
             ("scouts", "scouts", 0), ("status", "state", "active"), ("arrives_turn", "arrives_turn", None),
             ("wtf_marker", "wtf_marker", False))
_V1_UNIT = (("key", "key", _REQUIRED), ("name", "name", _REQUIRED), ("sp", "sp", _REQUIRED),
            ("original_sp", "original_sp", _REQUIRED), ("type", "type", "infantry"), ("quality", "quality", "average"),
            ("mercenary", "mercenary", False), ("flag", "flag", True), ("heroic", "heroic", False))
_V1_LEADER = (("key", "key", _REQUIRED), ("name", "name", _REQUIRED), ("cv", "cv", 0), ("status", "status", "fit"),
              ("kind", "kind", "leader"), ("designation", "designation", None), ("force", "force_key", None))
_V1_DECLARATION = (("turn", "turn", _REQUIRED), ("phase", "phase", _REQUIRED), ("force", "force_key", _REQUIRED),
                   ("side", "side_key", _REQUIRED), ("kind", "kind", _REQUIRED), ("payload", "payload", {}))
_V1_BATTLE = (("number", "number", _REQUIRED), ("turn", "turn", _REQUIRED), ("square", "square", _REQUIRED),
              ("forces", "force_keys", []), ("sides", "side_keys", []), ("status", "state", "pending"),
              ("report", "report", None), ("scouting", "scouting", {}), ("aftermath", "aftermath", {}))
_V1_GLORY = (("side", "side_key", _REQUIRED), ("turn", "turn", _REQUIRED), ("amount", "amount", _REQUIRED),
             ("reason", "reason", _REQUIRED), ("kind", "kind", "award"), ("rule", "rule", "CC-4"),
             ("battle", "battle", None), ("subject", "subject", ""))
_V1_LEADER_EVENT = (("leader", "leader_key", _REQUIRED), ("turn", "turn", _REQUIRED),
                    ("status", "status", _REQUIRED), ("reason", "reason", _REQUIRED))
_V1_SEED = (("turn", "turn", _REQUIRED), ("seed", "seed_hex", _REQUIRED), ("sha256", "sha256", _REQUIRED),
            ("chain_head", "chain_head", None), ("reseeded_after", "reseeded_after", None))
_V1_PLAYER = (("member", "member_id", _REQUIRED), ("side", "side_key", _REQUIRED))
_V1_CELL = (("terrain", "terrain", "open"), ("features", "features", []), ("territory", "territory", None),
            ("stronghold", "stronghold", None), ("capital", "capital", False), ("river_flow", "river_flow", None))


def _decode_v1(data: Mapping[str, Any]) -> CampaignState:
    v1 = _V1()
    doc = v1.convert(data)
    for side in doc["sides"]:  # FC-2's income came with migration 0006: the supply in hand, as it copied
        if side.get("supply_income") is None:
            side["supply_income"] = side.get("supply", 0)
    try:
        return _Decoder("").document(doc)
    except InvalidInput as exc:
        raise InvalidInput(v1.retarget(exc.text)) from None  # i18n: passes a template on
