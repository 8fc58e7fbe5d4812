"""Whole campaigns played by bot generals through the services (issue 25 item 3; RU-25, RU-26, RU-27): the
harness the tests (:mod:`.test_whole_campaigns`), ``scripts/properties`` and ``bench/general.py`` share.

Every side is left to the general (``unmanned_sides: ai``) and every battle is settled by the bot
(``battles: quick``): no scripted reporter, nothing but the GM resolving phases that wait for nobody. A
phase the generals leave awaited, an action the core refused a general, or a campaign not ended within
:data:`TURNS` turns is a :class:`Stuck`; an exception simply propagates.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from typing import Any

from bot.campaign.state import CampaignState, CampaignStatus
from bot.generate import SIDE_KEYS, Params, generate_scenario
from bot.scenario import Scenario, load_bundled, parse_scenario
from bot.services import campaigns, loading, logbook, resolution, shell, views
from bot.services.actors import Actor
from bot.store.db import Database

TURNS = 60
"""RU-25 within this many turns."""

GM = Actor(1, name="GM")


class Stuck(AssertionError):
    """A whole campaign that did not play to its end as it should."""


@dataclass(frozen=True)
class Played:
    """A campaign played to its end."""

    campaign_id: int
    state: CampaignState
    turns: int
    battles: int
    refused: tuple[str, ...]


def generated(sides: int, seed: int, *, size: tuple[int, int] = (24, 18)) -> Scenario:
    """A generated map (MC-0) of ``sides`` sides; from 3 sides on, the first two are allies (RU-19), and
    from 4 on, the last two as well: every campaign has at least two camps."""
    keys = SIDE_KEYS[:sides]
    alliances: tuple[tuple[str, ...], ...] = ()
    if sides >= 3:
        alliances = ((keys[0], keys[1]),) + (((keys[2], keys[3]),) if sides >= 4 else ())
    return parse_scenario(generate_scenario(Params(width=size[0], height=size[1], sides=sides,
                                                   alliances=alliances, seed=seed)))


def seeded(label: str) -> None:
    """The campaigns' seeds from ``label`` (the same label, the same campaign)."""
    counter = itertools.count(1)
    loading.use_seed_source(lambda: hashlib.sha256(f"{label}/{next(counter)}".encode()).digest())


async def create(db: Database, scenario: str | Scenario, *, options: dict[str, Any] | None = None,
                 language: str = "en", channel: int = 1) -> int:
    spec = load_bundled(scenario) if isinstance(scenario, str) else scenario
    opts = {"unmanned_sides": "ai", "battles": "quick", **(options or {})}
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=channel, gm=GM, name="Generals",
                                              spec=spec, options=opts, language=language)
    return created.campaign_id


async def play_out(db: Database, cid: int, *, turns: int = TURNS, strict: bool = True) -> Played:
    """Resolve phase after phase as the GM, never forcing one, until the campaign ends (RU-25).

    ``strict``: raise :class:`Stuck` on a phase still awaited, a refusal, or no end within ``turns``."""
    refused: list[str] = []
    while True:
        sv = await views.status(db, cid, GM)
        if sv.status != "active" or sv.position.turn > turns:
            break
        if sv.waiting and strict:
            raise Stuck(f"stuck at {sv.position}: waiting for {[w.who for w in sv.waiting]}")
        res = await resolution.resolve_phase(db, cid, GM, expected_version=sv.version, forced=not strict)
        refused += [f"turn {sv.position.turn}: {r}" for a in res.generals for r in a.refused]
    state = await shell.state(db, cid)
    played = Played(cid, state, state.turn, len(state.battles), tuple(refused))
    if strict and refused:
        raise Stuck("the core refused the general: " + "; ".join(refused[:5]))
    if strict and state.status is not CampaignStatus.ENDED:
        raise Stuck(f"still running after {turns} turns")
    return played


async def journal_texts(db: Database, cid: int) -> list[Any]:
    """Every log entry as members read it (a Msg where written as one), undone ones too."""
    entries, _ = await logbook.full_record(db, cid)
    return [logbook.entry_text(e) for e in entries]
