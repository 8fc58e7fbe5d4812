"""What an imported campaign's rows may hold: values, not just types.

:mod:`.exchange` checks each row against its model's types and lengths; this module checks what
those values mean, so that an import can only hold a state the rules can reach (enums, keys,
squares on the map, ranges, references, uniqueness, and every roll re-derived from its turn's
seed). Each check raises :class:`~bot.services.errors.ImportRejected` naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine.cc_model import GloryKind
from bot.engine.dice import seed_commitment
from bot.engine.errors import EngineError
from bot.engine.model import Climate, Feature, LeaderStatus, Order, Quality, Reaction, Square, Terrain, UnitType
from bot.engine.reports import parse_report
from bot.engine.rolls import record_from_dict
from bot.engine.tables import RuleBook
from bot.engine.text import Msg
from bot.engine.verify import FORMAT as ROLL_LOG_FORMAT
from bot.engine.verify import verify_log
from bot.scenario import COMPASS, KEY_RE, LIMITS

from .errors import ImportRejected
from .logbook import turn_of_key

THEATRES = ("spain", "portugal", "other")
FORCE_STATES = ("active", "removed", "pending")
LEADER_KINDS = ("leader", "new", "temporary")
DESIGNATIONS = ("infantry", "cavalry", "artillery")
BATTLE_STATES = ("pending", "reported", "done")
DECLARATION_KINDS = ("order", "move")
AFTERMATH_KEYS = ("sp_before", "commanders", "rolled", "retreats", "fates", "trophies")
LOG_KINDS = ("event", "roll", "gm", "undo", "seed")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
HEX64_RE = re.compile(r"^[0-9a-f]{64}$")
BATTLE_VISIBILITY_RE = re.compile(r"^battle:[1-9]\d{0,5}$")
RULE_RE = re.compile(r"^(MC|CC|FC|RU|BR)-\d{1,2}(\.\d{1,2})?$")
MAX_SP = 1_000
"""SP of one unit (a scenario's are far below: a C&C unit has a few blocks, a Force tens of SP)."""
MAX_COUNT = 100_000
"""Tallies (battles won, strongholds taken, supply)."""


@dataclass(frozen=True)
class Refs:
    """What rows may refer to: the campaign's map and keys, gathered before the rows are checked."""

    width: int
    height: int
    turn: int
    sides: frozenset[str]
    forces: frozenset[str]
    leaders: frozenset[str]
    units: frozenset[str]


def fail(where: str, what: Msg, value: Any = None) -> ImportRejected:
    """A refusal naming the field, the value (cut short) and what was expected."""
    if value is None:
        return ImportRejected("{where}: {what}", where=where, what=what)
    return ImportRejected("{where}: {value!r}: {what}", where=where, value=str(value)[:40], what=what)


def one_of(where: str, value: Any, allowed: Iterable[Any], *, optional: bool = False) -> None:
    if optional and value is None:
        return
    allowed = tuple(allowed)
    if value not in allowed:
        raise fail(where, Msg("not one of {allowed}", allowed=", ".join(map(str, allowed))[:200]), value)


def in_range(where: str, value: Any, low: int, high: int, *, optional: bool = False) -> None:
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise fail(where, Msg("a whole number from {low:,} to {high:,}", low=low, high=high), value)


def square(where: str, value: Any, refs: Refs, *, optional: bool = False) -> None:
    """A square name on the campaign's map."""
    if optional and value is None:
        return
    try:
        sq = Square.parse(str(value))
    except EngineError:
        raise fail(where, Msg("not a square"), value) from None
    if not (isinstance(value, str) and 0 <= sq.col < refs.width and 0 <= sq.row < refs.height):
        raise fail(where, Msg("not a square of the {width}x{height} map", width=refs.width, height=refs.height), value)


def key(where: str, value: Any) -> None:
    if not isinstance(value, str) or not KEY_RE.match(value):
        raise fail(where, Msg("a key is 1 to 32 lowercase letters, digits, - or _"), value)


def name(where: str, value: Any) -> None:
    if not isinstance(value, str) or not value.strip() or len(value) > LIMITS.name:
        raise fail(where, Msg("a name is 1 to {limit} characters", limit=LIMITS.name), value)


def unique(where: str, values: Iterable[Any]) -> None:
    seen: set[Any] = set()
    for v in values:
        if v in seen:
            raise fail(where, Msg("two rows share it"), v)
        seen.add(v)


# --- per table --------------------------------------------------------------------------------


def check_campaign(c: Mapping[str, Any], rules: RuleBook) -> None:
    name("campaign.name", c["name"])
    one_of("campaign.climate", c["climate"], (x.value for x in Climate))
    one_of("campaign.theatre", c["theatre"], THEATRES)
    one_of("campaign.weather", c["weather"], rules.weather.kinds, optional=True)
    in_range("campaign.map_width", c["map_width"], 2, LIMITS.map_side)
    in_range("campaign.map_height", c["map_height"], 2, LIMITS.map_side)
    in_range("campaign.turn", c["turn"], 1, 10_000)
    in_range("campaign.phase", c["phase"], 0, 8)
    one_of("campaign.adjacency", c["adjacency"], (4, 8))
    in_range("campaign.sight", c["sight"], 0, 10)


def check_tables(campaign: Mapping[str, Any], tables: Mapping[str, list[dict[str, Any]]]) -> Refs:
    """Every row's values, and the references between rows; returns what rows may refer to."""
    rows = lambda t: tables.get(t, [])  # noqa: E731
    refs = Refs(campaign["map_width"], campaign["map_height"], campaign["turn"],
                frozenset(r.get("key") for r in rows("side")), frozenset(r.get("key") for r in rows("force")),
                frozenset(r.get("key") for r in rows("leader")), frozenset(r.get("key") for r in rows("unit")))
    for table, field_ in (("side", "key"), ("force", "key"), ("leader", "key"), ("unit", "key"),
                          ("player", "member_id"), ("battle", "number"), ("turn_seed", "turn")):
        unique(f"tables.{table}.{field_}", (r.get(field_) for r in rows(table)))
    unique("tables.map_square (col, row)", ((r.get("col"), r.get("row")) for r in rows("map_square")))
    unique("tables.side.name", (str(r.get("name", "")).strip().casefold() for r in rows("side")))
    for i, r in enumerate(rows("side")):  # "/campaign join au" must never mean another side
        if str(r.get("name", "")).strip().casefold() in {str(k).casefold() for k in refs.sides} - {r.get("key")}:
            raise fail(f"tables.side[{i}].name", Msg("a side may not be named like another side's key"), r.get("name"))
    for table, check in CHECKS.items():
        for i, row in enumerate(rows(table)):
            check(f"tables.{table}[{i}]", row, refs)
    holdings = campaign.get("holdings") or {}
    for sq, side in holdings.items():
        square(f"campaign.holdings.{str(sq)[:8]}", sq, refs)
        one_of(f"campaign.holdings.{str(sq)[:8]}", side, refs.sides)
    return refs


def _side(at: str, r: Mapping[str, Any], refs: Refs) -> None:
    key(f"{at}.key", r.get("key"))
    name(f"{at}.name", r.get("name"))
    if not COLOUR_RE.match(str(r.get("colour", "#888888"))):
        raise fail(f"{at}.colour", Msg("a colour like #1f4e9c"), r.get("colour"))
    square(f"{at}.capital", r.get("capital"), refs, optional=True)
    for field_ in ("battles_won", "battles_lost", "strongholds_taken", "strongholds_lost", "supply"):
        in_range(f"{at}.{field_}", r.get(field_, 0), 0, MAX_COUNT)
    in_range(f"{at}.movement_modifier", r.get("movement_modifier", 0), -6, 6)
    for force, where in (r.get("last_seen") or {}).items():
        one_of(f"{at}.last_seen", force, refs.forces)
        square(f"{at}.last_seen.{force}", where, refs)


def _player(at: str, r: Mapping[str, Any], refs: Refs) -> None:
    one_of(f"{at}.side_key", r.get("side_key"), refs.sides)
    in_range(f"{at}.member_id", r.get("member_id"), 1, 2**63 - 1)


def _map_square(at: str, r: Mapping[str, Any], refs: Refs) -> None:
    in_range(f"{at}.col", r.get("col"), 0, refs.width - 1)
    in_range(f"{at}.row", r.get("row"), 0, refs.height - 1)
    one_of(f"{at}.terrain", r.get("terrain", "open"), (t.value for t in Terrain))
    for f in r.get("features") or ():
        one_of(f"{at}.features", f, (x.value for x in Feature))
    one_of(f"{at}.territory", r.get("territory"), refs.sides, optional=True)
    one_of(f"{at}.stronghold", r.get("stronghold"), refs.sides, optional=True)
    one_of(f"{at}.river_flow", r.get("river_flow"), COMPASS, optional=True)


def _force(at: str, r: Mapping[str, Any], refs: Refs) -> None:
    key(f"{at}.key", r.get("key"))
    name(f"{at}.name", r.get("name"))
    one_of(f"{at}.side_key", r.get("side_key"), refs.sides)
    one_of(f"{at}.state", r.get("state", "active"), FORCE_STATES)
    square(f"{at}.square", r.get("square"), refs, optional=r.get("state") == "removed")
    one_of(f"{at}.order", r.get("order", "explore"), (o.value for o in Order))
    one_of(f"{at}.reaction", r.get("reaction"), (x.value for x in Reaction), optional=True)
    in_range(f"{at}.scouts", r.get("scouts", 0), 0, 100)
    in_range(f"{at}.arrives_turn", r.get("arrives_turn"), 1, 10_000, optional=r.get("state") != "pending")


def _leader(at: str, r: Mapping[str, Any], refs: Refs) -> None:
    key(f"{at}.key", r.get("key"))
    name(f"{at}.name", r.get("name"))
    one_of(f"{at}.force_key", r.get("force_key"), refs.forces, optional=True)
    in_range(f"{at}.cv", r.get("cv", 0), 0, 10)
    one_of(f"{at}.status", r.get("status", "fit"), (s.value for s in LeaderStatus))
    one_of(f"{at}.kind", r.get("kind", "leader"), LEADER_KINDS)
    one_of(f"{at}.designation", r.get("designation"), DESIGNATIONS, optional=True)


def _leader_event(at: str, r: Mapping[str, Any], refs: Refs) -> None:
    one_of(f"{at}.leader_key", r.get("leader_key"), refs.leaders)
    in_range(f"{at}.turn", r.get("turn"), 1, refs.turn)
    one_of(f"{at}.status", r.get("status"), (s.value for s in LeaderStatus))


def _unit(at: str, r: Mapping[str, Any], refs: Refs) -> None:
    key(f"{at}.key", r.get("key"))
    name(f"{at}.name", r.get("name"))
    one_of(f"{at}.force_key", r.get("force_key"), refs.forces)
    in_range(f"{at}.original_sp", r.get("original_sp"), 1, MAX_SP)
    in_range(f"{at}.sp", r.get("sp"), 0, MAX_SP)
    one_of(f"{at}.type", r.get("type", "infantry"), (t.value for t in UnitType))
    one_of(f"{at}.quality", r.get("quality", "average"), (q.value for q in Quality))


def _declaration(at: str, r: Mapping[str, Any], refs: Refs) -> None:
    one_of(f"{at}.force_key", r.get("force_key"), refs.forces)
    one_of(f"{at}.side_key", r.get("side_key"), refs.sides)
    one_of(f"{at}.kind", r.get("kind"), DECLARATION_KINDS)
    in_range(f"{at}.turn", r.get("turn"), 1, refs.turn)
    in_range(f"{at}.phase", r.get("phase"), 0, 8)
    payload = r.get("payload") or {}
    if r.get("kind") == "order":
        one_of(f"{at}.payload.order", payload.get("order"), (o.value for o in Order))
    else:
        path = payload.get("path")
        if not isinstance(path, list) or not 1 <= len(path) <= 30:
            raise fail(f"{at}.payload.path", Msg("a path of 1 to 30 squares"))
        for j, sq in enumerate(path):
            square(f"{at}.payload.path[{j}]", sq, refs)
        in_range(f"{at}.payload.allowance", payload.get("allowance"), 0, 30)
    _roll(f"{at}.payload.roll", payload.get("roll"))


def _battle(at: str, r: Mapping[str, Any], refs: Refs) -> None:
    in_range(f"{at}.number", r.get("number"), 1, MAX_COUNT)
    in_range(f"{at}.turn", r.get("turn"), 1, refs.turn)
    square(f"{at}.square", r.get("square"), refs)
    one_of(f"{at}.state", r.get("state", "pending"), BATTLE_STATES)
    for f in r.get("force_keys") or ():
        one_of(f"{at}.force_keys", f, refs.forces)
    sides = r.get("side_keys") or []
    if len(sides) < 2:
        raise fail(f"{at}.side_keys", Msg("a battle is fought by two sides or more"))
    for s in sides:
        one_of(f"{at}.side_keys", s, refs.sides)
    for k in r.get("scouting") or {}:
        one_of(f"{at}.scouting", k, (*sides, "_winner"))
    for k in r.get("aftermath") or {}:  # the Phase 4 bookkeeping of bot/services/aftermath.py
        one_of(f"{at}.aftermath", k, AFTERMATH_KEYS)
    if r.get("report") is not None:
        try:
            report = r["report"]  # stored as given, without its battle number (bot/services/aftermath.py)
            parse_report({"battle": str(r.get("number")), **report} if isinstance(report, dict) else report)
        except EngineError as exc:
            raise ImportRejected("{where}: {reason}", where=f"{at}.report", reason=exc.text) from None


def _glory(at: str, r: Mapping[str, Any], refs: Refs) -> None:
    one_of(f"{at}.side_key", r.get("side_key"), refs.sides)
    in_range(f"{at}.turn", r.get("turn"), 1, refs.turn)
    in_range(f"{at}.amount", r.get("amount"), -1_000, 1_000)
    one_of(f"{at}.kind", r.get("kind", "award"), (k.value for k in GloryKind))
    if not RULE_RE.match(str(r.get("rule", "CC-4"))):
        raise fail(f"{at}.rule", Msg("a rule id like CC-4"), r.get("rule"))
    in_range(f"{at}.battle", r.get("battle"), 1, MAX_COUNT, optional=True)


def _turn_seed(at: str, r: Mapping[str, Any], refs: Refs) -> None:
    in_range(f"{at}.turn", r.get("turn"), 1, refs.turn)
    seed, published = r.get("seed_hex"), r.get("sha256")
    if not (isinstance(seed, str) and HEX64_RE.match(seed) and isinstance(published, str) and HEX64_RE.match(published)):
        raise fail(at, Msg("a seed and its SHA-256 are 64 lowercase hexadecimal digits each"))
    if seed_commitment(bytes.fromhex(seed)) != published:
        raise fail(at, Msg("the seed does not match the SHA-256 published for it"))


CHECKS: dict[str, Callable[[str, Mapping[str, Any], Refs], None]] = {
    "side": _side, "player": _player, "map_square": _map_square, "force": _force, "leader": _leader,
    "leader_event": _leader_event, "unit": _unit, "declaration": _declaration, "battle": _battle,
    "glory_entry": _glory, "turn_seed": _turn_seed,
}


def _roll(where: str, data: Any) -> None:
    try:
        record_from_dict(data)
    except (KeyError, TypeError, ValueError, AttributeError, EngineError):
        raise fail(where, Msg("not a roll record")) from None


# --- the log -----------------------------------------------------------------------------------


def check_log(log: list[dict[str, Any]], seeds: list[dict[str, Any]], refs: Refs) -> None:
    """Every entry's kind, visibility and turn; every roll a readable record whose dice re-derive
    from its turn's revealed seed (``seeds``: those of ended turns; a forged or edited die of an
    ended turn is refused; the current turn's dice are drawn anew on import)."""
    visibilities = {"public", "gm", *(f"side:{s}" for s in refs.sides)}
    rolls = []
    for i, e in enumerate(log):
        at = f"log[{i}]"
        one_of(f"{at}.kind", e.get("kind"), LOG_KINDS)
        if not BATTLE_VISIBILITY_RE.match(str(e.get("visibility", "public"))):  # battle:N, a battle's camps
            one_of(f"{at}.visibility", e.get("visibility", "public"), sorted(visibilities))
        in_range(f"{at}.turn", e.get("turn"), 1, refs.turn)
        in_range(f"{at}.phase", e.get("phase"), 0, 8)
        if e.get("roll_key"):
            data = e.get("data") or {}
            _roll(f"{at}.data", data)
            if data.get("key") != e["roll_key"]:
                raise fail(f"{at}.roll_key", Msg("does not name the roll it holds"), e["roll_key"])
            rolls.append({**data, "turn": turn_of_key(e["roll_key"])})
    revealed = {s["turn"]: s for s in seeds}
    turns = [{"turn": t, "seed_sha256": revealed[t]["sha256"], "seed": revealed[t]["seed_hex"],
              "reseeded_after": revealed[t].get("reseeded_after")} if t in revealed
             else {"turn": t, "seed_sha256": None, "seed": None} for t in range(1, refs.turn + 1)]
    report = verify_log({"format": ROLL_LOG_FORMAT, "version": 1, "rolls": rolls, "turns": turns})
    if not report.ok:
        first = (report.mismatches and str(report.mismatches[0])) or (report.problems and report.problems[0]) \
            or f"turn {report.bad_seeds[0]}: bad seed"
        raise ImportRejected("log: the rolls do not re-derive from their turn seeds: {first}", first=str(first)[:200])
