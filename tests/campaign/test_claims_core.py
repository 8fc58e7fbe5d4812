"""BR: each camp reports its own part of a battle; agreed parts make the report, differences go to the
GM (bot/campaign/claims.py), through the core the bot calls."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.campaign import claims, disputes
from bot.campaign.errors import PermissionDenied
from bot.campaign.events import Journal
from bot.campaign.new import from_scenario
from bot.campaign.state import Battle, BattleStatus, CampaignState
from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.phases import Phase
from bot.engine.reports import report_data
from bot.scenario import load_bundled

GM_ID, FRENCH, AUSTRIAN, OUTSIDER = 1, 2001, 2002, 2003


class Member:
    def __init__(self, member_id: int) -> None:
        self.member_id, self.roles = member_id, ()


def at_battle() -> CampaignState:
    """Soult (France) and Mack (Austria) fight at J5: Phase 3, battle 1 pending."""
    state = from_scenario(load_bundled("tutorial"), campaign_id=1, name="Ulm", gm_id=GM_ID, options={})
    state = state.evolve(players={FRENCH: "fr", AUSTRIAN: "au"}, phase=Phase.BATTLE)
    state = state.with_force("soult", square="J5").with_force("mack", square="J5")
    return state.with_battle(Battle(1, state.turn, "J5", ("mack", "soult"), ("au", "fr")))


def part(side: str, outcome: str, *, banners: int | None = None, required: int | None = 6, units=(),
         system: str = "cc", fallen=(), melee=()) -> dict:
    doc: dict = {"system": system}
    if required is not None:
        doc["banners_required"] = required
    s: dict = {"side": side, "outcome": outcome, "units": list(units)}
    if banners is not None:
        s["banners"] = banners
    if fallen:
        s["leader_casualties"] = list(fallen)
    doc["sides"] = [s]
    if melee:
        doc["melee_eliminations"] = list(melee)
    return doc


FR_WON = part("fr", "won", banners=6, units=[{"unit": "vandamme", "killed": 2}])
AU_LOST = part("au", "lost", banners=3, units=[{"unit": "riesch", "killed": 4, "rout": 1}],
               fallen=[{"leader": "Mack", "fell": "other"}])


def both(state: CampaignState, fr: dict, au: dict) -> tuple[CampaignState, claims.ClaimResult]:
    state, first = claims.claim_by(state, Member(FRENCH), 1, fr, Journal())
    assert first.waiting_for == ("Austria",) and first.applied is None
    return claims.claim_by(state, Member(AUSTRIAN), 1, au, Journal())


def test_br_agreeing_camps_make_the_report_without_the_gm() -> None:
    state, out = both(at_battle(), FR_WON, AU_LOST)
    assert out.applied is not None and not out.differences
    battle = state.battles[1]
    assert battle.status is BattleStatus.REPORTED
    assert [s.side for s in battle.report.sides] == ["au", "fr"]  # the battle's side order
    assert not battle.aftermath.claims  # applied: the claims made the report
    assert state.sides["au"].battles_lost == 1 and state.sides["fr"].battles_won == 1


def test_br_a_camp_can_change_its_claim_until_the_other_has_reported() -> None:
    state, _ = claims.claim_by(at_battle(), Member(FRENCH), 1, part("fr", "draw", banners=2), Journal())
    state, again = claims.claim_by(state, Member(FRENCH), 1, FR_WON, Journal())
    assert again.waiting_for == ("Austria",)
    assert claims.own_claim(state, Member(FRENCH), 1)[2] == FR_WON
    assert claims.own_claim(state, Member(GM_ID), 1)[2] is None  # the GM's own draft, not the camps' claims


@pytest.mark.parametrize(("fr", "au", "needle"), [
    (FR_WON, part("au", "won", banners=6), "Outcome: France: France won; Austria: Austria won"),  # BR, RU-20
    (FR_WON, part("au", "lost", banners=3, system="epic"), "Battle system and Victory Banners required: "),
    (FR_WON, part("au", "lost", banners=3, required=7), "7 Victory Banners to win"),
    (part("fr", "draw", banners=6), part("au", "draw", banners=3), "Victory Banners: France: France 6 of 6; "
                                                                    "Austria: Austria 3 of 6"),
    (part("fr", "won", banners=6, melee=[{"unit": "art-res", "by": "margaron"}]), AU_LOST,
     "Losses of Reserve Artillery (Austria): France: eliminated in melee by"),  # CC-3: eliminated in melee, but Austria's losses leave it standing
])
def test_br_camps_that_differ_leave_the_battle_to_the_gm(fr: dict, au: dict, needle: str) -> None:
    state, out = both(at_battle(), fr, au)
    assert out.applied is None and out.differences
    assert any(needle in str(d) for d in out.differences), out.differences
    assert state.battles[1].status is BattleStatus.PENDING
    assert set(state.battles[1].aftermath.claims) == {"fr", "au"}


def test_br_the_gms_report_decides_a_disputed_battle() -> None:
    state, _ = both(at_battle(), FR_WON, part("au", "won", banners=6))
    whole = {"system": "cc", "banners_required": 6, "sides": [*FR_WON["sides"], *AU_LOST["sides"]]}
    state, (_, _, fingerprint) = claims.draft_by(state, Member(GM_ID), 1, whole, Journal())
    state, (_, lines) = claims.confirm_by(state, Member(GM_ID), 1, fingerprint, Journal())
    assert state.battles[1].status is BattleStatus.REPORTED and lines
    with pytest.raises(RuleViolation, match="already reported"):
        claims.confirm_by(state, Member(GM_ID), 1, fingerprint, Journal())


def test_br_a_confirmation_of_a_changed_draft_has_expired() -> None:
    whole = {"system": "miniatures", "sides": [{"side": "fr", "outcome": "won"}, {"side": "au", "outcome": "lost"}]}
    state, (_, _, old) = claims.draft_by(at_battle(), Member(GM_ID), 1, whole, Journal())
    other = {**whole, "sides": [{"side": "fr", "outcome": "draw"}, {"side": "au", "outcome": "draw"}]}
    state, _ = claims.draft_by(state, Member(GM_ID), 1, other, Journal())
    with pytest.raises(RuleViolation, match="has expired"):
        claims.confirm_by(state, Member(GM_ID), 1, old, Journal())


def test_br_a_claim_gives_only_its_own_sides_part() -> None:
    state = at_battle()
    with pytest.raises(InvalidInput, match="France's part only"):
        claims.claim_by(state, Member(FRENCH), 1, AU_LOST, Journal())
    with pytest.raises(InvalidInput, match="'riesch' is not one of France's"):
        claims.claim_by(state, Member(FRENCH), 1, part("fr", "won", units=[{"unit": "riesch", "killed": 1}]),
                        Journal())
    with pytest.raises(InvalidInput, match="CC-1"):
        claims.claim_by(state, Member(FRENCH), 1, part("fr", "won", fallen=[{"leader": "Mack", "fell": "melee"}]),
                        Journal())
    with pytest.raises(InvalidInput, match="CC-3"):
        claims.claim_by(state, Member(FRENCH), 1, part("fr", "won", melee=[{"unit": "margaron", "by": "vandamme"}]),
                        Journal())


def test_br_outsiders_and_the_gm_do_not_claim() -> None:
    with pytest.raises(PermissionDenied, match="Only the sides in battle 1"):
        claims.claim_by(at_battle(), Member(OUTSIDER), 1, FR_WON, Journal())
    with pytest.raises(PermissionDenied, match="The GM reports the whole battle"):
        claims.claim_by(at_battle(), Member(GM_ID), 1, FR_WON, Journal())


def test_br_the_form_reads_losses_per_unit_and_names_the_unit_in_errors() -> None:
    form = claims.form_for(at_battle(), Member(AUSTRIAN), 1)
    assert "riesch: 0 0 0   # Riesch's Column, 14 SP" in form.losses_text()
    losses = form.losses_text().replace("riesch: 0 0 0", "riesch: 4 1")
    doc = claims.part_from_form(form, outcome="lost", system="cc", banners="3/6", losses=losses,
                                more=form.more_text() + "\nMack: other\nmargaron by schwarzenberg ordered took ground")
    assert doc["sides"][0]["units"] == [{"unit": "riesch", "killed": 4, "rout": 1, "other_order": 0}]
    assert doc["sides"][0]["leader_casualties"] == [{"leader": "Mack", "fell": "other"}]
    assert doc["melee_eliminations"] == [{"unit": "margaron", "by": "schwarzenberg", "ordered": True,
                                          "took_ground": True}]
    with pytest.raises(InvalidInput, match=r"^Losses, line 1: Riesch's Column: rout must be a whole number"):
        claims.part_from_form(form, outcome="lost", system="cc", banners="", losses="riesch: 4 x", more="")
    reopened = claims.Form(**{**form.__dict__, "doc": doc})
    assert "riesch: 4 1 0" in reopened.losses_text() and reopened.banners_text() == "3/6"
    assert "Mack: other" in reopened.more_text()


FRENCH_WORDS = claims.FormWords(melee=("mêlée", "corps à corps"), other=("autre",), by=("par",),
                                ordered=("ordonné",), took_ground=("a pris le terrain",))


def test_br_the_forms_last_box_is_typed_in_the_readers_words_and_english_is_understood_too() -> None:
    """Issue 23, item 2: "Mack : mêlée" and "margaron par schwarzenberg ordonné a pris le terrain" are read;
    a reopened form says them in the reader's words."""
    form = claims.form_for(at_battle(), Member(AUSTRIAN), 1)
    doc = claims.part_from_form(form, outcome="lost", system="cc", banners="", losses="", words=FRENCH_WORDS,
                                more="Mack : Mêlée\nmargaron par Schwarzenberg ordonné a pris le terrain")
    assert doc["sides"][0]["leader_casualties"] == [{"leader": "Mack", "fell": "melee"}]
    assert doc["melee_eliminations"] == [{"unit": "margaron", "by": "schwarzenberg", "ordered": True,
                                          "took_ground": True}]
    english = claims.part_from_form(form, outcome="lost", system="cc", banners="", losses="", words=FRENCH_WORDS,
                                    more="Mack: other")
    assert english["sides"][0]["leader_casualties"] == [{"leader": "Mack", "fell": "other"}]
    reopened = claims.Form(**{**form.__dict__, "doc": doc})
    assert "Mack: mêlée" in reopened.more_text(FRENCH_WORDS)
    assert "margaron par schwarzenberg ordonné a pris le terrain" in reopened.more_text(FRENCH_WORDS)


def test_br_a_refused_word_names_the_box_the_line_and_the_words_to_write_never_a_path() -> None:
    form = claims.form_for(at_battle(), Member(AUSTRIAN), 1)
    with pytest.raises(InvalidInput) as refused:
        claims.part_from_form(form, outcome="lost", system="cc", banners="", losses="", words=FRENCH_WORDS,
                              more="Mack : au sabre")
    said = str(refused.value.text)
    assert said.startswith("Fallen leaders and melee eliminations, line 1: 'au sabre' is not how a leader falls")
    assert "mêlée" in said and "autre" in said and "[" not in said and "leader_casualties" not in said
    with pytest.raises(InvalidInput, match="'nobody' is not an enemy unit of this battle"):
        claims.part_from_form(form, outcome="lost", system="cc", banners="", losses="", more="nobody by riesch")


def test_br_the_forms_last_box_is_a_select_of_what_can_happen() -> None:
    """Issue 23, item 2: how each leader fell and who took whom, picked, never typed."""
    form = claims.form_for(at_battle(), Member(AUSTRIAN), 1)
    offered = dict(form.choices())
    assert "fell:0:melee" in offered and "fell:0:other" in offered
    took = next(v for v in offered if v.startswith("took:") and v.endswith(":1"))
    _, mine, theirs, _ = took.split(":")
    doc = claims.part_from_form(form, outcome="lost", system="cc", banners="", losses="",
                                chosen=["fell:0:melee", took])
    assert doc["sides"][0]["leader_casualties"] == [{"leader": form.leaders[0], "fell": "melee"}]
    assert doc["melee_eliminations"] == [{"unit": theirs, "by": mine, "ordered": True, "took_ground": True}]
    assert set(claims.Form(**{**form.__dict__, "doc": doc}).chosen()) == {"fell:0:melee", took}
    with pytest.raises(InvalidInput, match="fell once, in melee or in other circumstances, not both"):
        claims.part_from_form(form, outcome="lost", system="cc", banners="", losses="",
                              chosen=["fell:0:melee", "fell:0:other"])
    with pytest.raises(InvalidInput, match="no longer offers that choice"):
        claims.part_from_form(form, outcome="lost", system="cc", banners="", losses="", chosen=["fell:9:melee"])


def test_br_the_template_lists_the_units_and_is_accepted_back_unchanged() -> None:
    state = at_battle()
    number, text = claims.template_for(state, Member(FRENCH), 1)
    assert "vandamme" in text and "Vandamme's Division, 12 SP" in text and "riesch" in text  # enemy keys for CC-3
    state, out = claims.claim_by(state, Member(FRENCH), number, yaml.safe_load(text), Journal())
    assert out.waiting_for == ("Austria",)
    _, whole = claims.template_for(state, Member(GM_ID), 1)
    claims.draft_by(state, Member(GM_ID), 1, yaml.safe_load(whole), Journal())  # all draw, no losses: valid


def test_br_the_documented_example_is_a_valid_report() -> None:
    """docs/battle-report.md's example validates (BR)."""
    doc = (Path(__file__).parents[2] / "docs" / "battle-report.md").read_text()
    example = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    claims.draft_by(at_battle(), Member(GM_ID), 1, yaml.safe_load(example), Journal())


def take(state: CampaignState, index: int, camp: int):
    found = disputes.dispute_by(state, Member(GM_ID), 1)
    return disputes.take_by(state, Member(GM_ID), 1, index, camp, found.fingerprint, Journal())


def test_br_the_gm_takes_a_camps_account_per_field_and_the_merged_report_is_the_draft_to_confirm() -> None:
    fr = part("fr", "won", banners=6, units=[{"unit": "vandamme", "killed": 2}],
              melee=[{"unit": "art-res", "by": "margaron"}])
    state, _ = both(at_battle(), fr, part("au", "won", banners=6, units=[{"unit": "riesch", "killed": 4}]))
    found = disputes.dispute_by(state, Member(GM_ID), 1)
    assert [f.field for f in found.fields] == [disputes.Field.OUTCOME, disputes.Field.BANNERS, disputes.Field.UNIT]
    assert found.camps == ("fr", "au")  # the scenario's order
    for i in range(3):
        state, out = take(state, i, 0)
    assert out.dispute.complete and out.draft and out.problem is None
    doc = report_data(state.battles[1].aftermath.draft)
    assert [(s["side"], s["outcome"], s["banners"]) for s in doc["sides"]] == [("fr", "won", 6), ("au", "lost", 5)]
    art = next(u for u in doc["sides"][1]["units"] if u["unit"] == "art-res")
    sp = next(u.sp for f in state.forces.values() for u in f.units if u.key == "art-res")
    assert art["killed"] == sp  # eliminated in melee: all its SP (CC-3)
    state, (_, lines) = claims.confirm_by(state, Member(GM_ID), 1, out.draft, Journal())
    assert state.battles[1].status is BattleStatus.REPORTED and lines


def test_br_taking_the_other_camps_account_drops_the_melee_elimination_and_a_changed_claim_expires_the_taps() -> None:
    fr = part("fr", "won", banners=6, melee=[{"unit": "art-res", "by": "margaron"}])
    state, _ = both(at_battle(), fr, AU_LOST)
    found = disputes.dispute_by(state, Member(GM_ID), 1)
    assert [f.field for f in found.fields] == [disputes.Field.UNIT]
    state, out = take(state, 0, 1)
    assert out.draft and state.battles[1].aftermath.draft.melee_eliminations == ()
    old = found.fingerprint
    state, _ = claims.claim_by(state, Member(AUSTRIAN), 1, part("au", "won", banners=6), Journal())
    with pytest.raises(RuleViolation, match="changed their reports"):
        disputes.take_by(state, Member(GM_ID), 1, 0, 1, old, Journal())
    with pytest.raises(PermissionDenied):
        disputes.take_by(state, Member(FRENCH), 1, 0, "au", old, Journal())
