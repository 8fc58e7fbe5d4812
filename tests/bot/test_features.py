"""The rest of the surface: languages, the map, the report form, export and import, dice, settings,
undo, a sharded bot, and a deadline that outlives a restart."""

from __future__ import annotations

import json

import pytest
import simcord
import simcord.interactions

from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook
from bot.engine.text import Msg
from bot.i18n.text import tr
from bot.settings import Settings
from tests.databases import migrated_sqlite
from tests.i18n import CATALOGUES
from tests.store.test_battle_flow import REPORT

from .conftest import Table, advance, make_bot, refused, shown, start, texts
from .test_battle import to_battle


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Members' Discord locales (simcord sends en-US for everybody)."""
    chosen: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def with_locale(backend, **kwargs):
        record, payload = original(backend, **kwargs)
        if kwargs["user_id"] in chosen:
            payload["locale"] = chosen[kwargs["user_id"]]
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locale)
    return chosen


async def test_each_member_reads_the_bot_in_their_own_language(table, locales) -> None:
    locales[table.fr.id] = "it"
    locales[table.au.id] = "es-ES"
    await start(table)
    it = await table.fr.slash(table.channel, "campaign status")
    es = await table.au.slash(table.channel, "campaign status")
    assert "In attesa di" in shown(it) and "Giochi per Francia" in shown(it)  # the scenario names it in Italian (issue 23)
    assert "Esperando a" in shown(es) and "Juegas con Austria" in shown(es)
    refusal = await table.fr.slash(table.channel, "order done")
    # The refusal comes from the services: said in Italian, the phase's rule name and ID as written.
    title = Phase.WEATHER.spec.title
    said = CATALOGUES["it"]["{title} does not wait for players to be done."].format(title=CATALOGUES["it"][title])
    hint = tr("it", Msg("See /campaign status: it says what this phase waits for."))  # written for this refusal
    assert refused(refusal, said, hint) and "does not wait" not in shown(refusal)
    spanish = await table.au.slash(table.channel, "order done")
    assert refused(spanish, CATALOGUES["es"]["{title} does not wait for players to be done."].format(
        title=CATALOGUES["es"][title]))
    await advance(table)
    card = await table.au.slash(table.channel, "campaign status")
    assert CATALOGUES["es"][Phase.ORDERS.spec.needs] in shown(card)  # what the phase needs (MC-3)
    assert CATALOGUES["es"]["give orders, then mark done"] in shown(card)  # who it waits for, and for what
    odds = await table.fr.slash(table.channel, "order give", force="soult", order="defend")
    labels = [b.label for b in default_rulebook().mc.force_test.bands.bands]
    # The odds of each outcome that can happen (1d6 +4: Defend or OK, MC-4), the die each needs, in Italian.
    possible = [default_rulebook().mc.force_test.bands.by_result(r).label for r in ("ok", "defend")]
    assert all(f"{CATALOGUES['it'][label]} (dado" in shown(odds) for label in possible)
    assert "serve 2 o più per " + CATALOGUES["it"][possible[0]] in shown(odds)
    rolled = await table.fr.click(odds.response, label="Tira")
    text = shown(rolled)
    assert "Test della Forza (MC-4)" in text and "IV Corpo" in text and "Modificatori" in text
    assert "Command Value" not in text and CATALOGUES["it"]["{name}'s Command Value"].split("{")[0] in text
    assert any(CATALOGUES["it"][label] in text for label in labels)
    assert not any(label in text for label in labels)  # no outcome left in English
    table.env.errors  # noqa: B018 - acknowledge the refusals


async def test_commands_are_synced_with_italian_and_spanish_names(table) -> None:
    synced = {c.name: c for c in table.env.bot.synced}
    assert synced["campaign"].name_localizations[__import__("discord").Locale.italian] == "campagna"
    assert synced["order"].name_localizations[__import__("discord").Locale.spain_spanish] == "orden"


async def test_a_player_gets_a_private_fog_of_war_map_and_the_gm_may_post_the_full_one(table) -> None:
    pytest.importorskip("bot.services.maps")
    await start(table)
    r = await table.fr.slash(table.channel, "campaign map")
    assert r.ephemeral and any(isinstance(e.json, dict) and e.json.get("type") == 5  # deferred first
                               for e in table.env.http_requests)
    png = await r.response.attachments[0].read()
    assert png.startswith(b"\x89PNG") and "France" in shown(r)
    full = await table.gm.slash(table.channel, "campaign map", view="full")  # private; posted from its button
    assert full.ephemeral and (await full.response.attachments[0].read()).startswith(b"\x89PNG")
    assert refused(await table.fr.slash(table.channel, "campaign map", view="full"), "Only the GM")
    table.env.errors  # noqa: B018


async def test_a_battle_report_can_be_typed_into_a_form(table) -> None:
    await to_battle(table)
    shown_modal = await table.gm.slash(table.channel, "battle report", battle="1")
    assert shown_modal.modal is not None
    preview = await table.gm.submit_modal(shown_modal, {"report": json.dumps(REPORT)})
    assert "France won, Austria lost" in shown(preview) and preview.response.ephemeral
    await table.gm.click(preview.response, label="Confirm the report")
    battles = await table.fr.slash(table.channel, "battle list")
    assert "reported" in shown(battles)


async def test_an_export_loads_again_as_a_campaign_in_another_channel(table) -> None:
    await table.gm.slash(table.channel, "campaign create", name="Ulm", scenario="tutorial")
    await advance(table)
    r = await table.gm.slash(table.channel, "campaign export")
    assert r.ephemeral
    raw = await r.response.attachments[0].read()
    assert json.loads(raw)["format"] == "aide-de-camp/campaign"
    other = table.guild.create_text_channel("again")
    loaded = await table.gm.slash(other, "campaign create", name="Ulm again", scenario="tutorial",
                                  file=("ulm.json", raw))
    assert "loaded from an export" in shown(loaded)
    assert "Phase 1: Orders" in texts(other.history())


async def test_an_export_with_players_loads_again(table) -> None:
    await start(table)
    r = await table.gm.slash(table.channel, "campaign export")
    other = table.guild.create_text_channel("again")
    loaded = await table.gm.slash(other, "campaign create", name="Ulm again", scenario="tutorial",
                                  file=("ulm.json", await r.response.attachments[0].read()))
    table.env.errors  # noqa: B018
    assert "loaded from an export" in shown(loaded)


async def test_free_dice_and_battle_dice_are_shown_publicly(table) -> None:
    r = await table.outsider.slash(table.channel, "roll dice", expression="4d6kh3+1")
    assert not r.ephemeral and "Roll 4d6kh3+1" in shown(r) and "Seed" in shown(r)
    cc = await table.outsider.slash(table.channel, "roll cc", count=5)
    assert "Commands & Colors battle dice: 5" in shown(cc)


def _cid(result) -> int:
    """The campaign id a settings page's selects carry."""
    import re

    return int(re.search(r"adc:setp:(\d+)", str(result.response.components)).group(1))


async def test_the_gm_changes_rule_options_and_bot_settings(table) -> None:
    await start(table)
    r = await table.gm.slash(table.channel, "campaign settings", name="movement_order", value="initiative")
    assert "Movement order" in shown(r) and "by initiative" in shown(r) and not r.ephemeral
    r = await table.gm.slash(table.channel, "campaign settings", name="auto_resolve", value="false")
    assert "The GM set Resolve by itself to **off**." in shown(r)  # its name, not `auto_resolve` (issue 23)
    r = await table.gm.slash(table.channel, "campaign settings")  # in pages: the turn flow first
    assert "Turn flow" in shown(r) and "Resolve by itself = **off**" in shown(r) and "Movement order" not in shown(r)
    assert "auto_resolve" not in shown(r) and "deadline_hours" not in shown(r)
    assert "(en, it, es, fr, de)" in shown(r)  # the languages listed from the code
    rules = await table.gm.select(r.response, ["rules"], custom_id=f"adc:setp:{_cid(r)}")
    assert "Movement order = **by initiative**" in shown(rules) and "Resolve by itself" not in shown(rules)
    pick = await table.gm.select(rules.response, ["weather"], custom_id=f"adc:setk:{_cid(r)}:rules")
    assert pick.ephemeral and "Weather = **on**" in shown(pick)
    done = await table.gm.select(pick.response, ["false"], custom_id=f"adc:setv:{_cid(r)}:weather")
    assert "The GM set Weather to **off**." in shown(done) and not done.ephemeral
    names = await table.gm.autocomplete(table.channel, "campaign settings", "name", "chan")
    assert {c["value"] for c in names} == {"channel:fr", "channel:au"}
    assert {c["name"] for c in names} == {"Private channel of France", "Private channel of Austria"}
    typed = await table.gm.slash(table.channel, "campaign settings", name="Movement order", value="all at once")
    assert "The GM set Movement order to **all at once**." in shown(typed)  # its words typed, not its identifier
    await advance(table)
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")  # auto-resolve is off: the phase waits for the GM
    status = await table.gm.slash(table.channel, "campaign status")
    assert "Phase 1: Orders" in shown(status)


async def test_rule_options_still_change_after_a_deadline_and_a_bot_setting(table) -> None:
    await start(table)
    await table.gm.slash(table.channel, "gm deadline", hours=24.0)
    await table.gm.slash(table.channel, "campaign settings", name="auto_resolve", value="false")
    r = await table.gm.slash(table.channel, "campaign settings", name="weather", value="false")
    table.env.errors  # noqa: B018
    assert not refused(r), shown(r)


async def test_undo_is_announced_publicly(table) -> None:
    await start(table)
    await advance(table)
    prompt = await table.gm.slash(table.channel, "gm undo")
    await table.gm.click(prompt.response, label="Undo")
    assert "The GM undid the last phase resolution" in texts(table.channel.history())
    assert "Phase 0: Weather" in texts(table.channel.history()[-1:])


async def test_a_deadline_outlives_a_restart(table, tmp_path) -> None:
    await start(table)
    await advance(table)
    await table.gm.slash(table.channel, "gm deadline", hours=0.5)
    await table.env.restart_bot(make_bot(tmp_path))
    await table.env.advance_time(3600)
    assert "Phase 2: Movement" in texts(table.channel.history()[-1:])


async def test_the_bot_can_run_sharded(tmp_path) -> None:
    settings = Settings(database_url=migrated_sqlite(tmp_path / "s.db"), data_dir=tmp_path, shard=True)
    from bot.app import ShardedAideBot, create_bot

    bot = create_bot(settings, shard_count=2, background_tasks=False)
    assert isinstance(bot, ShardedAideBot)
    async with simcord.run(bot) as env:
        g = env.create_guild("Club", shard_id=1)
        ch = g.create_text_channel("c")
        gm = g.add_member(env.create_user("gina"))
        t = Table(env, g, ch, gm, gm, gm, gm, None)
        r = await t.gm.slash(ch, "campaign create", name="Sharded", scenario="tutorial")
        assert "Campaign Sharded begins" in shown(r)



async def test_commands_sync_to_the_development_guild_when_one_is_set(tmp_path) -> None:
    from bot.app import create_bot

    guild_id = 1100000000000000000
    settings = Settings(database_url=migrated_sqlite(tmp_path / "d.db"), data_dir=tmp_path, dev_guild=guild_id)
    async with simcord.run(create_bot(settings, background_tasks=False)) as env:
        g = env.create_guild("Dev", id=guild_id)
        ch = g.create_text_channel("c")
        gina = g.add_member(env.create_user("gina"))
        assert all(c.guild_id == guild_id for c in env.bot.synced)
        r = await gina.slash(ch, "roll dice", expression="2d6")
        assert "Roll 2d6" in shown(r)
