"""campaign write token

Revision ID: 0018
Revises: 0017

The write stamp that tells readers a campaign changed (:mod:`bot.store.stamp`) gets a column of the
campaign's own, ``campaign.write_token``, rather than a key among the game's options (``options._rev``): it
is the store's bookkeeping, no part of the game, so the game's options carry only what the rules read. The
upgrade moves each token into the column; the downgrade puts it back among the options.
Create Date: 2026-12-07 05:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0018'
down_revision: str | None = '0017'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STAMP = "_rev"
campaign = sa.table("campaign", sa.column("id", sa.Integer), sa.column("options", sa.JSON),
                    sa.column("write_token", sa.String))


def upgrade() -> None:
    # ALTER TABLE ... ADD COLUMN in place (no batch copy of the table; see 0016)
    op.add_column('campaign', sa.Column('write_token', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True))
    conn = op.get_bind()
    for cid, options in conn.execute(sa.select(campaign.c.id, campaign.c.options)).all():
        if isinstance(options, dict) and STAMP in options:
            token = options[STAMP]
            rest = {k: v for k, v in options.items() if k != STAMP}
            conn.execute(campaign.update().where(campaign.c.id == cid).values(
                options=rest, write_token=token if isinstance(token, str) else None))


def downgrade() -> None:
    conn = op.get_bind()
    for cid, options, token in conn.execute(
            sa.select(campaign.c.id, campaign.c.options, campaign.c.write_token)).all():
        if token is not None:
            conn.execute(campaign.update().where(campaign.c.id == cid).values(
                options={**(options or {}), STAMP: token}))
    op.execute("ALTER TABLE campaign DROP COLUMN write_token")
