"""A hostile campaign export is refused as it is read (bot/campaign/exports.py and the codec), before the
import opens any transaction: so it changes nothing, in either database.

Each case goes through the import the bot runs (``exchange.import_campaign``) with a database that
fails the test if the import touches it, which proves the refusal comes before any transaction; the
import paths that reach the database are tested on SQLite and PostgreSQL in
tests/store/test_campaign_flow.py. The exports: the tutorial as its GM exports it after France and
Austria joined (made once, through the services), and an export of the previous format
(tests/store/exports).
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
from typing import Any

import pytest

from bot.services import exchange
from bot.services.errors import ImportRejected
from bot.store.db import Database
from tests.databases import migrated_sqlite
from tests.store.conftest import GM
from tests.store.test_campaign_flow import old_export, tutorial


class Untouchable:
    """The database of an import refused before its transaction: any use of it fails the test."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the import reached the database (Database.{name})")


NO_DATABASE: Any = Untouchable()


@pytest.fixture(scope="module")
def tutorial_export(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    async def export(url: str) -> dict[str, Any]:
        db = Database(url)
        try:
            return await exchange.export_campaign(db, await tutorial(db), GM)
        finally:
            await db.dispose()

    url = migrated_sqlite(tmp_path_factory.mktemp("hostile") / "export.db")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("bot.services.loading.new_turn_seed", lambda: hashlib.sha256(b"test-seed-1").digest())
        return asyncio.run(export(url))


def _first_unit(d: dict) -> dict:
    return d["state"]["forces"][0]["units"][0]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: _first_unit(d).update(sp="many"), r"state\.forces\[0\]\.units\[0\]\.sp: expected a whole number"),
        (lambda d: _first_unit(d).update(sp=10**20), r"state\.forces\[0\]\.units\[0\]\.sp: expected a whole number"),
        (lambda d: _first_unit(d).update(sp=10**30), r"state\.forces\[0\]\.units\[0\]\.sp: a number of 31 characters"),
        (lambda d: _first_unit(d).update(name="Guard\x00"), r"state\.forces\[0\]\.units\[0\]\.name: .*U\+0000"),
        (lambda d: d["state"]["forces"][0].update(side="prussia"), r"state\.forces\[0\]\.side: 'prussia': not one of"),
        (lambda d: d["state"].update(turn="1"), r"state\.turn: expected a whole number"),
        (lambda d: d.update(secrets=[]), r"\(top\): unknown field\(s\) secrets"),
        (lambda d: _first_unit(d).update(evil=1), r"state\.forces\[0\]\.units\[0\]: unknown field\(s\) evil"),
        (lambda d: d["state"]["sides"][0].pop("camp"), r"state\.sides\[0\]\.camp: missing"),
        # text is data: a logged message must be one of the code's own templates (format-string injection)
        (lambda d: d["log"][0].update(data={"msg": {"t": "{x.to_json.__globals__}", "p": {"x": {"msg": {"t": "", "p": {}}}}}}),
         r"log\[0\]\.data\.msg: not a message of this bot"),
        (lambda d: d["log"][0].update(data={"msg": {"t": "{n} trophy captured", "p": {"n": 1, "x": 2}}}),
         r"log\[0\]\.data\.msg: the parameters"),
        (lambda d: d["log"][0].update(text="x" * 5000), r"log\[0\]\.text: at most 4,000 characters"),
        # settings are values, not just types (a bad one used to stop every campaign's deadlines)
        (lambda d: d["state"]["options"].update(_bot=5), r"state\.options\._bot: expected an object"),
        (lambda d: d["state"]["options"].update(_bot={"auto_resolve": "sure"}), r"state\.options\._bot\.auto_resolve"),
        (lambda d: d["state"]["options"].update(_evil=1), r"state\.options: unknown field\(s\) _evil"),
        (lambda d: d["state"]["settings"].update(movement_order="lava"), r"state\.settings: "),
        (lambda d: d["state"].update(start_date="9999-12-31"), r"state\.start_date: from 1600-01-01 to 2100-12-31"),
        (lambda d: d["campaign"].update(language="xx"), r"campaign\.language"),
        (lambda d: d["state"].update(status="zombie"), r"state\.status"),
        (lambda d: d["state"].update(status="ended"), r"state\.status: an imported campaign is active"),
        # values, not just types: whatever an import holds must be a state the rules can reach
        (lambda d: d["state"]["map"]["cells"][0].update(terrain="lava"), r"state\.map\.cells\[0\]\.terrain: 'lava'"),
        (lambda d: d["state"]["forces"][0].update(square="Z99"), r"state\.forces\[0\]\.square: 'Z99': not a square of"),
        (lambda d: d["state"]["forces"][0].update(order="charge"), r"state\.forces\[0\]\.order: 'charge': not one of"),
        (lambda d: _first_unit(d).update(sp=-3), r"state\.forces\[0\]\.units\[0\]\.sp: '-3'"),
        (lambda d: _first_unit(d).update(sp=2**62), r"state\.forces\[0\]\.units\[0\]\.sp: "),
        (lambda d: d["state"]["sides"][0].update(colour="red"), r"state\.sides\[0\]\.colour"),
        (lambda d: d["state"]["sides"][0].update(name="au"), r"state\.sides\[0\]\.name: 'au': a side may not be named"),
        (lambda d: d["state"]["sides"][1].update(name=d["state"]["sides"][0]["name"].upper() + "\u200b"),
         r"state\.sides\[1\]\.name: .*is also the name of state\.sides\[0\]\.name"),
        (lambda d: d["state"].update(battles=[{"number": 1, "turn": 1, "square": "E4", "forces": ["soult"],
                                               "sides": ["fr", "prussia"], "status": "pending", "report": None,
                                               "scouting": {}, "aftermath": {}}]),
         r"state\.battles\[0\]\.sides: 'prussia'"),
        (lambda d: d["state"].update(weather="volcanic"), r"state\.weather: 'volcanic'"),
        (lambda d: d["state"]["map"].update(width=500), r"state\.map\.width"),
        (lambda d: d["state"]["players"][0].update(side="prussia"), r"state\.players\[0\]\.side: 'prussia'"),
    ],
)
async def test_a_hostile_import_is_refused_naming_the_field_and_changes_nothing(tutorial_export, mutate,
                                                                                message) -> None:
    exported = copy.deepcopy(tutorial_export)
    mutate(exported)
    with pytest.raises(ImportRejected, match=message):
        await exchange.import_campaign(NO_DATABASE, exchange.export_bytes(exported), guild_id=10, channel_id=99,
                                       gm=GM)


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
        (lambda d: d["tables"]["unit"][0].pop("sp"), r"tables\.unit\[0\]\.sp: missing"),
        (lambda d: d["tables"]["force"][1].pop("side_key"), r"tables\.force\[1\]\.side_key: missing"),
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
        (lambda d: d["tables"]["side"][1].update(name=d["tables"]["side"][0]["name"]),
         r"tables\.side\[1\]\.name: .*is also the name of tables\.side\[0\]\.name"),
        (lambda d: d["tables"]["turn_seed"][0].update(revealed=True, seed_hex="ab" * 32),
         r"tables\.turn_seed\[0\]: only the seeds of ended turns are revealed"),
        (lambda d: d["tables"].update(battle=[{"number": 1, "turn": 1, "square": "E4", "force_keys": ["soult"],
                                               "side_keys": ["fr", "prussia"], "state": "pending"}]),
         r"tables\.battle\[0\]\.side_keys: 'prussia'"),
        (lambda d: d["campaign"].update(weather="volcanic"), r"campaign\.weather: 'volcanic'"),
        (lambda d: d["campaign"].update(map_width=500), r"campaign\.map_width"),
        # values the import of the rows accepted before the codec, and the rules could never reach
        (lambda d: d["tables"]["side"][0].update(name="\u200b\u200b"), r"tables\.side\[0\]\.name: .*no visible character"),
        (lambda d: d["tables"]["side"][1].update(name="France\u200b"),
         r"tables\.side\[1\]\.name: .*is also the name of tables\.side\[0\]\.name"),
        (lambda d: d["tables"]["unit"][0].update(sp=17), r"tables\.unit\[0\]\.sp: '17': a whole number from 0 to 12"),
        (lambda d: d["tables"]["leader"][1].update(force_key="soult"),
         r"tables\.leader\[1\]\.force_key: 'soult': another leader already commands"),
        (lambda d: d["tables"]["force"][0].update(name="lannes"), r"tables\.force\[0\]\.name: 'lannes': a Force may not"),
        (lambda d: d["tables"]["unit"][0].update(name="Vandamme"), r"tables\.unit\[0\]\.name: 'Vandamme': a unit may not"),
        (lambda d: d["tables"]["side"][0].update(capital="A1"), r"tables\.side\[0\]\.capital: 'A1'"),
        (lambda d: d["tables"]["side"][0].update(camp="zz+qq"), r"tables\.side\[0\]\.camp: 'zz\+qq'"),
        (lambda d: d["tables"]["declaration"][0].update(side_key="au"), r"tables\.declaration\[0\]\.side_key: 'au'"),
        (lambda d: d["tables"]["declaration"][0]["payload"]["roll"].update(key="t1/p1/force:mack/force-test"),
         r"tables\.declaration\[0\]\.payload\.roll\.key"),
        (lambda d: d["tables"]["force"][0].update(square="c4"), r"tables\.force\[0\]\.square: 'c4': write the square as C4"),
        (lambda d: d["tables"]["map_square"][0].update(river_flow="N"), r"tables\.map_square\[0\]\.river_flow: 'N'"),
        (lambda d: d["tables"]["glory_entry"].append({"side_key": "fr", "turn": 1, "amount": 1, "reason": "x", "battle": 9}),
         r"tables\.glory_entry\[0\]\.battle: '9'"),
        (lambda d: d["tables"]["battle"].append({"number": 1, "turn": 1, "square": "C4", "force_keys": ["soult", "mack"],
                                                 "side_keys": ["fr", "au"], "scouting": {"_winner": "prussia"}}),
         r"tables\.battle\[0\]\.scouting\._winner: 'prussia'"),
        (lambda d: d["tables"]["battle"].append({"number": 1, "turn": 1, "square": "C4", "force_keys": ["soult", "mack"],
                                                 "side_keys": ["fr", "au"], "state": "reported",
                                                 "aftermath": {"sp_before": {"ghost": 3}}}),
         r"tables\.battle\[0\]\.aftermath\.sp_before: 'ghost'"),
    ],
)
async def test_a_hostile_import_of_the_previous_format_is_refused_naming_its_field(mutate, message) -> None:
    exported = old_export("orders")
    mutate(exported)
    with pytest.raises(ImportRejected, match=message):
        await exchange.import_campaign(NO_DATABASE, exchange.export_bytes(exported), guild_id=10, channel_id=99,
                                       gm=GM)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 5_000 + "1" + "}" * 5_000])
async def test_a_deeply_nested_import_is_refused_as_such(text: str) -> None:
    with pytest.raises(ImportRejected, match="nested more than 32 levels deep"):
        await exchange.import_campaign(NO_DATABASE, text, guild_id=10, channel_id=99, gm=GM)


# --- visibilities: only where the entry's content says they are right (issue 24, item 5) ----------------


def _entry(text: str, visibility: str, data: dict | None = None, roll_key: str | None = None,
           kind: str = "event") -> dict[str, Any]:
    return {"turn": 1, "phase": 0, "kind": kind, "visibility": visibility, "text": text, "data": data,
            "roll_key": roll_key}


def _imported(export: dict[str, Any], *entries: dict[str, Any]) -> list[str]:
    """The visibilities the entries get as the bot reads the export (exports.read, the import's first step)."""
    from bot.campaign import exports

    doc = copy.deepcopy(export)
    doc["log"] = list(entries)
    return [e["visibility"] for e in exports.read(exports.check_export(doc)).log]


def _force_test(export: dict[str, Any], side: str) -> dict[str, Any]:
    """A force test roll of ``side``'s first Force, as the bot logs it (private to the side)."""
    from bot.campaign.codec import decode
    from bot.campaign.orders import order_key
    from bot.engine.dice import SeededDice
    from bot.engine.force_test import force_test_check

    state = decode(export)
    f = next(f for f in state.forces.values() if f.side == side)
    force = state.engine_force(f.key)
    roll = force_test_check(force, state.map.cell(force.square)).roll(SeededDice(b"x" * 32), order_key(1, f.key))
    return _entry(str(roll), "public", {**roll.to_dict(), "prev": "0" * 64}, roll.key, kind="roll")


def test_an_imported_private_roll_keeps_its_sides_label_and_no_other(tutorial_export) -> None:
    roll = _force_test(tutorial_export, "fr")
    labels = ["public", "side:au", "side:fr", "gm", "battle:1"]
    got = [_imported(tutorial_export, {**roll, "visibility": v})[0] for v in labels]
    assert got == ["gm", "gm", "side:fr", "gm", "gm"]  # relabelled public or another's: the GM's alone


def test_an_imported_side_message_relabelled_public_stays_the_gms(tutorial_export) -> None:
    """A message the code writes to a side alone (MC-5.2's loss crossing hostile ground, the fog's news)
    cannot tell whose it is: public or a side's label, it comes back the GM's; a public message stays public."""
    loss = {"msg": {"t": "{force} loses {lost} SP crossing hostile ground (MC-5.2).",
                    "p": {"force": "Armée d'Italie", "lost": 2}}}
    joined = {"msg": {"t": "{member} joined {side}.", "p": {"member": "Ann", "side": "France"}}}
    got = _imported(tutorial_export, _entry("x", "public", loss), _entry("x", "side:au", loss),
                    _entry("x", "public", joined), _entry("x", "side:fr", joined), _entry("x", "gm", joined))
    assert got == ["gm", "gm", "public", "gm", "gm"]
