"""Allies are allies everywhere (RU-19, RU-23), through the core's functions as the services call them:
an ally's stronghold is friendly after a draw (MC-7.3), Glory is the camp's and computed once per camp
(CC-4), the scouting contest is between camps (MC-6.1, RU-5), a captured leader's Glory goes to the
winning camp (CC-1), and an ally of Spain never "faces the Spanish" (RU-17)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from bot.campaign import aftermath, claims, glory, leaders, scouting
from bot.campaign.dice import Context
from bot.campaign.events import Journal
from bot.campaign.new import from_scenario
from bot.campaign.state import Battle, CampaignState, Scouting
from bot.engine.errors import RuleViolation
from bot.engine.model import Reaction
from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook
from bot.scenario import parse_scenario_text

FRENCH, AUSTRIAN, PIEDMONTESE = 2001, 3001, 4001
CTX = Context(lambda: hashlib.sha256(b"camps").digest(), default_rulebook())

ALLIED = """
name: Alessandria
start_date: 1796-04-10
theatre: {theatre}
map: {{width: 8, height: 6, territories: {{au: ['A1:B6'], pi: ['C1:E6'], fr: ['F1:H6']}}, strongholds: {{pi: [D4]}}}}
sides: [{{key: fr, name: France, nation: {fr_nation}}}, {{key: au, name: Austria}}, {{key: pi, name: Piedmont, nation: {pi_nation}}}, {{key: ba, name: Bavaria}}]
alliances: [[au, pi]]
forces:
  - {{key: beaulieu, name: Beaulieu, side: au, square: D4, leader: {{name: Beaulieu, cv: 2}}, units: [{{key: argenteau, name: Argenteau, sp: 6}}, {{key: hussars, name: Hussars, sp: 4, type: cavalry}}]}}
  - {{key: colli, name: Colli, side: pi, square: D4, leader: {{name: Colli, cv: 2}}, units: [{{key: provera, name: Provera, sp: 3}}]}}
  - {{key: wrede, name: Wrede, side: ba, square: G2, leader: {{name: Wrede, cv: 1}}, units: [{{key: bavarians, name: Bavarians, sp: 5}}]}}
  - {{key: massena, name: Massena, side: fr, square: E4, leader: {{name: Massena, cv: 2}}, units: [{{key: laharpe, name: Laharpe, sp: 6}}, {{key: dragoons, name: Dragoons, sp: 2, type: cavalry}}]}}
"""


def state_with_battle(*forces: str, theatre: str = "other", fr_nation: str = "French",
                      pi_nation: str = "Piedmontese") -> CampaignState:
    """The three sides in Phase 3 of turn 1, with battle 1 at D4 (Piedmont's stronghold) of ``forces``."""
    spec = parse_scenario_text(ALLIED.format(theatre=theatre, fr_nation=fr_nation, pi_nation=pi_nation))
    state = from_scenario(spec, campaign_id=1, name="Alessandria", gm_id=1)
    state = state.evolve(players={FRENCH: "fr", AUSTRIAN: "au", PIEDMONTESE: "pi"}, phase=Phase.BATTLE)
    state = state.with_force("massena", square="D4").with_force("wrede", square="D4")
    sides = tuple(sorted({state.forces[k].side for k in forces}))
    return state.with_battle(Battle(1, state.turn, "D4", forces, sides))


def test_mc_7_3_ru_19_after_a_draw_at_an_allys_stronghold_the_ally_stays_and_only_the_enemy_leaves() -> None:
    state = state_with_battle("beaulieu", "massena")
    state, _ = aftermath.report(state, 1, {"system": "miniatures", "sides": [
        {"side": "au", "outcome": "draw"}, {"side": "fr", "outcome": "draw"}]}, Journal())
    assert set(state.battles[1].aftermath.retreats) == {"massena"}  # the Austrians hold Piedmont's stronghold


CC_VICTORY = {"system": "cc", "banners_required": 6, "sides": [
    {"side": "au", "outcome": "won", "banners": 4}, {"side": "pi", "outcome": "won", "banners": 2},
    {"side": "fr", "outcome": "lost", "banners": 3}]}


def test_cc_4_ru_23_glory_is_computed_once_per_camp_from_its_summed_banners_and_goes_to_its_strongest_side() -> None:
    state = state_with_battle("beaulieu", "colli", "massena")
    state, _ = aftermath.report(state, 1, CC_VICTORY, Journal())
    by_side = {k: glory.ledger(state, k).balance for k in ("au", "pi", "fr")}
    # The allied camp won 6 banners to 3: 1 + (6 - 3) // 2 = 2, once, to Austria (10 SP against Piedmont's 3).
    # France lost with 3 of the 6 required (at least half): 1.
    assert by_side == {"au": 2, "pi": 0, "fr": 1}


def test_cc_4_ru_23_the_camps_glory_goes_to_the_first_side_in_the_scenario_when_their_sp_tie() -> None:
    state = state_with_battle("beaulieu", "colli", "massena")
    state = state.with_unit("colli", replace(state.forces["colli"].units[0], sp=10, original_sp=10))  # 10 SP each
    state, _ = aftermath.report(state, 1, CC_VICTORY, Journal())
    assert glory.ledger(state, "au").balance == 2 and glory.ledger(state, "pi").balance == 0  # au is listed first


def test_cc_4_ru_17_ru_23_heroic_after_an_allied_victory_is_accepted() -> None:
    state = state_with_battle("beaulieu", "colli", "massena")
    state, _ = aftermath.report(state, 1, CC_VICTORY, Journal())
    # Austria holds the camp's Glory and makes the Piedmontese unit that fought beside it Heroic.
    state, spent = glory.spend_by(state, _Member(AUSTRIAN), "heroic", Journal(), CTX, battle=1, unit="provera")
    assert spent.balance == 1
    assert state.forces["colli"].units[0].heroic
    with pytest.raises(RuleViolation, match="Only the winner"):
        glory.spend_by(state, _Member(FRENCH), "heroic", Journal(), CTX, battle=1, unit="laharpe")


def test_mc_6_1_ru_5_ru_23_the_scouting_contest_is_between_camps() -> None:
    state = state_with_battle("beaulieu", "colli", "massena")
    state = state.with_force("massena", reaction=Reaction.UNSTEADY)  # no exploration at all: scores 0 (MC-6.1)
    state = state.with_battle(replace(state.battles[1], scouting=Scouting({"au": 5, "pi": 5})))
    state, out = scouting.scout(state, FRENCH, 1, Journal(), CTX)
    assert out.complete and out.score == 0
    assert out.winner in ("au", "pi") and state.camps.camp_of(out.winner) == state.camps.camp_of("au")


def test_cc_1_ru_23_a_captured_leaders_glory_goes_to_the_winning_camp_never_to_a_loser() -> None:
    """Three camps (RU-20): France won, Bavaria and the allies lost; Colli (Piedmont) falls in melee. Bavaria
    is hostile to Piedmont too, but lost: a captured Colli is France's Glory."""
    state = state_with_battle("beaulieu", "colli", "massena", "wrede")
    report = {"system": "miniatures", "sides": [
        {"side": "au", "outcome": "lost"}, {"side": "pi", "outcome": "lost",
                                             "leader_casualties": [{"leader": "Colli", "fell": "melee"}]},
        {"side": "ba", "outcome": "lost"}, {"side": "fr", "outcome": "won"}]}
    state, _ = aftermath.report(state, 1, report, Journal())
    state = state.evolve(phase=Phase.AFTERMATH)
    # Roll Colli's fate on seeds until one captures him: the Glory is always France's.
    for n in range(40):
        ctx = Context(lambda n=n: hashlib.sha256(f"capture-{n}".encode()).digest(), default_rulebook())
        after, out = leaders.apply_fate(state.evolve(seeds={}), 1, "Colli", _melee(), Journal(), ctx)
        if out.fate.status.value == "captured":
            awards = [g for g in after.glory if "captured" in g.reason]
            assert [g.side for g in awards] == ["fr"]
            return
    pytest.fail("no seed captured Colli")


def test_ru_17_ru_23_spains_ally_does_not_face_the_spanish() -> None:
    """Piedmont stands in for Spain here: Austria, its ally, may not spend Anti-Guerrilla against France, and
    France, which faces the Spanish (Piedmont), may."""
    state = state_with_battle("beaulieu", "colli", "massena", theatre="spain", fr_nation="French",
                              pi_nation="Spanish")
    state = state.plus_glory(*(glory.GloryEntry(k, 1, 3, "earlier battles") for k in ("au", "fr")))
    with pytest.raises(RuleViolation, match="facing the Spanish"):
        glory.spend_by(state, _Member(AUSTRIAN), "anti_guerrilla", Journal(), CTX, battle=1)
    state, spent = glory.spend_by(state, _Member(FRENCH), "anti_guerrilla", Journal(), CTX, battle=1)
    assert spent.balance == 2


def test_br_ru_23_allies_who_each_enter_their_own_banners_and_agree_are_not_sent_to_the_gm() -> None:
    state = state_with_battle("beaulieu", "colli", "massena")
    parts = {
        "au": {"system": "cc", "banners_required": 6, "sides": [{"side": "au", "outcome": "won", "banners": 4}]},
        "pi": {"system": "cc", "banners_required": 6, "sides": [{"side": "pi", "outcome": "won", "banners": 2}]},
        "fr": {"system": "cc", "banners_required": 6, "sides": [{"side": "fr", "outcome": "lost", "banners": 3}]},
    }
    for side, part in parts.items():
        state, result = claims.claim(state, side, 1, part, Journal())
    assert result.applied is not None and not result.differences


def test_br_ru_23_allies_who_each_enter_their_camps_total_are_told_to_enter_their_own() -> None:
    state = state_with_battle("beaulieu", "colli", "massena")
    parts = {
        "au": {"system": "cc", "banners_required": 6, "sides": [{"side": "au", "outcome": "won", "banners": 6}]},
        "pi": {"system": "cc", "banners_required": 6, "sides": [{"side": "pi", "outcome": "won", "banners": 6}]},
        "fr": {"system": "cc", "banners_required": 6, "sides": [{"side": "fr", "outcome": "lost", "banners": 3}]},
    }
    for side, part in parts.items():
        state, result = claims.claim(state, side, 1, part, Journal())
    assert result.applied is None and result.differences
    assert any("its own" in d for d in result.differences)


class _Member:
    def __init__(self, member_id: int) -> None:
        self.member_id = member_id
        self.roles: frozenset[int] = frozenset()


def _melee():
    from bot.engine.cc_model import Circumstance

    return Circumstance.MELEE
