"""The campaign codec (bot/campaign/codec.py): a state to JSON and back, and every value of what comes
back checked, each refusal an InvalidInput naming its field.

The states are a campaign played through the services on SQLite (loaded once): the bridge skirmish in
Phase 4 of turn 1, after its battle's report, aftermath, leader fate, trophy and retreat, and the same
campaign at turn 2, once turn 1's seed is revealed. Every test then works on those values alone.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.campaign import codec
from bot.campaign.settings import Settings
from bot.campaign.state import (
    Battle,
    CampaignState,
    Commander,
    Declaration,
    DisputeChoices,
    ForceState,
    GloryEntry,
    LeaderEvent,
    LeaderState,
    OrderPayload,
    Scouting,
    SideState,
    SupplyPurchase,
    TurnSeed,
    UnitState,
)
from bot.engine.cc_model import BattleSystem
from bot.engine.errors import InvalidInput
from bot.engine.model import LeaderStatus, Order
from bot.engine.phases import Phase
from bot.engine.reports import BattleReport
from tests.databases import migrated_sqlite

SEEDS = iter(hashlib.sha256(f"codec-seed-{i}".encode()).digest() for i in range(1, 1_000))
EXPORTS = Path(__file__).parents[1] / "store" / "exports"


async def _play(url: str) -> tuple[CampaignState, CampaignState]:
    from bot.services import aftermath, cc, resolution, views
    from bot.store import repository
    from bot.store.db import Database
    from tests.store.conftest import AUSTRIAN, FRENCH, GM
    from tests.store.test_battle_flow import REPORT, to_battle

    async def advance(db: Database, cid: int) -> None:
        st = await views.status(db, cid, GM)
        await resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=True)

    async def load(db: Database, cid: int) -> CampaignState:
        async with db.sessions() as s:
            return (await repository.load(s, cid)).state

    db = Database(url)
    try:
        cid, number = await to_battle(db)
        await aftermath.report_battle(db, cid, GM, number, REPORT)
        await advance(db, cid)
        await aftermath.roll_aftermath(db, cid, AUSTRIAN, number)
        await cc.leader_fate(db, cid, AUSTRIAN, "Mack", "melee")
        await cc.trophy_roll(db, cid, FRENCH, number, "hussars", "jaegers")
        await aftermath.retreat(db, cid, AUSTRIAN, number, "mack", "F4")
        in_aftermath = await load(db, cid)
        while (await load(db, cid)).turn < 2:
            await advance(db, cid)
        return in_aftermath, await load(db, cid)
    finally:
        await db.dispose()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[CampaignState, CampaignState]:
    url = migrated_sqlite(tmp_path_factory.mktemp("codec") / "codec.db")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("bot.services.loading.new_turn_seed", lambda: next(SEEDS))
        return asyncio.run(_play(url))


@pytest.fixture
def in_aftermath(played: tuple[CampaignState, CampaignState]) -> CampaignState:
    return played[0]


@pytest.fixture
def at_turn_2(played: tuple[CampaignState, CampaignState]) -> CampaignState:
    return played[1]


def without_secret_seeds(state: CampaignState) -> CampaignState:
    return state.evolve(seeds={t: s for t, s in state.seeds.items() if s.revealed})


# --- the round trip --------------------------------------------------------------------------------


def test_the_played_states_hold_what_the_round_trip_must_carry(in_aftermath: CampaignState,
                                                                at_turn_2: CampaignState) -> None:
    assert (in_aftermath.turn, in_aftermath.phase) == (1, Phase.AFTERMATH)
    battle = in_aftermath.battles[1]
    a = battle.aftermath
    assert battle.report and a.sp_before and a.commanders is not None and a.rolled and a.retreats and a.fates
    assert in_aftermath.declarations and in_aftermath.glory and in_aftermath.players
    assert in_aftermath.leaders["mack-leader"].status is not LeaderStatus.FIT  # his fate was rolled
    assert in_aftermath.seeds[1].revealed is False  # turn 1 is still being played
    assert at_turn_2.turn == 2 and at_turn_2.seeds[1].revealed and at_turn_2.seeds[1].chain_head


def test_a_state_round_trips_through_json(in_aftermath: CampaignState, at_turn_2: CampaignState) -> None:
    for state in (in_aftermath, at_turn_2):
        doc = codec.encode(state)
        assert json.loads(json.dumps(doc)) == doc  # JSON-ready: plain values only
        back = codec.decode(json.loads(json.dumps(doc)))
        assert back == without_secret_seeds(state)
        assert codec.encode(back) == doc
        assert codec.decode(codec.encode(back)) == back


def test_the_document_never_holds_the_seed_of_a_turn_not_yet_ended(in_aftermath: CampaignState,
                                                                   at_turn_2: CampaignState) -> None:
    secret = in_aftermath.seeds[1].seed_hex
    assert secret not in json.dumps(codec.encode(in_aftermath))
    assert codec.encode(in_aftermath)["seeds"] == []
    assert all(s.seed_hex not in json.dumps(codec.encode(at_turn_2)) for s in at_turn_2.seeds.values() if not s.revealed)
    assert [s["turn"] for s in codec.encode(at_turn_2)["seeds"]] == [1]  # the revealed one is kept


def test_the_document_writes_every_field_of_every_part_of_the_state(in_aftermath: CampaignState) -> None:
    """A field added to the state and not to the codec would be lost on export: this says so."""
    doc = codec.encode(in_aftermath)
    names = lambda cls: {f.name for f in dataclasses.fields(cls)}  # noqa: E731
    renamed = {"seed_hex": "seed", "status": "status", "leader": "leader"}
    assert names(CampaignState) == set(codec.DOCUMENT) - {"version"}
    assert names(SideState) == set(doc["sides"][0]) == set(codec.SIDE)
    assert names(SupplyPurchase) == set(codec.PURCHASE)
    assert names(ForceState) == set(doc["forces"][0]) == set(codec.FORCE)
    assert names(UnitState) == set(doc["forces"][0]["units"][0]) == set(codec.UNIT)
    assert names(LeaderState) == set(doc["leaders"][0]) == set(codec.LEADER)
    assert names(Declaration) == set(doc["declarations"][0]) == set(codec.DECLARATION)
    assert names(Battle) == set(doc["battles"][0]) == set(codec.BATTLE)
    assert names(GloryEntry) == set(doc["glory"][0]) == set(codec.GLORY)
    assert names(LeaderEvent) == set(codec.LEADER_EVENT)
    assert {renamed.get(n, n) for n in names(TurnSeed)} - {"revealed"} == set(codec.SEED)
    assert {f.name for f in dataclasses.fields(Settings)} == set(doc["settings"])


@pytest.mark.parametrize("name", ["orders", "turn2", "aftermath"])
def test_an_export_of_the_previous_format_decodes_and_round_trips(name: str) -> None:
    old = json.loads((EXPORTS / f"v1-{name}.json").read_text(encoding="utf-8"))
    state = codec.decode(old)
    assert [s.key for s in state.sides.values()] == [r["key"] for r in old["tables"]["side"]]
    assert sum(len(f.units) for f in state.forces.values()) == len(old["tables"]["unit"])
    assert not any(not s.revealed for s in state.seeds.values())
    assert codec.decode(codec.encode(state)) == state
    assert len(codec.decode_log(old["log"], state)) == len(old["log"])


def test_a_refusal_in_a_previous_format_file_names_that_files_field() -> None:
    old = json.loads((EXPORTS / "v1-aftermath.json").read_text(encoding="utf-8"))
    old["tables"]["unit"][3]["sp"] = 99  # jaegers: 2 SP of 2
    with pytest.raises(InvalidInput, match=r"^tables\.unit\[3\]\.sp: '99': a whole number from 0 to 2"):
        codec.decode(old)
    old = json.loads((EXPORTS / "v1-aftermath.json").read_text(encoding="utf-8"))
    old["tables"]["battle"][0]["side_keys"] = ["fr", "fr"]
    with pytest.raises(InvalidInput, match=r"^tables\.battle\[0\]\.side_keys: 'fr': two rows share it"):
        codec.decode(old)


def test_an_export_file_of_version_2_is_read_from_its_state() -> None:
    old = json.loads((EXPORTS / "v1-orders.json").read_text(encoding="utf-8"))
    doc = codec.encode(codec.decode(old))
    assert codec.decode({"format": codec.FORMAT, "version": 2, "state": doc}) == codec.decode(doc)
    doc["forces"][0]["square"] = "Z99"
    with pytest.raises(InvalidInput, match=r"^state\.forces\[0\]\.square: 'Z99'"):
        codec.decode({"format": codec.FORMAT, "version": 2, "state": doc})
    with pytest.raises(InvalidInput, match="Unsupported export version 7"):
        codec.decode({"format": codec.FORMAT, "version": 7, "state": doc})


def test_an_export_made_before_version_3_decodes_typed_and_round_trips() -> None:
    """Issue 22, item 1: a version-2 export (written by the bot before the battle's parts and the declarations'
    payloads were typed) reads into typed parts, and is written back as version 3."""
    old = json.loads((EXPORTS / "v2-aftermath.json").read_text(encoding="utf-8"))
    assert old["version"] == old["state"]["version"] == 2
    state = codec.decode(old)
    assert state == codec.decode(json.loads((EXPORTS / "v1-aftermath.json").read_text(encoding="utf-8")))
    battle = state.battles[1]
    assert isinstance(battle.report, BattleReport) and battle.report.system is BattleSystem.CC
    assert battle.aftermath.trophies == {("hussars", "jaegers"): None} and battle.aftermath.fates == {"Mack": None}
    assert battle.aftermath.commanders == {"lannes": Commander("lannes-leader", "Lannes"),
                                           "mack": Commander("mack-leader", "Mack")}
    assert battle.scouting == Scouting() and not battle.scouting.decided
    order = state.declarations[0].payload
    assert isinstance(order, OrderPayload) and order.order is Order.FORCED_MARCH and order.roll.dice == (6,)
    doc = codec.encode(state)
    assert doc["version"] == codec.VERSION == 3
    assert doc["battles"][0]["aftermath"] == old["state"]["battles"][0]["aftermath"]  # the same shape
    assert codec.decode(doc) == state


def test_version_3_carries_a_disputes_choices_and_a_quick_battles_agreements(in_aftermath: CampaignState) -> None:
    """What version 2 could not carry (its reader refused them): the GM's taps on a disputed report (BR)
    and the camps that agreed to a quick battle (RU-27)."""
    battle = in_aftermath.battles[1]
    waiting = replace(battle, aftermath=replace(battle.aftermath, taken=DisputeChoices("ab12", {0: "fr", 2: "au"}),
                                                agreed=("au",)))
    state = in_aftermath.with_battle(waiting)
    doc = codec.encode(state)
    assert doc["battles"][0]["aftermath"]["taken"] == {"of": "ab12", "fields": {"0": "fr", "2": "au"}}
    assert doc["battles"][0]["aftermath"]["quick_agreed"] == ["au"]
    assert codec.decode(json.loads(json.dumps(doc))) == without_secret_seeds(state)


# --- hostile values ------------------------------------------------------------------------------------

Doc = dict[str, Any]


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    """Set the field at ``path`` (``forces[0].units[1].sp``) to ``value`` (``_DROP``: remove it)."""
    def mutate(doc: Doc) -> None:
        parts = path.replace("[", ".").replace("]", "").split(".")
        node: Any = doc
        for p in parts[:-1]:
            node = node[int(p)] if p.isdigit() else node[p]
        last = parts[-1]
        if value is _DROP:
            del node[int(last) if last.isdigit() else last]
        elif last.isdigit():
            node[int(last)] = copy.deepcopy(value)
        else:
            node[last] = copy.deepcopy(value)
    return mutate


_DROP = object()


def _both(*mutations: Callable[[Doc], None]) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        for m in mutations:
            m(doc)
    return mutate


def _copy_of(path: str, source: str, **changes: Any) -> Callable[[Doc], None]:
    """Put at ``path`` a copy of the entry at ``source``, changed."""
    def mutate(doc: Doc) -> None:
        node: Any = doc
        for p in source.replace("[", ".").replace("]", "").split("."):
            node = node[int(p)] if p.isdigit() else node[p]
        _set(path, {**node, **changes})(doc)
    return mutate


def _append(path: str, entry: dict[str, Any]) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        node: Any = doc
        for p in path.replace("[", ".").replace("]", "").split("."):
            node = node[int(p)] if p.isdigit() else node[p]
        node.append(copy.deepcopy(entry))
    return mutate


def _roll_of(doc: Doc, i: int) -> dict[str, Any]:
    return doc["declarations"][i]["payload"]["roll"]


# (what the case is, the mutation of the Phase 4 document, the field the refusal names)
HOSTILE: list[tuple[str, Callable[[Doc], None], str]] = [
    # the document itself
    ("an unknown field", _set("secrets", 1), "(top)"),
    ("a part left out", _set("players", _DROP), "players"),
    ("another version", _set("version", 4), "version"),
    # the campaign's values
    ("an empty name", _set("name", " "), "name"),
    ("an invisible name", _set("name", "\u200b\u200b"), "name"),
    ("a name with a NUL", _set("name", "Ulm\x00"), "name"),
    ("turn 0", _set("turn", 0), "turn"),
    ("a turn as text", _set("turn", "1"), "turn"),
    ("phase 9", _set("phase", 9), "phase"),
    ("a status zombie", _set("status", "zombie"), "status"),
    ("a climate lava", _set("climate", "lava"), "climate"),
    ("a theatre on Mars", _set("theatre", "mars"), "theatre"),
    ("a start date that is no date", _set("start_date", "1805-13-01"), "start_date"),
    ("a start date out of range", _set("start_date", "1500-01-01"), "start_date"),
    ("a sight of 99", _set("sight", 99), "sight"),
    ("an unknown weather", _set("weather", "volcanic"), "weather"),
    ("a GM role 0", _set("gm_role_id", 0), "gm_role_id"),
    ("an id beyond a BIGINT", _set("gm_id", 2**64), "gm_id"),
    # settings and the bot's bookkeeping
    ("a setting of the wrong type", _set("settings.supply", "yes"), "settings"),
    ("a setting's value not allowed", _set("settings.movement_order", "lava"), "settings"),
    ("an unknown setting", _set("settings.teleport", True), "settings"),
    ("an unknown bookkeeping option", _set("options._evil", 1), "options"),
    ("a bot setting that is a list", _set("options._bot", {"auto_resolve": [1]}), "options._bot.auto_resolve"),
    ("reminders that are not tags", _set("options._reminded", ["x" * 50]), "options._reminded"),
    # the map
    ("a map too wide", _set("map.width", 101), "map.width"),
    ("an adjacency of 6", _set("map.adjacency", 6), "map.adjacency"),
    ("an adjacency not the settings'", _set("map.adjacency", 4), "map.adjacency"),
    ("a terrain lava", _set("map.cells[0].terrain", "lava"), "map.cells[0].terrain"),
    ("a cell off the map", _set("map.cells[0].square", "Z99"), "map.cells[0].square"),
    ("a cell written in lowercase", _set("map.cells[0].square", "a1"), "map.cells[0].square"),
    ("a cell given twice", _copy_of("map.cells[1]", "map.cells[0]"), "map.cells[1].square"),
    ("an unknown feature", _set("map.cells[0].features", ["river", "wormhole"]), "map.cells[0].features"),
    ("a feature given twice", _set("map.cells[0].features", ["road", "road"]), "map.cells[0].features"),
    ("territory of an unknown side", _set("map.cells[0].territory", "prussia"), "map.cells[0].territory"),
    ("a flow with no river", _set("map.cells[0].river_flow", "N"), "map.cells[0].river_flow"),
    ("a capital with no stronghold", _set("map.cells[0].capital", True), "map.cells[0].capital"),
    # sides
    ("a malformed side key", _set("sides[0].key", "France!"), "sides[0].key"),
    ("a side key given twice", _set("sides[1].key", "fr"), "sides[1].key"),
    ("one side only", lambda d: d["sides"].pop(), "sides"),
    ("a side named like another side's key", _set("sides[0].name", "au"), "sides[0].name"),
    ("two sides alike but for case and an invisible character", _set("sides[1].name", "FRANCE\u200b"),
     "sides[1].name"),
    ("a colour red", _set("sides[0].colour", "red"), "sides[0].colour"),
    ("a capital that is not one", _set("sides[0].capital", "A1"), "sides[0].capital"),
    ("negative supply", _set("sides[0].supply", -1), "sides[0].supply"),
    ("a movement modifier of 7", _set("sides[0].movement_modifier", 7), "sides[0].movement_modifier"),
    ("a Force last seen that does not exist", _set("sides[0].last_seen", {"ghost": "A1"}), "sides[0].last_seen"),
    ("a Force last seen off the map", _set("sides[0].last_seen", {"mack": "Z99"}), "sides[0].last_seen.mack"),
    ("a camp of one side", _set("sides[0].camp", "fr"), "sides[0].camp"),
    ("a camp whose keys are not sorted", _both(_set("sides[0].camp", "fr+au"), _set("sides[1].camp", "fr+au")),
     "sides[0].camp"),
    ("every side of one camp", _both(_set("sides[0].camp", "au+fr"), _set("sides[1].camp", "au+fr")), "sides"),
    ("a purchase of an unknown kind", _set("sides[0].purchases", [
        {"turn": 1, "kind": "bribe", "force": "lannes", "unit": "", "count": 1, "reduced": False, "cost": 1}]),
     "sides[0].purchases[0].kind"),
    ("a purchase for an enemy Force", _set("sides[0].purchases", [
        {"turn": 1, "kind": "scout", "force": "mack", "unit": "", "count": 1, "reduced": False, "cost": 2}]),
     "sides[0].purchases[0].force"),
    # Forces and units
    ("a malformed Force key", _set("forces[0].key", "V Corps"), "forces[0].key"),
    ("a Force key given twice", _set("forces[1].key", "lannes"), "forces[1].key"),
    ("a Force of an unknown side", _set("forces[0].side", "prussia"), "forces[0].side"),
    ("a Force named like another Force's key", _set("forces[0].name", "Mack"), "forces[0].name"),
    ("two Forces alike", _set("forces[1].name", "v corps"), "forces[1].name"),
    ("a Force off the map", _set("forces[0].square", "Z99"), "forces[0].square"),
    ("a Force on the map nowhere", _set("forces[0].square", None), "forces[0].square"),
    ("an order charge", _set("forces[0].order", "charge"), "forces[0].order"),
    ("a reaction panicked", _set("forces[0].reaction", "panicked"), "forces[0].reaction"),
    ("a status vanished", _set("forces[0].status", "vanished"), "forces[0].status"),
    ("a thousand scouts", _set("forces[0].scouts", 1000), "forces[0].scouts"),
    ("a reinforcement with no turn", _set("forces[0].status", "pending"), "forces[0].arrives_turn"),
    ("negative SP", _set("forces[0].units[0].sp", -3), "forces[0].units[0].sp"),
    ("more SP than the unit had", _set("forces[0].units[0].sp", 11), "forces[0].units[0].sp"),
    ("a unit a million SP strong", _set("forces[0].units[0].original_sp", 10**6), "forces[0].units[0].original_sp"),
    ("SP of 2^62", _set("forces[0].units[0].sp", 2**62), "forces[0].units[0].sp"),
    ("SP true", _set("forces[0].units[0].sp", True), "forces[0].units[0].sp"),
    ("SP 1.5", _set("forces[0].units[0].sp", 1.5), "forces[0].units[0].sp"),
    ("a unit type dragoon", _set("forces[0].units[0].type", "dragoon"), "forces[0].units[0].type"),
    ("a quality legendary", _set("forces[0].units[0].quality", "legendary"), "forces[0].units[0].quality"),
    ("a unit key given twice", _set("forces[1].units[0].key", "suchet"), "forces[1].units[0].key"),
    ("two units of a Force alike", _set("forces[0].units[1].name", "SUCHET"), "forces[0].units[1].name"),
    ("a unit named like another unit's key", _set("forces[0].units[0].name", "Jaegers"), "forces[0].units[0].name"),
    ("a unit with an unknown field", _set("forces[0].units[0].evil", 1), "forces[0].units[0]"),
    ("a unit with a field left out", _set("forces[0].units[0].heroic", _DROP), "forces[0].units[0].heroic"),
    # leaders
    ("a leader of an unknown Force", _set("leaders[0].force", "ghost"), "leaders[0].force"),
    ("two leaders commanding one Force", _set("leaders[1].force", "lannes"), "leaders[1].force"),
    ("a leader status zombie", _set("leaders[0].status", "zombie"), "leaders[0].status"),
    ("a leader kind king", _set("leaders[0].kind", "king"), "leaders[0].kind"),
    ("a Command Value of 11", _set("leaders[0].cv", 11), "leaders[0].cv"),
    ("a designation navy", _set("leaders[0].designation", "navy"), "leaders[0].designation"),
    ("a leader key given twice", _copy_of("leaders[1]", "leaders[0]", force=None), "leaders[1].key"),
    # declarations
    ("a declaration of another turn", _set("declarations[0].turn", 2), "declarations[0].turn"),
    ("a declaration of an unknown Force", _set("declarations[0].force", "ghost"), "declarations[0].force"),
    ("a declaration for another side's Force", _set("declarations[0].side", "au"), "declarations[0].side"),
    ("a move in Phase 1", _set("declarations[0].kind", "move"), "declarations[0].kind"),
    ("an order charge declared", _set("declarations[0].payload.order", "charge"), "declarations[0].payload.order"),
    ("a roll that is no roll", _set("declarations[0].payload.roll", {"dice": "six"}), "declarations[0].payload.roll"),
    ("a roll of another Force's key",
     lambda d: _roll_of(d, 0).update(key="t1/p1/force:mack/force-test"), "declarations[0].payload.roll.key"),
    ("a die of 7", lambda d: _roll_of(d, 0).update(dice=[7]), "declarations[0].payload.roll"),
    ("a move off the map", _set("declarations[1].payload.path", ["Z99"]), "declarations[1].payload.path[0]"),
    ("a move of 31 squares", _set("declarations[1].payload.allowance", 31), "declarations[1].payload.allowance"),
    # battles
    ("a battle of an unknown side", _set("battles[0].sides", ["fr", "prussia"]), "battles[0].sides"),
    ("a battle of one side", _set("battles[0].sides", ["fr"]), "battles[0].sides"),
    ("a battle of an unknown Force", _set("battles[0].forces", ["lannes", "ghost"]), "battles[0].forces"),
    ("a battle off the map", _set("battles[0].square", "Z99"), "battles[0].square"),
    ("a battle state won", _set("battles[0].status", "won"), "battles[0].status"),
    ("a battle of a turn to come", _set("battles[0].turn", 5), "battles[0].turn"),
    ("a battle number 0", _set("battles[0].number", 0), "battles[0].number"),
    ("a pending battle with a report", _set("battles[0].status", "pending"), "battles[0].report"),
    ("a report of chess", _set("battles[0].report", {"system": "chess"}), "battles[0].report"),
    ("an unknown aftermath part", _set("battles[0].aftermath.loot", {}), "battles[0].aftermath"),
    ("SP before of a unit not in the battle", _set("battles[0].aftermath.sp_before", {"ghost": 3}),
     "battles[0].aftermath.sp_before"),
    ("a retreat off the map", _set("battles[0].aftermath.retreats", {"mack": "Z99"}), "battles[0].aftermath.retreats.mack"),
    ("a fate zombie", _set("battles[0].aftermath.fates", {"Mack": "zombie"}), "battles[0].aftermath.fates.Mack"),
    ("a trophy of units not in the battle", _set("battles[0].aftermath.trophies", {"a>b": None}),
     "battles[0].aftermath.trophies"),
    ("a commander who is no leader", _set("battles[0].aftermath.commanders", {"mack": {"key": "ghost", "name": "G"}}),
     "battles[0].aftermath.commanders.mack.key"),
    ("scouting by an unknown side", _set("battles[0].scouting", {"prussia": 3}), "battles[0].scouting"),
    ("a scouting winner not in the battle", _set("battles[0].scouting", {"fr": 3, "au": 1, "_winner": "prussia"}),
     "battles[0].scouting._winner"),
    # Glory, leader events, seeds, players, holdings
    ("Glory of an unknown side", _set("glory[0].side", "prussia"), "glory[0].side"),
    ("Glory of a kind bribe", _set("glory[0].kind", "bribe"), "glory[0].kind"),
    ("Glory under rule XX-1", _set("glory[0].rule", "XX-1"), "glory[0].rule"),
    ("Glory of a battle never fought", _set("glory[0].battle", 99), "glory[0].battle"),
    ("ten thousand Glory", _set("glory[0].amount", 10_000), "glory[0].amount"),
    ("an event of an unknown leader", _append("leader_events", {"leader": "ghost", "turn": 1, "status": "fit",
                                                                "reason": "x"}), "leader_events[1].leader"),
    ("the seed of the turn being played", _append("seeds", {
        "turn": 1, "seed": "ab" * 32, "sha256": hashlib.sha256(bytes.fromhex("ab" * 32)).hexdigest(),
        "chain_head": None, "reseeded_after": None}), "seeds[0]"),
    ("a player of an unknown side", _set("players[0].side", "prussia"), "players[0].side"),
    ("a player given twice", _copy_of("players[1]", "players[0]"), "players[1].member"),
    ("a member id 0", _set("players[0].member", 0), "players[0].member"),
    ("a holding where no stronghold stands", _set("holdings", {"A1": "fr"}), "holdings.A1"),
    ("a holding off the map", _set("holdings", {"Z99": "fr"}), "holdings.Z99"),
    ("a dispute's choices of no fingerprint", _set("battles[0].aftermath.taken", {"of": "zz", "fields": {}}),
     "battles[0].aftermath.taken.of"),
    ("a dispute's choice of no field", _set("battles[0].aftermath.taken", {"of": "ab12", "fields": {"x": "fr"}}),
     "battles[0].aftermath.taken.fields"),
    ("a quick battle agreed by a side not in it", _set("battles[0].aftermath.quick_agreed", ["prussia"]),
     "battles[0].aftermath.quick_agreed"),
]


@pytest.mark.parametrize(("mutate", "field"), [(m, f) for _, m, f in HOSTILE], ids=[c for c, _, _ in HOSTILE])
def test_a_hostile_value_is_refused_naming_its_field(in_aftermath: CampaignState, mutate, field: str) -> None:
    doc = codec.encode(in_aftermath)
    mutate(doc)
    with pytest.raises(InvalidInput) as refused:
        codec.decode(doc)
    assert str(refused.value).startswith(f"{field}: "), str(refused.value)


def test_what_a_scenario_may_hold_is_read(in_aftermath: CampaignState) -> None:
    """The import of the rows refused a scenario's own values (a sight of 15, a leader of CV -3, a unit
    of 0 SP): a campaign created from such a scenario could not be imported again."""
    doc = codec.encode(in_aftermath)
    doc["sight"] = 20
    doc["leaders"][0]["cv"] = -3
    doc["forces"][0]["units"][0].update(sp=0, original_sp=0)
    state = codec.decode(doc)
    assert state.sight == 20 and state.leaders[doc["leaders"][0]["key"]].cv == -3
    assert codec.encode(state) == doc


def test_a_forces_boats_are_carried_and_a_document_written_before_them_still_reads(
        in_aftermath: CampaignState) -> None:
    """MC-5.3 (issue 21, item 6): what the scenario states for a Force's moves by water round-trips; a
    document written before the fields existed reads with nothing stated."""
    key = next(iter(in_aftermath.forces))
    state = in_aftermath.with_force(key, small_boats=True, horse_rafts=True)
    doc = codec.encode(state)
    assert (doc["forces"][0]["small_boats"], doc["forces"][0]["horse_rafts"]) == (True, True)
    assert codec.decode(doc) == without_secret_seeds(state)
    for f in doc["forces"]:
        del f["small_boats"], f["horse_rafts"]
    old = codec.decode(doc)
    assert not any(f.small_boats or f.horse_rafts for f in old.forces.values())
    doc["forces"][0]["small_boats"] = "yes"
    with pytest.raises(InvalidInput, match=r"^forces\[0\]\.small_boats: "):
        codec.decode(doc)


def test_the_hostile_values_are_many() -> None:
    assert len(HOSTILE) >= 40


HOSTILE_SEEDS: list[tuple[str, Callable[[Doc], None], str]] = [
    ("a seed that is not hex", _set("seeds[0].seed", "zz" * 32), "seeds[0]"),
    ("a seed that does not match its hash", _set("seeds[0].sha256", "0" * 64), "seeds[0]"),
    ("a chain head that is no hash", _set("seeds[0].chain_head", "head"), "seeds[0].chain_head"),
    ("a seed given twice", lambda d: d["seeds"].append(dict(d["seeds"][0])), "seeds[1].turn"),
    ("the seed of turn 2, being played", _set("seeds[0].turn", 2), "seeds[0]"),
]


@pytest.mark.parametrize(("mutate", "field"), [(m, f) for _, m, f in HOSTILE_SEEDS], ids=[c for c, _, _ in HOSTILE_SEEDS])
def test_a_hostile_seed_is_refused_naming_its_field(at_turn_2: CampaignState, mutate, field: str) -> None:
    doc = codec.encode(at_turn_2)
    mutate(doc)
    with pytest.raises(InvalidInput) as refused:
        codec.decode(doc)
    assert str(refused.value).startswith(f"{field}: "), str(refused.value)


JUNK = (None, -1, 0, 2**70, True, 1.5, "", "x", "Z99", "\u200b", [], {}, [None], {"x": 1}, "ab" * 40)


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        return [path] + [p for k, v in node.items() for p in _leaves(v, (*path, k))]
    if isinstance(node, list):
        return [path] + [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))]
    return [path]


def test_any_value_anywhere_is_read_or_refused_as_invalid_input_never_a_crash(in_aftermath: CampaignState,
                                                                              at_turn_2: CampaignState) -> None:
    rng = random.Random(20261122)
    for state in (in_aftermath, at_turn_2):
        doc = codec.encode(state)
        paths = [p for p in _leaves(doc) if p]
        for _ in range(700):
            path = rng.choice(paths)
            hostile = copy.deepcopy(doc)
            node = hostile
            for p in path[:-1]:
                node = node[p]
            node[path[-1]] = rng.choice(JUNK)
            try:
                back = codec.decode(hostile)
            except InvalidInput:
                continue
            assert codec.decode(codec.encode(back)) == back  # what is read is a state that round-trips


# --- the log -------------------------------------------------------------------------------------------


def test_the_log_is_checked_against_the_state() -> None:
    old = json.loads((EXPORTS / "v1-turn2.json").read_text(encoding="utf-8"))
    state = codec.decode(old)
    entries = codec.decode_log(old["log"], state)
    assert entries[0]["created_at"].tzinfo is not None
    for mutate, message in (
        (lambda log: log[0].update(turn=3), r"^log\[0\]\.turn: '3'"),
        (lambda log: log[0].update(visibility="side:prussia"), r"^log\[0\]\.visibility"),
        (lambda log: log[0].update(kind="whisper"), r"^log\[0\]\.kind"),
        (lambda log: log[0].update(created_at="2026-01-01T00:00:00"), r"^log\[0\]\.created_at: times must carry"),
        (lambda log: next(e for e in log if e["roll_key"]).update(roll_key="t1/p9/other"), r"roll_key: .*does not name"),
        (lambda log: log[0].update(data={"msg": {"t": "{x.__class__}", "p": {"x": 1}}}), r"^log\[0\]\.data\.msg"),
    ):
        log = copy.deepcopy(old["log"])
        mutate(log)
        with pytest.raises(InvalidInput, match=message):
            codec.decode_log(log, state)


def test_a_sides_recruit_pool_is_carried_and_a_document_written_before_it_still_reads(
        in_aftermath: CampaignState) -> None:
    """RU-24: the new units a side may still buy round-trip; a document written before them has none; a
    recruit may not take another unit's key nor come reduced."""
    from bot.campaign.state import Recruit, UnitState
    side = next(iter(in_aftermath.sides))
    pool = (Recruit(UnitState("conscripts", "Conscripts", 4, 4), 3),)
    state = in_aftermath.with_side(side, recruits=pool)
    doc = codec.encode(state)
    assert doc["sides"][0]["recruits"][0]["cost"] == 3
    assert codec.decode(doc) == without_secret_seeds(state)
    for s in doc["sides"]:
        s.pop("recruits")
    assert all(sd.recruits == () for sd in codec.decode(doc).sides.values())
    taken = doc["forces"][0]["units"][0]["key"]
    doc["sides"][0]["recruits"] = [{"unit": {**codec.encode(state)["sides"][0]["recruits"][0]["unit"], "key": taken},
                                    "cost": 3}]
    with pytest.raises(InvalidInput, match=r"^sides\[0\]\.recruits\[0\]\.unit\.key: "):
        codec.decode(doc)
    doc["sides"][0]["recruits"] = [{"unit": {**codec.encode(state)["sides"][0]["recruits"][0]["unit"], "sp": 2},
                                    "cost": 3}]
    with pytest.raises(InvalidInput, match=r"^sides\[0\]\.recruits\[0\]\.unit\.sp: "):
        codec.decode(doc)
