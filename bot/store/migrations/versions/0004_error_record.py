"""error record

Revision ID: 0004
Revises: 0003

The error ids members are shown, with their campaign, command, time and exception type, so a GM
can look one up with /about (operations). Bounded: old records are pruned as new ones arrive.
Create Date: 2026-11-22 09:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('error_record',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('error_id', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=True),
    sa.Column('guild_id', sa.BigInteger(), nullable=True),
    sa.Column('user_id', sa.BigInteger(), nullable=True),
    sa.Column('command', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_error_record')),
    sa.UniqueConstraint('error_id', name=op.f('uq_error_record_error_id'))
    )
    with op.batch_alter_table('error_record', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_error_record_campaign_id'), ['campaign_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_error_record_created_at'), ['created_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('error_record', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_error_record_created_at'))
        batch_op.drop_index(batch_op.f('ix_error_record_campaign_id'))

    op.drop_table('error_record')
