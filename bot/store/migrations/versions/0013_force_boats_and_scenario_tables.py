"""force boats and scenario tables

Revision ID: 0013
Revises: 0012

What a scenario states for a Force's moves by water (MC-5.3): boats smaller than ships and horses on
barges or rafts; false for the Forces of a campaign created before (its players state them when
declaring, as they did). The scenario's own weather, calendar and random-events tables (RU-10), as
plain data: null for a campaign created before, which plays the house rules as it did.
Create Date: 2026-11-28 10:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('force', schema=None) as batch_op:
        batch_op.add_column(sa.Column('small_boats', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('horse_rafts', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tables', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.drop_column('tables')
    with op.batch_alter_table('force', schema=None) as batch_op:
        batch_op.drop_column('horse_rafts')
        batch_op.drop_column('small_boats')
