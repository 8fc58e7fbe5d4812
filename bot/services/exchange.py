"""Export a campaign to one file (state and roll log) and import it back as a new campaign.

The file is JSON. Import is hostile-input safe: size- and depth-limited, every table and field
checked against the models (names, types, ranges, references between keys), every logged message
one of the code's own templates (text is data: nothing from the file is ever used as a template),
the settings' values checked, players kept only when they are members of the importing server, and
channel, thread and role ids of the exporting server dropped; all inside one transaction that is
rolled back on the first problem, whose message names the field.
"""

from __future__ import annotations

import datetime as dt
import json
import types
import typing
from collections.abc import Container
from dataclasses import dataclass
from typing import Any

from sqlmodel import SQLModel, select

from bot.engine.errors import InvalidInput
from bot.engine.tables import default_rulebook
from bot.engine.text import Msg, UnknownMessage
from bot.engine.uploads import UploadProblem, check_plain, load_json
from bot.i18n.text import known_templates
from bot.limits import Limits
from bot.scenario import START_DATE_RANGE
from bot.store.db import Database
from bot.store.dump import EXPORT_TABLES, build_row, dump_tables, table_name
from bot.store.models import Campaign, LogEntry, TurnSeed

from . import export_values
from .actors import Actor, require_gm
from .bookkeeping import BOT_CHOICES, LANGUAGES
from .campaigns import check_new_campaign, check_options
from .errors import ImportRejected
from .loading import get_campaign, turn_dice
from .logbook import log_event, note_reseed, roll_log

FORMAT = "aide-de-camp/campaign"
MAX_IMPORT_BYTES = 20 * 1024 * 1024
MAX_ROWS = 200_000
MAX_INT = 2**63 - 1  # BIGINT: Discord ids are 64-bit snowflakes
MAX_DEPTH = 32
"""How deeply the file's JSON may nest (an export nests about 8 deep)."""
MAX_LOG_TEXT = 4_000
"""A log entry's stored plain text, in characters."""
CAMPAIGN_FIELDS = ("name", "scenario", "options", "language", "climate", "theatre", "start_date", "turn", "phase",
                   "status", "weather", "holdings", "map_width", "map_height", "adjacency", "sight")
CAMPAIGN_DEFAULTS = {"theatre": "other"}
"""Fields an export made before they existed does not carry."""
LOG_FIELDS = ("turn", "phase", "kind", "visibility", "text", "data", "roll_key", "undone", "created_at")


async def export_campaign(db: Database, campaign_id: int, actor: Actor) -> dict[str, Any]:
    """GM: the whole campaign as a JSON-ready dict (use :func:`export_bytes` for the file)."""
    async with db.sessions() as s:
        campaign = await get_campaign(s, campaign_id)
        require_gm(campaign, actor)
        log = (await s.exec(select(LogEntry).where(LogEntry.campaign_id == campaign_id).order_by(LogEntry.id))).all()
        return {
            "format": FORMAT,
            "version": 1,
            "campaign": {k: _plain(getattr(campaign, k)) for k in CAMPAIGN_FIELDS},
            "tables": _without_secret_seeds(await dump_tables(s, campaign_id, EXPORT_TABLES)),
            "log": [{k: _plain(getattr(e, k)) for k in LOG_FIELDS} for e in log],
            "roll_log": await roll_log(s, campaign),
        }


def _without_secret_seeds(tables: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """A turn's seed leaves the bot only once revealed (the GM included): the export keeps its SHA-256."""
    for row in tables.get("turn_seed", []):
        if not row.get("revealed"):
            row["seed_hex"] = None
    return tables


def export_bytes(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8")


def _plain(v: Any) -> Any:
    return v.isoformat() if isinstance(v, dt.date | dt.datetime) else v


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
    if data.get("version") != 1:
        raise ImportRejected("Unsupported export version {get!r}: this bot reads version 1.", get=data.get('version'))
    return data


def _check_options(options: dict[str, Any]) -> None:
    """The campaign's options: rule options with allowed values, and the bot's own bookkeeping."""
    rule_options = {k: v for k, v in options.items() if not k.startswith("_")}
    try:
        check_options(rule_options, default_rulebook())
    except InvalidInput as exc:
        raise ImportRejected("campaign.options: {reason}", reason=exc.text) from None
    bot = options.get("_bot", {})
    if not isinstance(bot, dict):
        raise ImportRejected("campaign.options._bot: expected an object")
    for name, value in bot.items():
        if name == "deadline_version":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_INT:
                raise ImportRejected("campaign.options._bot.deadline_version: expected a whole number")
        elif name not in BOT_CHOICES or value not in BOT_CHOICES[name] or type(value) is not type(BOT_CHOICES[name][0]):
            raise ImportRejected("campaign.options._bot.{name}: not a bot setting with an allowed value",
                                 name=str(name)[:40])
    reminded = options.get("_reminded", [])
    if not isinstance(reminded, list) or len(reminded) > 10 or not all(isinstance(r, str) and len(r) <= 8 for r in reminded):
        raise ImportRejected("campaign.options._reminded: expected a short list of reminder tags")
    if unknown := sorted(k for k in options if k.startswith("_") and k not in ("_bot", "_reminded", "_rev")):
        raise ImportRejected("campaign.options: unknown field(s) {names}", names=", ".join(unknown)[:200])


def _check_log_entry(where: str, entry: dict[str, Any]) -> None:
    """A log entry's text is shown as plain text; its message must be one of the code's own."""
    if len(entry.get("text", "")) > MAX_LOG_TEXT:
        raise ImportRejected("{where}.text: at most {max_chars:,} characters", where=where, max_chars=MAX_LOG_TEXT)
    data = entry.get("data") or {}
    if "msg" in data:
        try:
            Msg.from_json(data["msg"], known=known_templates())
        except UnknownMessage as exc:
            raise ImportRejected("{where}.data.msg: {reason}", where=where, reason=str(exc)[:200]) from None


@dataclass(frozen=True)
class Imported:
    """An imported campaign, and the players of the file who are not members of this server (dropped)."""

    campaign_id: int
    dropped_players: tuple[int, ...] = ()


def player_ids(data: dict[str, Any]) -> tuple[int, ...]:
    """The member ids of the file's players, for the bot to check against the server's members."""
    rows = (data.get("tables") or {}).get("player") if isinstance(data.get("tables"), dict) else None
    ids = [r.get("member_id") for r in rows or () if isinstance(r, dict)]
    return tuple(sorted({i for i in ids if isinstance(i, int) and not isinstance(i, bool) and 0 < i <= MAX_INT}))[:500]


def _field_types(model: type[SQLModel]) -> dict[str, Any]:
    hints = typing.get_type_hints(model)
    return {name: hints[name] for name in model.model_fields if name not in ("id", "campaign_id")}


def _check_value(where: str, value: Any, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _check_value(where, value, inner[0])
    if hint is bool:
        if not isinstance(value, bool):
            raise ImportRejected("{where}: expected true or false, got {value!r}", where=where, value=value)
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_INT:
            raise ImportRejected("{where}: expected a whole number (at most {max_int:,} in size), got {value!r}", where=where, max_int=MAX_INT, value=str(value)[:40])
        return value
    if hint is str:
        if not isinstance(value, str):
            raise ImportRejected("{where}: expected text, got {name}", where=where, name=type(value).__name__)
        return value
    if hint is dt.datetime or hint is dt.date:
        if not isinstance(value, str):
            raise ImportRejected("{where}: expected a date or time, got {value!r}", where=where, value=value)
        try:
            parsed = dt.datetime.fromisoformat(value) if hint is dt.datetime else dt.date.fromisoformat(value)
        except ValueError:
            raise ImportRejected("{where}: {value!r} is not an ISO date or time", where=where, value=value[:40]) from None
        if isinstance(parsed, dt.datetime) and parsed.tzinfo is None:
            raise ImportRejected("{where}: times must carry their time zone", where=where)
        return value
    if origin is dict or hint is dict:
        if not isinstance(value, dict):
            raise ImportRejected("{where}: expected an object, got {name}", where=where, name=type(value).__name__)
        return value
    if origin is list or hint is list:
        if not isinstance(value, list):
            raise ImportRejected("{where}: expected a list, got {name}", where=where, name=type(value).__name__)
        return value
    return value


def _check_row(model: type[SQLModel], where: str, row: Any) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise ImportRejected("{where}: expected an object", where=where)
    fields = _field_types(model)
    if unknown := sorted(set(row) - set(fields)):
        raise ImportRejected("{where}: unknown field(s) {map}", where=where, map=', '.join(map(str, unknown))[:200])
    out = {}
    for name, hint in fields.items():
        if name not in row:
            continue
        out[name] = _check_value(f"{where}.{name}", row[name], hint)
        max_len = _max_length(model, name)
        if max_len and isinstance(out[name], str) and len(out[name]) > max_len:
            raise ImportRejected("{where}.{name}: at most {max_len} characters", where=where, name=name, max_len=max_len)
    return out


def _max_length(model: type[SQLModel], name: str) -> int | None:
    col = model.__table__.columns.get(name)  # type: ignore[attr-defined]
    return getattr(col.type, "length", None) if col is not None else None


async def import_campaign(db: Database, raw: bytes | str | dict[str, Any], *, guild_id: int, channel_id: int,
                          gm: Actor, members: Container[int] | None = None, limits: Limits | None = None) -> Imported:
    """Load an export as a new campaign in ``channel_id`` with ``gm`` as its GM.

    ``members``: the file's players who are members of the importing server (see :func:`player_ids`);
    the others are dropped and named in the result. ``None`` keeps every player (tests, the demo).
    ``limits``: the bot's limits on new campaigns (:mod:`bot.limits`), checked in the same transaction."""
    data = parse_export(raw) if isinstance(raw, bytes | str) else _check_export(_checked_plain(raw))
    camp = data.get("campaign")
    if not isinstance(camp, dict):
        raise ImportRejected("campaign: expected an object")
    camp_fields = _field_types(Campaign)
    checked_campaign = {}
    for k in CAMPAIGN_FIELDS:
        if k not in camp and k not in CAMPAIGN_DEFAULTS:
            raise ImportRejected("campaign.{k}: missing", k=k)
        checked_campaign[k] = _check_value(f"campaign.{k}", camp.get(k, CAMPAIGN_DEFAULTS.get(k)), camp_fields[k])
    export_values.check_campaign(checked_campaign, default_rulebook())
    if checked_campaign["language"] not in LANGUAGES:
        raise ImportRejected("campaign.language: one of {languages}", languages=", ".join(LANGUAGES))
    if checked_campaign["status"] != "active":
        raise ImportRejected("campaign.status: an imported campaign is active")
    start, (earliest, latest) = dt.date.fromisoformat(checked_campaign["start_date"]), START_DATE_RANGE
    if not earliest <= start <= latest:
        raise ImportRejected("campaign.start_date: from {earliest} to {latest}", earliest=earliest.isoformat(),
                             latest=latest.isoformat())
    _check_options(checked_campaign["options"])
    tables_in = data.get("tables")
    if not isinstance(tables_in, dict):
        raise ImportRejected("tables: expected an object")
    models = {table_name(m): m for m in EXPORT_TABLES}
    if unknown := sorted(set(tables_in) - set(models)):
        raise ImportRejected("tables: unknown table(s) {map}", map=', '.join(map(str, unknown))[:200])
    total = 0
    tables: dict[str, list[dict[str, Any]]] = {}
    for name, model in models.items():
        rows = tables_in.get(name, [])
        if not isinstance(rows, list):
            raise ImportRejected("tables.{name}: expected a list", name=name)
        if model is TurnSeed:
            rows = _revealed_seeds(rows, checked_campaign["turn"])
        total += len(rows)
        if total > MAX_ROWS:
            raise ImportRejected("tables: more than {max_rows:,} rows", max_rows=MAX_ROWS)
        tables[name] = [_check_row(model, f"tables.{name}[{i}]", r) for i, r in enumerate(rows)]
    if not tables.get("side"):
        raise ImportRejected("tables.side: a campaign needs its sides")
    refs = export_values.check_tables(checked_campaign, tables)
    log_in = data.get("log", [])
    if not isinstance(log_in, list) or len(log_in) > MAX_ROWS:
        raise ImportRejected("log: expected a list of at most 200,000 entries")
    log_fields = _field_types(LogEntry)
    log_rows = []
    for i, e in enumerate(log_in):
        if not isinstance(e, dict):
            raise ImportRejected("log[{i}]: expected an object", i=i)
        if unknown := sorted(set(e) - set(LOG_FIELDS)):
            raise ImportRejected("log[{i}]: unknown field(s) {map}", i=i, map=', '.join(map(str, unknown))[:200])
        log_rows.append({k: _check_value(f"log[{i}].{k}", e[k], log_fields[k]) for k in LOG_FIELDS if k in e})
        _check_log_entry(f"log[{i}]", log_rows[-1])
    export_values.check_log(log_rows, tables.get("turn_seed", []), refs)
    # Ids of the exporting server's channels, threads and roles mean nothing here (and must not be
    # used to post there); players who are not members of this server are dropped.
    for row in tables.get("side", []):
        row.pop("channel_id", None)
    for row in tables.get("battle", []):
        row.pop("thread_id", None)
    # Fair play: the current turn's dice come from a fresh secret seed (the file holds none, and one it
    # held could be the importer's choice), so what was declared with the old one is declared again.
    turn, phase = checked_campaign["turn"], checked_campaign["phase"]
    redeclare = sum(1 for r in tables.get("declaration", []) if (r.get("turn"), r.get("phase")) == (turn, phase))
    tables["declaration"] = [r for r in tables.get("declaration", []) if (r.get("turn"), r.get("phase")) != (turn, phase)]
    dropped: tuple[int, ...] = ()
    if members is not None:
        dropped = tuple(sorted({r["member_id"] for r in tables.get("player", []) if r.get("member_id") not in members}))
        tables["player"] = [r for r in tables.get("player", []) if r.get("member_id") in members]

    async with db.transaction() as s:
        existing = (await s.exec(select(Campaign).where(Campaign.channel_id == channel_id, Campaign.status == "active"))).first()
        if existing is not None:
            raise ImportRejected("This channel already runs the campaign {name!r}: end it first.", name=existing.name)
        await check_new_campaign(s, guild_id=guild_id, member_id=gm.member_id, limits=limits)
        values = dict(checked_campaign)
        values["start_date"] = dt.date.fromisoformat(values["start_date"])
        campaign = Campaign(guild_id=guild_id, channel_id=channel_id, gm_id=gm.member_id, **values)
        s.add(campaign)
        await s.flush()
        assert campaign.id is not None
        for model in EXPORT_TABLES:
            for row in tables.get(table_name(model), []):
                s.add(build_row(model, campaign.id, row))
        for row in log_rows:
            s.add(build_row(LogEntry, campaign.id, row))
        await s.flush()
        await log_event(s, campaign, Msg("Campaign imported from an export by the GM, at turn {turn}.", turn=turn),
                        kind="gm")
        await turn_dice(s, campaign)  # a fresh secret seed for this turn; its SHA-256 is logged publicly
        await note_reseed(s, campaign)  # this turn's rolls so far were made with the seed it replaces
        await log_event(s, campaign, Msg.plural(
            redeclare,
            "The dice of turn {turn} are drawn anew from a fresh secret seed: rolls of turn {turn} made before the "
            "export cannot be verified, and the order or move declared in this phase ({n}) is to be given again.",
            "The dice of turn {turn} are drawn anew from a fresh secret seed: rolls of turn {turn} made before the "
            "export cannot be verified, and the orders or moves declared in this phase ({n}) are to be given again.",
            turn=turn))
        return Imported(campaign.id, dropped)


def _revealed_seeds(rows: list[Any], turn: int) -> list[Any]:
    """The turn seeds an import keeps: the revealed ones, of ended turns only. An export holds no
    unrevealed seed (the current turn's is drawn anew); an ended turn's must be revealed."""
    kept = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ImportRejected("tables.turn_seed[{i}]: expected an object", i=i)
        seed_turn = row.get("turn")
        if row.get("revealed") is True:
            if not (isinstance(seed_turn, int) and 1 <= seed_turn < turn):
                raise ImportRejected("tables.turn_seed[{i}]: only the seeds of ended turns are revealed", i=i)
            kept.append(row)
        elif isinstance(seed_turn, int) and seed_turn < turn:
            raise ImportRejected("tables.turn_seed[{i}]: turn {seed_turn} has ended, so its seed must be revealed",
                                 i=i, seed_turn=seed_turn)
    return kept
