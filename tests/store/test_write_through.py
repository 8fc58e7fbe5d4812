"""A write hands the state it committed to the read cache (:func:`bot.services.shell.remember`), so that
the next read needs no load: that state must be the very one a load from the database gives, or the
readers after it would see something else than those after the next load."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.campaign.state import CampaignState
from bot.services import aftermath, battles, bookkeeping, campaigns, cc, gm, orders, views
from bot.store import readcache, repository
from bot.store.db import Database

from .conftest import AUSTRIAN, FRENCH, GM
from .test_battle_flow import REPORT, SCENARIO
from .test_campaign_flow import advance, fixed_seeds  # noqa: F401  (fixture re-used)


def _game(state: CampaignState) -> CampaignState:
    """The state without the bot's bookkeeping under "_" in the options (the row's write stamp)."""
    return dataclasses.replace(state, options={k: v for k, v in state.options.items() if not k.startswith("_")})


def _texts(state: CampaignState) -> list[tuple[type, str]]:
    """The texts readers see rendered in their language: a message (translated) is not plain text (shown
    as it is), though they compare equal."""
    return [(type(t), t) for t in (*(g.reason for g in state.glory), *(e.reason for e in state.leader_events))]


async def test_each_write_hands_the_cache_the_state_a_load_gives(db: Database,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[CampaignState] = []
    handed_ids: list[Any] = []
    loads: list[int] = []
    remember, load = readcache.remember, readcache._load

    def remembering(db_: Database, campaign: Any, state: CampaignState, ids: Any = None, chain: Any = None,
                    **kwargs: Any) -> None:
        handed.append(state)
        handed_ids.append(ids)
        remember(db_, campaign, state, ids, chain, **kwargs)

    async def loading(s: Any, campaign: Any) -> Any:
        loads.append(campaign.id)
        return await load(s, campaign)

    monkeypatch.setattr(readcache, "remember", remembering)
    monkeypatch.setattr(readcache, "_load", loading)
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge",
                                              scenario_text=SCENARIO)
    cid = created.campaign_id
    writes: list[tuple[str, Any]] = [
        ("join", lambda: campaigns.join_side(db, cid, FRENCH, "fr")),
        ("join", lambda: campaigns.join_side(db, cid, AUSTRIAN, "au")),
        ("resolve weather", lambda: advance(db, cid)),
        ("order", lambda: orders.give_order(db, cid, FRENCH, "lannes", "forced_march")),
        ("resolve orders", lambda: advance(db, cid, forced=True)),
        ("move", lambda: orders.declare_move(db, cid, FRENCH, "lannes", "E4")),
        ("resolve movement", lambda: advance(db, cid, forced=True)),
        ("scout", lambda: battles.scout(db, cid, FRENCH, 1)),
        ("report", lambda: aftermath.report_battle(db, cid, GM, 1, REPORT)),
        ("resolve battles", lambda: advance(db, cid)),
        ("aftermath", lambda: aftermath.roll_aftermath(db, cid, AUSTRIAN, 1)),
        ("leader fate", lambda: cc.leader_fate(db, cid, AUSTRIAN, "Mack", "melee")),
        ("trophy", lambda: cc.trophy_roll(db, cid, FRENCH, 1, "hussars", "jaegers")),
        ("retreat", lambda: aftermath.retreat(db, cid, AUSTRIAN, 1, "mack", "F4")),
        ("glory", lambda: cc.spend_glory(db, cid, FRENCH, "heroic", unit="suchet", battle=1)),
        ("gm edit", lambda: gm.edit_force(db, cid, GM, "lannes", unit="suchet", sp=7)),
        ("resolve aftermath", lambda: advance(db, cid, forced=True)),
        ("resolve the rest of the turn", lambda: advance(db, cid, forced=True)),
    ]
    not_handed = []
    for name, write in writes:
        n = len(handed)
        await write()
        if len(handed) == n:
            not_handed.append(name)
            continue
        async with db.sessions() as s:
            loaded = await repository.load(s, cid)
        fresh = loaded.state
        assert _game(handed[-1]) == _game(fresh), f"{name} handed the cache another state than a load gives"
        # issue 26 item 1: the ids come from the inserts themselves (RETURNING), never read back
        assert handed_ids[-1] == loaded.ids, f"{name} handed the cache other row ids than a load gives"
        assert _texts(handed[-1]) == _texts(fresh), f"{name} handed the cache texts a load gives otherwise"
        n = len(loads)
        await views.status(db, cid, FRENCH)
        assert len(loads) == n, f"the first read after {name} loaded the campaign"
        # The player rows the cache keeps with it (issue 22, item 1) are those a load gives.
        assert list(await bookkeeping.players(db, cid)) == list(loaded.members or ()), name
    # A report's Glory reasons are messages, kept as text: the cache is handed the state as stored.
    assert not_handed == []


async def test_the_first_status_after_a_resolution_needs_no_load(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    from .test_campaign_flow import tutorial

    cid = await tutorial(db)
    loads: list[int] = []
    load = readcache._load

    async def loading(s: Any, campaign: Any) -> Any:
        loads.append(campaign.id)
        return await load(s, campaign)

    monkeypatch.setattr(readcache, "_load", loading)
    res = await advance(db, cid)
    st = await views.status(db, cid, GM)
    assert (st.position, st.version) == (res.after, res.version)
    assert loads == []


async def test_a_write_starts_from_the_cached_state_when_nothing_was_committed_since(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each order used to load the whole campaign under its lock; now a write whose locked row carries
    the cache's stamp starts from the cached state (and its row ids), and one that finds another
    write committed since loads the campaign as before. Either way the rows it saves are right."""
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge",
                                              scenario_text=SCENARIO)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    await advance(db, cid)
    loads: list[int] = []
    load = repository.load

    async def loading(s: Any, campaign: Any) -> Any:
        loads.append(campaign.id)
        return await load(s, campaign)

    monkeypatch.setattr(repository, "load", loading)
    await views.status(db, cid, GM)  # cached
    await orders.give_order(db, cid, FRENCH, "lannes", "forced_march")
    await orders.mark_done(db, cid, FRENCH)
    assert loads == []  # both writes started from the cache
    readcache._CACHE.clear()  # as if another process had written: nothing to start from
    await orders.mark_done(db, cid, AUSTRIAN)
    assert loads == [cid]
    async with db.transaction() as s:
        fresh = (await load(s, cid)).state
    assert fresh.sides["fr"].done and fresh.sides["au"].done
    assert any(d.force == "lannes" for d in fresh.declarations)


async def test_concurrent_writers_in_one_process_each_start_from_the_read_cache(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26 item 1: writes to one campaign queue in the process, so each finds the state the one
    before it committed in the read cache, on PostgreSQL too (where, waiting on the row lock, nearly
    every writer used to find the cache one commit behind and load the whole campaign)."""
    import asyncio

    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge",
                                              scenario_text=SCENARIO)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    await advance(db, cid)
    await views.status(db, cid, GM)
    loads: list[int] = []
    load = repository.load

    async def loading(s: Any, campaign: Any) -> Any:
        loads.append(campaign.id)
        return await load(s, campaign)

    monkeypatch.setattr(repository, "load", loading)
    await asyncio.gather(*(orders.mark_done(db, cid, FRENCH, done=k % 2 == 0) for k in range(20)),
                         orders.give_order(db, cid, FRENCH, "lannes", "forced_march"))
    assert loads == []
    async with db.sessions() as s:
        fresh = await load(s, cid)
    assert any(d.force == "lannes" for d in fresh.state.declarations)
    assert _game(fresh.state) == _game((await readcache.read(db, cid)).state)


async def test_a_refused_write_sharing_a_transaction_leaves_nothing_and_the_others_stand(db: Database) -> None:
    """Issue 26 item 1: writes waiting together share one transaction; one refused among them gets its
    own refusal, leaves nothing behind, and the others commit."""
    import asyncio

    from bot.engine.errors import EngineError

    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge",
                                              scenario_text=SCENARIO)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    await advance(db, cid)
    results = await asyncio.gather(orders.give_order(db, cid, FRENCH, "lannes", "forced_march"),
                                   orders.give_order(db, cid, AUSTRIAN, "lannes", "defend"),  # not Austria's
                                   orders.mark_done(db, cid, AUSTRIAN), return_exceptions=True)
    assert not isinstance(results[0], BaseException)
    assert isinstance(results[1], EngineError)
    assert results[2] is False  # France is not done yet
    async with db.sessions() as s:
        fresh = (await repository.load(s, cid)).state
    assert [d.force for d in fresh.declarations] == ["lannes"] and fresh.sides["au"].done
