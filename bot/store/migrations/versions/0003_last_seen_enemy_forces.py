"""last seen enemy forces

Revision ID: 0003
Revises: 0002

Each side remembers where it last saw enemy Forces it no longer sees, for the faded markers
of its fog-of-war map (issue 6). Existing sides start with an empty memory.
Create Date: 2026-11-21 11:10:22.303723
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('side', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_seen', sa.JSON(), nullable=False, server_default='{}'))



def downgrade() -> None:
    with op.batch_alter_table('side', schema=None) as batch_op:
        batch_op.drop_column('last_seen')

