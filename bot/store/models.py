"""SQLModel tables: everything a campaign holds.

Tables are only ever created by Alembic migrations (``bot/store/migrations``). Every row but the
campaign's own carries ``campaign_id`` so a campaign can be snapshotted, exported and restored
table by table (see :mod:`bot.store.dump`).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

from bot.engine.model import Place, PlaceKind

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class EncodedJSON(str):
    """A JSON column's document encoded already, in a worker thread (a 2,000-Force undo snapshot is
    megabytes of JSON, tens of ms of encoding the event loop must not wait for: issue 26 item 4); the
    engines write it as it is (:func:`json_dumps`, their ``json_serializer``)."""


def json_dumps(value: Any) -> str:
    """What the engines write to a JSON column: ``value`` encoded, or as it is when encoded already."""
    return value if isinstance(value, EncodedJSON) else json.dumps(value)


def encoded(value: Any) -> EncodedJSON:
    """``json.dumps(value)``, to the character, for a worker thread: the large lists and mappings are
    encoded item by item. One ``json.dumps`` of megabytes is a single call into C that keeps the
    interpreter's lock, and the event loop, for its whole length (tens of ms); between items, the
    loop gets its turn."""
    return EncodedJSON(_pieces(value, 0))


def _pieces(value: Any, depth: int) -> str:
    if depth < 4 and isinstance(value, list) and len(value) > 16:
        return "[" + ", ".join(_pieces(v, depth + 1) for v in value) + "]"
    if depth < 4 and isinstance(value, dict) and len(value) > 1 and all(type(k) is str for k in value):
        return "{" + ", ".join(f"{json.dumps(k)}: {_pieces(v, depth + 1)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class UTCDateTime(TypeDecorator[dt.datetime]):
    """Timezone-aware UTC timestamps on every backend (SQLite stores them naive)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Any) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: store timezone-aware UTC timestamps")
        return value.astimezone(dt.UTC)

    def process_result_value(self, value: dt.datetime | None, dialect: Any) -> dt.datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


def _ts(nullable: bool = False) -> Any:
    return Field(default_factory=utcnow if not nullable else None, sa_type=UTCDateTime, nullable=nullable)


def _campaign_fk() -> Any:
    return Field(sa_column_args=[sa.ForeignKey("campaign.id", ondelete="CASCADE")], index=True)


class Campaign(SQLModel, table=True):
    __tablename__ = "campaign"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, index=True)
    channel_id: int = Field(sa_type=sa.BigInteger, index=True)
    name: str = Field(max_length=100)
    scenario: str = Field(max_length=100)
    gm_id: int = Field(sa_type=sa.BigInteger)
    gm_role_id: int | None = Field(default=None, sa_type=sa.BigInteger)
    options: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    language: str = Field(default="en", max_length=8)
    climate: str = Field(max_length=20)
    theatre: str = Field(default="other", max_length=12)
    """spain, portugal or other: some Glory spends belong to one theatre (CC-4)."""
    start_date: dt.date
    turn: int = 1
    phase: int = 0
    last_turn: int | None = None
    """The scenario's last turn (RU-25); None: the campaign runs until one camp is left."""
    version: int = 1
    """Bumped by every phase resolution and undo: the guard that makes resolution idempotent."""
    status: str = Field(default="active", max_length=10)
    weather: str | None = Field(default=None, max_length=20)
    holdings: dict[str, str] = Field(default_factory=dict, sa_type=sa.JSON)
    """Strongholds held by a side other than their owner: square name -> holding side (MC-9)."""
    map_width: int
    map_height: int
    adjacency: int = 8
    sight: int = 2
    created_at: dt.datetime = _ts()
    write_token: str | None = Field(default=None, max_length=32)
    """A fresh random token left by every transaction that writes the game's rows (:mod:`.stamp`): with
    ``created_at`` and ``version`` it tells readers the campaign changed. The store's, never the game's."""
    tables: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)
    """The scenario's own weather, calendar and random-events tables (RU-10), as plain data; None: the
    house rules (bot/campaign/rulebook.py)."""
    names: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)
    """The scenario's title, sides, Forces and places in other languages (issue 23): ``side:KEY`` -> language
    -> name; None: named in one language. Written once, at creation or import."""


class BookRow(SQLModel, table=True):
    """The bot's bookkeeping of a campaign (issue 22, item 1): its settings, the phase's deadline and the
    reminders sent for it, the messages it edits in place, each side's channel and each battle's thread.
    Not the game: a write here leaves the campaign row (and its write stamp, :mod:`.stamp`) alone, so the
    read cache keeps the campaign's state; ``revision`` tells readers the bookkeeping changed. Read as one
    typed value, :class:`bot.campaign.botsettings.Book` (:mod:`.books`)."""

    __tablename__ = "campaign_book"
    __table_args__ = (sa.UniqueConstraint("campaign_id"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    revision: int = 1
    """Bumped by every bookkeeping write (never by a game save)."""
    settings: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    """The bot settings the GM changed (``auto_resolve``, ``at_deadline``, ``away``, ``deadline_hours``)."""
    deadline: dt.datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True, index=True)
    deadline_set: dt.datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True)
    """When the deadline was set (a reminder is due only for a deadline set longer before it)."""
    deadline_version: int | None = None
    """The campaign version the deadline was set for, so that it never resolves a later phase."""
    reminded: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    """The reminders sent for this deadline (their tags)."""
    card: int | None = Field(default=None, sa_type=sa.BigInteger)
    """The phase card's message id in the campaign's channel (edited in place)."""
    requests_card: int | None = Field(default=None, sa_type=sa.BigInteger)
    """The card of requests to join's message id."""
    map_card: str | None = Field(default=None, max_length=64)
    """What the public map on the last phase card showed (its content hash)."""
    channels: dict[str, int] = Field(default_factory=dict, sa_type=sa.JSON)
    """Each side's own channel: side key -> channel id."""
    threads: dict[str, int] = Field(default_factory=dict, sa_type=sa.JSON)
    """Each battle's thread: battle number (as text) -> thread id."""
    drafts: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    """Members' report forms half entered (issue 23, item 2): "battle:member" -> what they entered so far."""


class TurnSeed(SQLModel, table=True):
    """The secret seed of a turn (RU: verifiable dice): the hash is public, the seed only once revealed."""

    __tablename__ = "turn_seed"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "turn"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    turn: int
    seed_hex: str = Field(max_length=64)
    sha256: str = Field(max_length=64)
    revealed: bool = False
    chain_head: str | None = Field(default=None, max_length=64)
    """The hash of the campaign's last roll record when the turn ended, published with the seed."""
    reseeded_after: str | None = Field(default=None, max_length=64)
    """Set when an import drew this turn's seed anew: the hash of the last roll record before then
    (the turn's rolls up to it were made with the seed it replaced)."""


class SideRow(SQLModel, table=True):
    __tablename__ = "side"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    key: str = Field(max_length=32)
    name: str = Field(max_length=100)
    colour: str = Field(default="#888888", max_length=7)
    nation: str = Field(default="", max_length=40)
    camp: str = Field(default="", max_length=300)
    """The side's camp (RU-19, the scenario's alliances); empty: its own."""
    capital: str | None = Field(default=None, max_length=8)
    battles_won: int = 0
    battles_lost: int = 0
    strongholds_taken: int = 0
    strongholds_lost: int = 0
    holds_enemy_capital: bool = False
    lost_capital: bool = False
    supply: int = 0
    """Supply points in hand (FC-2)."""
    supply_income: int = 0
    """Supply points received each turn (FC-2, the scenario's ``supply``)."""
    movement_modifier: int = 0
    """From a random event (RU-10), applied to the side's movement rolls next turn."""
    done: bool = False
    """Has finished acting in the current phase (phases 1 and 2)."""
    must_test: str = Field(default="", max_length=200)
    """Why the side must take a Will-to-Fight test this turn (empty: it need not)."""
    defeated: bool = False
    last_seen: dict[str, str] = Field(default_factory=dict, sa_type=sa.JSON)
    """Enemy Forces this side has seen and is no longer seeing: Force key -> square (faded on its map)."""
    supply_purchases: list[dict[str, Any]] = Field(default_factory=list, sa_type=sa.JSON)
    """What the side bought with supply points this turn (FC-2): ``{turn, kind, force, unit, count, reduced, cost}``."""
    recruits: list[dict[str, Any]] = Field(default_factory=list, sa_type=sa.JSON)
    """The new units the side may still buy (FC-2, RU-24): ``{key, name, sp, type, quality, mercenary, flag, cost}``."""


class Player(SQLModel, table=True):
    __tablename__ = "player"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "member_id"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    side_key: str = Field(max_length=32)
    member_id: int = Field(sa_type=sa.BigInteger)
    away_until: dt.datetime | None = _ts(nullable=True)
    pings: bool = Field(default=True, sa_column_kwargs={"server_default": sa.true()})
    """Mentioned on the phase cards and reminded of deadlines (the member's "Mute pings" button)."""


class JoinRequestRow(SQLModel, table=True):
    """A member's request to join a side, waiting for the GM (the bot setting ``join_approval``)."""

    __tablename__ = "join_request"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "member_id"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    member_id: int = Field(sa_type=sa.BigInteger)
    side_key: str = Field(max_length=32)
    name: str = Field(default="", max_length=100)
    """The member's name when they asked."""
    created_at: dt.datetime = _ts()


class MapSquare(SQLModel, table=True):
    __tablename__ = "map_square"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "col", "row"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    col: int
    row: int
    terrain: str = Field(default="open", max_length=20)
    features: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    territory: str | None = Field(default=None, max_length=32)
    stronghold: str | None = Field(default=None, max_length=32)
    capital: bool = False
    river_flow: str | None = Field(default=None, max_length=2)
    place: str | None = Field(default=None, max_length=40)
    """The name the scenario gives this square (``map.places``), if any."""
    place_kind: str | None = Field(default=None, max_length=20)
    """What that place is (a PlaceKind: town, fortress, river, pass, region); set with ``place``."""


def place_row(place: Place | None) -> dict[str, str | None]:
    """A square's place as :class:`MapSquare`'s columns (``place``, ``place_kind``)."""
    return {"place": None, "place_kind": None} if place is None else {"place": place.name,
                                                                      "place_kind": place.kind.value}


def place_from_row(name: str | None, kind: str | None) -> Place | None:
    """:class:`MapSquare`'s ``place`` and ``place_kind`` as a Place (none without a name; a town
    without a kind)."""
    return None if name is None else Place(name, PlaceKind(kind) if kind else PlaceKind.TOWN)


class ForceRow(SQLModel, table=True):
    __tablename__ = "force"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    side_key: str = Field(max_length=32)
    key: str = Field(max_length=32)
    name: str = Field(max_length=100)
    square: str | None = Field(default=None, max_length=8)
    """Where the Force stands; for a pending reinforcement, where it will arrive."""
    order: str = Field(default="explore", max_length=20)
    reaction: str | None = Field(default=None, max_length=20)
    scouts: int = 0
    state: str = Field(default="active", max_length=12)
    """active, removed (MC-4 disaster, RU-8, MC-2 collapse, FC-1), or pending (a scheduled reinforcement)."""
    arrives_turn: int | None = None
    wtf_marker: bool = False
    small_boats: bool = False
    """By water in boats smaller than ships, as the scenario states for the Force (MC-5.3)."""
    horse_rafts: bool = False
    """By water with its horses on barges or rafts, as the scenario states for the Force (MC-5.3)."""


class LeaderRow(SQLModel, table=True):
    __tablename__ = "leader"

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    force_key: str | None = Field(default=None, max_length=32)
    key: str = Field(max_length=32)
    name: str = Field(max_length=100)
    cv: int = 0
    status: str = Field(default="fit", max_length=20)
    kind: str = Field(default="leader", max_length=12)
    """leader, new (CC-2 New Leader) or temporary (CC-2 Temporary Leader)."""
    designation: str | None = Field(default=None, max_length=12)


class LeaderEvent(SQLModel, table=True):
    """A leader's status history (CC-1, CC-2)."""

    __tablename__ = "leader_event"

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    leader_key: str = Field(max_length=32)
    turn: int
    status: str = Field(max_length=20)
    reason: str = Field(max_length=200)
    created_at: dt.datetime = _ts()


class UnitRow(SQLModel, table=True):
    __tablename__ = "unit"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    force_key: str = Field(max_length=32, index=True)
    key: str = Field(max_length=32)
    name: str = Field(max_length=100)
    sp: int
    original_sp: int
    type: str = Field(default="infantry", max_length=12)
    quality: str = Field(default="average", max_length=12)
    mercenary: bool = False
    flag: bool = True
    heroic: bool = False


class Declaration(SQLModel, table=True):
    """An order or move declared this phase (private until the phase resolves)."""

    __tablename__ = "declaration"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "turn", "phase", "force_key"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    turn: int
    phase: int
    force_key: str = Field(max_length=32)
    side_key: str = Field(max_length=32)
    kind: str = Field(max_length=12)
    payload: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    created_at: dt.datetime = _ts()


class BattleRow(SQLModel, table=True):
    __tablename__ = "battle"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    number: int
    turn: int
    square: str = Field(max_length=8)
    force_keys: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    side_keys: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    state: str = Field(default="pending", max_length=12)
    """pending (awaiting its report), reported, done."""
    report: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)
    scouting: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    aftermath: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    """Per side: which checks are rolled, which retreats are chosen."""


class GloryEntry(SQLModel, table=True):
    """One credit or debit of a side's Glory (CC-4)."""

    __tablename__ = "glory_entry"

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    side_key: str = Field(max_length=32)
    turn: int
    amount: int
    kind: str = Field(default="award", max_length=20)
    """award, or the spend: heroic, rally, leadership, stragglers, anti_guerrilla, ordenanza."""
    reason: str = Field(max_length=200)
    rule: str = Field(default="CC-4", max_length=12)
    battle: int | None = None
    subject: str = Field(default="", max_length=100)
    created_at: dt.datetime = _ts()


class LogEntry(SQLModel, table=True):
    """The append-only event and roll log. Undone entries stay, marked ``undone``."""

    __tablename__ = "log_entry"

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    turn: int
    phase: int
    kind: str = Field(max_length=20)
    """event, roll, gm, undo."""
    visibility: str = Field(default="public", max_length=40)
    """public, gm, or side:KEY (private to that side until revealed)."""
    text: str
    data: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)
    roll_key: str | None = Field(default=None, max_length=200)
    version: int = 0
    """The campaign version the entry was written under (undo marks entries of undone versions)."""
    undone: bool = False
    created_at: dt.datetime = _ts()


class Snapshot(SQLModel, table=True):
    """The campaign's state before a phase resolution, for undo (a bounded history)."""

    __tablename__ = "snapshot"

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    version: int
    turn: int
    phase: int
    state: dict[str, Any] = Field(sa_type=sa.JSON)
    created_at: dt.datetime = _ts()


class TurnFrame(SQLModel, table=True):
    """The campaign at the end of a turn, for its timelapse (:mod:`bot.campaign.frames`): written with the
    resolution that ended the turn. Not part of the campaign's state (never snapshotted, exported or
    undone: a resolution that ends a turn cannot be undone)."""

    __tablename__ = "turn_frame"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "turn"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = _campaign_fk()
    turn: int
    frame: dict[str, Any] = Field(sa_type=sa.JSON)
    created_at: dt.datetime = _ts()


class ErrorRecord(SQLModel, table=True):
    """An unexpected error a member (or the scheduler) ran into, by the id they were shown: what
    failed, where and when, for ``/about`` (a GM looks up ids of their own campaign). Not part of a
    campaign's state (never exported or snapshotted); pruned by age and count
    (:func:`bot.services.operations.record_error`)."""

    __tablename__ = "error_record"

    id: int | None = Field(default=None, primary_key=True)
    error_id: str = Field(max_length=16, unique=True)
    campaign_id: int | None = Field(default=None, index=True)
    """No foreign key: the record outlives nothing it points at, and never blocks a campaign's rows."""
    guild_id: int | None = Field(default=None, sa_type=sa.BigInteger)
    user_id: int | None = Field(default=None, sa_type=sa.BigInteger)
    command: str = Field(max_length=100)
    """The command, button (custom id) or background job (deadlines, reminders, backups)."""
    kind: str = Field(max_length=100)
    """The exception's type name (never its message: it may hold anything)."""
    created_at: dt.datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False, index=True)


# Tables whose rows make up a campaign's state, in insertion order (parents first).
STATE_TABLES: tuple[type[SQLModel], ...] = (
    TurnSeed, SideRow, Player, JoinRequestRow, MapSquare, ForceRow, LeaderRow, LeaderEvent, UnitRow, Declaration,
    BattleRow, GloryEntry,
)
