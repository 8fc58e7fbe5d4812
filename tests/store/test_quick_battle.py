"""RU-27 through the services: a battle resolved quickly (``battles: ask``, then ``quick``) is reported as a
table battle is, and Phase 4 follows with the same steps (MC-7, CC-1..CC-4); its rolls verify."""

from __future__ import annotations

import hashlib

import pytest

from bot.engine.errors import RuleViolation
from bot.engine.phases import Phase
from bot.engine.reports import report_data
from bot.engine.verify import verify_log
from bot.services import aftermath, campaigns, orders, quick, views
from bot.services.errors import PermissionDenied
from bot.services.loading import get_campaign
from bot.services.shell import state as campaign_state
from bot.store.rolllog import roll_log

from .conftest import AUSTRIAN, FRENCH, GM, OUTSIDER
from .test_battle_flow import SCENARIO
from .test_campaign_flow import advance


@pytest.fixture(autouse=True)
def same_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every turn of every campaign gets the same seed: twin campaigns roll the same keyed dice."""
    monkeypatch.setattr("bot.services.loading.new_turn_seed", lambda: hashlib.sha256(b"quick-twins").digest())


async def to_battle(db, battles: str = "table", channel: int = 7) -> tuple[int, int]:
    """Lannes force-marches onto Mack: battle 1 in Phase 3 (as tests/store/test_battle_flow.py)."""
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=channel, gm=GM, name=f"Bridge {channel}",
                                              scenario_text=SCENARIO)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    if battles != "table":
        await campaigns.change_setting(db, cid, GM, "battles", battles)
    await advance(db, cid)  # weather
    assert (await orders.give_order(db, cid, FRENCH, "lannes", "forced_march")).roll.result == "ok"
    await advance(db, cid, forced=True)
    await orders.declare_move(db, cid, FRENCH, "lannes", "E4")
    res = await advance(db, cid, forced=True)
    assert res.battles == [1]
    return cid, 1


def steps(state, number: int) -> dict:
    """What Phase 4 must do for a battle, and what the report did to the sides (tallies, Glory)."""
    b = state.battles[number]
    return {"status": b.status, "rolled": dict(b.aftermath.rolled), "retreats": dict(b.aftermath.retreats),
            "fates": dict(b.aftermath.fates), "trophies": dict(b.aftermath.trophies),
            "sides": {k: (s.battles_won, s.battles_lost, bool(s.must_test)) for k, s in state.sides.items()},
            "glory": sorted((g.side, g.amount, g.rule) for g in state.glory)}


async def test_every_human_camp_agrees_then_the_report_is_a_table_report(db) -> None:
    cid, number = await to_battle(db)
    with pytest.raises(RuleViolation, match="battles: table"):
        await quick.resolve_quickly(db, cid, FRENCH, number)
    await campaigns.change_setting(db, cid, GM, "battles", "ask")
    with pytest.raises(PermissionDenied):
        await quick.resolve_quickly(db, cid, OUTSIDER, number)
    first = await quick.resolve_quickly(db, cid, FRENCH, number)
    assert first.applied is None and first.waiting_for == ("Austria",)
    again = await quick.resolve_quickly(db, cid, FRENCH, number)  # asking twice agrees once
    assert again.waiting_for == ("Austria",)
    done = await quick.resolve_quickly(db, cid, AUSTRIAN, number)
    assert done.applied is not None
    assert set(done.applied[0].split(", ")) in ({"France won", "Austria lost"}, {"France lost", "Austria won"},
                                                {"France draw", "Austria draw"})
    with pytest.raises(RuleViolation, match="already reported"):
        await quick.resolve_quickly(db, cid, GM, number)
    quick_state = await campaign_state(db, cid)
    document = report_data(quick_state.battles[number].report)
    assert document["system"] == "cc" and document["banners_required"] == 6

    # The same battle in a twin campaign, reported by the GM from the table with the same document.
    twin, _ = await to_battle(db, channel=8)
    await aftermath.report_battle(db, twin, GM, number, document)
    table_state = await campaign_state(db, twin)
    assert steps(table_state, number) == steps(quick_state, number)

    # Phase 4 then runs the same: the same keyed dice for the same checks, fates, retreats and reactions.
    for cid_ in (cid, twin):
        res = await advance(db, cid_)
        assert res.after.phase is Phase.AFTERMATH
        await advance(db, cid_, forced=True)
    a, b = await campaign_state(db, cid), await campaign_state(db, twin)
    assert {k: (f.square, f.reaction, f.status, [u.sp for u in f.units]) for k, f in a.forces.items()} == \
           {k: (f.square, f.reaction, f.status, [u.sp for u in f.units]) for k, f in b.forces.items()}
    assert {k: ld.status for k, ld in a.leaders.items()} == {k: ld.status for k, ld in b.leaders.items()}


async def test_the_gm_resolves_alone_and_the_quick_rolls_verify(db) -> None:
    cid, number = await to_battle(db)
    await campaigns.change_setting(db, cid, GM, "battles", "ask")
    done = await quick.resolve_quickly(db, cid, GM, number)
    assert done.applied is not None
    st = await views.status(db, cid, GM)
    assert st.position.phase is Phase.BATTLE and not any("report" in w.what for w in st.waiting)
    async with db.sessions() as s:
        log = await roll_log(s, await get_campaign(s, cid))
    keys = [r["key"] for r in log["rolls"]]
    assert any(k.endswith("/quick-battle") for k in keys) and any(k.endswith("/quick-losses") for k in keys)
    assert (await campaign_state(db, cid)).battles[number].report is not None
    for _ in range(12):  # to the end of the turn, when its seed is revealed
        st = await views.status(db, cid, GM)
        if st.position.turn > 1:
            break
        await advance(db, cid, forced=True)
    async with db.sessions() as s:
        report = verify_log(await roll_log(s, await get_campaign(s, cid)))
    assert report.ok and report.recomputed >= len([k for k in keys if "/quick-" in k])


async def test_with_battles_quick_a_battle_goes_straight_to_phase_4(db) -> None:
    created, _ = await to_battle(db, "quick")
    st = await views.status(db, created, GM)
    assert st.position.phase is Phase.AFTERMATH
    state = await campaign_state(db, created)
    assert state.battles[1].report is not None and state.battles[1].report.system.value == "cc"
