"""FC-2 supply and FC-3 scout re-rolls through the services the bot calls, on SQLite and PostgreSQL: what
a side buys is saved with it (so the next purchase, in another transaction, sees it), the points are
debited and credited where the rules say, and a scout's re-roll is saved and logged for the side."""

from __future__ import annotations

import pytest
from sqlmodel import select

from bot.engine.dice import SeededDice
from bot.engine.errors import RuleViolation
from bot.engine.phases import Phase
from bot.engine.rolls import Roll
from bot.services import campaigns, gm, orders, supply, views
from bot.services.errors import NotFound, WrongPhase
from bot.store import repository
from bot.store.models import Declaration, LogEntry, SideRow

from .conftest import AUSTRIAN, FRENCH, GM
from .test_campaign_flow import advance, fixed_seeds, tutorial  # noqa: F401  (fixture re-used)


async def state_of(db, cid):
    async with db.sessions() as s:
        return (await repository.load(s, cid)).state


async def supplied(db) -> int:
    """The tutorial with FC-2 and FC-3 on, in turn 1's Phase 1."""
    cid = await tutorial(db)
    await campaigns.change_setting(db, cid, GM, "supply", True)
    await campaigns.change_setting(db, cid, GM, "scout_rerolls", "true")
    await advance(db, cid)  # weather -> Phase 1
    return cid


async def test_fc2_purchases_are_saved_with_the_side_and_checked_against_each_other(db) -> None:
    cid = await supplied(db)
    st = await supply.status(db, cid, FRENCH)
    assert (st.enabled, st.open, st.points, st.income, st.bought) == (True, True, 4, 4, ())

    await gm.edit_force(db, cid, GM, "soult", unit="margaron", sp=0)  # destroyed: 4 SP when full
    out = await supply.buy(db, cid, FRENCH, "unit", "IV Corps", unit="Margaron's Light Cavalry", reduced=True)
    assert (out.cost, out.left) == (2, 2)  # reduced: half of 4
    # A new transaction sees the purchase: the unit bought reduced is not refitted this phase.
    with pytest.raises(RuleViolation, match="was bought reduced in this supply phase: it cannot be refitted"):
        await supply.buy(db, cid, FRENCH, "refit", "soult", unit="margaron")
    out = await supply.buy(db, cid, FRENCH, "scout", "lannes")
    assert (out.cost, out.left) == (2, 0)
    with pytest.raises(RuleViolation, match="it costs 2 supply points and France has 0 left of 4"):
        await supply.buy(db, cid, FRENCH, "scout", "lannes")

    state = await state_of(db, cid)
    fr = state.sides["fr"]
    assert fr.supply == 0 and [(p.kind.value, p.force, p.unit, p.reduced, p.cost) for p in fr.purchases] == [
        ("unit", "soult", "margaron", True, 2), ("scout", "lannes", "", False, 2)]
    margaron = next(u for u in state.forces["soult"].units if u.key == "margaron")
    assert margaron.sp == 2 and state.forces["lannes"].scouts == 1
    async with db.sessions() as s:
        row = (await s.exec(select(SideRow).where(SideRow.campaign_id == cid, SideRow.key == "fr"))).one()
        log = (await s.exec(select(LogEntry).where(LogEntry.campaign_id == cid, LogEntry.text.contains("FC-2")))).all()
    assert [p["kind"] for p in row.supply_purchases] == ["unit", "scout"]
    spends = [e for e in log if "spends" in e.text]
    assert len(spends) == 2 and {e.visibility for e in spends} == {"side:fr"}
    st = await supply.status(db, cid, FRENCH)
    assert [cost for _, cost in st.bought] == [2, 2] and st.points == 0
    assert (await supply.status(db, cid, AUSTRIAN)).bought == ()

    # Autocomplete: the destroyed and reduced units of the caller's own Forces only.
    assert [u.key for u in await supply.units(db, cid, FRENCH, "refit", "soult")] == ["margaron"]
    assert await supply.units(db, cid, FRENCH, "unit", None) == []
    assert await supply.units(db, cid, FRENCH, "scout", None) == []
    assert await supply.units(db, cid, AUSTRIAN, "refit", None) == []


async def test_fc2_refusals_off_outside_phase_1_and_for_forces_not_ones_own(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)  # Phase 1, supply off
    with pytest.raises(RuleViolation, match=r"Supply points \(FC-2\) are off"):
        await supply.buy(db, cid, FRENCH, "scout", "soult")
    assert not (await supply.status(db, cid, FRENCH)).enabled
    await campaigns.change_setting(db, cid, GM, "supply", True)
    with pytest.raises(NotFound) as enemy:
        await supply.buy(db, cid, FRENCH, "scout", "mack")
    with pytest.raises(NotFound) as nobody:
        await supply.buy(db, cid, FRENCH, "scout", "nobody")
    assert enemy.value.text.template == nobody.value.text.template == "You have no Force {force!r}."
    await advance(db, cid, forced=True)  # Phase 2
    with pytest.raises(WrongPhase, match=r"Spending supply points \(FC-2\) belongs to Phase 1"):
        await supply.buy(db, cid, FRENCH, "scout", "soult")


async def test_fc2_forced_march_and_fc3_reroll_of_the_move_are_saved_and_logged(db) -> None:
    cid = await supplied(db)
    out = await supply.buy(db, cid, FRENCH, "forced_march", "soult")
    assert (out.cost, out.left) == (3, 1)  # 3 units, 1 point each
    await advance(db, cid, forced=True)  # Phase 2
    move = await orders.declare_move(db, cid, FRENCH, "soult", "D4 E4 F4")
    assert [m.rule for m in move.roll.modifiers] == ["MC-5.1", "FC-2"] and move.scouts == 1
    odds = (await orders.move_odds(db, cid, FRENCH, "soult", "D4 E4 F4")).chances()
    assert odds[move.allowance] > 0

    done = await supply.reroll(db, cid, FRENCH, "soult")
    state = await state_of(db, cid)
    seed = SeededDice(bytes.fromhex(state.seed().seed_hex))
    assert done.roll.key == "t1/p2/force:soult/movement/reroll1"
    assert done.roll.dice == seed.faces("t1/p2/force:soult/movement/reroll1", 1)
    assert [m.rule for m in done.roll.modifiers] == ["MC-5.1"] and [m.rule for m in done.dropped] == ["FC-2"]
    assert done.roll.total == done.roll.dice[0] + 1 and state.forces["soult"].scouts == 0
    async with db.sessions() as s:
        decl = (await s.exec(select(Declaration).where(Declaration.campaign_id == cid))).one()
        rolls = (await s.exec(select(LogEntry).where(LogEntry.campaign_id == cid,
                                                     LogEntry.roll_key == done.roll.key))).all()
    assert Roll.from_dict(decl.payload["roll"]) == done.roll and decl.payload["allowance"] == done.allowance
    assert [r.visibility for r in rolls] == ["side:fr"]
    with pytest.raises(RuleViolation, match="No scout left"):
        await supply.reroll(db, cid, FRENCH, "soult")

    # Phase 2 resolves on the re-roll's allowance; Phase 7 credits the income (4) on top of what is left (1).
    await advance(db, cid, forced=True)
    st = await views.status(db, cid, GM)
    soult = next(f for f in st.forces if f.key == "soult")
    assert soult.square == ("D4", "E4", "F4")[done.allowance - 1]
    while (await views.status(db, cid, GM)).position.turn == 1:
        await advance(db, cid, forced=True)
    state = await state_of(db, cid)
    assert state.sides["fr"].supply == 1 + 4 and state.sides["au"].supply == 4 + 4
    assert state.sides["fr"].purchases == ()
    async with db.sessions() as s:
        credits = (await s.exec(select(LogEntry).where(LogEntry.campaign_id == cid,
                                                       LogEntry.text.contains("receives")))).all()
    assert sorted((e.visibility, e.phase) for e in credits) == [("side:au", int(Phase.REINFORCEMENTS)),
                                                                ("side:fr", int(Phase.REINFORCEMENTS))]
