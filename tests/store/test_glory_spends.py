"""Glory spends (CC-4) when the rules place them (RU-17), through the services the bot calls: two turns,
each with a battle, so that a side holds Glory when its second battle begins."""

from __future__ import annotations

import pytest
from sqlmodel import select

from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.phases import Phase
from bot.services import aftermath, battles, campaigns, cc, orders, views
from bot.services.errors import NotFound
from bot.store.models import GloryEntry, UnitRow

from .conftest import AUSTRIAN, FRENCH, GM
from .test_battle_flow import SCENARIO
from .test_campaign_flow import advance, fixed_seeds  # noqa: F401  (fixture re-used)

# France wins 7 banners to 0: 1 + floor(7 / 2) = 4 Glory (CC-4); no leader falls, no flag is taken.
FRENCH_WIN = {
    "system": "cc",
    "banners_required": 7,
    "sides": [
        {"side": "fr", "outcome": "won", "banners": 7, "units": [{"unit": "suchet", "killed": 2}]},
        {"side": "au", "outcome": "lost", "banners": 0,
         "units": [{"unit": "riesch", "killed": 3}, {"unit": "jaegers", "killed": 2}]},
    ],
}
# Austria wins 7 banners to 0: 4 Glory for Austria.
AUSTRIAN_WIN = {
    "system": "cc",
    "banners_required": 7,
    "sides": [
        {"side": "fr", "outcome": "lost", "banners": 0, "units": [{"unit": "suchet", "killed": 2}]},
        {"side": "au", "outcome": "won", "banners": 7, "units": [{"unit": "riesch", "killed": 3}]},
    ],
}


def scenario(*, theatre: str | None = None, nation: str | None = None) -> str:
    """The bridge scenario, optionally in a theatre, with the second side of a given nation."""
    text = SCENARIO
    if nation:
        text = text.replace('{key: au, name: Austria, colour: "#d9a400"}',
                            f'{{key: au, name: Austria, colour: "#d9a400", nation: {nation}}}')
    if theatre:
        text = text.replace("start_date: 1805-10-07", f"start_date: 1805-10-07\ntheatre: {theatre}")
    return text


async def first_battle(db, text: str = SCENARIO, channel: int = 7) -> int:
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=channel, gm=GM, name="Bridge",
                                              scenario_text=text)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    await advance(db, cid)  # weather
    await orders.give_order(db, cid, FRENCH, "lannes", "forced_march")  # CV 5: always passes (MC-4)
    await advance(db, cid, forced=True)
    await orders.declare_move(db, cid, FRENCH, "lannes", "E4")  # Forced March: always 1 square (MC-5.1)
    assert (await advance(db, cid, forced=True)).battles == [1]
    return cid


async def second_battle(db, cid: int, report: dict, *, before_orders=None) -> None:
    """Battle 1 reported with ``report``, its loser retreats, and the French march into battle 2 on turn 2.
    ``before_orders`` runs in turn 2's Phase 1."""
    await aftermath.report_battle(db, cid, GM, 1, report)
    await advance(db, cid)  # Phase 3 -> 4
    french_won = report is FRENCH_WIN
    if french_won:
        await aftermath.retreat(db, cid, AUSTRIAN, 1, "mack", "F4")
    else:
        await aftermath.retreat(db, cid, FRENCH, 1, "lannes", "D4")
    await advance(db, cid, forced=True)  # Phase 4 ends, then 5 to 8 and turn 2's weather: its orders begin
    st = await views.status(db, cid, GM)
    assert (st.position.turn, st.position.phase) == (2, Phase.ORDERS)
    if before_orders is not None:
        await before_orders()
    await advance(db, cid, forced=True)
    await orders.declare_move(db, cid, FRENCH, "lannes", "F4" if french_won else "E4")
    assert (await advance(db, cid, forced=True)).battles == [2]


async def glory(db, cid: int) -> dict[str, int]:
    return {g.side: g.balance for g in await cc.glory_balance(db, cid)}


async def unit_sp(db, cid: int, key: str) -> int:
    async with db.sessions() as s:
        return (await s.exec(select(UnitRow).where(UnitRow.campaign_id == cid, UnitRow.key == key))).one().sp


async def spends(db, cid: int) -> list[tuple[str, str, int, int | None]]:
    async with db.sessions() as s:
        rows = (await s.exec(select(GloryEntry).where(GloryEntry.campaign_id == cid, GloryEntry.kind != "award")
                             .order_by(GloryEntry.id))).all()  # type: ignore[arg-type]
    return [(r.side_key, r.kind, r.amount, r.battle) for r in rows]


# --- RU-17: when a spend is accepted ---------------------------------------------------------------


async def test_ru17_rally_outside_a_pending_battle_is_refused_and_never_rebuilds_a_campaign_unit(db) -> None:
    cid = await first_battle(db)
    seen: dict[str, object] = {}

    async def rally_in_phase_1() -> None:
        seen["sp"] = await unit_sp(db, cid, "suchet")
        with pytest.raises(RuleViolation, match=r"RU-17") as exc:
            await cc.spend_glory(db, cid, FRENCH, "rally", unit="suchet")
        seen["refusal"] = str(exc.value)

    await second_battle(db, cid, FRENCH_WIN, before_orders=rally_in_phase_1)
    assert "pending" in str(seen["refusal"])
    sp_before = seen["sp"]
    assert await unit_sp(db, cid, "suchet") == sp_before  # nothing rebuilt in Phase 1
    assert await glory(db, cid) == {"fr": 4, "au": 0}

    # In battle 2, pending: the spend is recorded, but the block comes back on the table only.
    out = await cc.spend_glory(db, cid, FRENCH, "rally", unit="suchet", battle=2)
    assert out.balance == 3 and "RU-17" in out.text
    assert await unit_sp(db, cid, "suchet") == sp_before  # Rally never changes a campaign unit's SP (RU-17)
    assert await spends(db, cid) == [("fr", "rally", -1, 2)]
    log = "\n".join(e.text for e in await views.read_log(db, cid, GM))
    assert "France spends Glory in battle 2: Rally: Suchet takes 1 block back on the table" in log


async def test_ru17_a_spend_names_a_battle_of_the_side_that_is_pending(db) -> None:
    cid = await first_battle(db)
    await second_battle(db, cid, FRENCH_WIN)
    with pytest.raises(RuleViolation, match=r"pending, before its report \(RU-17\): battle 1 is already reported"):
        await cc.spend_glory(db, cid, FRENCH, "leadership", unit="suchet", battle=1, ordered=True)
    with pytest.raises(NotFound, match="'riesch' is not one of your side's units"):
        await cc.spend_glory(db, cid, FRENCH, "rally", unit="riesch", battle=2)
    # Without a battle, the only battle where France may spend is taken.
    out = await cc.spend_glory(db, cid, FRENCH, "leadership", unit="suchet", ordered=True)
    assert out.balance == 3
    assert await spends(db, cid) == [("fr", "leadership", -1, 2)]


async def test_cc4_leadership_helps_only_an_ordered_unit(db) -> None:
    cid = await first_battle(db)
    await second_battle(db, cid, FRENCH_WIN)
    with pytest.raises(InvalidInput, match="ordered"):
        await cc.spend_glory(db, cid, FRENCH, "leadership", unit="suchet", battle=2)
    with pytest.raises(RuleViolation, match=r"Suchet is not ordered: Leadership helps only an ordered unit \(CC-4\)"):
        await cc.spend_glory(db, cid, FRENCH, "leadership", unit="suchet", battle=2, ordered=False)
    with pytest.raises(RuleViolation, match=r"10th Hussars is cavalry with its battle dice reduced by terrain"):
        await cc.spend_glory(db, cid, FRENCH, "leadership", unit="hussars", battle=2, ordered=True,
                             terrain_reduces_dice=True)
    out = await cc.spend_glory(db, cid, FRENCH, "leadership", unit="hussars", battle=2, ordered=True)
    assert out.balance == 3 and "10th Hussars rolls 1 extra die" in out.text


async def test_ru17_stragglers_count_every_spend_against_half_the_glory_held_when_the_battle_began(db) -> None:
    cid = await first_battle(db)
    await second_battle(db, cid, FRENCH_WIN)
    assert await glory(db, cid) == {"fr": 4, "au": 0}
    first = await cc.spend_glory(db, cid, FRENCH, "stragglers", points=2, battle=2)
    assert first.balance == 2 and first.roll is not None and len(first.roll.dice) == 2
    with pytest.raises(RuleViolation, match=r"at most 2 Glory in battle 2: .* of the 4 Glory France held when it "
                                            r"began; 2 already spent on them, 1 more asked \(CC-4, RU-17\)"):
        await cc.spend_glory(db, cid, FRENCH, "stragglers", points=1, battle=2)
    assert await glory(db, cid) == {"fr": 2, "au": 0}
    brief = "\n".join(str(line) for line in (await battles.brief(db, cid, FRENCH, 2)).lines)
    assert ("France has 2 Glory (Stragglers: 0 more in this battle, at most 2: half the 4 Glory held when it began; "
            "CC-4, RU-17)") in brief


async def test_ru17_stragglers_split_over_two_spends_is_accepted_up_to_the_half(db) -> None:
    cid = await first_battle(db)
    await second_battle(db, cid, FRENCH_WIN)
    await cc.spend_glory(db, cid, FRENCH, "rally", unit="suchet", battle=2)  # 3 left; half of 4 still stands
    one = await cc.spend_glory(db, cid, FRENCH, "stragglers", points=1, battle=2)
    two = await cc.spend_glory(db, cid, FRENCH, "stragglers", points=1, battle=2)
    assert (one.balance, two.balance) == (2, 1)
    assert one.roll is not None and two.roll is not None and one.roll.key != two.roll.key


async def test_ru17_heroic_only_for_the_winner_from_the_report_until_phase_4_ends(db) -> None:
    cid = await first_battle(db)
    with pytest.raises(RuleViolation, match=r"once the battle is reported \(RU-17\): battle 1 is not reported yet"):
        await cc.spend_glory(db, cid, FRENCH, "heroic", unit="suchet", battle=1)
    await aftermath.report_battle(db, cid, GM, 1, FRENCH_WIN)
    with pytest.raises(RuleViolation, match="Only the winner"):
        await cc.spend_glory(db, cid, AUSTRIAN, "heroic", unit="riesch", battle=1)
    out = await cc.spend_glory(db, cid, FRENCH, "heroic", unit="suchet", battle=1)
    assert out.balance == 3 and "Suchet made Heroic" in out.text
    async with db.sessions() as s:
        suchet = (await s.exec(select(UnitRow).where(UnitRow.campaign_id == cid, UnitRow.key == "suchet"))).one()
    assert suchet.heroic
    with pytest.raises(RuleViolation, match="at most 1 per battle"):
        await cc.spend_glory(db, cid, FRENCH, "heroic", unit="hussars", battle=1)


async def test_ru17_heroic_cannot_be_bought_turns_later(db) -> None:
    cid = await first_battle(db)
    await second_battle(db, cid, FRENCH_WIN)
    with pytest.raises(RuleViolation, match=r"until Phase 4 ends.*RU-17"):
        await cc.spend_glory(db, cid, FRENCH, "heroic", unit="suchet", battle=1)
    assert await glory(db, cid) == {"fr": 4, "au": 0}
    async with db.sessions() as s:
        suchet = (await s.exec(select(UnitRow).where(UnitRow.campaign_id == cid, UnitRow.key == "suchet"))).one()
    assert not suchet.heroic


# --- RU-17: theatre and nation ---------------------------------------------------------------------


async def test_ru17_anti_guerrilla_only_in_spain_by_the_side_facing_the_spanish(db) -> None:
    cid = await first_battle(db, scenario(theatre="spain", nation="Spanish"))
    await second_battle(db, cid, FRENCH_WIN)
    with pytest.raises(RuleViolation, match="facing the Spanish"):
        await cc.spend_glory(db, cid, AUSTRIAN, "anti_guerrilla", battle=2)  # the Spanish themselves
    out = await cc.spend_glory(db, cid, FRENCH, "anti_guerrilla", battle=2)
    assert out.balance == 3 and "Guerrilla counter is cancelled" in out.text
    with pytest.raises(RuleViolation, match="Portugal only"):
        await cc.spend_glory(db, cid, FRENCH, "ordenanza", battle=2)


async def test_ru17_anti_guerrilla_is_refused_outside_spain(db) -> None:
    cid = await first_battle(db, scenario(nation="Spanish"))  # no theatre: neither Spain nor Portugal
    await second_battle(db, cid, FRENCH_WIN)
    with pytest.raises(RuleViolation, match="Spain only"):
        await cc.spend_glory(db, cid, FRENCH, "anti_guerrilla", battle=2)
    assert await glory(db, cid) == {"fr": 4, "au": 0}


async def test_ru17_ordenanza_only_in_portugal_by_the_side_holding_portuguese_units(db) -> None:
    cid = await first_battle(db, scenario(theatre="portugal", nation="Anglo-Portuguese"))
    await second_battle(db, cid, AUSTRIAN_WIN)
    assert await glory(db, cid) == {"fr": 0, "au": 4}
    with pytest.raises(RuleViolation, match="Portuguese units"):
        await cc.spend_glory(db, cid, FRENCH, "ordenanza", battle=2)
    out = await cc.spend_glory(db, cid, AUSTRIAN, "ordenanza", battle=2)
    assert out.balance == 3 and "Portuguese Militia" in out.text
    with pytest.raises(RuleViolation, match="Spain only"):
        await cc.spend_glory(db, cid, AUSTRIAN, "anti_guerrilla", battle=2)
