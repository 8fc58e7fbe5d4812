"""join requests

Revision ID: 0009
Revises: 0008

Members' requests to join a side, waiting for the GM (the bot setting ``join_approval``). A new
table: existing campaigns have no request waiting.
Create Date: 2026-11-24 10:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('join_request',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('member_id', sa.BigInteger(), nullable=False),
    sa.Column('side_key', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], name=op.f('fk_join_request_campaign_id_campaign'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_join_request')),
    sa.UniqueConstraint('campaign_id', 'member_id', name=op.f('uq_join_request_campaign_id'))
    )
    with op.batch_alter_table('join_request', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_join_request_campaign_id'), ['campaign_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('join_request', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_join_request_campaign_id'))

    op.drop_table('join_request')
