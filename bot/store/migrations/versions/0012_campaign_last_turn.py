"""campaign last turn

Revision ID: 0012
Revises: 0011

RU-25: a scenario may name its last turn (``last_turn``); once it is over the campaign ends. A campaign
created before has none (it runs until one camp is left, or the GM ends it).
Create Date: 2026-11-28 00:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_turn', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.drop_column('last_turn')
