"""/gm undo restores the game, not the settings: the bot's settings, its language, the GM role, side
channels and the rule options the GM changed after the resolution stay as they are now."""

from __future__ import annotations

from bot.engine.phases import Phase
from bot.services import bookkeeping, campaigns, resolution, views
from bot.services.loading import get_campaign

from .conftest import GM
from .test_campaign_flow import advance, fixed_seeds, tutorial  # noqa: F401  (fixture re-used)

CHANNEL = 123456789012345678
ROLE = 223456789012345678


async def test_undo_keeps_the_settings_changed_after_the_resolution(db) -> None:
    cid = await tutorial(db)
    await bookkeeping.change_bot_setting(db, cid, GM, "at_deadline", "wait")  # before: part of both states
    await advance(db, cid)  # weather -> orders
    await bookkeeping.change_bot_setting(db, cid, GM, "auto_resolve", "off")
    await bookkeeping.change_bot_setting(db, cid, GM, "language", "it")
    await bookkeeping.change_bot_setting(db, cid, GM, "gm_role", str(ROLE))
    await bookkeeping.change_bot_setting(db, cid, GM, "channel:fr", str(CHANNEL))
    await campaigns.change_setting(db, cid, GM, "adjacency", "4")
    await campaigns.change_setting(db, cid, GM, "random_events", "false")

    st = await views.status(db, cid, GM)
    back = await resolution.undo(db, cid, GM, expected_version=st.version)
    assert back.back_to.phase is Phase.WEATHER  # the game went back

    meta = await bookkeeping.meta(db, cid)
    assert meta.setting("auto_resolve") is False and meta.setting("at_deadline") == "wait"
    assert (meta.language, meta.gm_role_id) == ("it", ROLE)
    assert await bookkeeping.side_channels(db, cid) == {"fr": CHANNEL}
    async with db.sessions() as s:
        campaign = await get_campaign(s, cid)
    assert campaign.options["adjacency"] == campaign.adjacency == 4  # RU-11: the option and the map agree
    assert campaign.options["random_events"] is False


async def test_undo_still_restores_the_game_state_with_the_settings_kept(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)  # weather -> orders
    await bookkeeping.change_bot_setting(db, cid, GM, "channel:au", str(CHANNEL))
    st = await views.status(db, cid, GM)
    await resolution.undo(db, cid, GM, expected_version=st.version)
    st = await views.status(db, cid, GM)
    assert (st.position.turn, st.position.phase) == (1, Phase.WEATHER)
    redo = await advance(db, cid)  # the same phase resolves again, from the restored state
    assert redo.after.phase is Phase.ORDERS
    assert await bookkeeping.side_channels(db, cid) == {"au": CHANNEL}
