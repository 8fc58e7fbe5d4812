"""The battle brief states what the table needs from the campaign: the General Retreat command
modifiers (MC-6.2) and the field works of a Force that held the Defend order (RU-21)."""

from __future__ import annotations

from bot.services import aftermath, battles, campaigns, orders

from .conftest import AUSTRIAN, FRENCH, GM
from .test_battle_flow import REPORT, SCENARIO
from .test_campaign_flow import advance, fixed_seeds  # noqa: F401  (fixture re-used)

# Mack holds the Defend order at E4 when the French march in.
DEFENDED = SCENARIO.replace("    square: E4\n", "    square: E4\n    order: defend\n")


async def to_battle(db) -> int:
    assert DEFENDED != SCENARIO
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge",
                                              scenario_text=DEFENDED)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    await advance(db, cid)  # weather
    await orders.give_order(db, cid, FRENCH, "lannes", "forced_march")
    await advance(db, cid, forced=True)
    await orders.declare_move(db, cid, FRENCH, "lannes", "E4")
    assert (await advance(db, cid, forced=True)).battles == [1]
    return cid


async def brief_text(db, cid: int, who=FRENCH) -> str:
    return "\n".join(str(line) for line in (await battles.brief(db, cid, who, 1)).lines)


async def test_mc_6_2_the_brief_gives_the_general_retreat_command_modifiers_by_hour(db) -> None:
    cid = await to_battle(db)
    text = await brief_text(db, cid)
    assert ("General Retreat (MC-6.2): the Command test to give or withdraw it takes -3 first hour of the battle "
            "(MC-6.2), -2 second hour of the battle (MC-6.2), -1 third hour of the battle (MC-6.2)") in text


async def test_ru_21_the_brief_states_the_field_works_of_a_force_that_holds_defend(db) -> None:
    cid = await to_battle(db)
    for who in (FRENCH, AUSTRIAN, GM):  # the table needs them: both sides and the GM read them
        text = await brief_text(db, cid, who)
        assert ("Army of Mack holds the Defend order: field works worth up to 14 points (1 per SP, RU-21); "
                "lost when it moves") in text
        assert "V Corps holds the Defend order" not in text  # Forced March: no field works
        assert "field works worth" in text.split("**France**")[0]  # under Austria's Forces


async def test_ru_21_field_works_are_lost_when_the_force_moves(db) -> None:
    cid = await to_battle(db)
    await aftermath.report_battle(db, cid, GM, 1, REPORT)
    await advance(db, cid)  # Phase 3 -> 4
    assert "field works worth up to" in await brief_text(db, cid)
    await aftermath.retreat(db, cid, AUSTRIAN, 1, "mack", "F4")
    assert "field works" not in await brief_text(db, cid)
