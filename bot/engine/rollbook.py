"""What the verifiers hold every roll to (issue 24, item 2): the bot's own rulebook, by rule id.

For each rule that rolls dice, the tables a roll of it may carry and, for each table, the modifiers the
rules give it (:func:`rollbook`). A roll whose rule is not here, whose table is none of its rule's, or
whose modifiers are not the rules' (a modifier the rules do not give that roll, a value not theirs, two
that cannot both apply, one the rules always apply left out) is a PROBLEM, chain recomputed or not.

A modifier spec (the same in ``verify.html``)::

    {"rule": "MC-4", "reason": "in enemy territory", "values": [-1], "group": "territory"}

- ``reason`` (exact) or ``suffix`` (a name then that text: ``"Ney's Command Value"``);
- ``values`` (the values allowed) or ``min`` and ``max`` (a Command Value, bounded as leaders' are);
- ``group``: at most one modifier of a group on one roll (terrain, territory, a reaction...), unless
  ``repeat`` (an enemy camp's edge in a quick battle, one per enemy camp);
- ``count``: the reason may also read ``"<reason> x<n>"`` (n from 2) with n times the value (MC-9);
- ``required``: the roll always carries it (a Force test's Command Value, attrition's -2);
- ``from``: ``"weather"`` or ``"events"``: stands for the modifiers the campaign's weather kinds and
  random events give (RU-10), made from the tables the log carries or the house rules'
  (:func:`bot.engine.verify.own_tables`).

Command Values, weather and events depend on the campaign: they are bounded by what the rules allow
(-3 to 10 for a Command Value, a kind of weather's own value, an event's own movement effect); every other
modifier is the rulebook's own value for its reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from .model import UnitType
from .rolls import Band, BandTable, Check, Modifier
from .tables import HOUSE_RULE, default_rulebook, events_data, weather_data

CV_RANGE = (-3, 10)
"""A leader's Command Value (bot.engine.model.Leader)."""
INITIATIVE_TABLE = BandTable((Band(None, None, "total", "initiative"),))
"""RU-4: the initiative roll's table (the total is all it gives)."""


def table_key(table: Mapping[str, Any], sides: Any) -> dict[str, Any]:
    """What of a roll the rulebook fixes (its die's sides and its table), to be compared as canonical JSON:
    a table read by symbols whole, a table of bands by its dice, multiplier, floor, naturals and bands."""
    if "faces" in table:
        return {"symbols": dict(table), "sides": sides}
    return {"dice": table.get("dice"), "multiplier": table.get("multiplier", 1), "floor": table.get("floor"),
            "naturals": table.get("naturals", []), "bands": table.get("bands"), "sides": sides}


def _spec(m: Modifier, group: str, **more: Any) -> dict[str, Any]:
    return {"rule": m.rule, "reason": str(m.reason), "values": [m.value], "group": group, **more}


def _grouped(mods: Mapping[str, Modifier], groups: Mapping[str, str]) -> list[dict[str, Any]]:
    """The named modifiers of a procedure, each in its group (by default a group of its own)."""
    return [_spec(m, groups.get(name, name)) for name, m in mods.items()]


TERRITORY = {"friendly_territory": "territory", "enemy_territory": "territory"}
WEATHER = {"from": "weather", "rule": "MC-10", "group": "weather"}
EVENTS = {"from": "events", "rule": HOUSE_RULE, "reason": "random event (house rule)", "group": "event"}


def _entry(rule: str, spec: Mapping[str, Any], sides: int, mods: Iterable[dict[str, Any]]) -> dict[str, Any]:
    from .verify import canonical_json

    return {"table": canonical_json(table_key(spec, sides)), "modifiers": list(mods)}


@cache
def rollbook() -> dict[str, Any]:
    """``{"rolls": {rule: [{"table": key, "modifiers": [spec...]}]}, "house": {"weather": ..., "events": ...}}``:
    the rulebook's tables and modifiers by rule id, and the house rules' weather and events (RU-10) for a
    campaign whose log carries none of its own."""
    rb = default_rulebook()
    mc = rb.mc
    rolls: dict[str, list[dict[str, Any]]] = {}

    def add(check: Check, mods: Iterable[dict[str, Any]] = (), *, rule: str = "", spec: Mapping[str, Any] | None = None) -> None:
        """The table of ``check`` (or ``spec``, a table read by symbols, of ``rule``) and its modifiers."""
        rule = rule or check.rule
        entry = _entry(rule, spec or check.table_spec, check.sides, mods)
        if entry not in rolls.setdefault(rule, []):
            rolls[rule].append(entry)

    cv = {"min": CV_RANGE[0], "max": CV_RANGE[1], "group": "cv", "required": True}
    ft = mc.force_test
    add(Check(ft.rule, ft.name, (), ft.bands),
        [{"rule": ft.rule, "suffix": "'s Command Value", **cv},
         *_grouped(ft.modifiers, {"routed": "reaction", "unsteady": "reaction", "confused": "reaction", **TERRITORY})])
    terrain = {k: "terrain" for k in ("mountain", "forest", "swamp", "desert_or_wasteland", "cultivated", "hill")}
    supply = _supply_specs()
    mv = mc.movement
    add(Check(mv.rule, mv.name, (), mv.bands),
        [*_grouped({**mv.modifiers, **mc.movement_extension}, {**terrain, **TERRITORY}),
         *supply(mv.modifiers["forced_march"].value), WEATHER, EVENTS])
    wm = mc.water_movement
    add(Check(wm.rule, wm.name, (), wm.bands),
        [*_grouped(wm.modifiers, {"contrary_wind": "wind", "dead_calm": "wind", "favourable_wind": "wind",
                                  "upstream": "current", "downstream": "current", **TERRITORY}),
         *supply(wm.modifiers["forced_march"].value), WEATHER, EVENTS])
    at = mc.attrition
    add(Check(at.rule, at.name, (), at.bands, floor=0), [_spec(mc.attrition_loss, "loss", required=True)])
    ex = mc.exploration
    for multiplier in sorted({1, mc.defend_multiplier}):
        add(Check(ex.rule, ex.name, (), ex.bands, multiplier=multiplier, floor=0), _grouped(ex.modifiers, TERRITORY))
    wo = mc.wounded
    add(Check(wo.rule, wo.name, (), wo.bands, naturals=wo.naturals), _grouped(wo.modifiers, TERRITORY))
    de = mc.deserters
    add(Check(de.rule, de.name, (), de.bands, naturals=de.naturals),
        _grouped(de.modifiers, {q: "quality" for q in ("raw", "average", "veteran", "elite")}))
    wf = mc.will_to_fight
    add(Check(wf.rule, wf.name, (), wf.bands), [_spec(m, name, count=True) for name, m in wf.modifiers.items()])
    add(Check(mc.initiative_rule, "Initiative", (), INITIATIVE_TABLE),
        [{"rule": mc.initiative_rule, "reason": "highest Command Value", **cv}])
    _cc(add)
    _quick(add)
    _general(add)
    return {"rolls": rolls,
            "house": {"rule": HOUSE_RULE, "weather": weather_data(rb.weather), "events": events_data(rb.events)}}


def _supply_specs() -> Any:
    from .cc_tables import default_fc_tables

    rule = default_fc_tables().supply_rule

    def specs(value: int) -> list[dict[str, Any]]:
        # FC-2: a forced march bought with supply gives the Forced March order's bonus, never on top of it.
        return [{"rule": rule, "reason": "Forced March bought with supply", "values": [value], "group": "forced_march"}]
    return specs


def _cc(add: Any) -> None:
    """CC-1 leader fate (both rolls of each circumstance's table), CC-3 the battle die and trophies."""
    from .cc_tables import default_cc_tables
    from .trophies import battle_die_check, trophy_check

    cc = default_cc_tables()
    for table in cc.leaders.fate.values():
        for bands in (table.first, table.second):
            add(Check(cc.leaders.fate_rule, cc.leaders.fate_name, (), bands))
    add(battle_die_check(tables=cc))
    for captor in UnitType:
        for flag in UnitType:
            trophy = trophy_check(captor, flag, tables=cc)
            add(battle_die_check(tables=cc), rule=trophy.rule, spec=trophy.table_spec)  # a d6 read by symbols


def _quick(add: Any) -> None:
    """RU-27: the battle roll and its edges (one of each ladder, a camp's own edges once, an enemy's once
    per enemy camp), the losses, the commander and the banners."""
    from .quick import default_quick_tables

    q = default_quick_tables()
    edges: list[dict[str, Any]] = []
    for group, steps in (("numbers", q.numbers), ("quality", q.quality), ("leadership", q.leadership)):
        for s in steps:
            edges += [{"rule": q.rule, "reason": s.edge.own, "values": [s.edge.value], "group": group},
                      {"rule": q.rule, "reason": s.edge.enemy, "values": [-s.edge.value], "group": group}]
    singles = [("works", q.works), ("ground", q.ground), *(("order", e) for e in q.orders.values()),
               *(("reaction", e) for e in q.reactions.values())]
    for group, e in singles:  # a camp's main body has one order and one reaction
        edges += [{"rule": q.rule, "reason": e.own, "values": [e.value], "group": group},
                  {"rule": q.rule, "reason": e.enemy, "values": [-e.value], "group": f"enemy {group}", "repeat": True}]
    add(Check(q.rule, q.name, (), q.battle, dice=q.dice), edges)
    for bands in q.losses.values():
        add(Check(q.rule, q.losses_name, (), bands, sides=q.losses_sides))
    add(Check(q.rule, q.leaders_name, (), q.leader_bands, sides=q.leaders_sides),
        [_spec(m, "result") for m in q.leader_modifiers.values()])
    add(Check(q.rule, q.banners_name, (), q.banner_bands), [_spec(m, "result") for m in q.banner_modifiers.values()])


def _general(add: Any) -> None:
    """RU-26: the bot general's orders die, one table per personality. Its policy is read where the general
    lives (bot/campaign/general): the one rules file the engine does not load itself."""
    from bot.campaign.general.policy import policy

    p = policy()
    mods = _grouped(p.modifiers, {"stronger": "odds", "weaker": "odds"})
    for temper in p.tempers.values():
        add(Check(p.rule, p.name, (), temper.table), mods)
