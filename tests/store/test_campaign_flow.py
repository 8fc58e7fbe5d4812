"""Campaign use cases end to end through the services, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from sqlmodel import func, select

from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.phases import Phase
from bot.engine.verify import verify_log
from bot.i18n.text import tr
from bot.services import bookkeeping, campaigns, exchange, orders, resolution, views
from bot.services.errors import AlreadyResolved, NotFound, PermissionDenied, WrongPhase
from bot.services.loading import get_campaign
from bot.store.models import Declaration, LogEntry
from bot.store.rolllog import roll_log

from .conftest import AUSTRIAN, FRENCH, GM, OUTSIDER


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn seeds derived from a counter, so each test's dice are the same on every run."""
    counter = iter(range(1, 10_000))
    monkeypatch.setattr(
        "bot.services.loading.new_turn_seed", lambda: hashlib.sha256(f"test-seed-{next(counter)}".encode()).digest()
    )


async def tutorial(db, channel: int = 20) -> int:
    created = await campaigns.create_campaign(db, guild_id=10, channel_id=channel, gm=GM, name="Ulm", scenario="tutorial")
    await campaigns.join_side(db, created.campaign_id, FRENCH, "fr")
    await campaigns.join_side(db, created.campaign_id, AUSTRIAN, "Austria")
    return created.campaign_id


async def advance(db, cid: int, *, forced: bool = False) -> resolution.Resolution:
    st = await views.status(db, cid, GM)
    return await resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=forced)


async def test_create_campaign_from_the_tutorial_scenario_starts_at_turn_1_weather(db) -> None:
    cid = await tutorial(db)
    st = await views.status(db, cid, GM)
    assert (st.position.turn, st.position.phase) == (1, Phase.WEATHER)
    assert {f.key for f in st.forces} == {"soult", "lannes", "mack", "werneck"}  # Ney arrives on turn 2
    assert st.gm and st.reader_side is None


async def test_a_channel_runs_one_campaign_at_a_time(db) -> None:
    await tutorial(db)
    with pytest.raises(InvalidInput, match="already runs the campaign 'Ulm'"):
        await campaigns.create_campaign(db, guild_id=10, channel_id=20, gm=GM, name="Again", scenario="tutorial")


async def test_players_act_only_for_their_own_side_and_outsiders_not_at_all(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)  # weather -> orders
    with pytest.raises(NotFound, match="You have no Force 'mack'"):  # an enemy Force is not named back (fog)
        await orders.give_order(db, cid, FRENCH, "mack", "forced_march")
    with pytest.raises(PermissionDenied, match="not on a side"):
        await orders.give_order(db, cid, OUTSIDER, "soult", "forced_march")
    with pytest.raises(PermissionDenied, match="Only the GM"):
        await resolution.resolve_phase(db, cid, FRENCH, expected_version=(await views.status(db, cid, GM)).version)


async def test_a_move_belongs_to_phase_2_and_an_order_to_phase_1(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    with pytest.raises(WrongPhase, match="Phase 2: Movement"):
        await orders.declare_move(db, cid, FRENCH, "soult", "D4")
    await advance(db, cid, forced=True)
    with pytest.raises(WrongPhase, match="Phase 1: Orders"):
        await orders.give_order(db, cid, FRENCH, "soult", "defend")


async def test_a_force_takes_one_force_test_per_turn(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    first = await orders.give_order(db, cid, FRENCH, "soult", "defend")
    assert first.roll.rule == "MC-4" and first.roll.key == "t1/p1/force:soult/force-test"
    with pytest.raises(RuleViolation, match="already taken its Force test this turn"):
        await orders.give_order(db, cid, FRENCH, "soult", "forced_march")


async def test_orders_and_rolls_stay_private_until_and_after_resolution(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    await orders.give_order(db, cid, AUSTRIAN, "mack", "defend")
    french_log = " ".join(line.text for line in await views.read_log(db, cid, FRENCH, limit=500))
    assert "Army of Mack" not in french_log and "Force test (MC-4) for" not in french_log
    austrian_log = " ".join(line.text for line in await views.read_log(db, cid, AUSTRIAN, limit=500))
    assert "Force test (MC-4) for Army of Mack" in austrian_log
    await advance(db, cid, forced=True)
    french_log = " ".join(line.text for line in await views.read_log(db, cid, FRENCH, limit=500))
    assert "Force test (MC-4) for Army of Mack" not in french_log


async def test_enemy_forces_out_of_sight_are_not_in_a_sides_view(db) -> None:
    cid = await tutorial(db)
    french = await views.status(db, cid, FRENCH)
    keys = {f.key for f in french.forces}
    # Sight is 2 squares: Mack at J5 and Werneck at I2 are far from C4 and C7.
    assert keys == {"soult", "lannes"}
    assert all(f.own for f in french.forces)
    with pytest.raises(Exception, match="in your sight"):
        await views.force_info(db, cid, FRENCH, "mack")
    outsider = await views.status(db, cid, OUTSIDER)
    assert outsider.forces == ()


async def test_a_full_turn_without_battle_reveals_the_turn_seed_and_every_roll_verifies(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)  # weather
    await orders.give_order(db, cid, FRENCH, "soult", "forced_march")
    assert await orders.mark_done(db, cid, FRENCH) is False
    assert await orders.mark_done(db, cid, AUSTRIAN) is True
    await advance(db, cid)  # orders -> movement
    await advance(db, cid, forced=True)  # nobody moves: phases 3-8 and turn 2's weather run by themselves
    st = await views.status(db, cid, GM)
    assert (st.position.turn, st.position.phase) == (2, Phase.ORDERS)
    async with db.sessions() as s:
        campaign = await get_campaign(s, cid)
        log = await roll_log(s, campaign)
    assert log["turns"][0]["seed"] is not None  # turn 1's seed is revealed
    report = verify_log(log)
    assert report.ok and report.verified >= 3 and report.unverifiable == 1  # turn 2's weather, its seed still secret
    assert report.unrevealed_turns == [2]


async def test_the_same_version_resolves_once_and_the_second_click_is_told_so(db) -> None:
    cid = await tutorial(db)
    version = (await views.status(db, cid, GM)).version
    await resolution.resolve_phase(db, cid, GM, expected_version=version)
    with pytest.raises(AlreadyResolved, match="already resolved"):
        await resolution.resolve_phase(db, cid, GM, expected_version=version)
    st = await views.status(db, cid, GM)
    assert st.position.phase is Phase.ORDERS and st.version == version + 1


async def test_fifty_order_submissions_at_once_lose_none(db) -> None:
    import asyncio

    forces = "\n".join(
        f"  - {{key: f{i}, name: Force {i}, side: fr, square: {chr(65 + i % 10)}{1 + i // 10},"
        f" leader: {{name: L{i}, cv: 2}}, units: [{{key: u{i}, name: U{i}, sp: 5}}]}}"
        for i in range(50)
    )
    text = f"""
name: Crowd
start_date: 1805-10-07
map: {{width: 12, height: 9}}
sides: [{{key: fr, name: France}}, {{key: au, name: Austria}}]
forces:
{forces}
  - {{key: x, name: X, side: au, square: L9, leader: {{name: Y, cv: 1}}, units: [{{key: ux, name: UX, sp: 3}}]}}
"""
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=2, gm=GM, name="Crowd", scenario_text=text)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await advance(db, cid)
    results = await asyncio.gather(*(orders.give_order(db, cid, FRENCH, f"f{i}", "defend") for i in range(50)))
    assert len(results) == 50
    async with db.sessions() as s:
        n = (await s.exec(select(func.count()).select_from(Declaration).where(Declaration.campaign_id == cid))).one()
    assert n == 50


async def test_undo_restores_the_phase_marks_the_log_and_repeating_gives_the_same_dice(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    before = await views.status(db, cid, GM)
    await orders.give_order(db, cid, FRENCH, "soult", "forced_march")
    await advance(db, cid, forced=True)
    first = await orders.declare_move(db, cid, FRENCH, "soult", "D4 E4")
    st = await views.status(db, cid, GM)
    undone = await resolution.undo(db, cid, GM, expected_version=st.version)
    assert undone.back_to.phase is Phase.ORDERS and undone.entries_marked >= 1
    after = await views.status(db, cid, GM)
    assert [(f.key, f.order) for f in after.forces] == [(f.key, f.order) for f in before.forces]
    async with db.sessions() as s:
        marked = (await s.exec(select(LogEntry).where(LogEntry.campaign_id == cid, LogEntry.undone == True))).all()  # noqa: E712
    assert any(e.roll_key == "t1/p2/force:soult/movement" for e in marked)
    await advance(db, cid, forced=True)
    again = await orders.declare_move(db, cid, FRENCH, "soult", "D4 E4")
    assert again.roll.dice == first.roll.dice and again.allowance == first.allowance


async def test_export_then_import_gives_the_same_campaign_with_fresh_dice_for_the_current_turn(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    await orders.give_order(db, cid, FRENCH, "soult", "forced_march")
    exported = await exchange.export_campaign(db, cid, GM)
    assert exported["version"] == 3 and exported["state"]["seeds"] == []  # never an unrevealed seed...
    live = hashlib.sha256(b"test-seed-1").hexdigest()  # turn 1's seed (fixed_seeds)
    assert live not in exchange.export_bytes(exported).decode()  # ...anywhere in the file, not even for the GM
    new_id = (await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99,
                                             gm=GM)).campaign_id
    again = await exchange.export_campaign(db, new_id, GM)
    assert again["campaign"] == exported["campaign"]  # the deadline too (issue 24, item 8)

    def same(d: dict) -> dict:
        def bookkeeping(options: dict) -> dict:  # when the deadline was set, and for which version
            bot = {k: v for k, v in options.get("_bot", {}).items() if k not in ("deadline_set", "deadline_version")}
            return {**options, "_bot": bot}

        return {k: bookkeeping(v) if k == "options" else v for k, v in d["state"].items()
                if k not in ("id", "declarations")}

    assert same(again) == same(exported)
    # Fair play: turn 1's dice come from a fresh seed, announced publicly; the order declared with the
    # old seed is given again.
    assert exported["state"]["declarations"] and again["state"]["declarations"] == []
    fresh = again["roll_log"]["turns"][0]
    assert fresh["turn"] == 1 and fresh["seed_sha256"] != exported["roll_log"]["turns"][0]["seed_sha256"]
    assert again["log"][: len(exported["log"])] == exported["log"]
    public = [e["text"] for e in again["log"][len(exported["log"]):] if e["visibility"] == "public"]
    assert any(fresh["seed_sha256"] in t for t in public)
    assert any("drawn anew" in t and "given again" in t for t in public)
    # Issue 24, item 8: the count of declarations is the side's own news, never the channel's...
    assert not any("(1)" in t for t in public)
    mine = [e["text"] for e in again["log"][len(exported["log"]):] if e["visibility"] == "side:fr"]
    assert any("Your side's order or move declared in this phase before the export (1)" in t for t in mine)
    assert not [e for e in again["log"][len(exported["log"]):] if e["visibility"] == "side:au"]
    # ...and the phase keeps its deadline, so that its reminders go.
    assert exported["campaign"]["deadline"] is not None and again["campaign"]["deadline"] == exported["campaign"]["deadline"]


async def test_an_import_cannot_choose_the_dice_of_its_current_turn(db) -> None:
    from bot.services.errors import ImportRejected
    from bot.store.models import TurnSeed

    cid = await tutorial(db)
    exported = await exchange.export_campaign(db, cid, GM)
    chosen = "ab" * 32
    exported["state"]["seeds"] = [{"turn": 1, "seed": chosen, "sha256": hashlib.sha256(bytes.fromhex(chosen)).hexdigest(),
                                   "chain_head": None, "reseeded_after": None}]
    with pytest.raises(ImportRejected, match=r"state\.seeds\[0\]: only the seeds of ended turns"):
        await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99, gm=GM)
    old = old_export("orders")  # an export of version 1 (the rows)
    old["tables"]["turn_seed"] = [{"turn": 1, "seed_hex": chosen, "revealed": True,
                                   "sha256": hashlib.sha256(bytes.fromhex(chosen)).hexdigest()}]
    with pytest.raises(ImportRejected, match=r"tables\.turn_seed\[0\]: only the seeds of ended turns"):
        await exchange.import_campaign(db, exchange.export_bytes(old), guild_id=10, channel_id=99, gm=GM)
    old["tables"]["turn_seed"][0]["revealed"] = False  # an old export's live seed: ignored, drawn anew
    done = await exchange.import_campaign(db, exchange.export_bytes(old), guild_id=10, channel_id=99, gm=GM)
    async with db.sessions() as s:
        seed = (await s.exec(select(TurnSeed).where(TurnSeed.campaign_id == done.campaign_id))).one()
    assert seed.seed_hex != chosen


EXPORTS = Path(__file__).parent / "exports"


def old_export(name: str) -> dict:
    """An export the bot wrote before the codec (version 1: the campaign's rows as ``tables``), of the
    tutorial after France's order in turn 1 (``orders``), at turn 2 (``turn2``), or of a battle in its
    aftermath (``aftermath``)."""
    return json.loads((EXPORTS / f"v1-{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["orders", "turn2", "aftermath"])
async def test_an_export_of_the_previous_format_imports_and_exports_anew(db, name) -> None:
    old = old_export(name)
    done = await exchange.import_campaign(db, exchange.export_bytes(old), guild_id=10, channel_id=99, gm=GM)
    new = await exchange.export_campaign(db, done.campaign_id, GM)
    assert new["version"] == 3 and len(new["log"]) >= len(old["log"])
    for was, now in zip(old["log"], new["log"], strict=False):
        # Issue 24, item 5: a visibility only where the entry says it is right, else the GM's (rolls keep theirs).
        assert now == was or (now == {**was, "visibility": "gm"} and not was["roll_key"]), (was, now)
    state = new["state"]
    assert [(s["key"], s["name"]) for s in state["sides"]] == [(s["key"], s["name"]) for s in old["tables"]["side"]]
    assert {u["key"]: u["sp"] for f in state["forces"] for u in f["units"]} == \
        {u["key"]: u["sp"] for u in old["tables"]["unit"]}
    assert [b["aftermath"] for b in state["battles"]] == [b["aftermath"] for b in old["tables"]["battle"]]
    assert [s["turn"] for s in state["seeds"]] == [s["turn"] for s in old["tables"]["turn_seed"] if s["revealed"]]
    assert verify_log(new).ok
    again = await exchange.import_campaign(db, exchange.export_bytes(new), guild_id=10, channel_id=98, gm=GM)
    assert again.campaign_id != done.campaign_id


async def test_an_import_whose_dice_or_seeds_do_not_match_is_refused(db) -> None:
    from bot.services.errors import ImportRejected

    cid = await tutorial(db)
    while (await views.status(db, cid, GM)).position.turn < 2:  # turn 1 ends: its seed is revealed
        await advance(db, cid, forced=True)
    for exported, seeds, where in ((await exchange.export_campaign(db, cid, GM), lambda d: d["state"]["seeds"],
                                    r"state\.seeds\[0\]"),
                                   (old_export("turn2"), lambda d: [r for r in d["tables"]["turn_seed"] if r["revealed"]],
                                    r"tables\.turn_seed\[0\]")):
        roll = next(e for e in exported["log"] if e["roll_key"] and e["roll_key"].startswith("t1/"))
        roll["data"]["dice"] = [7 - d for d in roll["data"]["dice"]]  # a forged die of an ended turn
        with pytest.raises(ImportRejected, match=r"log: the rolls do not re-derive from their turn seeds") as caught:
            await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99, gm=GM)
        said = tr("fr", caught.value)  # the verifier's line in the reader's language too (issue 23)
        assert "la graine donne" in said and "seed gives" not in said and "recorded" not in said, said
        roll["data"]["dice"] = [7 - d for d in roll["data"]["dice"]]
        seeds(exported)[0]["sha256"] = "0" * 64
        with pytest.raises(ImportRejected, match=where + r": the seed does not match"):
            await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99, gm=GM)


async def test_an_import_keeps_only_players_of_this_server_and_no_ids_of_the_other(db) -> None:
    cid = await tutorial(db)
    exported = await exchange.export_campaign(db, cid, GM)
    assert "channel_id" not in json.dumps(exported) and "thread_id" not in json.dumps(exported)
    old = old_export("orders")
    old["tables"]["side"][0]["channel_id"] = 123456789012345678  # a channel of the exporting server
    for data in (exported, old):
        assert exchange.player_ids(data) == tuple(sorted((FRENCH.member_id, AUSTRIAN.member_id)))
        done = await exchange.import_campaign(db, exchange.export_bytes(data), guild_id=10, channel_id=99, gm=GM,
                                              members={FRENCH.member_id})
        assert done.dropped_players == (AUSTRIAN.member_id,)
        again = await exchange.export_campaign(db, done.campaign_id, GM)
        assert [p["member"] for p in again["state"]["players"]] == [FRENCH.member_id]
        assert again["state"]["gm_id"] == GM.member_id and again["state"]["gm_role_id"] is None
        assert await bookkeeping.side_channels(db, done.campaign_id) == {}
        await campaigns.end_campaign(db, done.campaign_id, GM)


async def test_an_uploaded_scenario_with_a_yaml_tag_is_refused(db) -> None:
    hostile = "name: !!python/object/apply:os.system ['echo pwned']\n"
    with pytest.raises(InvalidInput, match="not valid YAML"):
        await campaigns.create_campaign(db, guild_id=1, channel_id=5, gm=GM, name="X", scenario_text=hostile)


async def test_gm_corrections_are_logged_publicly_and_refused_to_players(db) -> None:
    from bot.services import gm

    cid = await tutorial(db)
    with pytest.raises(PermissionDenied, match="Only the GM"):
        await gm.edit_force(db, cid, FRENCH, "soult", square="D4")
    done = await gm.edit_force(db, cid, GM, "IV Corps", square="d5", reaction="confused", unit="vandamme", sp=9)
    assert done.changes == ("square C4 -> D5", "reaction none -> confused", "Vandamme's Division 12 -> 9 SP")
    # IV Corps is out of Austria's sight: France has the correction, Austria only that there was one.
    french_log = " ".join(line.text for line in await views.read_log(db, cid, FRENCH, limit=500))
    austrian_log = " ".join(line.text for line in await views.read_log(db, cid, AUSTRIAN, limit=500))
    assert "GM correction to IV Corps: square C4 -> D5" in french_log
    assert "IV Corps" not in austrian_log and "The GM corrected a Force of France" in austrian_log
    with pytest.raises(InvalidInput, match="Nothing to correct"):
        await gm.edit_force(db, cid, GM, "soult")
    with pytest.raises(InvalidInput, match="Unknown reaction 'panicked'"):
        await gm.edit_force(db, cid, GM, "soult", reaction="panicked")


async def test_deadlines_and_absences_are_kept_in_the_database(db) -> None:
    import datetime as dt

    from bot.services import gm

    cid = await tutorial(db)
    now = dt.datetime(2026, 11, 21, 12, 0, tzinfo=dt.UTC)
    deadline = await gm.set_deadline(db, cid, GM, 48, now=now)
    assert deadline == now + dt.timedelta(hours=48)
    assert (await views.status(db, cid, FRENCH)).deadline == deadline
    with pytest.raises(InvalidInput, match="A deadline is 1 minute to 1440 hours away"):
        await gm.set_deadline(db, cid, GM, 0)
    back = await gm.declare_away(db, cid, FRENCH, 3, now=now)
    assert back == now + dt.timedelta(days=3)
    with pytest.raises(PermissionDenied):
        await gm.declare_away(db, cid, OUTSIDER, 3)


async def test_an_import_bounds_every_time_and_gives_a_past_deadline_a_fresh_one(db) -> None:
    """Issue 24, items 5 and 8: a year-9999 time at offset -14:00 crashed the import with a generic error;
    an export whose deadline has passed (or had none) imports with the default deadline, so reminders go."""
    import datetime as dt

    from bot.services.errors import ImportRejected

    cid = await tutorial(db)
    await advance(db, cid)
    exported = await exchange.export_campaign(db, cid, GM)
    forged = json.loads(exchange.export_bytes(exported))
    forged["log"][0]["created_at"] = "9999-12-31T23:59:59-14:00"
    with pytest.raises(ImportRejected, match=r"log\[0\]\.created_at: .* is out of range: a time from 2000"):
        await exchange.import_campaign(db, forged, guild_id=10, channel_id=99, gm=GM)
    forged = json.loads(exchange.export_bytes(exported))
    forged["campaign"]["deadline"] = "1999-12-31T00:00:00+00:00"
    with pytest.raises(ImportRejected, match=r"campaign\.deadline: .* is out of range"):
        await exchange.import_campaign(db, forged, guild_id=10, channel_id=99, gm=GM)
    for deadline in ("2001-01-01T00:00:00+00:00", None):
        late = json.loads(exchange.export_bytes(exported))
        late["campaign"]["deadline"] = deadline
        before = dt.datetime.now(dt.UTC)
        done = await exchange.import_campaign(db, late, guild_id=10, channel_id=100 if deadline else 101, gm=GM)
        book = (await bookkeeping.meta(db, done.campaign_id)).book  # the campaign's book (issue 22, item 1)
        assert book.deadline is not None
        ahead = book.deadline - before
        assert dt.timedelta(hours=47) < ahead <= dt.timedelta(hours=48, minutes=1)  # deadline_hours: 48


async def test_an_import_refuses_a_log_entry_without_one_of_the_bots_messages(db) -> None:
    """Issue 24, item 5: an entry with no message showed any text verbatim (4,000 characters)."""
    from bot.services.errors import ImportRejected

    cid = await tutorial(db)
    exported = await exchange.export_campaign(db, cid, GM)
    forged = json.loads(exchange.export_bytes(exported))
    forged["log"].append({**forged["log"][0], "data": None, "text": "The GM concedes: France wins. " * 100})
    where = len(forged["log"]) - 1
    with pytest.raises(ImportRejected, match=rf"log\[{where}\]: an entry that is not a roll must carry one of the bot"):
        await exchange.import_campaign(db, forged, guild_id=10, channel_id=99, gm=GM)
