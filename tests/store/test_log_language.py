"""The log is written once, in English, and read in each member's language: an event keeps its
template and parameters, a roll its record (bot.services.logbook.entry_text)."""

from __future__ import annotations

from sqlmodel import select

from bot.engine.text import Msg
from bot.i18n.text import tr
from bot.services.logbook import entry_text
from bot.store.models import LogEntry
from tests.i18n import CATALOGUES

from .test_battle_flow import to_battle
from .test_campaign_flow import fixed_seeds  # noqa: F401  (fixture re-used)


async def test_log_entries_read_back_as_the_english_they_stored_and_translate(db) -> None:
    cid, _ = await to_battle(db)
    async with db.sessions() as s:
        rows = (await s.exec(select(LogEntry).where(LogEntry.campaign_id == cid).order_by(LogEntry.id))).all()
    events = [e for e in rows if e.kind != "roll"]
    rolls = [e for e in rows if e.kind == "roll"]
    assert events and rolls
    for e in rows:
        assert entry_text(e) == e.text  # the same English as stored, whatever the database
    battle = next(e for e in events if e.text.startswith("Battle 1 at E4"))
    text = entry_text(battle)
    assert isinstance(text, Msg) and text.template == "Battle {number} at {square}: {names} (MC-6)."
    italian = tr("it", text)
    assert italian == CATALOGUES["it"][text.template].format(**text.params) and "MC-6" in italian
    movement = next(e for e in rolls if "Movement roll" in e.text)
    said = tr("es", entry_text(movement))
    assert said != movement.text and "(MC-5.1)" in said and "Movement roll" not in said  # the rule ID stays
    legacy = LogEntry(campaign_id=cid, turn=1, phase=0, kind="event", text="Written before messages kept their template.")
    assert entry_text(legacy) == legacy.text and tr("it", entry_text(legacy)) == legacy.text
