"""Camp reports (BR): each side of a pending battle reports its own part, the bot compares them, and
the GM decides only where they differ. Also the GM's report draft, kept until confirmed.

A side's claim is the BR document (:func:`bot.engine.reports.parse_report`, docs/battle-report.md)
restricted to that side: its outcome and Victory Banners, its units' losses, its leader casualties
(CC-1), and the enemy units **its** units eliminated in melee (CC-3). Kept in the pending battle's
``aftermath``::

    {"claims": {side: document},   # each side's own part, seen by its camp and the GM (fog of war)
     "draft":  document}           # the GM's report, previewed and waiting for "Confirm the report"

When every side of the battle has claimed, :func:`merge` puts the parts together: each side is
authoritative for its own losses and casualties; the system and the banners required must be the
same, and the outcomes and banners must fit together (one camp wins and the other loses, or both
draw, RU-20; a camp that reached the banners required won). Agreed, the whole report is applied as
the GM's would be (:func:`bot.campaign.aftermath.report`); else the differences go to the GM, whose
own report still decides.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import yaml

from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.phases import Phase
from bot.engine.reports import parse_report, report_data
from bot.engine.text import Msg

from . import disputes
from .aftermath import battle_forces, plan, report, require_pending, summarise
from .authority import Acting, is_gm, require_gm, require_phase, require_player, side_in_battle
from .errors import PermissionDenied
from .events import Journal
from .scouting import find_battle
from .state import Battle, CampaignState

# --- merging the camps' parts ----------------------------------------------------------------------


@dataclass(frozen=True)
class Merged:
    """The camps' parts put together: the whole report when they agree, else what differs."""

    document: dict[str, Any] | None
    differences: tuple[str, ...] = ()


def _same(claims: Mapping[str, Mapping[str, Any]], field: str, what: str) -> list[str]:
    values = {side: doc.get(field) for side, doc in claims.items()}
    if len({json.dumps(v) for v in values.values()}) <= 1:
        return []
    said = Msg.join(", ", (Msg("{side} says {value}", side=s, value="-" if v is None else str(v))
                           for s, v in values.items()))
    return [Msg("{what} differ: {said} (BR).", what=what, said=said)]


def merge(state: CampaignState, battle: Battle, claims: Mapping[str, Mapping[str, Any]]) -> Merged:
    """BR: the whole report from every side's part, or the differences (each one a sentence for the
    GM). Each side is authoritative for its own part; what the parts share must agree."""
    differences = _same(claims, "system", Msg("The battle systems")) + \
        _same(claims, "banners_required", Msg("The Victory Banners required"))
    if differences:
        return Merged(None, tuple(differences))
    first = next(iter(claims.values()))
    doc: dict[str, Any] = {"system": first.get("system")}
    if first.get("banners_required") is not None:
        doc["banners_required"] = first["banners_required"]
    doc["sides"] = [s for side in battle.sides for s in claims[side].get("sides", [])]
    doc["melee_eliminations"] = [m for side in battle.sides for m in claims[side].get("melee_eliminations", [])]
    doc["lost_block"] = [u for side in battle.sides for u in claims[side].get("lost_block", [])]
    if overfull := _overfull_camps(state, doc):
        return Merged(None, tuple(overfull))
    try:  # outcomes, banners and melee eliminations against the losses (BR, CC-3, RU-20)
        plan(state, battle, parse_report({"battle": str(battle.number), **doc}))
    except InvalidInput as exc:
        return Merged(None, (exc.text,))
    return Merged(doc)


def _overfull_camps(state: CampaignState, doc: Mapping[str, Any]) -> list[str]:
    """RU-23: allies each enter their own side's Victory Banners, which their camp adds up. A camp whose
    sides' banners add up to more than the battle requires was most likely given the camp's total by each:
    said so, by name, for the GM and the players to correct."""
    required = doc.get("banners_required")
    if not isinstance(required, int):
        return []
    by_camp: dict[str, list[tuple[str, int]]] = {}
    for part in doc.get("sides", []):
        side, banners = part.get("side"), part.get("banners")
        if side in state.sides and isinstance(banners, int):
            by_camp.setdefault(state.camps.camp_of(side), []).append((side, banners))
    out = []
    for entries in by_camp.values():
        if len(entries) > 1 and sum(n for _, n in entries) > required:
            said = Msg.join(", ", (Msg("{side} {banners}", side=state.sides[k].name, banners=n) for k, n in entries))
            out.append(Msg("The allies' Victory Banners add up to more than the {required} required ({said}): each ally "
                           "enters its own banners, and its camp adds them up (RU-23).", required=required, said=said))
    return out


# --- a side's claim --------------------------------------------------------------------------------


def _named(units: Mapping[str, tuple[str, Any]], key: str) -> str:
    """A unit of the battle by its name where the report gave its key (what was typed otherwise)."""
    found = units.get(key)
    return found[1].name if found is not None else key


def check_part(state: CampaignState, battle: Battle, side: str, data: Any) -> dict[str, Any]:
    """A side's part of the report, checked on its own (BR): only that side, its own units, leaders and
    melee eliminations by its units of enemy units. Returns the document as stored."""
    if not isinstance(data, Mapping):
        raise InvalidInput("Your report must be a mapping of fields, as in the template (BR).")
    doc = {k: v for k, v in data.items() if k != "battle"}
    rep = parse_report({"battle": str(battle.number), **doc})
    name = state.sides[side].name
    if [s.side for s in rep.sides] != [side]:
        raise InvalidInput("Your report gives {name}'s part only (side: {side}); the other camp reports its own (BR).",
                           name=name, side=side)
    forces = battle_forces(state, battle)
    units = {u.id: (f.side, u) for f in forces.values() for u in f.units}
    own = sorted(u.name for s, u in units.values() if s == side)  # named, never keyed (issue 22, item 8)
    for ul in rep.sides[0].units:
        if units.get(ul.unit_id, ("",))[0] != side:
            raise InvalidInput("Unit {unit!r} is not one of {name}'s in battle {number}; yours are {names}.",
                               unit=ul.unit_id, name=name, number=battle.number, names=Msg.join(", ", own))
        ul.check_against(units[ul.unit_id][1])
    for m in rep.melee_eliminations:
        if units.get(m.by, ("",))[0] != side:
            raise InvalidInput("Melee elimination of {unit!r}: {by!r} is not one of your units; yours are {names} "
                               "(CC-3).", unit=_named(units, m.unit_id), by=m.by, names=Msg.join(", ", own))
        if m.unit_id not in units or not state.camps.hostile(units[m.unit_id][0], side):
            raise InvalidInput("Melee elimination by {by!r}: {unit!r} is not an enemy unit of battle {number} (CC-3).",
                               by=_named(units, m.by), unit=m.unit_id, number=battle.number)
    leaders = sorted(f.leader.name for f in forces.values() if f.side == side)
    for c in rep.sides[0].leader_casualties:
        if c.leader not in leaders:
            raise InvalidInput("Leader {leader!r} does not lead one of your Forces in battle {number}; yours: {names} "
                               "(CC-1).", leader=c.leader, number=battle.number, names=", ".join(leaders))
    return doc


@dataclass(frozen=True)
class ClaimResult:
    """What a side's claim did: recorded and waiting, applied (the camps agree), or disputed."""

    battle: int
    side: str
    waiting_for: tuple[str, ...] = ()
    """Sides still to report (their names)."""
    applied: tuple[str, ...] | None = None
    """The report's summary lines, when every camp agreed and the report was applied."""
    differences: tuple[str, ...] = ()
    """What the camps' reports disagree on: the GM decides (BR)."""


def claim(state: CampaignState, side: str, number: int, data: Any,
          journal: Journal) -> tuple[CampaignState, ClaimResult]:
    """A side reports its part of a pending battle in Phase 3 (BR). Once every side has, the parts are
    merged: agreed, the report is applied (as the GM's would be); else the GM is told what differs."""
    require_phase(state, Phase.BATTLE, "Reporting a battle")
    battle = state.battles[number]
    require_pending(battle)
    doc = check_part(state, battle, side, data)
    battle = replace(battle, aftermath=replace(battle.aftermath, claims={**battle.aftermath.claims,
                                                                         side: parse_report({**doc, "battle": str(number)})}))
    state = state.with_battle(battle)
    claims = {s: report_data(r) for s, r in battle.aftermath.claims.items()}
    waiting = tuple(state.sides[s].name for s in battle.sides if s not in claims)
    if waiting:
        return state, ClaimResult(number, side, waiting_for=waiting)
    merged = merge(state, battle, claims)
    if merged.document is None:  # every differing field, by name, for the GM (issue 22, item 4)
        found = disputes.dispute(state, battle, claims)
        return state, ClaimResult(number, side, differences=found.lines() or merged.differences)
    state, lines = report(state, number, merged.document, journal)
    return state, ClaimResult(number, side, applied=lines)


def claim_by(state: CampaignState, actor: Acting, battle: int | str, data: Any,
             journal: Journal) -> tuple[CampaignState, ClaimResult]:
    """A player reports their side's part of a battle (BR); a member not in it is refused."""
    require_phase(state, Phase.BATTLE, "Reporting a battle")
    b = find_battle(state, battle)
    side = side_in_battle(state, actor, b)
    if side is None:
        raise PermissionDenied("The GM reports the whole battle: /battle report with the form or a file (BR).")
    return claim(state, side, b.number, data, journal)


def require_reporter(state: CampaignState, actor: Acting) -> None:
    """BR: the GM reports a battle, and each player their side's part; anybody else is refused."""
    if not is_gm(state, actor.member_id, actor.roles):
        require_player(state, actor.member_id)


def own_claim(state: CampaignState, actor: Acting, battle: int | str) -> tuple[int, str | None, dict[str, Any] | None]:
    """What the actor may see of the stored report of a battle (fog of war): a player their side's claim,
    the GM the draft. Returns the battle's number, the actor's side (None for the GM) and the document."""
    require_reporter(state, actor)
    b = find_battle(state, battle)
    side = side_in_battle(state, actor, b)
    stored = b.aftermath.claims.get(side) if side is not None else b.aftermath.draft
    return b.number, side, None if stored is None else report_data(stored)


# --- the GM's draft and its confirmation -----------------------------------------------------------


def digest(doc: Mapping[str, Any]) -> str:
    """A short fingerprint of a report, carried by its "Confirm" button (it survives a restart)."""
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:16]


def draft_by(state: CampaignState, gm: Acting, battle: int | str, data: Any,
             journal: Journal) -> tuple[CampaignState, tuple[int, tuple[str, ...], str]]:
    """The GM previews a report (BR): it is checked, kept as the battle's draft (a reopened form shows
    it) and waits for confirmation. Returns the battle, the summary lines and the draft's fingerprint."""
    require_gm(state, gm)
    require_phase(state, Phase.BATTLE, "Reporting a battle")
    b = find_battle(state, battle)
    require_pending(b)
    if not isinstance(data, Mapping):
        raise InvalidInput("A battle report is a mapping of fields: see the template (BR).")
    draft = parse_report({**data, "battle": str(b.number)})
    p, _ = plan(state, b, draft)
    state = state.with_battle(replace(b, aftermath=replace(b.aftermath, draft=draft)))
    return state, (b.number, summarise(state, p), digest(report_data(draft)))


def confirm_by(state: CampaignState, gm: Acting, battle: int | str, fingerprint: str,
               journal: Journal) -> tuple[CampaignState, tuple[int, tuple[str, ...]]]:
    """The GM confirms the report they previewed (BR): applied if it is still the battle's draft."""
    require_gm(state, gm)
    require_phase(state, Phase.BATTLE, "Reporting a battle")
    b = find_battle(state, battle)
    require_pending(b)
    draft = b.aftermath.draft
    if draft is None or digest(report_data(draft)) != fingerprint:
        raise RuleViolation("This confirmation has expired: the report of battle {number} was changed since. "
                            "Run /battle report again (BR).", number=b.number)
    state, lines = report(state, b.number, None, journal, parsed=draft)
    return state, (b.number, lines)


# --- the template to download ----------------------------------------------------------------------


def _flow(value: Any) -> str:
    """A value on one line (YAML flow style)."""
    return yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=1000).strip()


def template(state: CampaignState, battle: Battle, sides: Sequence[str], doc: Mapping[str, Any] | None = None) -> str:
    """BR: a YAML report of ``sides`` for ``battle``, every unit listed with its key, its name and SP as a
    comment, filled from ``doc`` (a stored claim or draft) or with no losses; accepted back unchanged."""
    doc = dict(doc or {})
    forces = battle_forces(state, battle)
    given = {s.get("side"): s for s in doc.get("sides", []) if isinstance(s, Mapping)}
    system = doc.get("system", "cc")
    required = doc.get("banners_required", 6 if system in ("cc", "epic") else None)
    out = [f"# Battle {battle.number} at {battle.square}: report (BR). Format: docs/battle-report.md",
           f"battle: {battle.number}",
           f"system: {system}            # cc, epic, murat, miniatures"]
    if required is not None:
        out.append(f"banners_required: {required}   # Victory Banners to win (cc, epic only)")
    else:
        out.append("# banners_required: 6   # Victory Banners to win (cc, epic only)")
    out.append("sides:")
    elims: list[Any] = list(doc.get("melee_eliminations", []))
    for side in sides:
        part = dict(given.get(side, {}))
        name = state.sides[side].name
        out.append(f"  - side: {side}          # {name}")
        out.append(f"    outcome: {part.get('outcome', 'draw')}      # won, lost, draw")
        if required is not None:
            out.append(f"    banners: {part.get('banners', 0)}        # Victory Banners won")
        losses = {u.get("unit"): u for u in part.get("units", []) if isinstance(u, Mapping)}
        out.append("    units:                # SP killed, in rout, gone under another order")
        for f in forces.values():
            if f.side != side:
                continue
            for u in f.units:
                row = {"unit": u.id, "killed": 0, "rout": 0, "other_order": 0}
                row.update({k: v for k, v in losses.get(u.id, {}).items() if k != "unit"})
                out.append(f"      - {_flow(row)}   # {u.name}, {u.sp} SP ({f.name})")
        leaders = ", ".join(f.leader.name for f in forces.values() if f.side == side)
        fallen = part.get("leader_casualties") or []
        out.append(f"    leader_casualties: {_flow(fallen)}   # {{leader: name, fell: melee or other}} "
                   f"(CC-1); leaders: {leaders}")
        if part.get("leaders_captured"):
            out.append(f"    leaders_captured: {_flow(part['leaders_captured'])}")
    enemies = ", ".join(u.id for f in forces.values() if f.side not in sides for u in f.units)
    out.append(f"melee_eliminations: {_flow(elims)}   # {{unit: enemy unit, by: your unit, "
               f"ordered: true, took_ground: true}} (CC-3)" + (f"; enemy units: {enemies}" if enemies else ""))
    if doc.get("lost_block"):
        out.append(f"lost_block: {_flow(doc['lost_block'])}")
    return "\n".join(out) + "\n"


def template_for(state: CampaignState, actor: Acting, battle: int | str) -> tuple[int, str]:
    """The report template of a battle for the actor: their side's part (from their claim), or for the
    GM the whole battle (from the draft). Members not in the battle are refused."""
    number, side, doc = own_claim(state, actor, battle)
    b = state.battles[number]
    require_pending(b)
    if side is not None:
        return number, template(state, b, (side,), doc)
    claims = {s: report_data(r) for s, r in b.aftermath.claims.items()}
    if doc is None and claims and not set(b.sides) - set(claims):  # disputed: the camps' claims, merged
        doc = disputes.merged(state, b, claims, disputes.dispute_of(state, b))
    return number, template(state, b, disputes.scenario_order(state, b), doc)


# --- the camp's form (a phone's modal) -------------------------------------------------------------


@dataclass(frozen=True)
class FormUnit:
    key: str
    name: str
    sp: int


@dataclass(frozen=True)
class Form:
    """What a side's report form shows: its units (keys, names, SP), leaders, the enemy units its units
    may have eliminated in melee, and its stored claim (a reopened form shows it)."""

    battle: int
    side: str
    side_name: str
    units: tuple[FormUnit, ...]
    leaders: tuple[str, ...]
    enemies: tuple[FormUnit, ...]
    doc: Mapping[str, Any] | None = None

    @property
    def part(self) -> Mapping[str, Any]:
        sides = (self.doc or {}).get("sides") or [{}]
        return sides[0]

    def losses_text(self) -> str:
        """One line per unit: ``key: killed rout other_order   # name, SP``."""
        given = {u.get("unit"): u for u in self.part.get("units", [])}
        rows = []
        for u in self.units:
            g = given.get(u.key, {})
            rows.append(f"{u.key}: {g.get('killed', 0)} {g.get('rout', 0)} {g.get('other_order', 0)}   # {u.name}, {u.sp} SP")
        return "\n".join(rows)

    def count(self, unit: str, kind: str) -> int:
        """The stored claim's SP of ``unit`` lost as ``kind`` (:data:`LOSS_KINDS`), 0 if none."""
        given = next((u for u in self.part.get("units", []) if u.get("unit") == unit), {})
        value = given.get(kind, 0)
        return value if isinstance(value, int) else 0

    def banners_text(self) -> str:
        doc = self.doc or {}
        if doc.get("banners_required") is None:
            return ""
        return f"{self.part.get('banners', 0)}/{doc['banners_required']}"

    def more_text(self, words: FormWords | None = None) -> str:
        """Leader casualties (``Ney: melee``) and melee eliminations (``jaegers by hussars ordered took
        ground``), one a line, after two comment lines that say how; in ``words`` (the reader's)."""
        w = words or ENGLISH
        rows = [f"# {', '.join(self.leaders)}: {w.melee[0]} | {w.other[0]} (CC-1)",
                f"# {self.enemies[0].key if self.enemies else '?'} {w.by[0]} "
                f"{self.units[0].key if self.units else '?'} [{w.ordered[0]}] [{w.took_ground[0]}] (CC-3)"]
        rows += [f"{c['leader']}: {w.melee[0] if c['fell'] == 'melee' else w.other[0]}"
                 for c in self.part.get("leader_casualties", [])]
        for m in (self.doc or {}).get("melee_eliminations", []):
            rows.append(" ".join([m["unit"], w.by[0], m["by"], *([w.ordered[0]] if m.get("ordered") else []),
                                  *([w.took_ground[0]] if m.get("took_ground") else [])]))
        return "\n".join(rows)

    def choices(self) -> tuple[tuple[str, Msg], ...]:
        """What the last box offers as a select (issue 23, item 2: nothing to type): how each of the side's
        leaders fell (CC-1) and which of its units took which enemy unit in melee, on orders and taking its
        ground or not (CC-3). Each a value and its words."""
        out: list[tuple[str, Msg]] = []
        for i, leader in enumerate(self.leaders):
            out.append((f"fell:{i}:melee", Msg("{leader} fell in melee against infantry or cavalry (CC-1)",
                                                leader=leader)))
            out.append((f"fell:{i}:other", Msg("{leader} fell in other circumstances (CC-1)", leader=leader)))
        for u in self.units:
            for e in self.enemies:
                out.append((f"took:{u.key}:{e.key}:1", Msg("{unit} took {enemy} in melee, on orders, and took its "
                                                           "ground (CC-3)", unit=u.name, enemy=e.name)))
                out.append((f"took:{u.key}:{e.key}:0", Msg("{unit} took {enemy} in melee, not on orders or without "
                                                           "taking its ground (CC-3)", unit=u.name, enemy=e.name)))
        return tuple(out)

    def chosen(self) -> tuple[str, ...]:
        """The :meth:`choices` the stored claim makes (a reopened or merged form shows them)."""
        index = {name: i for i, name in enumerate(self.leaders)}
        out = [f"fell:{index[c['leader']]}:{c['fell']}" for c in self.part.get("leader_casualties", [])
               if c.get("leader") in index]
        out += [f"took:{m['by']}:{m['unit']}:{int(bool(m.get('ordered') and m.get('took_ground')))}"
                for m in (self.doc or {}).get("melee_eliminations", [])]
        return tuple(out)


LOSS_KINDS: tuple[tuple[str, Msg], ...] = (
    ("killed", Msg("SP killed")), ("rout", Msg("SP that left in rout")),
    ("other_order", Msg("SP that left under another order")))
"""A unit's counts in its side's report (BR), each with the name of its box in the form."""


@dataclass(frozen=True)
class FormWords:
    """The words a member may type in the form's last box, casefolded, the first of each the one shown: the
    edge gives the reader's (the catalogue's, with the glossary's synonyms), English is always understood
    too (issue 23, item 2)."""

    melee: tuple[str, ...] = ("melee",)
    other: tuple[str, ...] = ("other",)
    by: tuple[str, ...] = ("by",)
    ordered: tuple[str, ...] = ("ordered",)
    took_ground: tuple[str, ...] = ("took ground", "took_ground")

    def with_english(self) -> FormWords:
        def both(mine: tuple[str, ...], english: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(dict.fromkeys(w.casefold().strip() for w in (*mine, *english) if w.strip()))

        return FormWords(both(self.melee, ENGLISH.melee), both(self.other, ENGLISH.other), both(self.by, ENGLISH.by),
                         both(self.ordered, ENGLISH.ordered), both(self.took_ground, ENGLISH.took_ground))


ENGLISH = FormWords()


def form_for(state: CampaignState, actor: Acting, battle: int | str) -> Form:
    """The report form of the actor's side in a pending battle of Phase 3 (BR); the GM and members not in
    the battle are refused (the GM has the whole report's form)."""
    require_phase(state, Phase.BATTLE, "Reporting a battle")
    b = find_battle(state, battle)
    side = side_in_battle(state, actor, b)
    if side is None:
        raise PermissionDenied("The GM reports the whole battle: /battle report with the form or a file (BR).")
    require_pending(b)
    forces = battle_forces(state, b)
    own = tuple(FormUnit(u.id, u.name, u.sp) for f in forces.values() if f.side == side for u in f.units)
    enemies = tuple(FormUnit(u.id, u.name, u.sp) for f in forces.values() if state.camps.hostile(f.side, side)
                    for u in f.units)
    stored = b.aftermath.claims.get(side)
    return Form(b.number, side, state.sides[side].name, own, tuple(f.leader.name for f in forces.values()
                                                                    if f.side == side), enemies,
                None if stored is None else report_data(stored))


def _number(text: str, unit: FormUnit, what: str | Msg) -> int:
    if not text.isdigit():
        raise InvalidInput("{name}: {what} must be a whole number, 0 or more; got {text!r}.", name=unit.name,
                           what=what, text=text)
    return int(text)


@contextlib.contextmanager
def _on_line(box: str, n: int) -> Iterator[None]:
    """A refusal of a form's line names the box and the line (the reopened form shows the member's text)."""
    try:
        yield
    except InvalidInput as exc:
        raise InvalidInput("{box}, line {n}: {problem}", box=box, n=n, problem=exc.text) from None


def _picked(form: Form, chosen: Sequence[str]) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    """The leaders fallen and the melee eliminations picked in the form's select (:meth:`Form.choices`)."""
    offered = dict(form.choices())
    fallen: dict[str, str] = {}
    elims: list[dict[str, Any]] = []
    for value in chosen:
        if value not in offered:
            raise InvalidInput("The form no longer offers that choice: open it again.")
        kind, *rest = value.split(":")
        if kind == "fell":
            leader = form.leaders[int(rest[0])]
            if leader in fallen and fallen[leader] != rest[1]:
                raise InvalidInput("Fallen leaders and melee eliminations: {leader} fell once, in melee or in other "
                                   "circumstances, not both (CC-1).", leader=leader)
            fallen[leader] = rest[1]
        else:
            both = rest[2] == "1"
            elims.append({"unit": rest[1], "by": rest[0], "ordered": both, "took_ground": both})
    return [{"leader": k, "fell": v} for k, v in fallen.items()], elims


def _typed(form: Form, more: str, w: FormWords) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    """The leaders fallen and the melee eliminations typed in the form's last box, one a line, in the
    reader's words: ``Ney: mêlée``, ``jaegers par hussards ordonné a pris le terrain``."""
    fallen: list[dict[str, str]] = []
    elims: list[dict[str, Any]] = []
    leaders = {n.casefold(): n for n in form.leaders}
    ours = {u.key.casefold(): u for u in form.units} | {u.name.casefold(): u for u in form.units}
    theirs = {u.key.casefold(): u for u in form.enemies} | {u.name.casefold(): u for u in form.enemies}
    box = Msg("Fallen leaders and melee eliminations")
    for n, raw in enumerate(more.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        with _on_line(box, n):
            name, colon, how = line.rpartition(":")
            if colon and name.strip().casefold() in leaders:
                said = how.strip().casefold()
                if said not in w.melee + w.other:
                    raise InvalidInput("{how!r} is not how a leader falls: write {melee} or {other} (CC-1).",
                                       how=how.strip()[:30], melee=w.melee[0], other=w.other[0])
                fallen.append({"leader": leaders[name.strip().casefold()], "fell": "melee" if said in w.melee else "other"})
                continue
            elim = _elimination(line, w, ours, theirs)
            if elim is None:
                raise InvalidInput("{line!r}: write \"{leader}: {melee}\" (or {other}) for a fallen leader (CC-1), or "
                                   "\"{enemy} {by} {unit}\" for a melee elimination (CC-3).", line=line[:60],
                                   leader=form.leaders[0] if form.leaders else "?", melee=w.melee[0], other=w.other[0],
                                   enemy=form.enemies[0].key if form.enemies else "?", by=w.by[0],
                                   unit=form.units[0].key if form.units else "?")
            elims.append(elim)
    return fallen, elims


def _elimination(line: str, w: FormWords, ours: Mapping[str, FormUnit],
                 theirs: Mapping[str, FormUnit]) -> dict[str, Any] | None:
    """``enemy by yours [ordered] [took ground]`` in the reader's words (None: not that shape)."""
    folded = " " + " ".join(line.replace(",", " ").casefold().split()) + " "
    for by in w.by:
        enemy, sep, rest = folded.partition(f" {by} ")
        if not sep:
            continue
        ordered = took = False
        for phrase in w.took_ground:
            if f" {phrase} " in f" {rest} ":
                took, rest = True, f" {rest} ".replace(f" {phrase} ", " ")
        for word in w.ordered:
            if f" {word} " in f" {rest} ":
                ordered, rest = True, f" {rest} ".replace(f" {word} ", " ")
        victim, captor = theirs.get(enemy.strip()), ours.get(rest.strip())
        if victim is None:
            raise InvalidInput("{unit!r} is not an enemy unit of this battle: {names}.", unit=enemy.strip()[:40],
                               names=Msg.join(", ", (u.name for u in dict.fromkeys(theirs.values()))))
        if captor is None:
            raise InvalidInput("{unit!r} is not one of your units in this battle: {names}.", unit=rest.strip()[:40],
                               names=Msg.join(", ", (u.name for u in dict.fromkeys(ours.values()))))
        return {"unit": victim.key, "by": captor.key, "ordered": ordered, "took_ground": took}
    return None


def _losses_row(line: str, by_key: Mapping[str, FormUnit], form: Form) -> dict[str, Any] | None:
    """One line of the losses box: ``unit: killed rout other`` (None: no loss)."""
    key, colon, rest = line.partition(":")
    unit = by_key.get(key.strip()) or by_key.get(key.strip().casefold())
    if not colon or unit is None:
        raise InvalidInput("{line!r} is not \"unit: killed rout other\"; your units are {names}.",
                           line=line[:60], names=Msg.join(", ", (u.name for u in form.units)))
    numbers = rest.replace(",", " ").replace("/", " ").split()
    if len(numbers) > 3:
        raise InvalidInput("{name}: give up to three numbers, SP killed, in rout and under another order; "
                           "got {text!r}.", name=unit.name, text=rest.strip()[:40])
    counts = [_number(n, unit, what) for n, what in zip(numbers, ("killed", "rout", "other order"), strict=False)]
    counts += [0] * (3 - len(counts))
    if not sum(counts):
        return None
    return {"unit": unit.key, "killed": counts[0], "rout": counts[1], "other_order": counts[2]}


def _counted(form: Form, counts: Mapping[str, Mapping[str, str]]) -> list[dict[str, Any]]:
    """The units' losses from the form's number boxes (``counts``: unit key -> kind -> what was picked or
    typed; a box left out is 0): a bad number is refused naming the unit and the box (issue 23, item 2)."""
    units: list[dict[str, Any]] = []
    for unit in form.units:
        given = counts.get(unit.key, {})
        row = {kind: _number(str(given.get(kind, "0")).strip() or "0", unit, what) for kind, what in LOSS_KINDS}
        for kind, what in LOSS_KINDS:
            if row[kind] > unit.sp:
                raise InvalidInput("{name}: {what}: {count}, more than its strength of {sp} SP.", name=unit.name,
                                   what=what, count=row[kind], sp=unit.sp)
        if sum(row.values()) > unit.sp:
            raise InvalidInput("{name}: {total} SP lost in all (killed: {killed}, in rout: {rout}, under another order: "
                               "{other}), more than its strength of {sp} SP (BR).", name=unit.name, killed=row["killed"],
                               rout=row["rout"], other=row["other_order"], total=sum(row.values()), sp=unit.sp)
        if sum(row.values()):
            units.append({"unit": unit.key, **row})
    return units


def part_from_form(form: Form, *, outcome: str, system: str, banners: str, losses: str = "", more: str = "",
                   chosen: Sequence[str] | None = None, words: FormWords | None = None,
                   counts: Mapping[str, Mapping[str, str]] | None = None) -> dict[str, Any]:
    """A side's report document from its form's fields (BR); errors name the unit or the line, in the
    reader's words. The losses are ``counts`` (the form's number boxes per unit, issue 23) or ``losses``
    typed one line per unit. The last box is either ``chosen`` (the values of :meth:`Form.choices` picked
    in a select) or ``more``, typed in ``words`` (the reader's, English understood too)."""
    by_key = {u.key: u for u in form.units} | {u.name.casefold(): u for u in form.units}
    units: list[dict[str, Any]] = [] if counts is None else _counted(form, counts)
    for n, raw in enumerate(losses.splitlines() if counts is None else (), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        with _on_line(Msg("Losses"), n):
            row = _losses_row(line, by_key, form)
        if row is not None:
            units.append(row)
    part: dict[str, Any] = {"side": form.side, "outcome": outcome, "units": units}
    doc: dict[str, Any] = {"system": system}
    text = banners.strip()
    if text:
        won, slash, required = text.replace(" ", "").partition("/")
        if not (won.isdigit() and slash and required.isdigit()):
            raise InvalidInput("Victory Banners: write won/required, like 4/7; got {text!r}.", text=text[:20])
        doc["banners_required"], part["banners"] = int(required), int(won)
    if chosen is not None:
        fallen, elims = _picked(form, chosen)
    else:
        fallen, elims = _typed(form, more, (words or ENGLISH).with_english())
    if fallen:
        part["leader_casualties"] = fallen
    doc["sides"] = [part]
    if elims:
        doc["melee_eliminations"] = elims
    return doc
