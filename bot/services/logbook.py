"""The append-only event and roll log, and the roll chain (docs/dice.md).

Every roll record is logged with ``prev``, the hash of the campaign's roll record before it
(:func:`bot.engine.verify.record_hash`), so that a roll deleted, inserted or changed later breaks
the chain; when a turn ends, the hash of its last roll (the turn's *chain head*) is published with
its seed (:func:`bot.campaign.turn.resolve`, at the end of the turn).
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.rolls import record_from_dict
from bot.engine.text import Msg, UnknownMessage
from bot.engine.verify import FORMAT, HIDDEN, VERSION, key_turn, verifier_html
from bot.i18n.text import known_templates
from bot.store import chain, seeds
from bot.store import log as store_log
from bot.store.db import Database
from bot.store.log import log_roll  # noqa: F401 (re-exported: tests/store/test_roll_chain.py)
from bot.store.models import Campaign, LogEntry

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


def battle_visibility(number: int) -> str:
    """The log visibility of what only a battle's camps (and the GM) read: its aftermath, fate,
    trophy and Stragglers dice, with unit and leader names (a reader of a side that fought battle N
    reads ``battle:N``: :func:`bot.services.views.read_log`)."""
    return f"battle:{number}"


def turn_of_key(key: str) -> int:
    """Roll keys start with ``t{turn}/`` (bot.engine.dice.roll_key); 0 for a key that does not."""
    return key_turn(key) or 0


async def roll_log(session: AsyncSession, campaign: Campaign, *, public: bool = False) -> dict[str, Any]:
    """Every roll with its turn's published hash and, for ended turns, the revealed seed and chain head.

    ``public``: the view anyone may have. A roll is shown in full only when it was public and its
    turn's seed is revealed; each stretch of the others is one ``hidden`` entry with the ``prev``
    of its first roll and the hash of its last, so the chain can still be followed through it."""
    turns = await seeds.all_seeds(session, campaign.id)
    entries = await store_log.roll_entries(session, campaign.id)
    revealed = {s.turn for s in turns if s.revealed}
    marks = {s.chain_head for s in turns if s.revealed and s.chain_head} | {s.reseeded_after for s in turns}
    rolls: list[dict[str, Any]] = []
    hidden: dict[str, Any] | None = None
    for r in entries:
        turn = turn_of_key(r.roll_key or "")
        data = r.data or {}
        if not public or (r.visibility == "public" and turn in revealed):
            hidden = None
            rolls.append({**data, "turn": turn, "undone": r.undone})
            continue
        digest = chain.digest(data)
        if hidden is None:
            hidden = {"kind": HIDDEN, "prev": data.get("prev"), "sha256": digest}
            rolls.append(hidden)
        hidden["sha256"] = digest
        if digest in marks:  # a published head (or a reseed) ends a stretch, so that the verifier finds it
            hidden = None
    return {
        "format": FORMAT,
        "version": VERSION,
        "current_turn": campaign.turn,
        "turns": [{"turn": s.turn, "seed_sha256": s.sha256, "seed": s.seed_hex if s.revealed else None,
                   "chain_head": s.chain_head if s.revealed else None,
                   **({"reseeded_after": s.reseeded_after} if s.reseeded_after else {})} for s in turns],
        "rolls": rolls,
    }


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
