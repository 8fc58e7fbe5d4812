"""map square places

Revision ID: 0010
Revises: 0009

Place names from the scenario (``map.places``): the name a square carries and its kind (town,
fortress, river, pass, region), for the maps to draw. Both nullable: a square of a campaign created
before names no place.
Create Date: 2026-11-25 10:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('map_square', schema=None) as batch_op:
        batch_op.add_column(sa.Column('place', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True))
        batch_op.add_column(sa.Column('place_kind', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('map_square', schema=None) as batch_op:
        batch_op.drop_column('place_kind')
        batch_op.drop_column('place')
