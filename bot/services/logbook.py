"""The log as members read it (:func:`entry_text`), and the roll log's files for the verifiers
(docs/dice.md; the roll log itself: :mod:`bot.store.rolllog`)."""

from __future__ import annotations

import json
from typing import Any

from bot.engine.rolls import record_from_dict
from bot.engine.text import Msg, UnknownMessage
from bot.engine.verify import verifier_html
from bot.i18n.text import known_templates
from bot.store import log as store_log
from bot.store.db import Database
from bot.store.models import LogEntry
from bot.store.rolllog import roll_log

from .loading import get_campaign


def entry_text(entry: LogEntry) -> str:
    """The entry's text: a Msg again when it was written as one (events) or is a roll; else as stored.

    Only the code's own templates are formatted (:meth:`Msg.from_json`): an entry whose stored
    template is not one of them is shown as its stored plain text."""
    data = entry.data or {}
    if "msg" in data:
        try:
            return Msg.from_json(data["msg"], known=known_templates())
        except UnknownMessage:
            return entry.text
    if entry.kind == "roll" and data.get("kind") in ("roll", "batch"):
        try:
            return str(record_from_dict(data))
        except (KeyError, TypeError, ValueError):
            return entry.text
    return entry.text


async def verifier_files(db: Database, campaign_id: int) -> list[tuple[str, bytes]]:
    """Anyone's roll log (:func:`roll_log`, public) as JSON (for ``python -m bot verify``) and in a
    self-contained HTML page that checks it offline in a browser: each file's name and bytes."""
    async with db.sessions() as s:
        campaign = await get_campaign(s, campaign_id)
        log = await roll_log(s, campaign, public=True)
        name = campaign.name
    return [(f"roll-log-{campaign_id}.json", json.dumps(log, ensure_ascii=False, indent=1).encode("utf-8")),
            (f"roll-log-{campaign_id}.html", verifier_page(log, name))]


async def full_record(db: Database, campaign_id: int) -> tuple[list[LogEntry], dict[str, Any]]:
    """Every log entry (undone ones too, whoever may read them) and the whole roll log: what the offline
    demo writes out, with the GM's eyes."""
    async with db.sessions() as s:
        campaign = await get_campaign(s, campaign_id)
        return await store_log.all_entries(s, campaign_id), await roll_log(s, campaign)


def verifier_page(log: dict[str, Any], name: str) -> bytes:
    """The HTML page that checks ``log`` in a browser (bot/engine/verify.html), for campaign ``name``."""
    return verifier_html(log, title=name).encode("utf-8")
