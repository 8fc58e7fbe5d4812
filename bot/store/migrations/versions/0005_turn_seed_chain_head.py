"""turn seed chain head

Revision ID: 0005
Revises: 0004

Fair play: when a turn ends, the hash of the campaign's last roll record (the turn's chain head,
docs/dice.md) is kept and published with the turn's seed; when an import draws a turn's seed anew,
the hash of the last roll record before then. Turns that ended before have neither.
Create Date: 2026-11-22 20:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('turn_seed', schema=None) as batch_op:
        batch_op.add_column(sa.Column('chain_head', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
        batch_op.add_column(sa.Column('reseeded_after', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('turn_seed', schema=None) as batch_op:
        batch_op.drop_column('reseeded_after')
        batch_op.drop_column('chain_head')
