"""The roll log as the verifier reads it (docs/dice.md): every roll with its turn's published hash
and, for ended turns, the revealed seed and chain head; anyone's view hides the rest behind the chain.

Every roll record is logged with ``prev``, the hash of the campaign's roll record before it
(:func:`bot.engine.verify.record_hash`), so that a roll deleted, inserted or changed later breaks
the chain; when a turn ends, the hash of its last roll (the turn's *chain head*) is published with
its seed (:func:`bot.campaign.turn.resolve`, at the end of the turn).
"""

from __future__ import annotations

from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.verify import FORMAT, HIDDEN, OWN_TABLES, VERSION, key_turn

from . import chain, seeds
from . import log as store_log
from .models import Campaign


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
        # The scenario's own weather and events (RU-10), which its rolls are held to (house rules without them).
        **({"tables": own} if (own := {k: v for k, v in (campaign.tables or {}).items() if k in OWN_TABLES}) else {}),
    }
