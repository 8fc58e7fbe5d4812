"""Leader fate over time through the services (CC-1, CC-2, RU-18): a fallen leader's replacement never
blocks Phase 4, the roster and the brief show who commands, and a Moderate wound heals.

The dice are the fixed turn seeds of ``fixed_seeds``; the French Force's key picks the fate-roll key
(``t1/p4/battle:1/leader:<force>-leader/fate``), so each test asserts the fate its key gives.
"""

from __future__ import annotations

import pytest
from sqlmodel import select

from bot.engine.model import LeaderStatus
from bot.engine.phases import Phase
from bot.services import aftermath, battles, campaigns, cc, orders, views
from bot.store.models import BattleRow, LeaderEvent, LeaderRow

from .conftest import AUSTRIAN, FRENCH, GM
from .test_campaign_flow import advance, fixed_seeds  # noqa: F401  (fixture re-used)

SCENARIO = """
name: Soult at the crossroads
start_date: 1805-10-07
map: {width: 8, height: 8}
sides: [{key: fr, name: France, colour: "#1f4e9c"}, {key: au, name: Austria, colour: "#d9a400"}]
forces:
  - key: FORCE
    name: IV Corps
    side: fr
    square: D4
    leader: {name: Soult, cv: 5}
    units:
      - {key: st-hilaire, name: St-Hilaire, sp: 8, type: infantry, quality: veteran}
      - {key: vandamme, name: Vandamme, sp: 6, type: infantry, quality: average}
      - {key: margaron, name: Margaron, sp: 4, type: cavalry, quality: average}
  - key: mack
    name: Army of Mack
    side: au
    square: E4
    leader: {name: Mack, cv: 1}
    units:
      - {key: riesch, name: Riesch, sp: 12, type: infantry, quality: raw}
"""


def report(*, casualty: bool = True, outcome: str = "lost") -> dict:
    other = {"lost": "won", "won": "lost", "draw": "draw"}[outcome]
    banners = {"lost": 3, "won": 7, "draw": 4}
    fr = {"side": "fr", "outcome": outcome, "banners": banners[outcome], "units": [{"unit": "st-hilaire", "killed": 2}]}
    if casualty:
        fr["leader_casualties"] = [{"leader": "Soult", "fell": "melee"}]
    return {"system": "cc", "banners_required": 7,
            "sides": [fr, {"side": "au", "outcome": other, "banners": banners[other], "units": [{"unit": "riesch", "killed": 1}]}]}


async def to_aftermath(db, force: str) -> int:
    """Turn 1: IV Corps (key ``force``) attacks Mack at E4, loses, and Soult falls in melee (battle 1)."""
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Crossroads",
                                              scenario_text=SCENARIO.replace("FORCE", force))
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    await advance(db, cid)  # weather
    assert (await orders.give_order(db, cid, FRENCH, force, "forced_march")).roll.result == "ok"  # CV 5 (MC-4)
    await advance(db, cid, forced=True)
    assert (await orders.declare_move(db, cid, FRENCH, force, "E4")).reach == ("E4",)  # Forced March (MC-5.1)
    assert (await advance(db, cid, forced=True)).battles == [1]
    await aftermath.report_battle(db, cid, GM, 1, report())
    assert (await advance(db, cid)).after.phase is Phase.AFTERMATH
    return cid


async def leader_rows(db, cid: int) -> dict[str, LeaderRow]:
    async with db.sessions() as s:
        return {ld.name: ld for ld in (await s.exec(select(LeaderRow).where(LeaderRow.campaign_id == cid))).all()}


async def public_log(db, cid: int) -> str:
    return "\n".join(line.text for line in await views.read_log(db, cid, GM, limit=500))


# --- a leader gone for good: the New Leader never blocks Phase 4 (RU-18) ------------------------


async def test_ru_18_a_slain_leaders_new_leader_does_not_block_phase_4(db) -> None:
    cid = await to_aftermath(db, "oudinot")
    fate = await cc.leader_fate(db, cid, FRENCH, "Soult", "melee")
    assert fate.fate.status is LeaderStatus.SLAIN
    assert fate.replacement == "New Leader (infantry) of IV Corps"  # St-Hilaire, the strongest unit, is infantry

    res = await advance(db, cid, forced=True)  # Phase 4 ends: aftermath, retreat, reaction
    assert res.after.turn == 2
    assert "Phase 4 resolved." in res.events
    st = await views.status(db, cid, GM)
    corps = next(f for f in st.forces if f.key == "oudinot")
    assert corps.reaction == "confused" and corps.square != "E4"  # MC-7.4, MC-7.3
    rows = await leader_rows(db, cid)
    assert rows["Soult"].force_key is None and rows["Soult"].status == "slain"
    new = rows["New Leader (infantry) of IV Corps"]
    assert (new.force_key, new.kind, new.designation, new.cv) == ("oudinot", "new", "infantry", 5)  # RU-18: Soult's CV


async def test_ru_18_a_fate_the_bot_rolls_at_the_end_of_phase_4_does_not_block_it(db) -> None:
    cid = await to_aftermath(db, "fourth")
    res = await advance(db, cid, forced=True)  # nobody rolled Soult's fate: the bot does, then finishes
    assert res.after.turn == 2
    assert any("Rolled by the bot: Soult: Captured (CC-1)." in e for e in res.events)
    assert any("New Leader (infantry) of IV Corps takes command" in e for e in res.events)
    glory = {g.side: g.balance for g in await cc.glory_balance(db, cid)}
    assert glory["au"] == 1 + 2 + 1  # winner 1 + floor((7 - 3) / 2), + 1 for Soult captured (CC-4)


async def test_cc_2_the_roster_and_the_brief_show_the_new_leader_in_command(db) -> None:
    cid = await to_aftermath(db, "oudinot")
    await cc.leader_fate(db, cid, FRENCH, "Soult", "melee")
    roster = await cc.leader_roster(db, cid, FRENCH)
    line = next(x for x in roster if x.startswith("New Leader (infantry) of IV Corps"))
    assert line.startswith("New Leader (infantry) of IV Corps (IV Corps, CV 5): fit;")
    assert "A New Leader (infantry) commands; he attaches only to infantry units" in line
    assert "Command range 2; at most 2 units in contiguous hexes" in line  # CC-2
    assert not any(x.startswith("Soult") for x in roster)  # gone for good
    brief = "\n".join((await battles.brief(db, cid, FRENCH, 1)).lines)
    assert "Leader New Leader (infantry) of IV Corps (CV 5), fit: " in brief
    assert "A New Leader (infantry) commands" in brief


async def test_ru_18_the_player_may_designate_the_new_leader_another_type(db) -> None:
    cid = await to_aftermath(db, "oudinot")
    fate = await cc.leader_fate(db, cid, FRENCH, "Soult", "melee", designation="cavalry")
    assert fate.replacement == "New Leader (cavalry) of IV Corps"
    roster = await cc.leader_roster(db, cid, FRENCH)
    assert "A New Leader (cavalry) commands; he attaches only to cavalry units" in roster[0]


async def test_ru_18_a_report_made_before_commanders_were_kept_still_finishes(db) -> None:
    """A battle reported by an older version (no record of who commanded) whose fallen leader was
    already replaced: Phase 4 still ends (the campaigns this defect blocked)."""
    cid = await to_aftermath(db, "oudinot")
    await cc.leader_fate(db, cid, FRENCH, "Soult", "melee")
    async with db.transaction() as s:  # as the older version left it
        row = (await s.exec(select(BattleRow).where(BattleRow.campaign_id == cid))).one()
        row.aftermath = {k: v for k, v in row.aftermath.items() if k != "commanders"}
        s.add(row)
        new = (await s.exec(select(LeaderRow).where(LeaderRow.campaign_id == cid, LeaderRow.kind == "new"))).one()
        new.key = "oudinot-leader-new1"
        s.add(new)
    res = await advance(db, cid, forced=True)
    assert res.after.turn == 2


# --- a Moderate wound: a Temporary Leader, then the leader returns (RU-18) ----------------------


async def test_ru_18_a_moderate_wound_puts_a_temporary_leader_in_command_on_the_roster(db) -> None:
    cid = await to_aftermath(db, "victor")
    fate = await cc.leader_fate(db, cid, FRENCH, "Soult", "melee")
    assert fate.fate.status is LeaderStatus.MODERATE_WOUND
    assert fate.replacement is None
    assert fate.lines[1] == ("Soult misses the next battle of IV Corps: a Temporary Leader (infantry) commands it with "
                             "Soult's Command Value until he returns (CC-2, RU-18).")
    roster = await cc.leader_roster(db, cid, FRENCH)
    assert roster[0].startswith("Soult (IV Corps, CV 5): moderate wound; ")
    assert "A Temporary Leader (infantry) commands; he attaches only to infantry units" in roster[0]
    await advance(db, cid, forced=True)
    assert (await leader_rows(db, cid))["Soult"].status == "moderate_wound"


async def test_ru_18_a_moderately_wounded_leader_returns_once_his_forces_next_battle_is_reported(db) -> None:
    cid = await to_aftermath(db, "victor")
    await cc.leader_fate(db, cid, FRENCH, "Soult", "melee")
    await advance(db, cid, forced=True)  # turn 2
    st = await views.status(db, cid, GM)
    corps = next(f for f in st.forces if f.key == "victor")
    await advance(db, cid, forced=True)  # orders (the weather rolled by itself): IV Corps keeps its Forced March order
    move = await orders.declare_move(db, cid, FRENCH, "victor", "E4")
    assert move.reach == ("E4",), corps.square
    assert (await advance(db, cid, forced=True)).battles == [2]
    brief = "\n".join((await battles.brief(db, cid, FRENCH, 2)).lines)
    assert "Leader Soult (CV 5), moderate wound: " in brief and "A Temporary Leader (infantry) commands" in brief
    summary = await aftermath.report_battle(db, cid, GM, 2, report(casualty=False, outcome="won"))
    back = "Soult returns from his Moderate wound and takes command of IV Corps again (RU-18)"
    assert back in summary.lines and back in await public_log(db, cid)
    rows = await leader_rows(db, cid)
    assert (rows["Soult"].status, rows["Soult"].designation, rows["Soult"].force_key) == ("fit", None, "victor")
    roster = await cc.leader_roster(db, cid, FRENCH)
    assert roster == ["Soult (IV Corps, CV 5): fit"]
    async with db.sessions() as s:
        events = (await s.exec(select(LeaderEvent).where(LeaderEvent.campaign_id == cid)
                               .order_by(LeaderEvent.id))).all()  # type: ignore[arg-type]
    assert [(e.turn, e.status) for e in events] == [(1, "moderate_wound"), (2, "fit")]


async def test_ru_18_a_moderately_wounded_leader_whose_force_fights_no_battle_returns_after_3_turns(db) -> None:
    cid = await to_aftermath(db, "victor")  # wounded in turn 1
    await cc.leader_fate(db, cid, FRENCH, "Soult", "melee")

    async def turn_begins(turn: int) -> list[str]:
        """Resolve (forced, nobody moves: no battle) until ``turn`` begins; what the resolutions said."""
        said: list[str] = []
        while (await views.status(db, cid, GM)).position.turn < turn:
            said += [str(line) for line in (await advance(db, cid, forced=True)).events]
        return [line for line in said if "is back after 3 turns" in line]

    for turn in (2, 3):
        assert await turn_begins(turn) == []
        assert (await leader_rows(db, cid))["Soult"].status == "moderate_wound"
    assert await turn_begins(4) == ["Soult is back after 3 turns, his Moderate wound healed, and commands IV Corps "
                                    "again (RU-18)."]  # the Time phase brings him back (bot/services/resolution.py)
    assert (await leader_rows(db, cid))["Soult"].status == "fit"
    assert await cc.leader_roster(db, cid, FRENCH) == ["Soult (IV Corps, CV 5): fit"]


@pytest.mark.parametrize(("force", "status"), [("merveldt", "serious_wound"), ("jellacic", "light_wound")])
async def test_ru_18_serious_and_light_wounds_keep_the_leader_in_command(db, force, status) -> None:
    cid = await to_aftermath(db, force)
    fate = await cc.leader_fate(db, cid, FRENCH, "Soult", "melee")
    assert fate.fate.status.value == status and fate.replacement is None
    roster = await cc.leader_roster(db, cid, FRENCH)
    assert roster[0].startswith(f"Soult (IV Corps, CV 5): {status.replace('_', ' ')}")
    assert "Temporary Leader" not in roster[0] and "New Leader" not in roster[0]
    res = await advance(db, cid, forced=True)
    assert res.after.turn == 2
