"""Issue 24, item 2: every roll held to the bot's own rulebook by its rule id, chain recomputed or not.

One honest roll of each kind the bot makes (the map campaign's MC-4 to MC-9, initiative RU-4, leader fate
CC-1, the battle die and trophies CC-3, quick battles RU-27, the bot general's orders die RU-26, weather
and events RU-10, the house rules' or a scenario's own), then for each: an extra modifier nobody earned,
and its table rewritten, each with the outcome made to fit and the whole chain and its heads recomputed.
Both must show without the announced heads, in Python and in the page alike."""

from __future__ import annotations

import copy
import json
import shutil
from dataclasses import replace
from typing import Any

import pytest

from bot.campaign.general.policy import policy
from bot.campaign.settings import Personality
from bot.engine.aftermath import deserter_check, wounded_check
from bot.engine.attrition import attrition_check
from bot.engine.battle import exploration_check
from bot.engine.dice import SeededDice, roll_key
from bot.engine.force_test import force_test_check
from bot.engine.leaders import fate_checks
from bot.engine.model import Cell, Climate, Order, Quality, Season, Territory, Unit, UnitType
from bot.engine.movement import WaterRoute, movement_check, roll_initiative, water_movement_check
from bot.engine.quick import Result, banner_check, default_quick_tables, leader_check, losses_check
from bot.engine.rolls import Check, Modifier
from bot.engine.seasons import roll_event, roll_weather
from bot.engine.tables import default_rulebook
from bot.engine.trophies import roll_battle_dice, trophy_check
from bot.engine.verify import verify_log
from bot.engine.will import Tallies, will_to_fight_check

from .conftest import build_force
from .forgeries import SEEDS, chained, rechain, record_sha


def _records(force: Any) -> list[dict[str, Any]]:
    """Turn 1's rolls, one of each kind, made by the engine's own checks with seeded dice."""
    dice = SeededDice(SEEDS[1])
    rb = default_rulebook()
    rain = rb.weather.kinds["rain"]
    event = Modifier(-1, "RU-10", "random event (house rule)")
    unit = Unit("u1", "Grenadiers", 6, UnitType.INFANTRY, Quality.VETERAN)
    q = default_quick_tables()
    edges = (q.numbers[0].edge.modifier(mine=True), q.reactions[next(iter(q.reactions))].modifier(mine=False))
    general = policy()

    def key(name: str) -> str:
        return roll_key(1, 2, "force:f1", name)

    out = [
        force_test_check(force, Cell(territory="france")).roll(dice, key("force_test")),
        movement_check(force, Cell(), weather=rain.movement, weather_label=rain.label, extra=(event,)).roll(
            dice, key("movement")),
        water_movement_check(force, Cell(), WaterRoute("river", upstream=True, horse_barges=True)).roll(
            dice, key("water")),
        attrition_check(unit).roll(dice, key("attrition")),
        exploration_check(replace(force, order=Order.DEFEND), Cell()).roll(
            dice, key("explore")),
        wounded_check(Territory.ENEMY).roll_many(dice, key("wounded"), 12),
        deserter_check(Quality.VETERAN, routed=True).roll_many(dice, key("deserters"), 12),
        will_to_fight_check(Tallies(battles_won=2, battles_lost=1)).roll(dice, key("will")),
        *roll_initiative({"fr": 2, "au": 1}, dice, key("initiative")).rolls,
        fate_checks("melee")[0].roll(dice, key("fate")),
        roll_battle_dice(4, dice, key("battle-dice")),
        trophy_check("cavalry", "infantry").roll(dice, key("trophy")),
        Check(q.rule, q.name, edges, q.battle, dice=q.dice).roll(dice, key("quick")),
        losses_check(Result.DEFEAT, "Grenadiers").roll(dice, key("quick-losses")),
        leader_check(Result.DEFEAT, "Davout").roll(dice, key("quick-leader")),
        banner_check(Result.DEFEAT, "France").roll(dice, key("quick-banners")),
        general.stance_check(Personality.BALANCED, (general.modifiers["stronger"],), "group 1").roll(dice, key("stance")),
        roll_weather(Climate.TEMPERATE, Season.AUTUMN, dice, key("weather")).roll,
        roll_event(dice, key("event"), subject="France").roll,
    ]
    return [r.to_dict() for r in out]


def honest(force: Any) -> dict[str, Any]:
    """Turn 1 ended with every kind of roll, turn 2 in play with none."""
    log = chained({1: _records(force), 2: []}, SEEDS, current=2)
    return log


def reheaded(log: dict[str, Any]) -> dict[str, Any]:
    """The whole chain and the heads recomputed: what a forger who knows the format does last."""
    rechain(log)
    for t in log["turns"]:
        if t["chain_head"]:
            t["chain_head"] = record_sha([r for r in log["rolls"] if r["turn"] == t["turn"]][-1])
    return log


def refit(r: dict[str, Any]) -> None:
    """The outcome made to fit the dice, modifiers and table as recorded (docs/dice.md)."""
    t = r["table"]
    if "faces" in t:
        rolled = sorted(t["faces"][f - 1] for f in r["dice"])
        row = next((c for c in t["combinations"] if sorted(c["symbols"]) == rolled), t["otherwise"])
        r["result"], r["label"] = row["result"], row["label"].replace(
            "{shown}", " + ".join(t["labels"][t["faces"][f - 1]] for f in r["dice"]))
        return
    mod = sum(m["value"] for m in r["modifiers"])

    def row_of(faces: list[int]) -> tuple[int, dict[str, Any]]:
        total = (sum(faces) + mod) * t["multiplier"]
        total = max(total, t["floor"]) if t["floor"] is not None else total
        natural = next((n["result"] for n in t["naturals"] if len(faces) == 1 and n["face"] == faces[0]), None)
        rows = t["bands"]
        if natural is not None:
            return total, next(b for b in rows if b["result"] == natural)
        return total, next(b for b in rows if (b["min"] is None or b["min"] <= total)
                           and (b["max"] is None or total <= b["max"]))

    if r["kind"] == "batch":
        r["counts"] = {b["result"]: 0 for b in t["bands"]}
        for f in r["dice"]:
            r["counts"][row_of([f])[1]["result"]] += 1
        r["labels"] = {b["result"]: b["label"] for b in t["bands"]}
        return
    total, row = row_of(r["dice"])
    r["total"], r["result"], r["label"], r["value"] = total, row["result"], row["label"], row["value"]
    r["natural"] = bool(len(r["dice"]) == 1 and any(n["face"] == r["dice"][0] for n in t["naturals"]))


def extra_modifier(log: dict[str, Any], i: int) -> dict[str, Any]:
    forged = copy.deepcopy(log)
    r = forged["rolls"][i]
    r["modifiers"].append({"value": 2, "rule": r["rule"], "reason": "the general's favour"})
    if "faces" not in r["table"]:
        refit(r)
    return reheaded(forged)


def rewritten_table(log: dict[str, Any], i: int) -> dict[str, Any]:
    forged = copy.deepcopy(log)
    r = forged["rolls"][i]
    t = r["table"]
    if "faces" in t:  # the symbols rolled made a winning combination
        t["combinations"].insert(0, {"symbols": [t["faces"][f - 1] for f in r["dice"]], "result": "taken",
                                     "label": "taken"})
    elif len(t["bands"]) > 1:  # every band three lower: the same total reads a better row
        for b in t["bands"]:  # (one lower would be the bold general's table, a true one of RU-26)
            b["min"] = None if b["min"] is None else b["min"] - 3
            b["max"] = None if b["max"] is None else b["max"] - 3
    else:
        t["bands"][0]["label"] = "initiative, doubled"
    refit(r)
    return reheaded(forged)


LOG = honest(build_force(cv=2))
KINDS = range(len(LOG["rolls"]))


@pytest.fixture
def log() -> dict[str, Any]:
    return copy.deepcopy(LOG)


def test_every_kind_of_roll_of_an_honest_log_is_the_rulebooks(log):
    report = verify_log(json.loads(json.dumps(log)))
    assert report.ok, report.problems
    assert report.rulebook == report.recomputed == len(log["rolls"])
    assert {r["rule"] for r in log["rolls"]} == {"MC-4", "MC-5.1", "MC-5.3", "MC-5.2", "MC-6.1", "MC-7.1", "MC-7.2",
                                                 "MC-9", "RU-4", "CC-1", "CC-3", "RU-27", "RU-26", "RU-10"}


@pytest.mark.parametrize("i", KINDS)
def test_an_extra_modifier_shows_alone_whatever_the_roll(log, i):
    forged = extra_modifier(log, i)
    r = forged["rolls"][i]
    problems = verify_log(json.loads(json.dumps(forged))).problems
    label = f"rolls[{i}] ({r['key']})"
    if "faces" in r["table"]:
        assert problems == [f"{label}: its modifier \"the general's favour\" of 2 (rule \"CC-3\") is not one the "
                            "rulebook gives this roll"] or problems[-1].endswith("takes none")
    else:
        assert problems == [f"{label}: its modifier \"the general's favour\" of 2 (rule \"{r['rule']}\") is not one "
                            "the rulebook gives this roll"]


@pytest.mark.parametrize("i", KINDS)
def test_a_rewritten_table_shows_alone_whatever_the_roll(log, i):
    forged = rewritten_table(log, i)
    r = forged["rolls"][i]
    assert verify_log(json.loads(json.dumps(forged))).problems == [
        f"rolls[{i}] ({r['key']}): its table is not the rulebook's table for {r['rule']}"]


def _mod(log: dict[str, Any], i: int, change: Any) -> list[str]:
    forged = copy.deepcopy(log)
    change(forged["rolls"][i])
    refit(forged["rolls"][i])
    return verify_log(json.loads(json.dumps(reheaded(forged)))).problems


def test_a_modifier_of_the_rules_given_twice_a_value_not_theirs_or_one_left_out_shows(log):
    movement = log["rolls"][1]
    road = {"value": 1, "rule": "MC-5.1", "reason": "on a road or caravan track"}
    assert _mod(log, 1, lambda r: r["modifiers"].extend([road, road])) == [
        f"rolls[1] ({movement['key']}): its modifiers \"on a road or caravan track\" and \"on a road or caravan "
        "track\" cannot both apply (the rulebook gives one of them at most)"]
    hills = {"value": -2, "rule": "MC-5.1", "reason": "starts in hills"}
    forest = {"value": -2, "rule": "MC-5.1", "reason": "starts in forest"}
    assert "cannot both apply" in _mod(log, 1, lambda r: r["modifiers"].extend([hills, forest]))[0]
    # A kind of weather's modifier is its own value: Rain is -1, not +1.
    assert _mod(log, 1, lambda r: r["modifiers"][-2].update(value=1)) == [
        f"rolls[1] ({movement['key']}): its modifier \"weather: Rain\" of 1 (rule \"MC-10\") is not one the rulebook "
        "gives this roll"]
    # The Forced March order's bonus and the same bought with supply (FC-2) never stack.
    bought = {"value": 2, "rule": "FC-2", "reason": "Forced March bought with supply"}
    march = {"value": 2, "rule": "MC-5.1", "reason": "Forced March order"}
    assert "cannot both apply" in _mod(log, 1, lambda r: r["modifiers"].extend([march, bought]))[0]
    # A Command Value beyond any leader's, and attrition's -2 left out.
    force_test = log["rolls"][0]
    assert _mod(log, 0, lambda r: r["modifiers"][0].update(value=11)) == [
        f"rolls[0] ({force_test['key']}): its modifier \"Davout's Command Value\" of 11 (rule \"MC-4\") is not one "
        "the rulebook gives this roll",
        f"rolls[0] ({force_test['key']}): it lacks the modifier the rulebook always gives it (\"...'s Command "
        "Value\")"]
    assert _mod(log, 3, lambda r: r["modifiers"].clear()) == [
        f"rolls[3] ({log['rolls'][3]['key']}): it lacks the modifier the rulebook always gives it (\"1D6 - 2 SP, never "
        "below 0\")"]
    # MC-9 counts: two battles won is twice the modifier, under "x2", and nothing else.
    will = log["rolls"][7]
    assert will["modifiers"][0]["reason"].endswith(" x2")
    assert _mod(log, 7, lambda r: r["modifiers"][0].update(value=r["modifiers"][0]["value"] * 2)) == [
        f"rolls[7] ({will['key']}): its modifier \"{will['modifiers'][0]['reason']}\" of "
        f"{will['modifiers'][0]['value'] * 2} (rule \"MC-9\") is not one the rulebook gives this roll"]


def test_a_roll_of_no_rule_the_bot_rolls_shows(log):
    def rename(r: dict[str, Any]) -> None:
        r["rule"] = "XX-1"
    last = len(log["rolls"]) - 1
    assert _mod(log, last, rename) == [f"rolls[{last}] ({log['rolls'][last]['key']}): no rule of the bot's rulebook "
                                       "rolls it (rule \"XX-1\")"]


def test_a_scenarios_own_weather_is_held_to_the_tables_the_log_carries():
    """RU-10: a campaign's own weather and events verify against its stored tables; a roll's table rewritten
    shows, and so does the log's table of one kind rewritten (the house rules' are not the scenario's)."""
    from tests.campaign.test_scenario_tables import winter_log

    log = winter_log()
    assert verify_log(json.loads(json.dumps(log))).ok
    weather = next(i for i, r in enumerate(log["rolls"]) if r["rule"] == "RU-10")
    forged = rewritten_table(log, weather)
    assert verify_log(forged).problems == [
        f"rolls[{weather}] ({log['rolls'][weather]['key']}): its table is not the rulebook's table for RU-10"]
    without = copy.deepcopy(log)
    del without["tables"]  # read by the house rules' tables, which are not the scenario's
    assert any("its table is not the rulebook's table for RU-10" in p for p in verify_log(without).problems)
    broken = copy.deepcopy(log)
    broken["tables"]["weather"]["kinds"] = []
    assert "the campaign's own weather table that the log carries is malformed" in verify_log(broken).problems


def test_the_page_gives_the_same_verdicts(log, tmp_path):
    """The browser verifier over each forgery (skipped without Chromium)."""
    from tests.campaign.test_scenario_tables import winter_log

    from .test_verify_browser import BROWSERS, checked_in_browser

    browser = next((p for name in BROWSERS if (p := shutil.which(name))), None)
    if browser is None:
        pytest.skip("no Chromium binary installed")
    winter = winter_log()
    broken = copy.deepcopy(winter)
    broken["tables"]["events"]["bands"][0]["min"] = 1.5
    twice = copy.deepcopy(log)
    twice["rolls"][1]["modifiers"] *= 2
    cases = [log, winter, broken, reheaded(twice), *(extra_modifier(log, i) for i in KINDS),
             *(rewritten_table(log, i) for i in KINDS)]
    got = checked_in_browser(browser, tmp_path, cases, 'check(c, "")')
    for one, g in zip(cases, got, strict=True):
        report = verify_log(json.loads(json.dumps(one)))
        assert g == {"ok": report.ok, "matched": report.ok and report.matches_announced, "lines": report.lines()}
    assert [g["ok"] for g in got[:4]] == [True, True, False, False]
    assert not any(g["ok"] for g in got[4:])
