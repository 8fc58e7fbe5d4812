"""side camp and supply income

Revision ID: 0006
Revises: 0005

Alliances (RU-19): each side's camp, from the scenario's ``alliances``. An empty camp is the side's
own (every side of a campaign created before alliances is its own camp). FC-2: the supply points a
side receives each turn (the scenario's ``supply``); a campaign created before keeps its income in
``supply``, where it was put at creation, so the income is copied from there.
Create Date: 2026-11-22 23:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('side', schema=None) as batch_op:
        batch_op.add_column(sa.Column('camp', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False,
                                      server_default=''))
        batch_op.add_column(sa.Column('supply_income', sa.Integer(), nullable=False, server_default='0'))
    op.execute("UPDATE side SET supply_income = supply")


def downgrade() -> None:
    with op.batch_alter_table('side', schema=None) as batch_op:
        batch_op.drop_column('supply_income')
        batch_op.drop_column('camp')
