"""side supply purchases

Revision ID: 0007
Revises: 0006

FC-2: what each side bought with its supply points in the current turn's Phase 1 (refits, scouts,
units bought back, forced marches), so that the supply phase's rules see the purchases already made
(a unit bought reduced cannot be refitted in the same phase). Existing sides have bought nothing.
Create Date: 2026-11-24 10:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('side', schema=None) as batch_op:
        batch_op.add_column(sa.Column('supply_purchases', sa.JSON(), nullable=False, server_default='[]'))


def downgrade() -> None:
    with op.batch_alter_table('side', schema=None) as batch_op:
        batch_op.drop_column('supply_purchases')
