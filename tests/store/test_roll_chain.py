"""The roll chain as the services keep it (bot/services/logbook.py, docs/dice.md): every roll logged
with the hash of the campaign's roll before it, each ended turn's chain head published with its
seed, and the view of the roll log anyone may have (``/campaign verify``)."""

from __future__ import annotations

import hashlib
import itertools
import json

import pytest
from sqlmodel import select

from bot.engine.rolls import Band, BandTable, Check
from bot.engine.verify import GENESIS, record_hash, verify_log
from bot.services import campaigns, exchange, orders, resolution, views
from bot.services.loading import get_campaign
from bot.services.logbook import verifier_files
from bot.store.log import log_roll
from bot.store.models import LogEntry, TurnSeed
from bot.store.rolllog import roll_log

from .conftest import AUSTRIAN, FRENCH, GM


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = iter(range(1, 10_000))
    monkeypatch.setattr(
        "bot.services.loading.new_turn_seed", lambda: hashlib.sha256(f"chain-seed-{next(counter)}".encode()).digest()
    )


async def tutorial(db) -> int:
    created = await campaigns.create_campaign(db, guild_id=10, channel_id=20, gm=GM, name="Ulm", scenario="tutorial")
    await campaigns.join_side(db, created.campaign_id, FRENCH, "fr")
    await campaigns.join_side(db, created.campaign_id, AUSTRIAN, "Austria")
    return created.campaign_id


async def advance(db, cid: int, *, forced: bool = False) -> resolution.Resolution:
    st = await views.status(db, cid, GM)
    return await resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=forced)


async def one_turn(db, cid: int) -> None:
    """Turn 1 to its end: weather, a private Force test, nobody moves, phases 3-8 and turn 2's weather by
    themselves."""
    await advance(db, cid)
    await orders.give_order(db, cid, AUSTRIAN, "mack", "defend")
    await advance(db, cid, forced=True)
    await advance(db, cid, forced=True)


async def logs(db, cid: int, *, public: bool = False) -> dict:
    async with db.sessions() as s:
        return await roll_log(s, await get_campaign(s, cid), public=public)


async def test_every_roll_carries_the_hash_of_the_one_before_and_the_ended_turn_publishes_its_head(db) -> None:
    cid = await tutorial(db)
    await one_turn(db, cid)  # and turn 2's weather, rolled by itself: a roll after the head
    log = await logs(db, cid)
    rolls = log["rolls"]
    assert len(rolls) >= 4
    assert rolls[0]["prev"] == GENESIS
    for before, after in itertools.pairwise(rolls):
        assert after["prev"] == record_hash({k: v for k, v in before.items() if k not in ("turn", "undone")})
    turn1 = log["turns"][0]
    last_of_turn1 = [r for r in rolls if r["turn"] == 1][-1]
    assert turn1["chain_head"] == record_hash({k: v for k, v in last_of_turn1.items() if k not in ("turn", "undone")})
    assert log["turns"][1]["chain_head"] is None and log["current_turn"] == 2
    report = verify_log(json.loads(json.dumps(log)))
    assert report.ok, report.lines()
    assert report.linked == len(rolls) and report.recomputed == len(rolls)
    async with db.sessions() as s:
        seed = (await s.exec(select(TurnSeed).where(TurnSeed.campaign_id == cid, TurnSeed.turn == 1))).one()
        announced = (await s.exec(select(LogEntry).where(LogEntry.campaign_id == cid, LogEntry.kind == "seed"))).all()
    assert seed.chain_head == turn1["chain_head"]
    assert any(turn1["chain_head"] in e.text and e.visibility == "public" for e in announced)


async def test_a_roll_deleted_from_the_database_shows_in_the_roll_log(db) -> None:
    cid = await tutorial(db)
    await one_turn(db, cid)
    async with db.transaction() as s:
        entries = (await s.exec(select(LogEntry).where(LogEntry.campaign_id == cid, LogEntry.kind == "roll")
                                .order_by(LogEntry.id))).all()
        await s.delete(entries[1])
    report = verify_log(await logs(db, cid))
    assert not report.ok
    assert any("the chain is broken here" in p for p in report.problems)


async def test_anyones_view_hides_private_rolls_and_the_current_turn_yet_checks_out(db) -> None:
    cid = await tutorial(db)
    await one_turn(db, cid)  # and turn 2's weather, rolled by itself
    full, public = await logs(db, cid), await logs(db, cid, public=True)
    assert any(r.get("kind") == "hidden" for r in public["rolls"])
    shown = [r for r in public["rolls"] if r.get("kind") != "hidden"]
    assert shown and all(r["turn"] == 1 for r in shown)
    assert not any("mack" in r["key"] for r in shown)  # Austria's Force test stays Austria's
    assert not any("mack" in json.dumps(r) for r in public["rolls"])
    report = verify_log(public)
    assert report.ok, report.lines()
    assert report.verified == len(shown) and report.hidden >= 2 and report.unverifiable == 0
    assert [t["chain_head"] for t in public["turns"]] == [t["chain_head"] for t in full["turns"]]
    (json_name, raw), (page_name, page) = await verifier_files(db, cid)
    assert (json_name, page_name) == (f"roll-log-{cid}.json", f"roll-log-{cid}.html")
    assert json.loads(raw) == public and page.startswith(b"<!doctype html>")
    assert b"mack" not in raw and b"mack" not in page


async def test_the_roll_after_a_rolled_back_transaction_chains_to_the_last_committed_roll(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    check = Check("RU-0", "Test", (), BandTable((Band(None, None, "any", "Any"),)))
    with pytest.raises(RuntimeError):
        async with db.transaction() as s:
            campaign = await get_campaign(s, cid, lock=True)
            await log_roll(s, campaign, check.resolve("t1/p1/test", (3,)))
            raise RuntimeError("rolled back")
    await orders.give_order(db, cid, FRENCH, "soult", "forced_march")
    assert verify_log(await logs(db, cid)).ok


async def test_an_imported_campaign_checks_out_though_its_turns_seed_was_drawn_anew(db) -> None:
    """An import draws the current turn's seed anew: the rolls of that turn made before the import
    were drawn from the seed it replaced, and are reported so, not as forged."""
    cid = await tutorial(db)
    await advance(db, cid)  # the weather, rolled with the seed the import will replace
    await orders.give_order(db, cid, FRENCH, "soult", "forced_march")  # and a Force test
    data = await exchange.export_campaign(db, cid, GM)
    new = (await exchange.import_campaign(db, exchange.export_bytes(data), guild_id=10, channel_id=77, gm=GM)).campaign_id
    await advance(db, new, forced=True)
    await advance(db, new, forced=True)  # turn 1 ends: its new seed is revealed
    report = verify_log(await logs(db, new))
    assert report.ok, report.lines()
    assert report.replaced == 2 and report.verified >= 1
    assert "2 rolls of turn(s) 1 were made before the turn's seed was drawn anew on import: not verifiable with it." \
        in report.lines()
    assert verify_log(await logs(db, new, public=True)).ok
    again = await exchange.export_campaign(db, new, GM)  # and the imported campaign's export loads again
    await exchange.import_campaign(db, exchange.export_bytes(again), guild_id=10, channel_id=78, gm=GM)


async def test_a_campaign_the_gm_ends_mid_turn_reveals_that_turns_seed_so_every_roll_can_be_checked(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)  # turn 1's weather
    await orders.give_order(db, cid, AUSTRIAN, "mack", "defend")  # a private roll of turn 1
    await campaigns.end_campaign(db, cid, GM)
    log = await logs(db, cid, public=True)
    turn1 = log["turns"][0]
    assert turn1["seed"] is not None and turn1["chain_head"] is not None
    report = verify_log(json.loads(json.dumps(await logs(db, cid))))
    assert report.ok, report.lines()
    public = verify_log(json.loads(json.dumps(log)))
    assert public.ok, public.lines()


async def test_an_undo_is_chained_so_a_flipped_undone_mark_shows_and_it_survives_export(db) -> None:
    """Issue 24, item 2: the undone mark sat outside the hashed record, so flipping it passed the
    verifier. The GM's undo is now a record in the chain, which every undone mark must match."""
    cid = await tutorial(db)
    st = await views.status(db, cid, GM)
    await advance(db, cid)  # turn 1's weather: rolled
    await resolution.undo(db, cid, GM, expected_version=(await views.status(db, cid, GM)).version)
    assert st.position == (await views.status(db, cid, GM)).position
    await one_turn(db, cid)  # the weather again (the same dice), then to the end of turn 1
    log = await logs(db, cid)
    assert log["version"] == 3
    undos = [i for i, r in enumerate(log["rolls"]) if r.get("kind") == "undo"]
    assert len(undos) == 1
    report = verify_log(json.loads(json.dumps(log)))
    assert report.ok and report.undone >= 1, report.lines()
    undone = next(i for i, r in enumerate(log["rolls"]) if r.get("undone"))
    flipped = json.loads(json.dumps(log))
    flipped["rolls"][undone]["undone"] = False
    assert any("but is not marked undone" in p for p in verify_log(flipped).problems)
    exported = await exchange.export_campaign(db, cid, GM)
    again = await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99, gm=GM)
    reread = await logs(db, again.campaign_id)
    assert [r.get("kind") for r in reread["rolls"]].count("undo") == 1
    forged = json.loads(exchange.export_bytes(exported))
    entry = next(e for e in forged["log"] if e.get("undone") and e.get("roll_key") and e["kind"] == "roll")
    entry["undone"] = False
    from bot.services.errors import ImportRejected

    with pytest.raises(ImportRejected, match="but is not marked undone"):
        await exchange.import_campaign(db, forged, guild_id=10, channel_id=98, gm=GM)
