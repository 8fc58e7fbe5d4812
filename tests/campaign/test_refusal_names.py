"""Refusals speak names (issue 22, item 8): a refusal names Forces, units, leaders and sides by their
names and terrain in words, never by the keys a scenario gives them; the hint under a refusal is
written for that refusal or there is none (bot/campaign/hints.py), never one per kind of error.

The tutorial's keys differ from its names: side ``fr`` is France, Force ``soult`` is IV Corps, unit
``riesch`` is Riesch's Column."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from babel.messages.pofile import read_po

from bot.campaign import claims, hints, leaders, turn
from bot.campaign.events import Journal
from bot.campaign.state import Aftermath, BattleStatus
from bot.engine.errors import EngineError, InvalidInput, RuleViolation
from bot.engine.grid import CampaignMap
from bot.engine.model import Cell, Square, Terrain
from bot.engine.movement import check_land_path
from bot.engine.phases import Phase
from bot.engine.reports import parse_report
from bot.i18n.catalogues import pot_path
from bot.i18n.text import tr
from bot.services.errors import NotFound
from tests.campaign.test_claims_core import AUSTRIAN, FRENCH, Member, at_battle, part
from tests.campaign.test_orders_core import ctx

KEYS = re.compile(r"\b(fr|au|soult|lannes|mack|vandamme|riesch|margaron|st-hilaire|suchet)\b")


def keyless(error: EngineError) -> str:
    text = str(error)
    assert not KEYS.search(text), text
    return text


def test_the_phase_still_waiting_names_the_sides_not_their_keys() -> None:
    state = at_battle().evolve(phase=Phase.ORDERS)
    with pytest.raises(RuleViolation) as refused:
        turn.resolve(state, Journal(), ctx())
    assert keyless(refused.value) == ("Phase 1: Orders and Force tests (MC-4) is still waiting: France: give orders, "
                                      "then mark done; Austria: give orders, then mark done.")
    assert hints.hint_for(refused.value) is not None  # and what the GM can do about it


def test_a_claims_refusals_list_units_by_name() -> None:
    state = at_battle()
    with pytest.raises(InvalidInput) as refused:
        claims.claim_by(state, Member(FRENCH), 1, part("fr", "won", units=[{"unit": "riesch", "killed": 1}]),
                        Journal())
    # What was typed is quoted back; the units offered instead are named.
    assert "yours are" in str(refused.value) and "Vandamme's Division" in str(refused.value)
    assert "vandamme," not in str(refused.value) and "margaron" not in str(refused.value)
    with pytest.raises(InvalidInput) as refused:
        claims.claim_by(state, Member(FRENCH), 1, part("fr", "won", melee=[{"unit": "riesch", "by": "nobody"}]),
                        Journal())
    assert "Melee elimination of 'Riesch's Column'" in str(refused.value)
    form = claims.form_for(state, Member(AUSTRIAN), 1)
    with pytest.raises(InvalidInput) as refused:
        claims.part_from_form(form, outcome="lost", system="cc", banners="", losses="nobody: 1", more="")
    assert keyless(refused.value).startswith("Losses, line 1: 'nobody: 1' is not \"unit: killed rout other\"; "
                                             "your units are Riesch's Column, ")


def test_a_trophy_refusal_names_both_units() -> None:
    state = at_battle()
    report = {"battle": "1", "system": "cc", "banners_required": 6,
              "sides": [{"side": "au", "outcome": "lost", "banners": 2, "units": [{"unit": "riesch", "killed": 2}]},
                        {"side": "fr", "outcome": "won", "banners": 6, "units": []}],
              "melee_eliminations": [{"unit": "riesch", "by": "vandamme"}]}
    battle = replace(state.battles[1], status=BattleStatus.REPORTED, report=parse_report(report),
                     aftermath=Aftermath(trophies={("vandamme", "riesch"): False}))
    state = state.with_battle(battle).evolve(phase=Phase.AFTERMATH)
    with pytest.raises(RuleViolation) as refused:
        leaders.require_trophy_due(state, battle, "vandamme", "riesch")
    assert keyless(refused.value) == "Vandamme's Division has already tried for Riesch's Column's flag."
    with pytest.raises(NotFound) as refused:
        leaders.trophy_by(state, Member(FRENCH), 1, "vandamme", "margaron", Journal(), ctx())
    # One's own unit by its name, and the target by its name too to a side that fought in that battle; to
    # anyone else the target is echoed as typed (fog of war: tests/bot/test_leaks_everywhere.py).
    assert "'Vandamme's Division' eliminated 'Margaron's Light Cavalry'" in keyless(refused.value)


def test_water_is_named_in_the_readers_words() -> None:
    cmap = CampaignMap(3, 1, {Square.parse("B1"): Cell(Terrain.LAKE)})
    with pytest.raises(RuleViolation) as refused:
        check_land_path(cmap, Square.parse("A1"), [Square.parse("B1")])
    assert str(refused.value).startswith("B1 is lake: a Force cannot march into water")
    assert tr("fr", refused.value.text).startswith("B1 est lac") or "lac" in tr("fr", refused.value.text)
    assert "lake" not in tr("de", refused.value.text)


def test_every_hint_is_for_a_refusal_the_code_raises_and_none_is_a_kind_of_error() -> None:
    with open(pot_path("engine"), "rb") as f:
        templates = {m.id for m in read_po(f) if isinstance(m.id, str)}
    assert set(hints.HINTS) <= templates, set(hints.HINTS) - templates
    assert hints.hint_for(RuleViolation("The campaign {name!r} has ended.", name="Ulm")) is not None
    assert hints.hint_for(InvalidInput("Correct the value and try again.")) is None
