"""The error path of each command: a short private message saying what to do instead; anything
unexpected is logged with an ID the member is shown. Never a traceback in a channel."""

from __future__ import annotations

import logging
import re

import pytest
import simcord

from bot.services import resolution, views
from bot.services.actors import Actor
from bot.services.loading import campaign_in_channel

from .conftest import advance, domain_errors_only, refused, shown, start, texts

NO_CAMPAIGN = "There is no campaign in this channel"
KEYS = re.compile(r"\b(soult|lannes|mack|vandamme|riesch|margaron|st-hilaire|suchet)\b")
"""The tutorial's Force and unit keys: a refusal names them (IV Corps, Vandamme's Division), never keys them."""

CAMPAIGN_COMMANDS = [
    ("campaign join", {"side": "fr"}), ("campaign status", {}), ("campaign map", {}), ("campaign log", {}),
    ("campaign away", {"days": 1}), ("campaign export", {}), ("campaign settings", {}), ("campaign end", {}),
    ("order give", {"force": "x", "order": "defend"}), ("order move", {"force": "x", "path": "A1"}),
    ("order list", {}), ("order done", {}), ("force info", {"force": "x"}), ("battle list", {}),
    ("battle brief", {"battle": "1"}), ("battle scout", {"battle": "1"}), ("battle report", {"battle": "1"}),
    ("battle aftermath", {"battle": "1"}), ("battle retreat", {"battle": "1", "square": "A1"}),
    ("leader fate", {"leader": "x", "circumstance": "melee"}), ("leader roster", {}),
    ("trophy roll", {"battle": "1", "unit": "x", "target": "y"}), ("glory balance", {}),
    ("glory spend", {"kind": "rally"}), ("gm advance", {}), ("gm deadline", {"hours": 1.0}), ("gm undo", {}),
    ("gm assign", {"member": "fr", "side": "fr"}), ("gm edit", {"force": "x"}),
    ("supply status", {}), ("supply buy", {"kind": "scout", "force": "x"}), ("order reroll", {"force": "x"}),
]


async def test_every_campaign_command_without_a_campaign_says_how_to_start_one(table) -> None:
    for name, options in CAMPAIGN_COMMANDS:
        opts = {k: (table.fr if v == "fr" and k == "member" else v) for k, v in options.items()}
        r = await table.fr.slash(table.channel, name, **opts)
        assert refused(r, NO_CAMPAIGN, "/campaign create"), (name, shown(r))
    assert domain_errors_only(table.env) == len(CAMPAIGN_COMMANDS)
    assert "Traceback" not in texts(table.channel.history())


ERRORS = [  # (who, command, options, what the member reads)
    ("gm", "campaign create", {"name": "Again", "scenario": "tutorial"}, "already runs the campaign 'Ulm'"),
    ("outsider", "campaign create", {"name": "X", "scenario": "atlantis"}, "Unknown scenario 'atlantis'"),
    ("outsider", "campaign join", {"side": "prussia"}, "There is no side 'prussia'"),
    ("fr", "campaign join", {"side": "fr"}, "You already play France"),
    ("fr", "campaign map", {"view": "full"}, "Only the GM can post the full map"),
    ("gm", "campaign away", {"days": 3}, "not on a side"),
    ("gm", "campaign settings", {"name": "weather", "value": "maybe"}, "cannot be 'maybe'"),
    ("gm", "campaign settings", {"name": "bogus", "value": "x"}, "Unknown setting 'bogus'"),
    ("gm", "campaign settings", {"name": "language", "value": "klingon"}, "not offered"),
    ("fr", "order give", {"force": "soult", "order": "defend"}, "belongs to Phase 1"),
    ("fr", "order move", {"force": "soult", "path": "D4"}, "belongs to Phase 2"),
    ("fr", "order done", {}, "does not wait for players"),
    ("fr", "force info", {"force": "nobody"}, "in your sight"),
    ("fr", "battle brief", {"battle": "9"}, "no battle 9"),
    ("fr", "battle brief", {"battle": "one"}, "not a battle number"),
    ("fr", "battle scout", {"battle": "1"}, "belongs to Phase 3"),
    ("gm", "battle report", {"battle": "1", "file": ("r.yaml", b"sides: [unclosed")}, "not valid YAML"),
    ("gm", "battle report", {"battle": "1", "file": ("r.yaml", b"a: &x [1]\nb: *x\n")}, "aliases are not allowed"),
    ("fr", "battle aftermath", {"battle": "1"}, "belongs to Phase 4"),
    ("fr", "battle retreat", {"battle": "1", "square": "A1", "force": "soult"}, "belongs to Phase 4"),
    ("fr", "leader fate", {"leader": "Soult", "circumstance": "melee"}, "belongs to Phase 4"),
    ("fr", "trophy roll", {"battle": "1", "unit": "a", "target": "b"}, "belongs to Phase 4"),
    ("fr", "glory spend", {"kind": "heroic"}, "Say which unit"),
    ("gm", "gm edit", {"force": "soult"}, "Nothing to correct"),
    ("gm", "gm assign", {"member": "outsider", "side": "prussia"}, "There is no side 'prussia'"),
    ("fr", "roll dice", {"expression": "2d1"}, "2 to 1000 sides"),
]


async def test_each_command_refuses_bad_input_with_what_to_do_instead(table) -> None:
    await start(table)
    for who, name, options, message in ERRORS:
        opts = {k: (getattr(table, v) if k == "member" else v) for k, v in options.items()}
        r = await getattr(table, who).slash(table.channel, name, **opts)
        assert refused(r, message), (name, shown(r))
        assert "Correct the value and try again" not in shown(r), name  # never a hint per kind of error
        assert not KEYS.search(shown(r)), (name, shown(r))  # Forces and units by name (issue 22, item 8)
    assert domain_errors_only(table.env) == len(ERRORS)


async def test_discord_itself_refuses_values_out_of_range(table) -> None:
    await start(table)
    with pytest.raises(simcord.OptionError):
        await table.fr.slash(table.channel, "roll cc", count=0)
    with pytest.raises(simcord.OptionError):
        await table.gm.slash(table.channel, "gm deadline", hours=5000.0)


async def test_an_unexpected_error_is_logged_with_an_id_the_member_is_shown(table, monkeypatch, caplog) -> None:
    await start(table)

    async def boom(*args, **kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr("bot.services.views.status_card", boom)  # what /campaign status reads
    with caplog.at_level(logging.ERROR, logger="adc.bot"):
        r = await table.fr.slash(table.channel, "campaign status")
    m = re.search(r"error ID is `([0-9a-f]{8})`", shown(r))
    assert m and r.ephemeral and "database on fire" not in shown(r) and "Traceback" not in shown(r)
    assert any(f"error_id={m.group(1)}" in rec.getMessage() and rec.exc_info for rec in caplog.records)
    simcord.assert_error(table.env, RuntimeError)


async def test_buttons_report_their_errors_the_same_way(table) -> None:
    await start(table)
    nothing = await table.gm.slash(table.channel, "gm undo")
    assert refused(nothing, "no phase resolution to undo") and not nothing.response.components  # no dead button
    await advance(table)
    undo = await table.gm.slash(table.channel, "gm undo")
    bot, gm = table.env.bot, Actor(table.gm.id)  # the campaign moves on while the GM looks at the prompt
    async with bot.db.sessions() as s:
        cid = (await campaign_in_channel(s, table.channel.id)).id
    st = await views.status(bot.db, cid, gm)
    await resolution.resolve_phase(bot.db, cid, gm, expected_version=st.version, forced=True)
    r = await table.gm.click(undo.response, label="Undo")
    assert "changed since you looked" in shown(r) and r.followups[0].ephemeral
    assert domain_errors_only(table.env) >= 1  # refusals, never a crash
