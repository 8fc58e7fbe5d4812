"""Campaign use cases end to end through the services, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib

import pytest
from sqlmodel import func, select

from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.phases import Phase
from bot.engine.verify import verify_log
from bot.services import campaigns, exchange, orders, resolution, views
from bot.services.errors import AlreadyResolved, NotFound, PermissionDenied, WrongPhase
from bot.services.loading import get_campaign
from bot.services.logbook import roll_log
from bot.store.models import Campaign, Declaration, LogEntry

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
    await advance(db, cid, forced=True)  # nobody moves: phases 3-8 run by themselves
    st = await views.status(db, cid, GM)
    assert (st.position.turn, st.position.phase) == (2, Phase.WEATHER)
    async with db.sessions() as s:
        campaign = await get_campaign(s, cid)
        log = await roll_log(s, campaign)
    assert log["turns"][0]["seed"] is not None  # turn 1's seed is revealed
    report = verify_log(log)
    assert report.ok and report.verified >= 3 and report.unverifiable == 0


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
    assert [row["seed_hex"] for row in exported["tables"]["turn_seed"]] == [None]  # never an unrevealed seed
    new_id = (await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99,
                                             gm=GM)).campaign_id
    again = await exchange.export_campaign(db, new_id, GM)
    assert again["campaign"] == exported["campaign"]
    same = {k: v for k, v in exported["tables"].items() if k not in ("turn_seed", "declaration")}
    assert {k: v for k, v in again["tables"].items() if k in same} == same
    # Fair play: turn 1's dice come from a fresh seed, announced publicly; the order declared with the
    # old seed is given again.
    assert again["tables"]["declaration"] == []
    fresh = again["tables"]["turn_seed"][0]
    assert fresh["turn"] == 1 and fresh["sha256"] != exported["tables"]["turn_seed"][0]["sha256"]
    assert again["log"][: len(exported["log"])] == exported["log"]
    public = [e["text"] for e in again["log"][len(exported["log"]):] if e["visibility"] == "public"]
    assert any(fresh["sha256"] in t for t in public)
    assert any("drawn anew" in t and "given again" in t for t in public)


async def test_an_import_cannot_choose_the_dice_of_its_current_turn(db) -> None:
    from bot.services.errors import ImportRejected

    cid = await tutorial(db)
    exported = await exchange.export_campaign(db, cid, GM)
    chosen = "ab" * 32
    exported["tables"]["turn_seed"] = [{"turn": 1, "seed_hex": chosen, "revealed": True,
                                        "sha256": hashlib.sha256(bytes.fromhex(chosen)).hexdigest()}]
    with pytest.raises(ImportRejected, match=r"tables\.turn_seed\[0\]: only the seeds of ended turns"):
        await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99, gm=GM)
    exported["tables"]["turn_seed"][0]["revealed"] = False  # an old export's live seed: ignored, drawn anew
    done = await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99, gm=GM)
    async with db.sessions() as s:
        from bot.store.models import TurnSeed

        seed = (await s.exec(select(TurnSeed).where(TurnSeed.campaign_id == done.campaign_id))).one()
    assert seed.seed_hex != chosen


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["tables"]["unit"][0].update(sp="many"), r"tables\.unit\[0\]\.sp: expected a whole number"),
        (lambda d: d["tables"]["unit"][0].update(sp=10**20), r"tables\.unit\[0\]\.sp: expected a whole number"),
        (lambda d: d["tables"]["unit"][0].update(sp=10**30), r"tables\.unit\[0\]\.sp: a number of 31 characters"),
        (lambda d: d["tables"]["unit"][0].update(name="Guard\x00"), r"tables\.unit\[0\]\.name: .*U\+0000"),
        (lambda d: d["tables"]["unit"][0].update(force_key="nobody"), r"tables\.unit\[0\]\.force_key: 'nobody': not one of"),
        (lambda d: d["tables"]["force"][0].update(side_key="prussia"), r"tables\.force\[0\]\.side_key: 'prussia': not one of"),
        (lambda d: d["campaign"].update(turn="1"), r"campaign\.turn: expected a whole number"),
        (lambda d: d["tables"].update(secrets=[]), r"tables: unknown table\(s\) secrets"),
        (lambda d: d["tables"]["unit"][0].update(evil=1), r"tables\.unit\[0\]: unknown field\(s\) evil"),
        # text is data: a logged message must be one of the code's own templates (format-string injection)
        (lambda d: d["log"][0].update(data={"msg": {"t": "{x.to_json.__globals__}", "p": {"x": {"msg": {"t": "", "p": {}}}}}}),
         r"log\[0\]\.data\.msg: not a message of this bot"),
        (lambda d: d["log"][0].update(data={"msg": {"t": "{n} trophy captured", "p": {"n": 1, "x": 2}}}),
         r"log\[0\]\.data\.msg: the parameters"),
        (lambda d: d["log"][0].update(text="x" * 5000), r"log\[0\]\.text: at most 4,000 characters"),
        # settings are values, not just types (a bad one used to stop every campaign's deadlines)
        (lambda d: d["campaign"]["options"].update(_bot=5), r"campaign\.options\._bot: expected an object"),
        (lambda d: d["campaign"]["options"].update(_bot={"auto_resolve": "sure"}), r"campaign\.options\._bot\.auto_resolve"),
        (lambda d: d["campaign"]["options"].update(_evil=1), r"campaign\.options: unknown field\(s\) _evil"),
        (lambda d: d["campaign"]["options"].update(movement_order="lava"), r"campaign\.options: "),
        (lambda d: d["campaign"].update(start_date="9999-12-31"), r"campaign\.start_date: from 1600-01-01 to 2100-12-31"),
        (lambda d: d["campaign"].update(language="xx"), r"campaign\.language"),
        (lambda d: d["campaign"].update(status="zombie"), r"campaign\.status"),
        # values, not just types: whatever an import holds must be a state the rules can reach
        (lambda d: d["tables"]["map_square"][0].update(terrain="lava"), r"tables\.map_square\[0\]\.terrain: 'lava'"),
        (lambda d: d["tables"]["force"][0].update(square="Z99"), r"tables\.force\[0\]\.square: 'Z99': not a square of"),
        (lambda d: d["tables"]["force"][0].update(order="charge"), r"tables\.force\[0\]\.order: 'charge': not one of"),
        (lambda d: d["tables"]["unit"][0].update(sp=-3), r"tables\.unit\[0\]\.sp: '-3'"),
        (lambda d: d["tables"]["unit"][0].update(sp=2**62), r"tables\.unit\[0\]\.sp: "),
        (lambda d: d["tables"]["side"][0].update(colour="red"), r"tables\.side\[0\]\.colour"),
        (lambda d: d["tables"]["side"][0].update(name="au"), r"tables\.side\[0\]\.name: 'au': a side may not be named"),
        (lambda d: d["tables"]["side"][1].update(name=d["tables"]["side"][0]["name"]), r"tables\.side\.name: .*two rows share"),
        (lambda d: d["tables"]["turn_seed"][0].update(revealed=True, seed_hex="ab" * 32),
         r"tables\.turn_seed\[0\]: only the seeds of ended turns are revealed"),
        (lambda d: d["tables"].update(battle=[{"number": 1, "turn": 1, "square": "E4", "force_keys": ["soult"],
                                               "side_keys": ["fr", "prussia"], "state": "pending"}]),
         r"tables\.battle\[0\]\.side_keys: 'prussia'"),
        (lambda d: d["campaign"].update(weather="volcanic"), r"campaign\.weather: 'volcanic'"),
        (lambda d: d["campaign"].update(map_width=500), r"campaign\.map_width"),
    ],
)
async def test_a_hostile_import_is_refused_naming_the_field_and_changes_nothing(db, mutate, message) -> None:
    from bot.services.errors import ImportRejected

    cid = await tutorial(db)
    exported = await exchange.export_campaign(db, cid, GM)
    mutate(exported)
    async with db.sessions() as s:
        before = (await s.exec(select(func.count()).select_from(Campaign))).one()
    with pytest.raises(ImportRejected, match=message):
        await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99, gm=GM)
    async with db.sessions() as s:
        assert (await s.exec(select(func.count()).select_from(Campaign))).one() == before


async def test_an_import_whose_dice_or_seeds_do_not_match_is_refused(db) -> None:
    from bot.services.errors import ImportRejected

    cid = await tutorial(db)
    while (await views.status(db, cid, GM)).position.turn < 2:  # turn 1 ends: its seed is revealed
        await advance(db, cid, forced=True)
    exported = await exchange.export_campaign(db, cid, GM)
    roll = next(e for e in exported["log"] if e["roll_key"] and e["roll_key"].startswith("t1/"))
    roll["data"]["dice"] = [7 - d for d in roll["data"]["dice"]]  # a forged die of an ended turn
    with pytest.raises(ImportRejected, match=r"log: the rolls do not re-derive from their turn seeds"):
        await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99, gm=GM)
    roll["data"]["dice"] = [7 - d for d in roll["data"]["dice"]]
    revealed = next(r for r in exported["tables"]["turn_seed"] if r["revealed"])
    revealed["sha256"] = "0" * 64
    with pytest.raises(ImportRejected, match=r"tables\.turn_seed\[0\]: the seed does not match"):
        await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99, gm=GM)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 5_000 + "1" + "}" * 5_000])
async def test_a_deeply_nested_import_is_refused_as_such(db, text: str) -> None:
    from bot.services.errors import ImportRejected

    with pytest.raises(ImportRejected, match="nested more than 32 levels deep"):
        await exchange.import_campaign(db, text, guild_id=10, channel_id=99, gm=GM)


async def test_an_import_keeps_only_players_of_this_server_and_no_ids_of_the_other(db) -> None:
    cid = await tutorial(db)
    exported = await exchange.export_campaign(db, cid, GM)
    exported["tables"]["side"][0]["channel_id"] = 123456789012345678  # a channel of the exporting server
    assert exchange.player_ids(exported) == tuple(sorted((FRENCH.member_id, AUSTRIAN.member_id)))
    done = await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99, gm=GM,
                                          members={FRENCH.member_id})
    assert done.dropped_players == (AUSTRIAN.member_id,)
    again = await exchange.export_campaign(db, done.campaign_id, GM)
    assert [p["member_id"] for p in again["tables"]["player"]] == [FRENCH.member_id]
    assert all(side.get("channel_id") is None for side in again["tables"]["side"])


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
