"""What to post, where and for whom (issue 22, item 1): the plan a resolution makes, from the state before and
after and its events, through the core's own resolution. One post in the campaign's channel per resolution
(the next card, or the gazette carrying it); a side's own news only to its channel; a battle's end-of-Phase-4
news only in its thread; nothing a side may not read."""

from __future__ import annotations

import hashlib

from bot.campaign import aftermath, announce
from bot.campaign.announce import What, Where
from bot.campaign.dice import Context
from bot.campaign.events import Journal
from bot.campaign.new import from_scenario
from bot.campaign.state import Battle, CampaignState
from bot.campaign.turn import resolve
from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook
from bot.scenario import load_bundled

CTX = Context(lambda: hashlib.sha256(b"announce").digest(), default_rulebook())


def tutorial() -> CampaignState:
    state = from_scenario(load_bundled("tutorial"), campaign_id=1, name="Ulm", gm_id=1)
    return state.evolve(players={2001: "fr", 3001: "au"})


def plan_of(state: CampaignState, **kwargs: object) -> tuple[announce.Plan, CampaignState]:
    journal = Journal()
    done = resolve(state, journal, CTX, **kwargs)  # type: ignore[arg-type]
    return announce.resolution(state, done.state, journal.events, battles=done.battles,
                               turn_ended=done.turn_ended), done.state


def test_the_start_posts_one_phase_card_with_the_weather_folded_in() -> None:
    plan, after = plan_of(tutorial())
    assert after.phase is Phase.ORDERS
    channel = [p for p in plan.posts if p.where is Where.CHANNEL]
    assert [p.what for p in channel] == [What.PHASE_CARD]
    assert any("Weather (house rule RU-10)" in line for line in channel[0].lines)
    assert not any(line.startswith("Now:") for line in channel[0].lines)  # the log's position marker stays there


def test_a_movement_with_a_battle_opens_its_thread_and_posts_one_card() -> None:
    state = resolve(tutorial(), Journal(), CTX).state
    state = resolve(state, Journal(), CTX, forced=True).state  # Phase 1 -> 2
    state = state.with_force("soult", square="J5")  # in Mack's square when Movement resolves: they meet
    plan, after = plan_of(state, forced=True)
    assert after.phase is Phase.BATTLE
    assert [p.battle for p in plan.of(What.BATTLE_THREAD)] == [1]
    assert [p.what for p in plan.posts if p.where is Where.CHANNEL] == [What.PHASE_CARD]
    assert plan.retire_card


def test_a_turns_end_posts_the_gazette_alone_in_the_channel_and_each_battles_news_in_its_thread() -> None:
    state = tutorial().evolve(phase=Phase.BATTLE)
    state = state.with_force("soult", square="J5").with_battle(Battle(1, 1, "J5", ("mack", "soult"), ("au", "fr")))
    state, _ = aftermath.report(state, 1, {"system": "miniatures", "sides": [
        {"side": "fr", "outcome": "lost"}, {"side": "au", "outcome": "won"}]}, Journal())
    state = resolve(state, Journal(), CTX).state  # Phase 3 -> 4
    plan, after = plan_of(state, forced=True)  # Phase 4: the bot rolls, Soult retreats; the turn ends
    assert after.turn == 2
    assert [(p.what, p.turn) for p in plan.posts if p.where is Where.CHANNEL] == [(What.GAZETTE, 1)]
    (news,) = plan.of(What.BATTLE_NEWS)
    assert news.battle == 1 and any("the bot rolled" in line for line in news.lines)


def test_a_sides_own_news_goes_to_its_channel_only() -> None:
    state = resolve(tutorial(), Journal(), CTX).state
    journal = Journal()
    journal.say(state, "private to France", visibility="side:fr")
    plan = announce.resolution(state, state, journal.events)
    assert [(p.what, p.side, p.lines) for p in plan.of(What.SIDE_NEWS)] == [
        (What.SIDE_NEWS, "fr", ("private to France",))]
    assert all("private to France" not in p.lines for p in plan.posts if p.where is Where.CHANNEL)
