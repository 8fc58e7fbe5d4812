"""The bot general in the services (RU-26): it acts for the sides it plays when a phase opens (in the
resolution's own transaction: :func:`.resolution.resolve_phase`), and at once when the GM seats it in
the middle of a phase (:func:`run`).

How a battle is settled without a table is :data:`reporter`'s: None (the default) leaves every battle to
the table and its report; a function returning a battle's report (RU-27's quick battle, or the tests'
stand-in) lets the general report its camp's part of it.
"""

from __future__ import annotations

from bot.campaign.general import Acted, Reporter, act_all
from bot.engine.tables import RuleBook
from bot.store.db import Database

from . import shell

_reporter: Reporter | None = None


def reporter() -> Reporter | None:
    """How the general settles a battle without a table (None: at the table)."""
    return _reporter


def use_reporter(fn: Reporter | None) -> None:
    """Settle the general's battles with ``fn`` (None: at the table again)."""
    global _reporter
    _reporter = fn


async def run(db: Database, campaign_id: int, *, rules: RuleBook | None = None) -> tuple[Acted, ...]:
    """The general acts now for every side it plays, in the current phase (one write)."""
    return await shell.write(db, campaign_id, lambda state, journal: act_all(
        state, journal, shell.context(rules), report_battle=reporter()), offload=True)  # off the event loop
