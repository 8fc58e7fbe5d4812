"""side recruits

Revision ID: 0014
Revises: 0013

RU-24: each side keeps the pool of new units it may still buy with supply points (FC-2), from the
scenario's ``supply.recruits``. A campaign created before has an empty pool (its scenario had none).
Create Date: 2026-12-06 20:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('side', schema=None) as batch_op:
        batch_op.add_column(sa.Column('recruits', sa.JSON(), nullable=False, server_default='[]'))


def downgrade() -> None:
    with op.batch_alter_table('side', schema=None) as batch_op:
        batch_op.drop_column('recruits')
