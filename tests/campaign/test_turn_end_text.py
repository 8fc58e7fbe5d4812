"""Issue 13 item 10: the turn-end message points players at /campaign verify, not at a Python command;
the message it used to be still reads from older logs (a former template)."""

from __future__ import annotations

import hashlib

from bot.campaign.dice import Context, reveal_turn, turn_dice
from bot.campaign.events import Journal
from bot.campaign.former import FORMER_MESSAGES
from bot.campaign.new import from_scenario
from bot.engine.tables import default_rulebook
from bot.i18n.text import known_templates
from bot.scenario import load_bundled


def test_the_turn_end_tells_players_to_use_campaign_verify() -> None:
    state = from_scenario(load_bundled("tutorial"), campaign_id=1, name="Ulm", gm_id=1, options={})
    journal = Journal()
    state, _ = turn_dice(state, journal, Context(lambda: hashlib.sha256(b"t").digest(), default_rulebook()))
    journal = Journal()
    reveal_turn(state, journal)
    said = [str(e.text) for e in journal.events]
    assert said and all("python" not in line for line in said)
    assert "Check every roll with `/campaign verify`." in said[0]


def test_the_former_turn_end_message_is_still_known_to_old_logs() -> None:
    assert all(m.template in known_templates() for m in FORMER_MESSAGES)
