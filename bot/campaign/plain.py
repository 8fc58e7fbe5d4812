"""A battle's parts and a declaration's payload as plain JSON values and back: the one shape the state
document (:mod:`.codec`) and the database's JSON columns (:mod:`bot.store.repository`) both keep.

The readers here trust what they read (the store's own rows, or a document :mod:`.codec` has checked
first); the writers leave out a part that is empty, and the readers take a part left out as empty. The
shape is the one every version of the bot wrote (state document version 2), with the dispute's choices
(``taken``) and the quick battle's agreements (``quick_agreed``) that version 3 added::

    payload of an order:  {"order", "roll"}
    payload of a move:    {"start", "path", "allowance", "by_water", "roll", "small_boats", "horse_rafts"}
    scouting:   {side: score, "_winner": side or null}      # "_winner" once every side has scouted
    aftermath:  {"sp_before":  {unit: sp},                  # the units' SP as they fought
                 "commanders": {force: {"key", "name"}},    # who led each Force (RU-18)
                 "rolled":     {side: bool},                # wounded and deserter checks made
                 "retreats":   {force: square or null},     # Forces that must leave, and where they went
                 "fates":      {leader name: status or null},
                 "trophies":   {"captor>victim": bool or null},
                 "claims":     {side: report},              # each side's part (BR), without the battle number
                 "draft":      report,                      # the GM's report waiting for confirmation
                 "taken":      {"of": fingerprint, "fields": {index: camp}},
                 "quick_agreed": [side]}
    report:     a BR document (docs/battle-report.md) without its battle number
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.model import LeaderStatus, Order
from bot.engine.reports import BattleReport, parse_report, report_data
from bot.engine.rolls import Roll

from .state import (
    Aftermath,
    Commander,
    DeclarationKind,
    DisputeChoices,
    MovePayload,
    OrderPayload,
    Scouting,
)

WINNER = "_winner"
"""The scouting record's key for the contest's winner."""
TROPHY_JOINER = ">"
AGREED = "quick_agreed"
"""The aftermath's key of the sides that agreed to a quick battle (RU-27)."""

# --- declarations ------------------------------------------------------------------------------------


def payload_data(payload: OrderPayload | MovePayload) -> dict[str, Any]:
    if isinstance(payload, OrderPayload):
        return {"order": payload.order.value, "roll": payload.roll.to_dict()}
    out: dict[str, Any] = {} if payload.start is None else {"start": payload.start}
    out |= {"path": list(payload.path), "allowance": payload.allowance, "by_water": payload.by_water,
            "roll": payload.roll.to_dict()}
    if payload.by_water:
        out |= {"small_boats": payload.small_boats, "horse_rafts": payload.horse_rafts}
    return out


def payload_from(kind: DeclarationKind, data: Mapping[str, Any]) -> OrderPayload | MovePayload:
    roll = Roll.from_dict(data["roll"])
    if kind is DeclarationKind.ORDER:
        return OrderPayload(Order(data["order"]), roll)
    return MovePayload(tuple(str(sq) for sq in data["path"]), int(data["allowance"]), roll,
                       None if data.get("start") is None else str(data["start"]), bool(data.get("by_water", False)),
                       bool(data.get("small_boats", False)), bool(data.get("horse_rafts", False)))


# --- a battle's scouting, report and aftermath -----------------------------------------------------


def scouting_data(scouting: Scouting) -> dict[str, Any]:
    return {**scouting.scores, **({WINNER: scouting.winner} if scouting.decided else {})}


def scouting_from(data: Mapping[str, Any] | None) -> Scouting:
    data = data or {}
    return Scouting({str(k): int(v) for k, v in data.items() if k != WINNER}, WINNER in data,
                    None if data.get(WINNER) is None else str(data[WINNER]))


def report_from(data: Mapping[str, Any] | None, number: int) -> BattleReport | None:
    """A kept report (or claim, or draft) of battle ``number``: its id is the battle's number."""
    return None if data is None else parse_report({**data, "battle": str(number)})


def aftermath_data(a: Aftermath) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if a.sp_before:
        out["sp_before"] = dict(a.sp_before)
    if a.commanders is not None:
        out["commanders"] = {k: {"key": c.key, "name": c.name} for k, c in a.commanders.items()}
    if a.rolled:
        out["rolled"] = dict(a.rolled)
    if a.retreats:
        out["retreats"] = dict(a.retreats)
    if a.fates:
        out["fates"] = {k: None if v is None else v.value for k, v in a.fates.items()}
    if a.trophies:
        out["trophies"] = {TROPHY_JOINER.join(k): v for k, v in a.trophies.items()}
    if a.claims:
        out["claims"] = {k: report_data(r) for k, r in a.claims.items()}
    if a.draft is not None:
        out["draft"] = report_data(a.draft)
    if a.taken is not None:
        out["taken"] = {"of": a.taken.of, "fields": {str(i): camp for i, camp in a.taken.fields.items()}}
    if a.agreed:
        out[AGREED] = list(a.agreed)
    return out


def aftermath_from(data: Mapping[str, Any] | None, number: int) -> Aftermath:
    data = data or {}
    commanders = data.get("commanders")
    taken = data.get("taken")
    return Aftermath(
        sp_before={str(k): int(v) for k, v in (data.get("sp_before") or {}).items()},
        commanders=None if commanders is None else {str(k): Commander(str(c["key"]), str(c["name"]))
                                                    for k, c in commanders.items()},
        rolled={str(k): bool(v) for k, v in (data.get("rolled") or {}).items()},
        retreats={str(k): None if v is None else str(v) for k, v in (data.get("retreats") or {}).items()},
        fates={str(k): None if v is None else LeaderStatus(v) for k, v in (data.get("fates") or {}).items()},
        trophies={_trophy_key(k): None if v is None else bool(v) for k, v in (data.get("trophies") or {}).items()},
        claims={str(k): parse_report({**v, "battle": str(number)}) for k, v in (data.get("claims") or {}).items()},
        draft=report_from(data.get("draft"), number),
        taken=None if not taken else DisputeChoices(str(taken.get("of", "")),
                                                    {int(i): str(c) for i, c in (taken.get("fields") or {}).items()}),
        agreed=tuple(str(s) for s in data.get(AGREED) or ()),
    )


def _trophy_key(key: str) -> tuple[str, str]:
    captor, _, victim = str(key).partition(TROPHY_JOINER)
    return captor, victim
