"""Campaign lifecycle: create from a scenario, join a side (or ask the GM to), GM assignments, settings,
end (the rules of all but the creation: :mod:`bot.campaign.lifecycle`)."""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign import lifecycle
from bot.campaign.events import Journal
from bot.campaign.general import act_all
from bot.campaign.new import campaign_name, from_scenario
from bot.campaign.seats import Seat
from bot.campaign.state import CampaignState, JoinRequest, SideState
from bot.engine.errors import InvalidInput
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.i18n import names as local_names
from bot.limits import (  # noqa: F401 (LimitReached, Usage, check_upload_size: the cog's and the tests')
    DAY_HOURS,
    LimitReached,
    Limits,
    Usage,
    check_upload_size,
    refuse_over,
)
from bot.scenario import Scenario, load_bundled, parse_scenario_text
from bot.store import campaigns as rows
from bot.store import importing
from bot.store.db import Database
from bot.store.log import log_event
from bot.store.models import utcnow
from bot.store.repository import remember_map

from . import general, shell
from .actors import Actor
from .budget import quietly
from .loading import campaign_in_channel, turn_seed


@dataclass(frozen=True)
class Created:
    campaign_id: int
    name: str
    scenario: str
    sides: tuple[tuple[str, str], ...]
    seed_sha256: str


async def check_new_campaign(s: AsyncSession, *, guild_id: int, member_id: int, limits: Limits | None,
                             now: dt.datetime | None = None) -> None:
    """Refuse a new campaign (created or imported) in ``guild_id`` by ``member_id`` over the bot's
    limits. Call it inside the transaction that inserts the campaign, before the insert: it holds the
    server's and the member's lock until that transaction ends. No ``limits``: no check (the demo,
    the benchmarks and the tests; the bot passes ``bot.settings.limits``)."""
    if limits is None:
        return
    await rows.serialise_new_campaigns(s, guild_id, member_id)
    now = now or utcnow()
    counts = await rows.quota_counts(s, guild_id=guild_id, member_id=member_id,
                                     since=now - dt.timedelta(hours=DAY_HOURS))
    refuse_over(counts, limits, now)


async def usage(db: Database, *, guild_id: int, member_id: int, now: dt.datetime | None = None) -> Usage:
    """What counts against the limits now (shown with them in /campaign settings)."""
    now = now or utcnow()
    async with db.sessions() as s:
        counts = await rows.quota_counts(s, guild_id=guild_id, member_id=member_id,
                                         since=now - dt.timedelta(hours=DAY_HOURS))
    return Usage(counts.active_in_server, counts.gm_active, len(counts.created_since))


async def create_campaign(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    gm: Actor,
    name: str,
    scenario: str | None = None,
    scenario_text: str | bytes | None = None,
    spec: Scenario | None = None,
    options: dict[str, Any] | None = None,
    rules: RuleBook | None = None,
    limits: Limits | None = None,
    now: dt.datetime | None = None,
    language: str = "en",
) -> Created:
    """A new campaign bound to a channel, from a bundled scenario or an uploaded YAML (or ``spec``,
    the scenario the caller already parsed off the event loop).

    ``limits`` (the bot passes ``bot.settings.limits``) refuses a scenario over the size limit and
    a campaign over the server's or the member's limits (:func:`check_new_campaign`); ``now`` is
    the creation time (default: the clock); ``language`` the campaign's, in which its public posts are
    written (the GM's own at creation; ``/campaign settings language`` changes it)."""
    rules = rules or default_rulebook()
    name = campaign_name(name)
    now = now or utcnow()
    if spec is None and scenario_text is not None:
        size = len(scenario_text.encode("utf-8") if isinstance(scenario_text, str) else scenario_text)
        check_upload_size(size, limits, kind="scenario")
        spec = await asyncio.to_thread(quietly, parse_scenario_text, scenario_text, key=scenario or "uploaded")  # CPU
    elif spec is None and scenario:
        spec = load_bundled(scenario)
    elif spec is None:
        raise InvalidInput("Choose a bundled scenario or upload a scenario file.")
    # The core builds the new campaign's state (the map's adjacency, RU-11, then the scenario's and the
    # GM's options, each checked); the repository writes it as every save does (issue 22, item 1). Pure CPU
    # (every square and place of a 100x100 map): off the loop (issue 24, item 6).
    state = await asyncio.to_thread(from_scenario, spec, campaign_id=0, name=name, gm_id=gm.member_id,
                                    options=options, rules=rules)
    async with db.transaction() as s:
        await check_new_campaign(s, guild_id=guild_id, member_id=gm.member_id, limits=limits, now=now)
        existing = await rows.campaign_in_channel(s, channel_id)
        if existing is not None:
            raise InvalidInput(
                "This channel already runs the campaign {name!r}: end it first, or use another channel.", name=existing.name
            )
        saved = await importing.insert_new(s, state, guild_id=guild_id, channel_id=channel_id, scenario=spec.key,
                                           language=language, created_at=now)
        campaign = saved.campaign
        local_names.remember(campaign.id or 0, campaign.names or {})  # said in each reader's language (issue 23)
        await log_event(s, campaign, Msg("Campaign {name!r} created from scenario {scenario!r} by the GM.", name=name,
                                         scenario=spec.name))
        seed = await turn_seed(s, campaign)  # draws turn 1's seed and logs its hash
        created = Created(campaign.id or 0, name, spec.name, tuple((sd.key, sd.name) for sd in spec.sides), seed.sha256)
    # Committed: the map just written is the state's, so nobody needs to read it back.
    remember_map(created.campaign_id, saved.state.map)
    return created


async def campaign_of_channel(db: Database, channel_id: int) -> int:
    """The id of the active campaign bound to a channel (NotFound says how to start one)."""
    async with db.sessions() as s:
        return (await campaign_in_channel(s, channel_id)).id or 0


async def join_side(db: Database, campaign_id: int, actor: Actor, side: str) -> lifecycle.Joining:
    """Join a side, or ask the GM to when the campaign requires approval (``pending``). A member plays
    one side per campaign."""
    return await shell.write(db, campaign_id, lambda state, journal: lifecycle.join(
        state, actor, actor.name, side, journal))


async def approve_request(db: Database, campaign_id: int, gm: Actor, member_id: int) -> SideState:
    """GM: the member's request to join is granted; the side they now play."""
    return await shell.write(db, campaign_id, lambda state, journal: lifecycle.approve_request(
        state, gm, member_id, journal))


async def refuse_request(db: Database, campaign_id: int, gm: Actor, member_id: int) -> SideState:
    """GM: the member's request to join is refused; the side asked for."""
    return await shell.write(db, campaign_id, lambda state, journal: lifecycle.refuse_request(
        state, gm, member_id, journal))


async def withdraw_request(db: Database, campaign_id: int, actor: Actor) -> SideState:
    """The member takes back their request to join; the side it was for."""
    return await shell.write(db, campaign_id, lambda state, journal: lifecycle.withdraw_request(
        state, actor, journal))


async def join_requests(db: Database, campaign_id: int) -> list[tuple[JoinRequest, str]]:
    """The requests to join that wait for the GM, each with the name of the side asked for."""
    st = await shell.state(db, campaign_id)
    return [(r, st.sides[r.side].name) for r in st.requests.values()]


async def assign(db: Database, campaign_id: int, gm: Actor, member_id: int, side: str, *,
                 member_name: str = "") -> SideState:
    """GM: put a member on a side (moving them if they played another)."""
    return await shell.write(db, campaign_id, lambda state, journal: lifecycle.assign(
        state, gm, member_id, side, journal, member_name=member_name))


async def change_setting(db: Database, campaign_id: int, gm: Actor, name: str, value: Any,
                         *, rules: RuleBook | None = None) -> dict[str, Any]:
    """GM: change one campaign option (validated against the rules' choices)."""
    def step(state: CampaignState, journal: Journal) -> tuple[CampaignState, dict[str, Any]]:
        state, merged = lifecycle.change_setting(state, gm, name, value, journal, rules or default_rulebook())
        # RU-26: a general seated by the setting acts at once in the current phase
        state, _ = act_all(state, journal, shell.context(rules), report_battle=general.reporter())
        return state, merged
    return await shell.write(db, campaign_id, step, offload=True)


async def end_campaign(db: Database, campaign_id: int, gm: Actor) -> None:
    """GM: archive the campaign (kept, never deleted)."""
    await shell.write(db, campaign_id, lambda state, journal: (lifecycle.end_campaign(state, gm, journal), None))


async def seat_general(db: Database, campaign_id: int, gm: Actor, side: str, on: bool, *,
                       rules: RuleBook | None = None) -> str:
    """GM: give a side to the bot general, or take it back (RU-26); seated, it acts at once in the current
    phase. Returns the side's name."""
    def step(state: CampaignState, journal: Journal) -> tuple[CampaignState, str]:
        state, name = lifecycle.seat_general(state, gm, side, Seat.BOT if on else Seat.OFF, journal)
        state, _ = act_all(state, journal, shell.context(rules), report_battle=general.reporter())
        return state, name
    return await shell.write(db, campaign_id, step, offload=True)
