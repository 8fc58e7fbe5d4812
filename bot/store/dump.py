"""A campaign's rows as plain JSON-ready dicts, and back: for undo snapshots, export and import.

Rows refer to each other by key (side, Force, unit, leader keys), never by database id, so a
dump can be restored into the same campaign (undo) or a new one (import) as it is.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlmodel import SQLModel, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from .models import (
    BattleRow,
    Campaign,
    Declaration,
    ForceRow,
    GloryEntry,
    LeaderEvent,
    LeaderRow,
    SideRow,
    UnitRow,
)

# What a phase resolution changes, and so what undo restores.
PHASE_STATE: tuple[type[SQLModel], ...] = (
    SideRow, ForceRow, LeaderRow, LeaderEvent, UnitRow, Declaration, BattleRow, GloryEntry,
)
CAMPAIGN_STATE_FIELDS = ("turn", "phase", "weather", "holdings", "options", "status")
"""The deadline was one of them; it is the campaign's book's now (:class:`.models.BookRow`)."""


def row_to_dict(row: SQLModel) -> dict[str, Any]:
    data = row.model_dump(exclude={"id", "campaign_id"})
    return {k: _jsonable(v) for k, v in data.items()}


def _jsonable(v: Any) -> Any:
    if isinstance(v, dt.datetime):
        return v.isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    return v


def table_name(model: type[SQLModel]) -> str:
    return str(model.__tablename__)


async def dump_tables(session: AsyncSession, campaign_id: int, tables: tuple[type[SQLModel], ...]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for model in tables:
        rows = (await session.exec(select(model).where(model.campaign_id == campaign_id).order_by(model.id))).all()  # type: ignore[attr-defined]
        out[table_name(model)] = [row_to_dict(r) for r in rows]
    return out


def campaign_fields(campaign: Campaign) -> dict[str, Any]:
    return {k: _jsonable(getattr(campaign, k)) for k in CAMPAIGN_STATE_FIELDS}


async def snapshot_state(session: AsyncSession, campaign: Campaign) -> dict[str, Any]:
    assert campaign.id is not None
    return {"campaign": campaign_fields(campaign), "tables": await dump_tables(session, campaign.id, PHASE_STATE)}


def _restore_value(model: type[SQLModel], name: str, value: Any) -> Any:
    field = model.model_fields.get(name)
    if field is not None and value is not None and isinstance(value, str):
        ann = str(field.annotation)
        if "datetime" in ann:
            return dt.datetime.fromisoformat(value)
        if "date" in ann:
            return dt.date.fromisoformat(value)
    return value


def build_row(model: type[SQLModel], campaign_id: int, data: dict[str, Any]) -> SQLModel:
    values = {k: _restore_value(model, k, v) for k, v in data.items()}
    return model(campaign_id=campaign_id, **values)


async def restore_tables(session: AsyncSession, campaign_id: int, tables: dict[str, list[dict[str, Any]]],
                         models: tuple[type[SQLModel], ...]) -> None:
    """Replace the campaign's rows of ``models`` with the dumped ones."""
    for model in reversed(models):
        await session.exec(delete(model).where(model.campaign_id == campaign_id))  # type: ignore[attr-defined,call-overload]
    for model in models:
        for data in tables.get(table_name(model), []):
            session.add(build_row(model, campaign_id, data))
    await session.flush()


def restore_campaign_fields(campaign: Campaign, fields: dict[str, Any]) -> None:
    for k in CAMPAIGN_STATE_FIELDS:
        if k in fields:
            setattr(campaign, k, fields[k])
