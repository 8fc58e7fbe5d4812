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
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Container, Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.campaign import codec
from bot.campaign.dice import turn_dice
from bot.campaign.events import EventKind
from bot.campaign.state import CampaignState, CampaignStatus
from bot.engine.errors import InvalidInput
from bot.engine.text import Msg
from bot.engine.uploads import UploadProblem, check_plain, load_json
from bot.limits import Limits
from bot.store import campaigns as store_campaigns
from bot.store import importing, repository
from bot.store.db import Database

from . import shell
from .actors import Actor, require_gm
from .bookkeeping import BOT_CHOICES, LANGUAGES
from .campaigns import check_new_campaign
from .errors import ImportRejected
from .loading import get_campaign
from .logbook import roll_log

FORMAT = codec.FORMAT
VERSION = codec.VERSION
MAX_IMPORT_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 32
"""How deeply the file's JSON may nest (an export nests about 10 deep)."""
TOP = ("format", "version", "campaign", "state", "log", "roll_log")
BOOKKEEPING = ("name", "scenario", "language")


async def export_campaign(db: Database, campaign_id: int, actor: Actor) -> dict[str, Any]:
    """GM: the whole campaign as a JSON-ready dict (use :func:`export_bytes` for the file)."""
    async with db.sessions() as s:
        campaign = await get_campaign(s, campaign_id)
        require_gm(campaign, actor)
        state = (await repository.load(s, campaign)).state
        return {
            "format": FORMAT, "version": VERSION,
            "campaign": {"name": campaign.name, "scenario": campaign.scenario, "language": campaign.language},
            "state": codec.encode(state),
            "log": await importing.log_entries(s, campaign_id),
            "roll_log": await roll_log(s, campaign),
        }


def export_bytes(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8")


# --- import ---------------------------------------------------------------------------------


def parse_export(raw: bytes | str) -> dict[str, Any]:
    """The export's JSON: at most :data:`MAX_DEPTH` deep, with clean characters only (no NUL, no lone
    surrogate, no control character: checked before anything is stored)."""
    if len(raw) > MAX_IMPORT_BYTES:
        raise ImportRejected("The file is {n_raw:,} bytes: at most {max_import_bytes:,} can be imported.", n_raw=len(raw), max_import_bytes=MAX_IMPORT_BYTES)
    try:
        data = load_json(raw.decode("utf-8") if isinstance(raw, bytes) else raw, max_depth=MAX_DEPTH)
    except (ValueError, UnicodeDecodeError) as exc:
        if isinstance(exc, UploadProblem):
            raise ImportRejected("{field}: {what}", field=exc.field or "(top)", what=exc.what) from None
        raise ImportRejected("The file is not a campaign export (not JSON: {exc}).", exc=str(exc)[:200]) from None
    return _check_export(data)


def _checked_plain(data: Any) -> Any:
    """Data an export was read into by the caller: at most :data:`MAX_DEPTH` deep, clean characters
    (what :func:`parse_export` checks while it reads)."""
    try:
        check_plain(data, max_depth=MAX_DEPTH)
    except UploadProblem as exc:
        raise ImportRejected("{field}: {what}", field=exc.field or "(top)", what=exc.what) from None
    return data


def _check_export(data: Any) -> dict[str, Any]:
    """The export's format and version."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRejected("The file is not a campaign export: \"format\" must be \"{format}\".", format=FORMAT)
    version = data.get("version")
    if version not in (1, VERSION) or isinstance(version, bool):
        raise ImportRejected("Unsupported export version {get!r}: this bot reads versions 1 and 2.",
                             get=version if isinstance(version, int) else str(version)[:40])
    return data


@dataclass(frozen=True)
class Imported:
    """An imported campaign, and the players of the file who are not members of this server (dropped)."""

    campaign_id: int
    dropped_players: tuple[int, ...] = ()


def player_ids(data: dict[str, Any]) -> tuple[int, ...]:
    """The member ids of the file's players, for the bot to check against the server's members."""
    if data.get("version") == 1:
        tables = data.get("tables")
        rows, field = (tables.get("player") if isinstance(tables, dict) else None), "member_id"
    else:
        state = data.get("state")
        rows, field = (state.get("players") if isinstance(state, dict) else None), "member"
    ids = [r.get(field) for r in rows or () if isinstance(r, dict)] if isinstance(rows, list) else []
    return tuple(sorted({i for i in ids if isinstance(i, int) and not isinstance(i, bool) and 0 < i <= codec.MAX_INT}))[:500]


@dataclass(frozen=True)
class _File:
    """What an import reads of a file: the state, the log, and the campaign row's bookkeeping."""

    state: CampaignState
    log: list[dict[str, Any]]
    scenario: str
    language: str


def _read(data: dict[str, Any]) -> _File:
    """The file's state and log through the codec, and the bot's own settings and bookkeeping; CPU-bound
    (a large campaign takes a fraction of a second): run off the event loop."""
    v1 = data.get("version") == 1
    if not v1 and (unknown := sorted(str(k) for k in data if k not in TOP)):
        raise ImportRejected("{where}: unknown field(s) {map}", where="(top)", map=", ".join(unknown)[:200])
    try:
        state = codec.decode(data)
        log = codec.decode_log(data.get("log", []), state)
        book = data.get("campaign")
        if not v1:
            codec.expect_object(book, "campaign", BOOKKEEPING)
            codec.expect_text(book["name"], "campaign.name", 100)  # shown on the verifier's page
        scenario = codec.expect_text(book.get("scenario"), "campaign.scenario", 100)
        language = codec.expect_one_of(book.get("language"), "campaign.language", LANGUAGES)
    except InvalidInput as exc:
        raise ImportRejected(exc.text) from None  # i18n: passes a template on
    options = "campaign.options" if v1 else "state.options"
    _check_bot_settings(state.options.get("_bot", {}), f"{options}._bot")
    if state.status is not CampaignStatus.ACTIVE:
        raise ImportRejected("{where}: an imported campaign is active", where="campaign.status" if v1 else "state.status")
    return _File(state, log, scenario, language)


def _check_bot_settings(bot: Mapping[str, Any], where: str) -> None:
    """The bot's own settings kept with the options (:mod:`.bookkeeping`): known ones, allowed values."""
    for name, value in bot.items():
        if name == "deadline_version":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ImportRejected("{where}: expected a whole number (at most {max_int:,} in size), got {value!r}",
                                     where=f"{where}.{name}", max_int=codec.MAX_INT, value=str(value)[:40])
        elif name not in BOT_CHOICES or value not in BOT_CHOICES[name] or type(value) is not type(BOT_CHOICES[name][0]):
            raise ImportRejected("{where}: not a bot setting with an allowed value", where=f"{where}.{name}")


async def import_campaign(db: Database, raw: bytes | str | dict[str, Any], *, guild_id: int, channel_id: int,
                          gm: Actor, members: Container[int] | None = None, limits: Limits | None = None) -> Imported:
    """Load an export as a new campaign in ``channel_id`` with ``gm`` as its GM.

    ``members``: the file's players who are members of the importing server (see :func:`player_ids`);
    the others are dropped and named in the result. ``None`` keeps every player (tests, the demo).
    ``limits``: the bot's limits on new campaigns (:mod:`bot.limits`), checked in the same transaction."""
    data = parse_export(raw) if isinstance(raw, bytes | str) else _check_export(_checked_plain(raw))
    file = await asyncio.to_thread(_read, data)
    state = file.state
    # Fair play: the current turn's dice come from a fresh secret seed (the file holds none, and one it
    # held could be the importer's choice), so what was declared with the old one is declared again.
    redeclare = sum(1 for d in state.declarations if d.phase is state.phase)
    players = dict(state.players)
    dropped: tuple[int, ...] = ()
    if members is not None:
        dropped = tuple(sorted(m for m in players if m not in members))
        players = {m: side for m, side in players.items() if m in members}
    # The exporting server's GM role means nothing here; the importer is the GM.
    state = state.evolve(gm_id=gm.member_id, gm_role_id=None, players=players,
                         declarations=tuple(d for d in state.declarations if d.phase is not state.phase))

    async with db.transaction() as s:
        existing = await store_campaigns.campaign_in_channel(s, channel_id)
        if existing is not None:
            raise ImportRejected("This channel already runs the campaign {name!r}: end it first.", name=existing.name)
        await check_new_campaign(s, guild_id=guild_id, member_id=gm.member_id, limits=limits)
        loaded = await importing.insert_new(s, state, guild_id=guild_id, channel_id=channel_id,
                                            scenario=file.scenario, language=file.language, log=file.log)
        journal = await loaded.journal()
        state = loaded.state
        journal.say(state, Msg("Campaign imported from an export by the GM, at turn {turn}.", turn=state.turn),
                    kind=EventKind.GM)
        state, _ = turn_dice(state, journal, shell.context())  # a fresh secret seed; its SHA-256 is logged publicly
        seed = state.seed()
        assert seed is not None
        # This turn's rolls so far were made with the seed it replaces: marked by the chain's end.
        state = state.with_seed(replace(seed, reseeded_after=journal.chain_end))
        journal.say(state, Msg.plural(
            redeclare,
            "The dice of turn {turn} are drawn anew from a fresh secret seed: rolls of turn {turn} made before the "
            "export cannot be verified, and the order or move declared in this phase ({n}) is to be given again.",
            "The dice of turn {turn} are drawn anew from a fresh secret seed: rolls of turn {turn} made before the "
            "export cannot be verified, and the orders or moves declared in this phase ({n}) are to be given again.",
            turn=state.turn))
        saved = await repository.save(s, loaded, state, journal.events)
    repository.remember_map(saved.state.id, saved.state.map)
    return Imported(saved.state.id, dropped)
