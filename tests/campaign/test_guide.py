"""How to play (the button on joining a side, issue 13): a player's turn phase by phase, from the
campaign's settings (bot.campaign.guide.how_to_play)."""

from __future__ import annotations

from dataclasses import replace

from bot.campaign.guide import ANY_TIME, how_to_play
from bot.campaign.settings import Settings
from bot.engine.phases import Phase


def commands(stages) -> dict[Phase, list[str]]:
    return {s.phase: [step.command for step in s.steps] for s in stages}


def test_a_default_campaign_asks_orders_moves_battles_and_aftermath_of_a_player() -> None:
    stages = how_to_play(Settings())
    assert [s.phase for s in stages] == list(Phase)  # weather and random events are on by default
    asked = commands(stages)
    assert asked[Phase.ORDERS] == ["order give", "order done"]
    assert asked[Phase.MOVEMENT] == ["order move", "order done"]
    assert asked[Phase.BATTLE] == ["battle scout", "battle brief", "glory spend"]
    assert asked[Phase.AFTERMATH] == ["battle aftermath", "battle retreat", "leader fate", "trophy roll"]
    assert all(not asked[p] for p in (Phase.WEATHER, Phase.WILL_TO_FIGHT, Phase.TIME, Phase.REINFORCEMENTS,
                                      Phase.EVENTS))  # the bot plays these


def test_supply_and_scout_rerolls_add_their_commands_and_options_drop_their_phases() -> None:
    settings = replace(Settings(), supply=True, scout_rerolls=True, weather=False, random_events=False)
    stages = how_to_play(settings)
    assert Phase.WEATHER not in [s.phase for s in stages] and Phase.EVENTS not in [s.phase for s in stages]
    asked = commands(stages)
    assert asked[Phase.ORDERS] == ["order give", "supply buy", "order reroll", "order done"]
    assert asked[Phase.MOVEMENT] == ["order move", "order reroll", "order done"]


def test_the_guide_names_the_rule_of_every_roll_and_ends_with_help_and_rules() -> None:
    for stage in how_to_play(Settings()):
        for step in stage.steps:
            if step.command not in ("order done", "battle brief"):
                assert "(" in step.why and any(k in step.why for k in ("MC-", "CC-", "FC-")), step
    assert [s.command for s in ANY_TIME][-2:] == ["help", "rules"]
