"""campaign local names

Revision ID: 0015
Revises: 0014

Issue 23, item 4: a scenario may name its title, sides, Forces and places in each of the bot's languages
(``{en: Austria, fr: Autriche}``); the campaign keeps those names in one JSON column, written when it is
created or imported. A campaign created before names everything in one language (NULL).
Create Date: 2026-12-06 21:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.add_column(sa.Column('names', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.drop_column('names')
