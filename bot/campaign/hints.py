"""What to do after a refusal, where the refusal itself does not say it (issue 22, item 8).

A refusal's own words say what is wrong and, for most, what is allowed instead ("Name the unit of IV
Corps (unit:)."). Some only state a fact ("There is no battle 7 in this campaign."): for those, this
table gives the member's next step, written for that refusal, by its English template. A refusal
with no entry here is shown alone: never a hint chosen by the kind of error.
"""

from __future__ import annotations

from bot.engine.errors import EngineError
from bot.engine.text import Msg

HINTS: dict[str, Msg] = {
    "The campaign {name!r} has ended.":
        Msg("Its map, log and status stay readable; a GM can start another with /campaign create."),
    "There is no battle {text} in this campaign.": Msg("/battle list shows the battles of this turn and before."),
    "{number!r} is not a battle number: battles are numbered 1, 2, 3...":
        Msg("/battle list shows the battles and their numbers."),
    "Your side does not fight battle {number}.": Msg("/battle list shows which battles your side fights."),
    "Only the sides in battle {number} and the GM can do that.": Msg("/battle list shows who fights each battle."),
    "{name} is not on the map.": Msg("/order list shows your Forces on the map; a reinforcement arrives in Phase 7."),
    "You have no Force {force!r}.": Msg("Pick one of your Forces from the suggestions as you type; /order list lists them."),
    "There is no Force {text!r} in this campaign.": Msg("Pick a Force from the suggestions as you type."),
    "{force} has no unit {unit!r}.": Msg("/force info shows the units of a Force; pick one from the suggestions."),
    "{name} has no unit {unit!r}.": Msg("/force info shows the units of a Force; pick one from the suggestions."),
    "You have no unit {unit!r}.": Msg("Pick one of your units from the suggestions as you type."),
    "Only the GM of {name!r} can do that.": Msg("Ask the GM: /campaign status names them."),
    "{title} is still waiting: {missing}.":
        Msg("The GM can end the phase now with /gm advance and its red button (not Phase 3, which waits for its "
            "battles' reports)."),
    "{name} has already taken its Force test this turn (MC-4).":
        Msg("A Force tests once a turn; with FC-3 on, /order reroll spends a scout to re-roll it."),
    "Your side has already scouted battle {number} (RU-5).": Msg("Each camp scouts once; report the result next."),
    "Your side has already rolled the aftermath of battle {number}.":
        Msg("/campaign log shows what your side rolled."),
    "This phase was already resolved (or undone) by someone else: the campaign is now at {turnposition}.":
        Msg("/campaign status shows where the campaign is now."),
    "The campaign changed since you looked (someone resolved or undid a phase): look again.":
        Msg("/campaign status shows where the campaign is now."),
    "{title} does not wait for players to be done.": Msg("See /campaign status: it says what this phase waits for."),
    "There is no phase resolution to undo.": Msg("Undo reverts the last phase resolution of the turn being played."),
    "That member has no request to join waiting: it was withdrawn or already answered.":
        Msg("/campaign status lists the requests still waiting."),
    "You have no request to join waiting.": Msg("/campaign join asks to join a side."),
    "No scout left to spend for a re-roll ({scout_rule}): {scouts} held.":
        Msg("With supply on (FC-2), /supply buy buys a scout in Phase 1."),
    "{side} has {balance} Glory and {label} costs {cost} (CC-4).": Msg("/glory balance shows your side's Glory."),
}


def hint_for(error: EngineError) -> Msg | None:
    """The member's next step after ``error``, when its own words do not say it."""
    return HINTS.get(getattr(error.text, "template", str(error.text)))
