"""turn frames

Revision ID: 0011
Revises: 0010

The campaign at the end of each turn, for ``/campaign timelapse``: one frame (JSON) per ended turn,
written with the resolution that ends it. A new table: turns that ended before it have no frame (the
timelapse starts at the first one).
Create Date: 2026-11-26 10:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('turn_frame',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('frame', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], name=op.f('fk_turn_frame_campaign_id_campaign'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_turn_frame')),
    sa.UniqueConstraint('campaign_id', 'turn', name=op.f('uq_turn_frame_campaign_id'))
    )
    with op.batch_alter_table('turn_frame', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_turn_frame_campaign_id'), ['campaign_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('turn_frame', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_turn_frame_campaign_id'))

    op.drop_table('turn_frame')
