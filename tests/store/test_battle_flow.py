"""A turn with a battle, through the services: contact, scouting, the report (BR), aftermath rolls,
leader fate, trophy, retreat, reactions, Glory and Will to Fight."""

from __future__ import annotations

import pytest
from sqlmodel import select

from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.model import LeaderStatus
from bot.engine.phases import Phase
from bot.engine.verify import verify_log
from bot.services import aftermath, battles, campaigns, cc, orders, views
from bot.services.errors import NotFound, PermissionDenied
from bot.services.loading import get_campaign
from bot.store.models import BattleRow
from bot.store.rolllog import roll_log

from .conftest import AUSTRIAN, FRENCH, GM
from .test_campaign_flow import advance, fixed_seeds  # noqa: F401  (fixture re-used)

SCENARIO = """
name: Skirmish at the bridge
start_date: 1805-10-07
map:
  width: 8
  height: 8
  territories: {fr: ["A1:C8"], au: ["F1:H8"]}
sides: [{key: fr, name: France, colour: "#1f4e9c"}, {key: au, name: Austria, colour: "#d9a400"}]
forces:
  - key: lannes
    name: V Corps
    side: fr
    square: D4
    leader: {name: Lannes, cv: 5}
    units:
      - {key: suchet, name: Suchet, sp: 10, type: infantry, quality: veteran}
      - {key: hussars, name: 10th Hussars, sp: 4, type: cavalry, quality: average}
  - key: mack
    name: Army of Mack
    side: au
    square: E4
    leader: {name: Mack, cv: 1}
    units:
      - {key: riesch, name: Riesch, sp: 12, type: infantry, quality: raw}
      - {key: jaegers, name: Jaegers, sp: 2, type: infantry, quality: average}
"""

REPORT = {
    "system": "cc",
    "banners_required": 7,
    "sides": [
        {"side": "fr", "outcome": "won", "banners": 7, "units": [{"unit": "suchet", "killed": 2}]},
        {"side": "au", "outcome": "lost", "banners": 4,
         "units": [{"unit": "riesch", "killed": 3, "rout": 2}, {"unit": "jaegers", "killed": 2}],
         "leader_casualties": [{"leader": "Mack", "fell": "melee"}]},
    ],
    "melee_eliminations": [{"unit": "jaegers", "by": "hussars", "ordered": True, "took_ground": True}],
}


async def to_battle(db) -> tuple[int, int]:
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge", scenario_text=SCENARIO)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    await advance(db, cid)  # weather
    test = await orders.give_order(db, cid, FRENCH, "lannes", "forced_march")
    assert test.roll.result == "ok"  # CV 5: 1D6 + 5 is always 6 or more (MC-4)
    await advance(db, cid, forced=True)
    move = await orders.declare_move(db, cid, FRENCH, "lannes", "E4")
    assert move.reach == ("E4",)  # Forced March: 1D6 + 2 is always 3 or more (MC-5.1)
    res = await advance(db, cid, forced=True)
    assert res.battles == [1] and res.after.phase is Phase.BATTLE
    return cid, 1


async def test_contact_makes_a_battle_that_waits_for_its_report(db) -> None:
    cid, _ = await to_battle(db)
    st = await views.status(db, cid, GM)
    # Each camp scouts, then reports its own result (MC-6.1, BR); the GM only where they differ (issue 22, item 4).
    assert [(w.who, w.what) for w in st.waiting] == [
        ("Austria", "scout battle 1 (MC-6.1), then report its camp's result (BR)"),
        ("France", "scout battle 1 (MC-6.1), then report its camp's result (BR)")]
    with pytest.raises(RuleViolation, match="still waiting: Austria: scout battle 1"):
        await advance(db, cid, forced=True)


async def test_scouting_contest_goes_to_the_higher_score(db) -> None:
    cid, number = await to_battle(db)
    fr = await battles.scout(db, cid, FRENCH, number)
    assert not fr.complete
    # Forced March without scouts: V Corps may not explore and scores 0 (MC-6.1, RU-5).
    assert fr.score == 0 and "only with scouts" in fr.reasons[0]
    au = await battles.scout(db, cid, AUSTRIAN, number)
    assert au.complete
    assert au.winner == ("au" if au.score > 0 else None)
    with pytest.raises(RuleViolation, match="already scouted"):
        await battles.scout(db, cid, AUSTRIAN, number)


async def test_a_bad_report_is_refused_with_its_reason_and_only_the_gm_reports(db) -> None:
    cid, number = await to_battle(db)
    with pytest.raises(PermissionDenied, match="Only the GM"):
        await aftermath.report_battle(db, cid, FRENCH, number, REPORT)
    too_many = {**REPORT, "sides": [REPORT["sides"][0], {**REPORT["sides"][1], "units": [{"unit": "riesch", "killed": 13}]}]}
    with pytest.raises(InvalidInput, match="Riesch"):
        await aftermath.report_battle(db, cid, GM, number, too_many)


async def test_a_reported_battle_rolls_its_aftermath_fate_trophy_and_glory(db) -> None:
    cid, number = await to_battle(db)
    preview = await aftermath.preview_report(db, cid, GM, number, REPORT)
    assert preview.lines[0] == "France won, Austria lost"
    summary = await aftermath.report_battle(db, cid, GM, number, REPORT)
    assert any("fate roll due (CC-1)" in line for line in summary.lines)
    res = await advance(db, cid)
    assert res.after.phase is Phase.AFTERMATH

    au = await aftermath.roll_aftermath(db, cid, AUSTRIAN, number)
    riesch = next(u for u in au.units if u.unit.id == "riesch")
    assert riesch.wounded is not None and len(riesch.wounded.dice) == 3  # one die per SP killed (MC-7.1)
    assert sum(len(r.dice) for r in riesch.deserters) == 2  # the SP that left in rout (MC-7.2)
    assert riesch.unit.sp == 12 - 3 + riesch.returned_wounded - riesch.deserted
    with pytest.raises(RuleViolation, match="already rolled"):
        await aftermath.roll_aftermath(db, cid, AUSTRIAN, number)
    with pytest.raises(NotFound, match="You have no Force 'mack'"):  # as for a Force that does not exist (fog)
        await aftermath.retreat(db, cid, FRENCH, number, "mack", "F4")

    with pytest.raises(RuleViolation, match="fell in melee vs infantry or cavalry"):
        await cc.leader_fate(db, cid, AUSTRIAN, "Mack", "other")
    with pytest.raises(NotFound, match="'Mack' has no fate roll due"):  # as for a leader who did not fall (fog)
        await cc.leader_fate(db, cid, FRENCH, "Mack", "other")
    fate = await cc.leader_fate(db, cid, AUSTRIAN, "Mack", "melee")
    with pytest.raises(NotFound, match="no fate roll due"):
        await cc.leader_fate(db, cid, AUSTRIAN, "Mack", "melee")
    trophy = await cc.trophy_roll(db, cid, FRENCH, number, "hussars", "jaegers")

    with pytest.raises(RuleViolation, match="not a legal retreat"):
        await aftermath.retreat(db, cid, AUSTRIAN, number, "mack", "A1")
    moved = await aftermath.retreat(db, cid, AUSTRIAN, number, "mack", "F4")
    assert moved.square == "F4"

    glory = {g.side: g.balance for g in await cc.glory_balance(db, cid)}
    captured = fate.fate.status is LeaderStatus.CAPTURED
    assert glory["fr"] == 2 + int(trophy.result.taken) + int(captured)  # 1 + floor((7-4)/2), CC-4
    assert glory["au"] == 1  # 4 of 7 banners is at least half

    await advance(db, cid, forced=True)  # Phase 4 ends; the French aftermath is rolled by the bot
    st = await views.status(db, cid, GM)
    assert (st.position.turn, st.position.phase) == (2, Phase.ORDERS)  # turn 2's weather rolled by itself
    mack = next(f for f in st.forces if f.key == "mack")
    assert mack.reaction == "confused" and mack.square == "F4"  # MC-7.4
    async with db.sessions() as s:
        campaign = await get_campaign(s, cid)
        row = (await s.exec(select(BattleRow).where(BattleRow.campaign_id == cid))).one()
        log = await roll_log(s, campaign)
    assert row.state == "done" and row.aftermath["rolled"] == {"fr": True, "au": True}
    report = verify_log(log)
    assert report.ok and report.unverifiable == 1 and report.unrevealed_turns == [2]  # turn 2's weather, still secret
    keys = {r["key"] for r in log["rolls"]}
    assert "t1/p5/side:au/will-to-fight" in keys  # the loser tests its Will to Fight (MC-9)


async def test_the_battle_brief_gives_the_table_what_it_needs_and_only_to_those_in_it(db) -> None:
    from .conftest import OUTSIDER

    cid, number = await to_battle(db)
    listed = await battles.list_battles(db, cid)
    assert [(b.number, b.square, b.state) for b in listed] == [(1, "E4", "pending")]
    b = await battles.brief(db, cid, FRENCH, number)
    text = "\n".join(b.lines)
    assert "V Corps: 14 SP, order forced march" in text
    assert "Riesch: 12/12 SP (raw, infantry)" in text and "Leader Mack (CV 1), fit" in text
    assert "Scouting (RU-5): not complete" in text
    assert "France has 0 Glory" in text
    with pytest.raises(PermissionDenied, match="Only the sides in battle 1"):
        await battles.brief(db, cid, OUTSIDER, number)


async def test_a_campaign_exported_in_its_aftermath_imports_again(db) -> None:
    from bot.services import exchange

    cid, number = await to_battle(db)
    await aftermath.report_battle(db, cid, GM, number, REPORT)
    await advance(db, cid)
    await aftermath.roll_aftermath(db, cid, AUSTRIAN, number)
    exported = await exchange.export_campaign(db, cid, GM)
    assert any(b["aftermath"] for b in exported["state"]["battles"])
    done = await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=77, gm=GM)
    again = await exchange.export_campaign(db, done.campaign_id, GM)
    assert again["state"]["battles"] == exported["state"]["battles"]
