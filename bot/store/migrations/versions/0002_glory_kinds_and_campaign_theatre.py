"""glory kinds and campaign theatre

Revision ID: 0002
Revises: 0001

Glory entries say what they were (an award or which spend) and for which unit; a campaign says
its theatre, since two Glory spends belong to Spain or Portugal only (CC-4). Existing rows get the
defaults: award, no subject, other.
Create Date: 2026-11-21 11:00:24.046548
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.add_column(sa.Column('theatre', sqlmodel.sql.sqltypes.AutoString(length=12), nullable=False, server_default='other'))

    with op.batch_alter_table('glory_entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False, server_default='award'))
        batch_op.add_column(sa.Column('subject', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False, server_default=''))



def downgrade() -> None:
    with op.batch_alter_table('glory_entry', schema=None) as batch_op:
        batch_op.drop_column('subject')
        batch_op.drop_column('kind')

    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.drop_column('theatre')

