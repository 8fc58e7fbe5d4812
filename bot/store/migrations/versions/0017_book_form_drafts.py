"""book form drafts

Revision ID: 0017
Revises: 0016

Issue 23, item 2: a member's report form half entered (between two pages of its losses) is kept in the
campaign's book, ``campaign_book.drafts`` ("battle:member" -> what they entered so far), so that a bot
restart loses nothing. Bookkeeping: it never bumps the game's revision. The downgrade drops the column
(the drafts are a convenience: a member reopens the form from their stored claim).
Create Date: 2026-12-07 00:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0017'
down_revision: str | None = '0016'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # ALTER TABLE ... ADD COLUMN in place (no batch copy of the table; see 0016)
    op.add_column('campaign_book', sa.Column('drafts', sa.JSON(), nullable=False, server_default='{}'))


def downgrade() -> None:
    op.execute("ALTER TABLE campaign_book DROP COLUMN drafts")
