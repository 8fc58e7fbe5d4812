"""/rules and "How to play" (issue 13, item 5): every roll cites a rule ID, and a member reads that rule
from Discord, in their language; a member who joins a side is offered, privately, how a player plays."""

from __future__ import annotations

import pytest

from bot import reference
from bot.i18n import t

from .conftest import make_bot, shown, start
from .test_features import locales  # noqa: F401  (fixture re-used)


def descriptions(result) -> str:
    """The rule text proper: the embeds' descriptions, without titles."""
    msgs = ([result.response] if result.response is not None else []) + list(result.followups)
    return "\n".join(e.description or "" for m in msgs for e in m.embeds)


# --- /rules -----------------------------------------------------------------------------------


async def test_a_rule_is_read_privately_in_english_without_a_campaign(table) -> None:
    r = await table.outsider.slash(table.channel, "rules", id="MC-5.3")
    assert r.ephemeral and not table.channel.history()
    text = shown(r)
    assert "MC-5.3 Movement by water" in text
    assert reference.rules("en")["MC-5.3"].text in descriptions(r)  # the whole rule, as shipped
    assert "−3 contrary wind" in text and "(RU-16)" in text
    assert "Part of **MC-5** Phase 2: Movement" in text
    assert "not yet translated" not in text and "no translation" not in text


async def test_an_italian_member_reads_the_italian_text(table, locales) -> None:  # noqa: F811
    locales[table.fr.id] = "it"
    r = await table.fr.slash(table.channel, "rules", id="mc 5.3")  # any spelling of the ID
    text = shown(r)
    assert r.ephemeral and "MC-5.3 Movimento via acqua" in text
    assert reference.rules("it")["MC-5.3"].text in descriptions(r)
    assert "−3 vento contrario" in text and "contrary wind" not in text
    assert "Fa parte di **MC-5** Fase 2: Movimento" in text


async def test_a_rule_without_a_translation_is_shown_in_english_with_a_note(table, locales, monkeypatch) -> None:  # noqa: F811
    original = reference.rules

    def without_water(lang: str):
        found = original(lang)
        return {k: v for k, v in found.items() if k != "MC-5.3"} if lang == "es" else found

    monkeypatch.setattr(reference, "rules", without_water)
    locales[table.au.id] = "es-ES"
    r = await table.au.slash(table.channel, "rules", id="MC-5.3")
    text = shown(r)
    assert t("es", "rules.untranslated") in text and text.count("aún no está traducida") == 1
    assert reference.rules("en")["MC-5.3"].text in descriptions(r) and "contrary wind" in text
    assert "Forma parte de **MC-5** Fase 2: Movimiento" in text  # what is translated still is


async def test_a_parent_id_shows_its_text_and_lists_its_rules(table) -> None:
    r = await table.outsider.slash(table.channel, "rules", id="MC-5")
    text = shown(r)
    assert "MC-5 Phase 2: Movement" in text and "simultaneous movement (RU-13)" in text
    for line in ("**MC-5.1** Land movement roll", "**MC-5.2** Crossing jungle, desert, wasteland",
                 "**MC-5.3** Movement by water"):
        assert line in text
    assert "read one with" in text and "rules" in text
    section = await table.outsider.slash(table.channel, "rules", id="ru")
    assert all(f"**RU-{n}**" in shown(section) for n in range(1, 23))


async def test_an_unknown_id_gets_the_closest_ids_never_a_traceback(table) -> None:
    r = await table.outsider.slash(table.channel, "rules", id="MC-99")
    text = shown(r)
    assert r.ephemeral and "There is no rule `MC-99`" in text and "**MC-9**" in text and "Traceback" not in text
    words = await table.outsider.slash(table.channel, "rules", id="movement")
    assert "There is no rule `movement`" in shown(words) and "**MC-5**" in shown(words)
    assert not table.env.errors


async def test_part_of_a_title_that_names_one_rule_reads_it(table) -> None:
    r = await table.outsider.slash(table.channel, "rules", id="water")
    assert "MC-5.3 Movement by water" in shown(r)


async def test_autocomplete_offers_ids_and_titles_filtered_by_what_was_typed(table, locales) -> None:  # noqa: F811
    offered = await table.outsider.autocomplete(table.channel, "rules", "id", "mc-5")
    assert [c["value"] for c in offered][:4] == ["MC-5", "MC-5.1", "MC-5.2", "MC-5.3"]
    assert offered[3]["name"] == "MC-5.3 Movement by water"
    spaced = await table.outsider.autocomplete(table.channel, "rules", "id", "MC 5.3")
    assert [c["value"] for c in spaced] == ["MC-5.3"]
    every = await table.outsider.autocomplete(table.channel, "rules", "id", "")
    assert len(every) == 25 and all(len(c["name"]) <= 100 for c in every)
    titled = await table.outsider.autocomplete(table.channel, "rules", "id", "GLORY")
    assert {"CC-4", "RU-15", "RU-17"} <= {c["value"] for c in titled}
    locales[table.fr.id] = "it"
    italian = await table.fr.autocomplete(table.channel, "rules", "id", "acqua")
    assert [(c["name"], c["value"]) for c in italian] == [("MC-5.3 Movimento via acqua (*Water movement roll*)",
                                                          "MC-5.3")]


async def test_help_points_at_rules(table) -> None:
    r = await table.outsider.slash(table.channel, "help")
    assert t("en", "help.rules") in shown(r) and "/rules" in shown(r)


# --- How to play ------------------------------------------------------------------------------


async def test_joining_a_side_offers_how_to_play_to_whoever_clicks(table, locales) -> None:  # noqa: F811
    await table.gm.slash(table.channel, "campaign create", name="Ulm", scenario="tutorial")
    joined = await table.fr.slash(table.channel, "campaign join", side="fr")
    assert not joined.ephemeral and "joins France" in shown(joined)
    posted = len(table.channel.history())
    clicked = await table.fr.click(joined.response, label="How to play")
    text = shown(clicked)
    assert clicked.response.ephemeral and "How to play: France" in text and "You play **France**" in text
    assert "Phase 1: Orders and Force tests (MC-4)" in text
    assert "order give" in text and "change a Force's order or shed a reaction with a Force test (MC-4)" in text
    assert "order move" in text and "battle aftermath" in text and "leader fate" in text
    assert "Will to Fight** (MC-9)" in text  # a phase the bot plays
    assert "supply buy" not in text  # FC-2 is off in this campaign
    assert "rules" in text and "help" in text
    assert len(table.channel.history()) == posted  # the guide is private

    locales[table.outsider.id] = "it"  # a member on no side, in Italian: their own guide
    other = await table.outsider.click(joined.response, label="How to play")
    said = shown(other)
    assert other.response.ephemeral and "Come si gioca" in said and "Non sei ancora in uno schieramento" in said
    assert "cambia l'ordine di una Forza o togli una reazione con un Test della Forza (MC-4)" in said


async def test_how_to_play_follows_the_campaigns_settings(table) -> None:
    await start(table)
    await table.gm.slash(table.channel, "campaign settings", name="supply", value="true")
    joined = await table.outsider.slash(table.channel, "campaign join", side="au")
    text = shown(await table.outsider.click(joined.response, label="How to play"))
    assert "supply buy" in text and "spend supply points on your Forces (FC-2)" in text


async def test_the_how_to_play_button_survives_a_restart(table, tmp_path) -> None:
    await table.gm.slash(table.channel, "campaign create", name="Ulm", scenario="tutorial")
    joined = await table.au.slash(table.channel, "campaign join", side="au")

    await table.env.restart_bot(make_bot(tmp_path))

    clicked = await table.au.click(joined.response, label="How to play")
    assert clicked.response.ephemeral and "How to play: Austria" in shown(clicked)


@pytest.mark.parametrize("typed", ["CC-1", "cc1", "Cc 1"])
async def test_the_id_of_a_roll_is_read_however_it_is_typed(table, typed) -> None:
    r = await table.outsider.slash(table.channel, "rules", id=typed)
    assert "CC-1 Leader casualty fate" in shown(r) and "Mortal wound" in shown(r)


@pytest.mark.parametrize("lang", ["en", "it", "es"])
def test_every_rule_fits_discords_limits_in_every_language(lang) -> None:
    from types import SimpleNamespace

    from bot import formatting as fmt
    from bot.cogs.help import rule_embeds

    client = SimpleNamespace(synced=[])
    for rule in reference.rules("en").values():
        reading = reference.read(rule.id, lang)
        embeds = rule_embeds(client, reading, lang)  # type: ignore[arg-type]
        assert all(len(e.description or "") <= fmt.DESCRIPTION and len(e.title or "") <= fmt.TITLE for e in embeds)
        assert all(sum(fmt.embed_size(e) for e in batch) <= fmt.TOTAL for batch in fmt.batches(embeds))
        assert reading.rule.text in "\n\n".join(e.description or "" for e in embeds)  # nothing cut away


def test_a_rule_longer_than_an_embed_is_sent_in_pages(monkeypatch) -> None:
    from types import SimpleNamespace

    from bot import formatting as fmt
    from bot.cogs.help import rule_embeds

    long = reference.Rule("RU-99", "A very long ruling", "\n\n".join(f"Paragraph {i}: " + "text " * 150
                                                                       for i in range(12)))
    embeds = rule_embeds(SimpleNamespace(synced=[]), reference.Reading(long, True, ()), "en")  # type: ignore[arg-type]
    assert len(embeds) == 3 and embeds[0].title == "RU-99 A very long ruling (1/3)"
    assert all(len(e.description) <= fmt.DESCRIPTION for e in embeds)
    assert "\n\n".join(e.description for e in embeds) == long.text + "\n\nPart of **RU** Rulings."
