"""The campaign export file, read: its JSON at most :data:`MAX_DEPTH` deep with clean characters
only, its format and version, its state and log through the codec, and the bot's own settings and
bookkeeping. Pure (CPU-bound for a large file: the bot runs :func:`read` off the event loop); every
refusal is an :class:`~bot.campaign.errors.ImportRejected` that names the field.

The file is JSON: ``{"format": "aide-de-camp/campaign", "version": 3, "campaign": {name, scenario,
language}, "state": ..., "log": [...], "roll_log": {...}}``; the state as :mod:`bot.campaign.codec`
writes it. Version 2 files are read too (their state is a document of version 2), and version 1 files
(the rows).
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import zlib
from dataclasses import dataclass, field
from typing import Any

from bot.engine.errors import InvalidInput
from bot.engine.uploads import UploadProblem, check_plain, load_json

from . import botsettings, codec
from .errors import ImportRejected
from .state import CampaignState, CampaignStatus

FORMAT = codec.FORMAT
VERSION = codec.VERSION
MAX_IMPORT_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 32
"""How deeply the file's JSON may nest (an export nests about 10 deep)."""
TOP = ("format", "version", "campaign", "state", "log", "roll_log")
BOOKKEEPING = ("name", "scenario", "language", "deadline", "bot")
BOOKKEEPING_OPTIONAL = ("deadline", "bot")
"""An export made before it carried the phase's deadline has none: the import gives a default one. One
made before the campaign's book (issue 22, item 1) carries the bot settings in ``state.options._bot``."""


def export_bytes(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8")


GZIP_MAGIC = b"\x1f\x8b"


def packed(data: dict[str, Any]) -> bytes:
    """The export as gzip-compressed JSON (issue 24, item 4): the largest legal campaign's export is
    about 4 MB of JSON, a tenth of that packed, so that it always comes back under the import limit."""
    return gzip.compress(export_bytes(data), compresslevel=9, mtime=0)


def unpacked(raw: bytes) -> bytes:
    """A gzip-compressed export's JSON, read up to :data:`MAX_IMPORT_BYTES` and no further (a small file
    that unpacks to gigabytes is refused after reading that much); other bytes as they are."""
    if not raw.startswith(GZIP_MAGIC):
        return raw
    unpack = zlib.decompressobj(wbits=31)
    try:
        out = unpack.decompress(raw, MAX_IMPORT_BYTES + 1)
    except zlib.error:
        raise ImportRejected("The file is not a campaign export (a damaged gzip file).") from None
    if len(out) > MAX_IMPORT_BYTES:
        raise ImportRejected("The file unpacks to more than {max_import_bytes:,} bytes: at most that can be imported.",
                             max_import_bytes=MAX_IMPORT_BYTES)
    if not unpack.eof or unpack.unused_data:
        raise ImportRejected("The file is not a campaign export (a damaged gzip file).")
    return out


def parse_export(raw: bytes | str) -> dict[str, Any]:
    """The export's JSON (gzip-compressed or not): at most :data:`MAX_DEPTH` deep, with clean characters
    only (no NUL, no lone surrogate, no control character: checked before anything is stored)."""
    if isinstance(raw, bytes):
        raw = unpacked(raw)
    if len(raw) > MAX_IMPORT_BYTES:
        raise ImportRejected("The file is {n_raw:,} bytes: at most {max_import_bytes:,} can be imported.", n_raw=len(raw), max_import_bytes=MAX_IMPORT_BYTES)
    try:
        data = load_json(raw.decode("utf-8") if isinstance(raw, bytes) else raw, max_depth=MAX_DEPTH)
    except (ValueError, UnicodeDecodeError) as exc:
        if isinstance(exc, UploadProblem):
            raise ImportRejected("{field}: {what}", field=exc.field or "(top)", what=exc.what) from None
        raise ImportRejected("The file is not a campaign export (not JSON: {exc}).", exc=str(exc)[:200]) from None
    return check_export(data)


def checked_plain(data: Any) -> Any:
    """Data an export was read into by the caller: at most :data:`MAX_DEPTH` deep, clean characters
    (what :func:`parse_export` checks while it reads)."""
    try:
        check_plain(data, max_depth=MAX_DEPTH)
    except UploadProblem as exc:
        raise ImportRejected("{field}: {what}", field=exc.field or "(top)", what=exc.what) from None
    return data


def check_export(data: Any) -> dict[str, Any]:
    """The export's format and version."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRejected("The file is not a campaign export: \"format\" must be \"{format}\".", format=FORMAT)
    version = data.get("version")
    if version not in (1, *codec.READ_VERSIONS) or isinstance(version, bool):
        raise ImportRejected("Unsupported export version {get!r}: this bot reads versions 1, 2 and 3.",
                             get=version if isinstance(version, int) else str(version)[:40])
    return data


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
class File:
    """What an import reads of a file: the state, the log, and the campaign row's bookkeeping."""

    state: CampaignState
    log: list[dict[str, Any]]
    scenario: str
    language: str
    deadline: dt.datetime | None = None
    """The exported phase's deadline (issue 24, item 8)."""
    bot: botsettings.BotSettings = field(default_factory=botsettings.BotSettings)
    """The bot's settings, for the campaign's book."""


def read(data: dict[str, Any]) -> File:
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
            codec.expect_object(book, "campaign", BOOKKEEPING, BOOKKEEPING_OPTIONAL)
            codec.expect_text(book["name"], "campaign.name", 100)  # shown on the verifier's page
        scenario = codec.expect_text(book.get("scenario"), "campaign.scenario", 100)
        language = codec.expect_one_of(book.get("language"), "campaign.language", botsettings.LANGUAGES)
        deadline = codec.expect_time(book.get("deadline"), "campaign.deadline", optional=True)
        options = "campaign.options" if v1 else "state.options"
        older = state.options.get("_bot", {})
        botsettings.check_stored(older, f"{options}._bot", codec.MAX_INT)
        given = book.get("bot") if not v1 else None
        if given is not None:
            codec.expect_object(given, "campaign.bot", botsettings.BOOK_SETTINGS, botsettings.BOOK_SETTINGS)
            botsettings.check_stored(given, "campaign.bot", codec.MAX_INT)
    except InvalidInput as exc:
        raise ImportRejected(exc.text) from None  # i18n: passes a template on
    if state.status is not CampaignStatus.ACTIVE:
        raise ImportRejected("{where}: an imported campaign is active", where="campaign.status" if v1 else "state.status")
    bot = botsettings.bot_settings({**older, **(given or {})})
    return File(game_of(state), log, scenario, language, deadline, bot)


def game_of(state: CampaignState) -> CampaignState:
    """``state`` with only the game's options: the bookkeeping an older export kept among them (the bot
    settings but ``join_approval``, the deadline's, the reminders sent) is the campaign's book's now, and its
    write stamp (``_rev``) the store's own column."""
    bot = {k: v for k, v in (state.options.get("_bot") or {}).items() if k == botsettings.JOIN_APPROVAL}
    options = {k: v for k, v in state.options.items() if k not in ("_bot", "_reminded", "_rev")}
    return state.evolve(options={**options, **({"_bot": bot} if bot else {})})
