"""Export a campaign to one file (its state, its log and roll log) and import it back as a new campaign.

The file is JSON: ``{"format": "aide-de-camp/campaign", "version": 2, "campaign": {name, scenario,
language}, "state": ..., "log": [...], "roll_log": {...}}``; the state as :mod:`bot.campaign.codec`
writes it, never with the seed of a turn not yet ended. Version 1 files (the rows) import too.

Import is hostile-input safe: size- and depth-limited, clean characters only, then every value of the
state checked by the codec (enums, keys, squares on the map, ranges, references, names, camps, seeds)
and every logged message one of the code's own templates, every roll re-derived from its turn's seed;
the bot's settings checked; players kept only when they are members of the importing server; the ids
of the exporting server's channels, threads and roles never read. The current turn's dice come from a
fresh seed, announced publicly. All in one transaction; a refusal names the field.

:func:`save_scenario` is the other way out: the campaign's map and Forces as they stand, as a scenario
file (YAML, docs/scenario-format.md) to start another campaign from (:mod:`bot.campaign.save`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import Counter
from collections.abc import Container
from dataclasses import dataclass, replace
from typing import Any

from bot.campaign import botsettings, codec, exports, save
from bot.campaign.botsettings import Book
from bot.campaign.dice import turn_dice
from bot.campaign.events import EventKind, side_visibility
from bot.campaign.exports import (  # noqa: F401 (the cog's and the tests')
    GZIP_MAGIC,
    MAX_IMPORT_BYTES,
    export_bytes,
    packed,
    parse_export,
    player_ids,
)
from bot.campaign.state import CampaignState
from bot.engine.errors import InvalidInput
from bot.engine.phases import Phase
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.i18n.text import tr
from bot.limits import Limits
from bot.scenario import parse_scenario_text
from bot.store import campaigns as store_campaigns
from bot.store import importing, repository
from bot.store.bookkeeping import change_book, read_book
from bot.store.db import Database
from bot.store.rolllog import roll_log

from . import readcache, shell
from .actors import Actor, require_gm
from .budget import quietly
from .campaigns import check_new_campaign
from .errors import ImportRejected
from .loading import get_campaign

FORMAT, VERSION = exports.FORMAT, exports.VERSION


@dataclass(frozen=True)
class Imported:
    """An imported campaign, and the players of the file who are not members of this server (dropped)."""

    campaign_id: int
    dropped_players: tuple[int, ...] = ()


async def export_campaign(db: Database, campaign_id: int, actor: Actor) -> dict[str, Any]:
    """GM: the whole campaign as a JSON-ready dict (use :func:`export_bytes` for the file)."""
    async with db.sessions() as s:
        campaign = await get_campaign(s, campaign_id)
        require_gm(campaign, actor)
        state = (await repository.load(s, campaign)).state
        book = await read_book(s, campaign_id)
        return {
            "format": FORMAT, "version": VERSION,
            "campaign": {"name": campaign.name, "scenario": campaign.scenario, "language": campaign.language,
                         "deadline": _utc(book.deadline).isoformat() if book.deadline else None,
                         "bot": book.exported()},
            "state": codec.encode(state),
            "log": await importing.log_entries(s, campaign_id),
            "roll_log": await roll_log(s, campaign),
        }


async def import_campaign(db: Database, raw: bytes | str | dict[str, Any], *, guild_id: int, channel_id: int,
                          gm: Actor, members: Container[int] | None = None, limits: Limits | None = None) -> Imported:
    """Load an export as a new campaign in ``channel_id`` with ``gm`` as its GM.

    ``members``: the file's players who are members of the importing server (see :func:`player_ids`);
    the others are dropped and named in the result. ``None`` keeps every player (tests, the demo).
    ``limits``: the bot's limits on new campaigns (:mod:`bot.limits`), checked in the same transaction."""
    if isinstance(raw, bytes | str):
        data = await asyncio.to_thread(quietly, parse_export, raw)  # CPU-bound: off the event loop
    else:  # checked again (a caller's dict): every key and text of a 4 MB export, off the loop too
        data = await asyncio.to_thread(quietly, _checked, raw)
    file = await asyncio.to_thread(quietly, exports.read, data)
    state = file.state
    # Fair play: the current turn's dice come from a fresh secret seed (the file holds none, and one it
    # held could be the importer's choice), so what was declared with the old one is declared again.
    redeclare = Counter(d.side for d in state.declarations if d.phase is state.phase)
    players = dict(state.players)
    dropped: tuple[int, ...] = ()
    if members is not None:
        dropped = tuple(sorted(m for m in players if m not in members))
        players = {m: side for m, side in players.items() if m in members}
    # The exporting server's GM role means nothing here; the importer is the GM.
    requests = {m: r for m, r in state.requests.items() if members is None or m in members}
    state = state.evolve(gm_id=gm.member_id, gm_role_id=None, players=players, requests=requests,
                         declarations=tuple(d for d in state.declarations if d.phase is not state.phase))

    async with db.transaction() as s:
        existing = await store_campaigns.campaign_in_channel(s, channel_id)
        if existing is not None:
            raise ImportRejected("This channel already runs the campaign {name!r}: end it first.", name=existing.name)
        await check_new_campaign(s, guild_id=guild_id, member_id=gm.member_id, limits=limits)
        loaded = await importing.insert_new(s, state, guild_id=guild_id, channel_id=channel_id,
                                            scenario=file.scenario, language=file.language, log=file.log,
                                            book=Book(settings=file.bot))
        journal = await loaded.journal()
        state = loaded.state
        journal.say(state, Msg("Campaign imported from an export by the GM, at turn {turn}.", turn=state.turn),
                    kind=EventKind.GM)
        state, _ = turn_dice(state, journal, shell.context())  # a fresh secret seed; its SHA-256 is logged publicly
        seed = state.seed()
        assert seed is not None
        # This turn's rolls so far were made with the seed it replaces: marked by the chain's end.
        state = state.with_seed(replace(seed, reseeded_after=journal.chain_end))
        # Publicly no count (the channel never counts what a side did); each side concerned is told
        # privately how many of its declarations to give again (issue 24, item 8).
        journal.say(state, Msg(
            "The dice of turn {turn} are drawn anew from a fresh secret seed: rolls of turn {turn} made before the "
            "export cannot be verified, and what was declared in this phase is to be given again.", turn=state.turn))
        for side, n in sorted(redeclare.items()):
            if side in state.sides:
                journal.say(state, Msg.plural(
                    n, "Your side's order or move declared in this phase before the export ({n}) is to be given again.",
                    "Your side's orders or moves declared in this phase before the export ({n}) are to be given again."),
                    visibility=side_visibility(side))
        saved = await repository.save(s, loaded, state, journal.events)
        now = dt.datetime.now(dt.UTC)
        version = saved.campaign.version
        await change_book(s, saved.state.id, lambda b: _imported_deadline(b, saved.state, file.deadline, now, version))
    repository.remember_map(saved.state.id, saved.state.map)
    return Imported(saved.state.id, dropped)


def _checked(raw: dict[str, Any]) -> dict[str, Any]:
    return exports.check_export(exports.checked_plain(raw))


def _utc(value: dt.datetime) -> dt.datetime:
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


def _imported_deadline(book: Book, state: CampaignState, exported: dt.datetime | None,
                       now: dt.datetime, version: int) -> Book:
    """The imported phase's deadline, so that its reminders go (issue 24, item 8): the exported one while
    it is still ahead (and within the longest deadline), else the campaign's default one for a phase."""
    if exported is not None and now < exported <= now + dt.timedelta(hours=botsettings.MAX_DEADLINE_HOURS):
        return book.with_deadline(exported, now=now, version=version)
    return book.next_phase(state.phase is not Phase.WEATHER, now=now, version=version)


async def save_scenario(db: Database, campaign_id: int, actor: Actor, *,
                        rules: RuleBook | None = None) -> tuple[str, bytes]:
    """GM: the campaign's map and Forces as they stand now, as a scenario file to start another campaign
    from: (file name, UTF-8 YAML). The full state, hidden Forces included (a GM's download); its
    description, in the campaign's language, names the campaign and the turn. The file is read back
    by the scenario parser before it is handed over; refused, naming the Forces, when some stand where a
    scenario cannot start them (enemies on one square, a Force on water: :mod:`bot.campaign.save`)."""
    cr = await readcache.read(db, campaign_id)
    state = cr.state
    require_gm(state, actor)
    rules = rules or default_rulebook()
    description = tr(cr.campaign.language or "en", save.saved_description(state, rules=rules))
    text = await asyncio.to_thread(_saved_yaml, state, description, rules)
    return f"campaign-{campaign_id}-turn-{state.turn}.yaml", text.encode("utf-8")


def _saved_yaml(state: CampaignState, description: str, rules: RuleBook) -> str:
    """The scenario file, proved readable by the parser (CPU-bound: off the event loop)."""
    text = save.scenario_yaml(state, description=description, rules=rules)
    try:
        parse_scenario_text(text, key="saved")
    except InvalidInput as exc:
        raise InvalidInput("The campaign cannot be saved as a scenario: {problem}", problem=exc.text) from None
    return text
