"""The rule book a campaign plays by: the engine's tables, with the scenario's own weather, calendar and
random-events tables in place of the house rules' where the scenario gives them (RU-10, MC-10).

Every core function that reads those tables picks the campaign's rule book here, once, from the rules the
service passes in (:func:`rules_for`): the turn's resolution (:func:`.turn.resolve`), a move's weather
(:func:`.orders.move_terms`), the dates and weather the views, the gazette, the turn frames and a saved
scenario show. A campaign created before scenarios carried tables has none: it plays the house rules.
"""

from __future__ import annotations

from bot.engine.tables import RuleBook

from .state import CampaignState


def rules_for(state: CampaignState, rules: RuleBook) -> RuleBook:
    """``rules`` with ``state``'s scenario tables in place of the house rules' (``rules`` itself when it
    has none)."""
    return state.tables.apply(rules)
