"""The read cache (bot/store/readcache.py): every write is seen by the next read, in this process
or another; a cached read gives the same views as a fresh one; views cannot change the cache; the
cache is bounded. On SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from bot.engine.errors import EngineError, InvalidInput
from bot.engine.phases import Phase
from bot.services import aftermath, battles, bookkeeping, campaigns, cc, gm, orders, resolution, views
from bot.store import readcache, repository
from bot.store.db import Database
from bot.store.models import Campaign, ForceRow
from tests.databases import migrated_sqlite

from .conftest import AUSTRIAN, FRENCH, GM, OUTSIDER
from .test_battle_flow import REPORT, SCENARIO
from .test_campaign_flow import advance, fixed_seeds, tutorial  # noqa: F401  (fixture re-used)

ROOT = Path(__file__).resolve().parents[2]
READERS = (GM, FRENCH, AUSTRIAN, OUTSIDER)


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    readcache.clear()


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Campaign ids each time the cache loads a campaign's rows from the database (a miss)."""
    seen: list[int] = []
    real = readcache._load

    async def counting(s: Any, campaign: Campaign) -> Any:
        seen.append(campaign.id or 0)
        return await real(s, campaign)

    monkeypatch.setattr(readcache, "_load", counting)
    return seen


async def _shown(call: Any) -> Any:
    try:
        return await call
    except EngineError as exc:
        return f"{type(exc).__name__}: {exc}"


async def everything(db: Database, cid: int) -> dict[tuple[str, str], Any]:
    """Every cached read, for every kind of reader."""
    out: dict[tuple[str, str], Any] = {}
    for who in READERS:
        out[who.name, "status"] = await _shown(views.status(db, cid, who))
        out[who.name, "my_forces"] = await _shown(views.my_forces(db, cid, who))
        for force in ("lannes", "mack"):
            out[who.name, f"force_info {force}"] = await _shown(views.force_info(db, cid, who, force))
        out[who.name, "roster"] = await _shown(cc.leader_roster(db, cid, who))
        out[who.name, "log"] = await _shown(views.read_log(db, cid, who))
        out[who.name, "log turn 1"] = await _shown(views.read_log(db, cid, who, turn=1, limit=300))
    out["-", "battles"] = await _shown(battles.list_battles(db, cid))
    out["-", "battles turn 1"] = await _shown(battles.list_battles(db, cid, turn=1))
    out["-", "glory"] = await _shown(cc.glory_balance(db, cid))
    return out


async def fresh(db: Database, cid: int) -> dict[tuple[str, str], Any]:
    readcache.clear()
    return await everything(db, cid)


async def test_every_write_gives_a_new_stamp_and_the_next_read_sees_it(db: Database, loads: list[int]) -> None:
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge",
                                              scenario_text=SCENARIO)
    cid = created.campaign_id

    async def version() -> int:
        return (await views.status(db, cid, GM)).version

    writes: list[tuple[str, Any]] = [
        ("join", lambda: campaigns.join_side(db, cid, FRENCH, "fr")),
        ("join", lambda: campaigns.join_side(db, cid, AUSTRIAN, "au")),
        ("assign", lambda: campaigns.assign(db, cid, GM, 4001, "au", member_name="Hans")),
        ("away", lambda: gm.declare_away(db, cid, AUSTRIAN, 3)),
        ("rule option", lambda: campaigns.change_setting(db, cid, GM, "mercenary_desertion", "lose_all")),
        ("bot setting", lambda: bookkeeping.change_bot_setting(db, cid, GM, "auto_resolve", "off")),
        ("deadline", lambda: gm.set_deadline(db, cid, GM, 24)),
        ("deadline noted", lambda: bookkeeping.note_deadline(db, cid)),
        ("reminder claimed", lambda: _claim(db, cid)),
        ("resolve weather", lambda: advance(db, cid)),
        ("order", lambda: orders.give_order(db, cid, FRENCH, "lannes", "forced_march")),
        ("done", lambda: orders.mark_done(db, cid, AUSTRIAN)),
        ("resolve orders", lambda: advance(db, cid, forced=True)),
        ("move", lambda: orders.declare_move(db, cid, FRENCH, "lannes", "E4")),
        ("resolve movement", lambda: advance(db, cid, forced=True)),
        ("scout", lambda: battles.scout(db, cid, FRENCH, 1)),
        ("battle thread", lambda: bookkeeping.set_battle_thread(db, cid, 1, 555)),
        ("report", lambda: aftermath.report_battle(db, cid, GM, 1, REPORT)),
        ("resolve battles", lambda: advance(db, cid)),
        ("aftermath", lambda: aftermath.roll_aftermath(db, cid, AUSTRIAN, 1)),
        ("leader fate", lambda: cc.leader_fate(db, cid, AUSTRIAN, "Mack", "melee")),
        ("trophy", lambda: cc.trophy_roll(db, cid, FRENCH, 1, "hussars", "jaegers")),
        ("retreat", lambda: aftermath.retreat(db, cid, AUSTRIAN, 1, "mack", "F4")),
        ("glory", lambda: cc.spend_glory(db, cid, FRENCH, "heroic", unit="suchet", battle=1)),  # RU-17
        ("gm edit", lambda: gm.edit_force(db, cid, GM, "lannes", unit="suchet", sp=7)),
        ("undo", lambda: _undo(db, cid)),
        ("resolve aftermath", lambda: advance(db, cid, forced=True)),
        ("end", lambda: campaigns.end_campaign(db, cid, GM)),
    ]
    before = await everything(db, cid)
    for name, write in writes:
        stamp = await readcache.current_stamp(db, cid)
        old_version = await version()
        await write()
        if name in BOOKKEEPING:  # the book's own revision moves, not the game's stamp (issue 22, item 1)
            assert await readcache.current_stamp(db, cid) == stamp, f"{name} changed the game's stamp"
            continue
        assert await readcache.current_stamp(db, cid) != stamp, f"{name} left the campaign's stamp as it was"
        cached = await everything(db, cid)  # served after checking the stamp: a miss, then hits
        assert cached == await fresh(db, cid), f"after {name}, a cached read differs from a fresh one"
        if name.startswith(("resolve", "undo")):
            assert await version() == old_version + 1
        before, changed = cached, before != cached
        if name in ("order", "move", "gm edit", "glory", "retreat", "join", "resolve orders"):
            assert changed, f"{name} changed nothing a reader sees (the test would prove nothing)"
    assert (await views.status(db, cid, GM)).status == "ended"
    # Reads between writes were served from the cache: one load per write (and per fresh()), not per read.
    assert len(loads) <= 2 * len(writes) + 2


BOOKKEEPING = ("bot setting", "deadline noted", "reminder claimed", "battle thread")
"""Writes of the campaign's book only (:class:`bot.store.models.BookRow`)."""


async def _card(db: Database, cid: int) -> None:
    await bookkeeping.set_card_message(db, cid, 10**17)


async def _map_card(db: Database, cid: int) -> None:
    from bot.services import maps
    assert await maps.public_map_changed(db, cid) is True


@pytest.mark.parametrize("name", ["bot setting", "deadline hours", "deadline noted", "reminder claimed",
                                  "battle thread", "phase card", "map card", "side channel"])
async def test_a_bookkeeping_write_keeps_the_game_in_the_read_cache(db: Database, loads: list[int],
                                                                    name: str) -> None:
    """Issue 22, item 1: a bookkeeping write (a setting changed, a deadline noted, a reminder marked sent, a
    card or thread kept) is seen by the next read, which loads no whole state: the game stays cached."""
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge",
                                              scenario_text=SCENARIO)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await gm.set_deadline(db, cid, GM, 24)  # a deadline for the reminder to claim
    before = await everything(db, cid)
    meta = await bookkeeping.meta(db, cid)
    cached = readcache._CACHE[(db.url, cid)].state
    n = len(loads)
    writes = {
        "bot setting": lambda: bookkeeping.change_bot_setting(db, cid, GM, "auto_resolve", "off"),
        "deadline hours": lambda: bookkeeping.change_bot_setting(db, cid, GM, "deadline_hours", "12"),
        "deadline noted": lambda: bookkeeping.note_deadline(db, cid),
        "reminder claimed": lambda: _claim(db, cid),
        "battle thread": lambda: bookkeeping.set_battle_thread(db, cid, 1, 555),
        "phase card": lambda: _card(db, cid),
        "map card": lambda: _map_card(db, cid),
        "side channel": lambda: bookkeeping.change_bot_setting(db, cid, GM, "channel:fr", str(10**17 + 5)),
    }
    await writes[name]()
    after = await bookkeeping.meta(db, cid)
    assert len(loads) == n, f"{name}: the next read loaded the whole campaign again"
    assert readcache._CACHE[(db.url, cid)].state is cached
    assert await everything(db, cid) == before
    assert len(loads) == n
    if name == "battle thread":  # battle 1 not fought yet: nothing kept, nothing written
        assert after.book.revision == meta.book.revision
    else:
        assert after.book.revision > meta.book.revision
    seen = {"bot setting": lambda m: m.setting("auto_resolve") is False,
            "deadline hours": lambda m: m.setting("deadline_hours") == 12,
            "deadline noted": lambda m: m.deadline_version == m.version,
            "reminder claimed": lambda m: m.reminded == ("t12",),
            "battle thread": lambda m: m.book.threads == {},  # battle 1 not fought yet: nothing kept
            "phase card": lambda m: m.book.card == 10**17,
            "map card": lambda m: m.book.map_card is not None,
            "side channel": lambda m: m.book.channels == {"fr": 10**17 + 5}}
    assert seen[name](after), after
    readcache.clear()  # and a fresh load reads the same book
    assert (await bookkeeping.meta(db, cid)).book == after.book


async def _claim(db: Database, cid: int) -> None:
    m = await bookkeeping.meta(db, cid)
    assert await bookkeeping.claim(db, cid, ("t12",), version=m.version) is True


async def _undo(db: Database, cid: int) -> None:
    st = await views.status(db, cid, GM)
    await resolution.undo(db, cid, GM, expected_version=st.version)


async def test_a_write_through_another_database_object_is_seen_by_the_next_read(db: Database, loads: list[int],
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    cid = await tutorial(db)
    await advance(db, cid)  # weather -> orders
    other = Database(db.url)  # another process's engine, pool and connections
    monkeypatch.setattr(readcache, "remember", lambda *_, **__: None)  # and its own cache, which this one never sees
    try:
        st = await views.status(db, cid, FRENCH)
        assert next(f.square for f in st.forces if f.key == "soult") != "E5"
        assert await views.status(db, cid, FRENCH) is st  # a hit: the same (frozen) view
        n = len(loads)

        await gm.edit_force(other, cid, GM, "soult", square="E5")
        assert next(f.square for f in (await views.status(db, cid, FRENCH)).forces if f.key == "soult") == "E5"
        assert len(loads) == n + 1

        assert "may change order" in next(f.todo for f in await views.my_forces(db, cid, FRENCH) if f.key == "soult")
        await orders.give_order(other, cid, FRENCH, "soult", "defend")
        assert next(f.todo for f in await views.my_forces(db, cid, FRENCH) if f.key == "soult") == "Force test taken"

        assert (await views.status(db, cid, OUTSIDER)).reader_side is None
        await campaigns.join_side(other, cid, OUTSIDER, "fr")
        assert (await views.status(db, cid, OUTSIDER)).reader_side == "fr"
    finally:
        await other.dispose()


async def test_a_write_that_hands_its_state_to_the_cache_is_read_without_a_load(db: Database, loads: list[int]) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    await everything(db, cid)
    n = len(loads)
    async with db.transaction() as s:
        loaded = await repository.load(s, cid, lock=True)
        saved = await repository.save(s, loaded, loaded.state.with_force("soult", square="E5"))
    readcache.remember(db, saved.campaign, saved.state)
    assert next(f.square for f in (await views.status(db, cid, FRENCH)).forces if f.key == "soult") == "E5"
    remembered = await everything(db, cid)
    assert len(loads) == n  # served from the state the write handed over
    assert remembered == await fresh(db, cid)

    n = len(loads)
    with pytest.raises(RuntimeError):
        async with db.transaction() as s:  # handed over, then rolled back: its stamp was never committed
            loaded = await repository.load(s, cid, lock=True)
            saved = await repository.save(s, loaded, loaded.state.with_force("soult", square="A1"))
            readcache.remember(db, saved.campaign, saved.state)
            raise RuntimeError
    assert next(f.square for f in (await views.status(db, cid, FRENCH)).forces if f.key == "soult") == "E5"
    assert len(loads) == n + 1


async def test_a_write_by_another_process_is_seen_by_the_next_read(db: Database) -> None:
    cid = await tutorial(db)
    assert next(f.square for f in (await views.status(db, cid, GM)).forces if f.key == "mack") != "H8"
    code = (
        "import asyncio, sys\n"
        "from bot.services import gm\n"
        "from bot.services.actors import Actor\n"
        "from bot.store.db import Database\n"
        "async def main():\n"
        "    db = Database(sys.argv[1])\n"
        "    await gm.edit_force(db, int(sys.argv[2]), Actor(int(sys.argv[3])), 'mack', square='H8')\n"
        "    await db.dispose()\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run([sys.executable, "-c", code, db.url, str(cid), str(GM.member_id)], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert next(f.square for f in (await views.status(db, cid, GM)).forces if f.key == "mack") == "H8"


async def test_a_write_that_skips_the_services_is_seen_too(db: Database) -> None:
    """The stamp follows the rows a transaction changes, not the services' habit of locking first."""
    cid = await tutorial(db)
    assert next(f.square for f in (await views.status(db, cid, GM)).forces if f.key == "soult") != "A1"
    async with db.transaction() as s:
        row = (await s.exec(select(ForceRow).where(ForceRow.campaign_id == cid, ForceRow.key == "soult"))).one()
        row.square = "A1"
        s.add(row)
    assert next(f.square for f in (await views.status(db, cid, GM)).forces if f.key == "soult") == "A1"


async def test_a_refused_or_empty_write_keeps_the_cache(db: Database, loads: list[int]) -> None:
    cid = await tutorial(db)
    await views.status(db, cid, GM)
    stamp, n = await readcache.current_stamp(db, cid), len(loads)
    with pytest.raises(InvalidInput):  # rolled back
        await gm.edit_force(db, cid, GM, "soult", unit="nobody", sp=3)
    m = await bookkeeping.meta(db, cid)
    assert await bookkeeping.claim(db, cid, ("t1",), version=m.version) is False  # no deadline: locks, writes nothing
    assert await readcache.current_stamp(db, cid) == stamp
    await views.status(db, cid, GM)
    assert len(loads) == n


async def test_cached_views_are_frozen_and_changing_a_returned_list_changes_nothing(db: Database) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    st = await views.status(db, cid, FRENCH)
    with pytest.raises(dataclasses.FrozenInstanceError):
        st.name = "Changed"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        st.forces[0].square = "A1"  # type: ignore[misc]
    assert isinstance(st.forces, tuple) and isinstance(st.forces[0].units, tuple) and isinstance(st.waiting, tuple)
    assert isinstance(await views.my_forces(db, cid, FRENCH), tuple)
    assert isinstance(await views.read_log(db, cid, FRENCH), tuple)
    assert isinstance(await battles.list_battles(db, cid), tuple)
    assert all(isinstance(g.lines, tuple) for g in await cc.glory_balance(db, cid))

    roster = await cc.leader_roster(db, cid, FRENCH)
    expected = list(roster)
    roster.clear()
    roster.append("Nobody (nowhere)")
    assert await cc.leader_roster(db, cid, FRENCH) == expected != []
    assert (await views.status(db, cid, FRENCH)).name == "Ulm"


async def test_the_cache_holds_a_bounded_number_of_campaigns_and_log_pages(db: Database, loads: list[int],
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(readcache, "MAX_CAMPAIGNS", 3)
    ids = [await tutorial(db, channel=100 + i) for i in range(5)]
    for cid in ids:
        await views.status(db, cid, GM)
    assert readcache.cached_campaigns() == 3
    n = len(loads)
    await views.status(db, ids[-1], GM)  # recently read: kept
    assert len(loads) == n
    await views.status(db, ids[0], GM)  # least recently read: dropped, loaded again
    assert loads[n:] == [ids[0]] and readcache.cached_campaigns() == 3

    cid = ids[0]
    first = await views.read_log(db, cid, GM, turn=1)
    for turn in range(1, 10):
        assert await views.read_log(db, cid, GM, turn=turn) == (first if turn == 1 else ())
    entry = readcache._CACHE[db.url, cid]
    assert sum(1 for k in entry.parts if isinstance(k, tuple) and k[0] == "log") == views.LOG_PAGES
    assert len(entry.parts) <= readcache.MAX_PARTS


async def test_a_campaign_in_another_database_at_the_same_id_is_not_mixed_up(db: Database, tmp_path: Path) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    other = Database(migrated_sqlite(tmp_path / "other.db"))
    try:
        again = await campaigns.create_campaign(other, guild_id=10, channel_id=20, gm=GM, name="Austerlitz",
                                                scenario="tutorial")
        assert again.campaign_id == cid
        assert (await views.status(db, cid, GM)).name == "Ulm"
        st = await views.status(other, cid, GM)
        assert (st.name, st.position.phase) == ("Austerlitz", Phase.WEATHER)
    finally:
        await other.dispose()


async def test_many_reads_at_once_and_a_lost_stamp_connection(db: Database, caplog: pytest.LogCaptureFixture) -> None:
    import asyncio

    cid = await tutorial(db)
    await advance(db, cid)
    readers = [GM, FRENCH, AUSTRIAN, OUTSIDER] * 10
    views_at_once = await asyncio.gather(*(views.status(db, cid, who) for who in readers),
                                         orders.give_order(db, cid, FRENCH, "soult", "defend"))
    assert len({v.version for v in views_at_once[:-1]}) == 1
    assert "Force test taken" in [f.todo for f in await views.my_forces(db, cid, FRENCH)]

    held = readcache._StampConnection._held[db]
    await held.driver.close()  # the server went away, say
    await gm.edit_force(db, cid, GM, "mack", square="H8")
    assert next(f.square for f in (await views.status(db, cid, GM)).forces if f.key == "mack") == "H8"
    assert "stamp_connection_dropped" in caplog.text
    assert readcache._StampConnection._held.get(db) is None
    await views.status(db, cid, GM)
    assert readcache._StampConnection._held[db] is not held  # a new one
