"""Making campaigns from files through Discord (issue 15): a painted map with its small YAML, and a
running campaign saved as a scenario that starts another campaign."""

from __future__ import annotations

import yaml

from bot.scenario import parse_scenario_text
from tests.scenario.test_paint import bundled, image_of

from .conftest import advance, refused, shown, start


def tutorial_without_rows() -> bytes:
    small = bundled("tutorial")
    small["map"] = {k: v for k, v in small["map"].items() if k != "rows"}
    return yaml.safe_dump(small, allow_unicode=True).encode()


async def test_a_gm_starts_a_campaign_from_a_painted_map_and_its_yaml(table) -> None:
    rows = bundled("tutorial")["map"]["rows"]
    made = await table.gm.slash(table.channel, "campaign create", name="Painted", scenario="painted",
                                file=("sides.yaml", tutorial_without_rows()),
                                map=("map.png", image_of(rows, scale=8)))
    assert "Campaign Painted begins" in shown(made)
    await table.fr.slash(table.channel, "campaign join", side="fr")
    status = await table.fr.slash(table.channel, "campaign status")
    assert "France" in shown(status)


async def test_a_painted_map_alone_or_with_an_unknown_colour_is_refused_naming_why(table) -> None:
    rows = bundled("tutorial")["map"]["rows"]
    alone = await table.gm.slash(table.channel, "campaign create", name="Painted", scenario="painted",
                                 map=("map.png", image_of(rows)))
    assert refused(alone, "upload the YAML with the sides and Forces as `file` too")
    odd = await table.gm.slash(table.channel, "campaign create", name="Painted", scenario="painted",
                               file=("sides.yaml", tutorial_without_rows()),
                               map=("map.png", image_of(rows, colours={".": (200, 30, 200)})))
    assert refused(odd, "#C81EC8", "is not in the palette")
    table.env.errors  # noqa: B018 - both refusals acknowledged


async def test_the_gm_saves_a_running_campaign_and_starts_another_from_it(table) -> None:
    await start(table)
    await advance(table)
    saved = await table.gm.slash(table.channel, "campaign save")
    assert saved.ephemeral and "as a scenario" in shown(saved)
    (attachment,) = saved.followups[-1].attachments if saved.followups else saved.response.attachments
    raw = await attachment.read()
    spec = parse_scenario_text(raw)
    assert {f.key for f in spec.forces} >= {"soult", "mack"}
    player = await table.fr.slash(table.channel, "campaign save")
    assert refused(player, "Only the GM")
    other = table.guild.create_text_channel("second")
    again = await table.gm.slash(other, "campaign create", name="Sequel", scenario="sequel",
                                 file=("saved.yaml", raw))
    assert "Campaign Sequel begins" in shown(again)
    table.env.errors  # noqa: B018 - the player's refusal acknowledged


async def test_a_painted_map_is_sized_before_it_is_read_and_has_its_own_cooldown(table, monkeypatch) -> None:
    """Issue 24, item 1: `map:` was read in full before its size was checked (unlike `file:`), and
    paintings had no gate: now the attachment's size is refused before any download, and one member
    paints at most once a minute."""
    import discord

    from bot import paint

    reads: list[str] = []
    real = discord.Attachment.read

    async def spy(self, **kwargs):  # type: ignore[no-untyped-def]
        reads.append(self.filename)
        return await real(self, **kwargs)

    monkeypatch.setattr(discord.Attachment, "read", spy)
    monkeypatch.setattr(paint, "MAX_BYTES", 100)
    rows = bundled("tutorial")["map"]["rows"]
    big = await table.gm.slash(table.channel, "campaign create", name="Painted", scenario="painted",
                               file=("sides.yaml", tutorial_without_rows()), map=("map.png", image_of(rows, scale=8)))
    assert refused(big, "at most 100 are accepted") and reads == []
    monkeypatch.undo()
    made = await table.gm.slash(table.channel, "campaign create", name="Painted", scenario="painted",
                                file=("sides.yaml", tutorial_without_rows()), map=("map.png", image_of(rows)))
    assert "Campaign Painted begins" in shown(made)
    other = table.guild.create_text_channel("second")
    again = await table.gm.slash(other, "campaign create", name="Painted", scenario="painted",
                                 file=("sides.yaml", tutorial_without_rows()), map=("map.png", image_of(rows)))
    assert refused(again, "painted map", "one every 60 s per member"), shown(again)
    table.env.errors  # noqa: B018 - both refusals acknowledged
