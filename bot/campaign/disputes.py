"""Disputes in two taps (BR; issue 22, item 4): when the camps' reports of a battle differ, what the GM
reads and chooses.

Each camp is authoritative for its own part (:mod:`.claims`), so the parts collide only where they must
fit together. Each collision is one :class:`Disputed` field, named for the GM (never by key):

- the battle system and the Victory Banners required, when the camps give different ones;
- the outcome, when the camps' outcomes do not fit (both won, won and draw; RU-20);
- the Victory Banners, when more than one camp reached the number required, or a camp reached it and
  is not the winner;
- a unit's losses, when one camp eliminated it in melee (CC-3) and its own camp's losses leave it standing;
- a leader, captured by one camp and a casualty in his own camp's report (CC-1).

The GM takes one camp's account per field (:func:`take_by`); once every field is taken, the merged report
is checked and kept as the GM's draft, which the GM confirms (:func:`bot.campaign.claims.confirm_by`). The
merged claims (the GM's choices so far, each camp's own part elsewhere, sides in the scenario's order)
also prefill the GM's form (:func:`merged`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from bot.engine.cc_model import BattleSystem
from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.phases import Phase
from bot.engine.reports import parse_report, report_data
from bot.engine.text import Msg

from .aftermath import battle_forces, plan, require_pending, summarise
from .authority import Acting, require_gm, require_phase
from .events import Journal
from .scouting import find_battle
from .state import Battle, CampaignState, DisputeChoices


class Field(StrEnum):
    SYSTEM = "system"
    OUTCOME = "outcome"
    BANNERS = "banners"
    UNIT = "unit"
    LEADER = "leader"


@dataclass(frozen=True)
class Claimed:
    """One camp's account of a disputed field."""

    camp: str
    """The camp's first side in the scenario's order (its key: the buttons carry its index)."""
    name: str
    """The camp's sides' names (``France`` or ``Austria, Piedmont``)."""
    value: str
    """What it says (a message)."""


@dataclass(frozen=True)
class Disputed:
    field: Field
    title: str
    """The field, named for the GM (a message: "Outcome", "Losses of Riesch (Austria)")."""
    claims: tuple[Claimed, ...]
    subject: str = ""
    """The unit's key or the leader's name (UNIT, LEADER)."""
    taken: str | None = None
    """The camp whose account the GM took."""

    def line(self) -> Msg:
        said = Msg.join("; ", (Msg("{camp}: {value}", camp=c.name, value=c.value) for c in self.claims))
        return Msg("{field}: {said}", field=self.title, said=said)


@dataclass(frozen=True)
class Dispute:
    """What the camps' reports of a battle disagree on, and what the GM took so far."""

    battle: int
    fingerprint: str
    """The claims' fingerprint (the buttons carry it: a changed claim makes them expire)."""
    fields: tuple[Disputed, ...]
    notes: tuple[str, ...] = ()
    """What no choice settles (the GM's form does)."""
    camps: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return bool(self.fields) and all(f.taken is not None for f in self.fields)

    def lines(self) -> tuple[str, ...]:
        return tuple(f.line() for f in self.fields) + self.notes


@dataclass(frozen=True)
class Taken:
    """What a tap did: the dispute as it stands, and once every field is taken the merged report checked
    (its summary and the draft's fingerprint for "Confirm the report"), or why it does not hold."""

    dispute: Dispute
    lines: tuple[str, ...] = ()
    draft: str | None = None
    problem: str | None = None


# --- the camps and their claims ----------------------------------------------------------------------


def scenario_order(state: CampaignState, battle: Battle) -> tuple[str, ...]:
    """The battle's sides in the order the scenario lists them."""
    return tuple(k for k in state.sides if k in battle.sides)


def camps_of(state: CampaignState, battle: Battle) -> dict[str, tuple[str, ...]]:
    """The battle's camps, each keyed by its first side in the scenario's order, with its sides."""
    out: dict[str, list[str]] = {}
    first: dict[str, str] = {}
    for side in scenario_order(state, battle):
        camp = state.camps.camp_of(side)
        out.setdefault(first.setdefault(camp, side), []).append(side)
    return {k: tuple(v) for k, v in out.items()}


def _part(claims: Mapping[str, Mapping[str, Any]], side: str) -> Mapping[str, Any]:
    sides = claims.get(side, {}).get("sides") or [{}]
    return sides[0]


def _rules_of(doc: Mapping[str, Any]) -> tuple[str, int | None]:
    return str(doc.get("system", "cc")), doc.get("banners_required")


def _rules_text(system: str, required: int | None) -> Msg:
    try:
        label = BattleSystem(system).label
    except ValueError:
        label = system
    if required is None:
        return Msg("{system}", system=label)
    return Msg("{system}, {required} Victory Banners to win", system=label, required=required)


def _outcome_text(outcome: str, side: str) -> Msg:
    if outcome == "won":
        return Msg("{side} won", side=side)
    if outcome == "lost":
        return Msg("{side} lost", side=side)
    return Msg("{side} drew", side=side)


def _outcomes_fit(outcomes: list[str]) -> bool:
    if all(o == "draw" for o in outcomes):
        return True
    return outcomes.count("won") == 1 and outcomes.count("lost") == len(outcomes) - 1


def _banners(claims: Mapping[str, Mapping[str, Any]], sides: tuple[str, ...]) -> int:
    return sum(int(_part(claims, s).get("banners") or 0) for s in sides)


def dispute(state: CampaignState, battle: Battle, claims: Mapping[str, Mapping[str, Any]],
            taken: Mapping[str, str] | None = None) -> Dispute:
    """Every field the camps' claims disagree on (every side of the battle has claimed), with the GM's
    choices so far (``taken``: field index -> camp)."""
    from .claims import _overfull_camps, digest

    camps = camps_of(state, battle)
    names = {k: ", ".join(state.sides[s].name for s in sides) for k, sides in camps.items()}
    lead = {k: claims.get(k, {}) for k in camps}
    fields: list[Disputed] = []

    rules = {k: _rules_of(doc) for k, doc in lead.items()}
    if len(set(rules.values())) > 1:
        fields.append(Disputed(Field.SYSTEM, Msg("Battle system and Victory Banners required"), tuple(
            Claimed(k, names[k], _rules_text(*rules[k])) for k in camps)))

    outcome = {k: str(_part(claims, k).get("outcome", "draw")) for k in camps}
    if not _outcomes_fit(list(outcome.values())):
        fields.append(Disputed(Field.OUTCOME, Msg("Outcome"), tuple(
            Claimed(k, names[k], _outcome_text(outcome[k], names[k])) for k in camps)))

    required = {k: rules[k][1] for k in camps}
    reached = [k for k in camps if isinstance(required[k], int) and _banners(claims, camps[k]) >= required[k]]
    if len(reached) > 1 or (reached and outcome[reached[0]] != "won" and not any(
            f.field is Field.OUTCOME for f in fields)):
        fields.append(Disputed(Field.BANNERS, Msg("Victory Banners"), tuple(
            Claimed(k, names[k], Msg("{side} {banners} of {required}", side=names[k],
                                     banners=_banners(claims, camps[k]), required=required[k] or 0))
            for k in camps)))

    forces = battle_forces(state, battle)
    unit_of = {u.id: (f.side, u) for f in forces.values() for u in f.units}
    camp_key = {s: k for k, sides in camps.items() for s in sides}
    for k in camps:
        for m in [m for s in camps[k] for m in claims.get(s, {}).get("melee_eliminations", [])]:
            victim, by = unit_of.get(m.get("unit")), unit_of.get(m.get("by"))
            if victim is None or by is None or victim[0] not in camp_key:
                continue
            loss = next((u for u in _part(claims, victim[0]).get("units", []) if u.get("unit") == m["unit"]), {})
            lost = sum(int(loss.get(x) or 0) for x in ("killed", "rout", "other_order"))
            if lost == victim[1].sp:
                continue
            owner = camp_key[victim[0]]
            fields.append(Disputed(Field.UNIT, Msg("Losses of {unit} ({side})", unit=victim[1].name,
                                                   side=state.sides[victim[0]].name), (
                Claimed(k, names[k], Msg("eliminated in melee by {unit}", unit=by[1].name)),
                Claimed(owner, names[owner], Msg("lost {lost} of {sp} SP", lost=lost, sp=victim[1].sp))),
                subject=str(m["unit"])))

    leaders = {f.leader.name: f.side for f in forces.values()}
    for k in camps:
        for s in camps[k]:
            for name in _part(claims, s).get("leaders_captured", []):
                own = leaders.get(name)
                if own is None or own not in camp_key:
                    continue
                fell = next((c for c in _part(claims, own).get("leader_casualties", []) if c.get("leader") == name),
                            None)
                if fell is None:
                    continue
                owner = camp_key[own]
                how = Msg("fell in melee") if fell.get("fell") == "melee" else Msg("fell")
                fields.append(Disputed(Field.LEADER, Msg("{leader} ({side})", leader=name, side=state.sides[own].name), (
                    Claimed(k, names[k], Msg("captured by {side}", side=names[k])),
                    Claimed(owner, names[owner], how)), subject=name))

    chosen = dict(taken or {})
    fields = [replace(f, taken=chosen.get(str(i))) if chosen.get(str(i)) in {c.camp for c in f.claims} else f
              for i, f in enumerate(fields)]
    notes: list[str] = []
    if not fields:
        notes += _overfull_camps(state, merged(state, battle, claims))
        if not notes:
            try:
                plan(state, battle, parse_report({"battle": str(battle.number), **merged(state, battle, claims)}))
            except InvalidInput as exc:
                notes.append(exc.text)
    return Dispute(battle.number, digest(dict(claims)), tuple(fields), tuple(notes), tuple(camps))


# --- the merged report -------------------------------------------------------------------------------


OPPOSITE = {"won": "lost", "lost": "won", "draw": "draw"}


def merged(state: CampaignState, battle: Battle, claims: Mapping[str, Mapping[str, Any]],
           found: Dispute | None = None) -> dict[str, Any]:
    """The camps' claims as one report, sides in the scenario's order: each camp's own part, and where they
    collide the account the GM took (``found``'s fields; an untaken field keeps each camp's own part)."""
    camps = camps_of(state, battle)
    camp_key = {s: k for k, sides in camps.items() for s in sides}
    taken = {f.field: f.taken for f in (found.fields if found else ()) if f.taken and f.field in
             (Field.SYSTEM, Field.OUTCOME, Field.BANNERS)}
    rules_from = claims.get(taken.get(Field.SYSTEM) or next(iter(camps)), {})
    doc: dict[str, Any] = {"system": rules_from.get("system", "cc")}
    if rules_from.get("banners_required") is not None:
        doc["banners_required"] = rules_from["banners_required"]
    parts = {s: copy.deepcopy(dict(_part(claims, s))) for s in scenario_order(state, battle)}
    for s, p in parts.items():
        p.setdefault("side", s)
    by_camp = {k: str(parts[k].get("outcome", "draw")) for k in camps}
    required = doc.get("banners_required")
    if (winner := taken.get(Field.BANNERS)) and isinstance(required, int):
        for s, p in parts.items():
            if camp_key[s] != winner and isinstance(p.get("banners"), int):
                p["banners"] = min(p["banners"], required - 1)
        if _banners({s: {"sides": [p]} for s, p in parts.items()}, camps[winner]) >= required:
            by_camp = {k: "won" if k == winner else "lost" for k in camps}
    if (account := taken.get(Field.OUTCOME)) is not None:
        said = by_camp[account] if Field.BANNERS in taken else str(parts[account].get("outcome", "draw"))
        by_camp = {k: said if k == account else ("lost" if said == "won" else OPPOSITE[said] if len(camps) == 2
                                                 else by_camp[k]) for k in camps}
    if Field.OUTCOME in taken or Field.BANNERS in taken:
        for s, p in parts.items():
            p["outcome"] = by_camp[camp_key[s]]
    elims = [dict(m) for k in camps for s in camps[k] for m in claims.get(s, {}).get("melee_eliminations", [])]
    forces = battle_forces(state, battle)
    sp = {u.id: u.sp for f in forces.values() for u in f.units}
    side_of_unit = {u.id: f.side for f in forces.values() for u in f.units}
    for f in found.fields if found else ():
        if f.field is Field.UNIT and f.taken is not None:
            attacker = f.claims[0].camp
            if f.taken == attacker:  # eliminated: its losses make up all its SP (CC-3)
                victim = parts[side_of_unit[f.subject]]
                units = victim.setdefault("units", [])
                row = next((u for u in units if u.get("unit") == f.subject), None)
                if row is None:
                    row = {"unit": f.subject, "killed": 0}
                    units.append(row)
                lost = sum(int(row.get(x) or 0) for x in ("killed", "rout", "other_order"))
                row["killed"] = int(row.get("killed") or 0) + sp[f.subject] - lost
            else:
                elims = [m for m in elims if m.get("unit") != f.subject]
        elif f.field is Field.LEADER and f.taken is not None:
            captor = f.claims[0].camp
            for s, p in parts.items():
                if f.taken == captor and camp_key[s] != captor:
                    p["leader_casualties"] = [c for c in p.get("leader_casualties", []) if c.get("leader") != f.subject]
                elif f.taken != captor and camp_key[s] == captor:
                    p["leaders_captured"] = [n for n in p.get("leaders_captured", []) if n != f.subject]
    doc["sides"] = list(parts.values())
    doc["melee_eliminations"] = elims
    lost_block = [u for s in parts for u in claims.get(s, {}).get("lost_block", [])]
    if lost_block:
        doc["lost_block"] = lost_block
    return doc


# --- the GM's taps -----------------------------------------------------------------------------------


def _claims(battle: Battle) -> dict[str, Mapping[str, Any]]:
    """The camps' claims as plain documents (what the merge and the form read)."""
    return {side: report_data(r) for side, r in battle.aftermath.claims.items()}


def _require_disputed(state: CampaignState, battle: Battle) -> None:
    require_pending(battle)
    if set(battle.sides) - set(_claims(battle)):
        raise RuleViolation("Battle {number} is not disputed: its camps have not all reported yet (BR).",
                            number=battle.number)


def _stored(battle: Battle, fingerprint: str) -> dict[str, str]:
    kept = battle.aftermath.taken
    return {str(i): camp for i, camp in kept.fields.items()} if kept is not None and kept.of == fingerprint else {}


def dispute_of(state: CampaignState, battle: Battle) -> Dispute:
    """The battle's dispute with the GM's choices so far (those made on these very claims)."""
    claims = _claims(battle)
    found = dispute(state, battle, claims)
    return dispute(state, battle, claims, _stored(battle, found.fingerprint))


def take_by(state: CampaignState, gm: Acting, battle: int | str, index: int, camp_at: int, fingerprint: str,
            journal: Journal) -> tuple[CampaignState, Taken]:
    """The GM takes one camp's account (``camp_at``: its place in the scenario's order) of a disputed field
    (BR). Once every field is taken, the merged report is checked and kept as the GM's draft, to confirm."""
    require_gm(state, gm)
    require_phase(state, Phase.BATTLE, "Reporting a battle")
    b = find_battle(state, battle)
    _require_disputed(state, b)
    found = dispute_of(state, b)
    if found.fingerprint != fingerprint:
        raise RuleViolation("The camps changed their reports of battle {number} since: the GM has been sent the new "
                            "differences (BR).", number=b.number)
    camp = found.camps[camp_at] if 0 <= camp_at < len(found.camps) else ""
    if not 0 <= index < len(found.fields) or camp not in {c.camp for c in found.fields[index].claims}:
        raise InvalidInput("That choice is not one of battle {number}'s differences (BR).", number=b.number)
    chosen = {**_stored(b, fingerprint), str(index): camp}
    b = replace(b, aftermath=replace(b.aftermath, taken=DisputeChoices(fingerprint, {int(i): c for i, c in chosen.items()})))
    found = dispute(state, b, _claims(b), chosen)
    if not found.complete:
        return state.with_battle(b), Taken(found)
    doc = merged(state, b, _claims(b), found)
    try:
        draft = parse_report({**doc, "battle": str(b.number)})
        p, _ = plan(state, b, draft)
    except InvalidInput as exc:
        return state.with_battle(b), Taken(found, problem=exc.text)
    from .claims import digest

    b = replace(b, aftermath=replace(b.aftermath, draft=draft))
    state = state.with_battle(b)
    return state, Taken(found, lines=summarise(state, p), draft=digest(report_data(draft)))


def dispute_by(state: CampaignState, gm: Acting, battle: int | str) -> Dispute:
    """What the GM reads of a disputed battle (BR)."""
    require_gm(state, gm)
    b = find_battle(state, battle)
    _require_disputed(state, b)
    return dispute_of(state, b)

