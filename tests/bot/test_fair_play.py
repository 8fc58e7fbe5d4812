"""Fair play as the GM meets it: undo never crosses a revealed seed (issue "Fair play", item 1)."""

from __future__ import annotations

from bot.services import resolution, views
from bot.services.actors import Actor
from bot.services.loading import campaign_in_channel

from .conftest import advance, refused, shown, start


async def test_gm_undo_says_before_trying_that_a_turn_end_cannot_be_undone(table) -> None:
    await start(table)
    await advance(table)  # turn 1: weather -> orders
    r = await table.gm.slash(table.channel, "gm undo")
    assert r.ephemeral and "it goes back to" in shown(r) and "cannot be undone" in shown(r)

    bot, gm = table.env.bot, Actor(table.gm.id)
    async with bot.db.sessions() as s:
        cid = (await campaign_in_channel(s, table.channel.id)).id
    while (st := await views.status(bot.db, cid, gm)).position.turn < 2:  # forced to the end of turn 1
        await resolution.resolve_phase(bot.db, cid, gm, expected_version=st.version, forced=True)
    last = await table.gm.slash(table.channel, "gm undo")
    assert refused(last, "ended turn 1", "revealed its dice", "/gm edit")
    assert not last.response.components  # no button that would be refused
    table.env.errors  # noqa: B018
