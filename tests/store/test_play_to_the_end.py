"""Every bundled scenario played to its end through the services (MC-9, RU-25): scripted members who
attack, report every battle and roll everything (:func:`bot.demo.play`), until no two hostile camps are
left in play. The end is announced in the log and on every reader's status, with the camp that is left,
within a bounded number of turns; the ended campaign takes no game command but stays readable."""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

import pytest

from bot.campaign.ending import EndReason, result, standing_camps
from bot.campaign.state import CampaignStatus
from bot.demo import play
from bot.engine.errors import EngineError
from bot.scenario import bundled_scenarios, load_bundled
from bot.services import campaigns, loading, logbook, orders, resolution, views
from bot.services.actors import Actor
from bot.store.db import Database
from tests.databases import migrated_sqlite

TURNS = 40
"""The most turns a scripted campaign may take to end (RU-25)."""


@pytest.fixture
def seeds() -> None:
    counter = itertools.count(1)
    loading.use_seed_source(lambda: hashlib.sha256(f"play-to-the-end/{next(counter)}".encode()).digest())
    yield
    loading.use_seed_source(None)


@pytest.mark.parametrize("scenario", sorted(bundled_scenarios()))
async def test_mc_9_ru_25_each_bundled_scenario_is_played_to_its_end_with_the_winning_camp_announced(
        scenario: str, tmp_path: Path, seeds: None) -> None:
    db = Database(migrated_sqlite(tmp_path / "end.db"))
    try:
        spec = load_bundled(scenario)
        gm = Actor(1, name="GM")
        players = {s.key: Actor(100 + i, name=s.name) for i, s in enumerate(spec.sides)}
        cid = (await campaigns.create_campaign(db, guild_id=1, channel_id=1, gm=gm, name="To the end",
                                               scenario=scenario)).campaign_id
        for side, actor in players.items():
            await campaigns.join_side(db, cid, actor, side)
        state = await play(db, cid, gm, players, until_turn=TURNS)

        assert state.status is CampaignStatus.ENDED, f"{scenario}: still running after {TURNS} turns"
        ending = result(state)
        assert ending is not None and ending.reason is EndReason.VICTORY
        assert standing_camps(state) == [ending.camp]  # the one camp left in play
        winners = [state.sides[k].name for k in ending.sides]
        assert all(not state.sides[k].defeated for k in ending.sides)
        assert all(state.sides[k].defeated for k in state.sides if state.camps.camp_of(k) != ending.camp)
        announced = f"The campaign is over: {', '.join(winners)} won (RU-25)."
        entries, _ = await logbook.full_record(db, cid)
        assert [e.text for e in entries if e.text.startswith("The campaign is over")] == [announced]
        for actor in (gm, *players.values(), Actor(999, name="Outsider")):
            sv = await views.status(db, cid, actor)
            assert sv.status == "ended" and sv.ending == announced
        loser = next(a for k, a in players.items() if state.sides[k].defeated)
        with pytest.raises(EngineError):
            await orders.mark_done(db, cid, loser)
        with pytest.raises(EngineError):
            await resolution.resolve_phase(db, cid, gm, expected_version=sv.version, forced=True)
    finally:
        await db.dispose()
