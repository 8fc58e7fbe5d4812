"""What a member can do now (``/help``): the commands that move the campaign on for their role and
the current phase, each with why, decided from the state as the rules and fog of war allow."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.model import Order
from bot.engine.phases import Phase
from bot.engine.text import Msg

from .settings import Settings
from .sight import Reader
from .state import BattleStatus, CampaignState, CampaignStatus, ForceState, ForceStatus
from .views import waiting


@dataclass(frozen=True)
class Step:
    """One thing to do: a command (its English name, e.g. ``order give``) and why, for this member."""

    command: str
    why: str


def next_steps(state: CampaignState, reader: Reader) -> tuple[Step, ...]:
    """The commands that matter now for ``reader``, most urgent first. Always ends with the ones to look
    around (status, map). Nothing about another side's Forces is named (fog of war)."""
    steps: list[Step] = []
    if state.status is not CampaignStatus.ACTIVE:
        steps.append(Step("campaign log", Msg("the campaign is over: read how it went")))
    elif reader.gm:
        steps += _gm(state, reader)
    elif reader.side is None:
        steps.append(Step("campaign join", Msg("join a side to play: {sides}",
                                               sides=Msg.join(", ", (s.name for s in state.sides.values())))))
    else:
        steps += _player(state, reader.side)
    steps.append(Step("campaign status", Msg("where the campaign stands and who it waits for")))
    steps.append(Step("campaign map", Msg("the map as you may see it")))
    return tuple(steps)


def _player(state: CampaignState, side: str) -> list[Step]:
    own = [f for f in state.active() if f.side == side]
    declared = {d.force for d in state.declarations if d.turn == state.turn and d.phase is state.phase}
    done = state.sides[side].done
    out: list[Step] = []
    match state.phase:
        case Phase.ORDERS if not done:
            if any(f.key not in declared for f in own):
                out.append(Step("order give", Msg("change a Force's order or shed a reaction with a Force test (MC-4)")))
            if state.settings.supply and state.sides[side].supply > 0:
                out.append(Step("supply buy", Msg("spend your {points} supply points (FC-2)",
                                                  points=state.sides[side].supply)))
            out += _rerolls(state, own, declared)
            out.append(Step("order done", Msg("say your side has finished its orders")))
        case Phase.MOVEMENT if not done:
            movers = [f for f in own if f.order is not Order.DEFEND and f.key not in declared]
            if movers:
                out.append(Step("order move", Msg("declare a path for {forces} (MC-5)",
                                                  forces=Msg.join(", ", (f.name for f in movers)))))
            out += _rerolls(state, own, declared)
            out.append(Step("order done", Msg("say your side has finished moving")))
        case Phase.BATTLE:
            for b in state.turn_battles(status=BattleStatus.PENDING):
                if side in b.sides:
                    if side not in b.scouting.scores:
                        out.append(Step("battle scout", Msg("scout before battle {number} (MC-6.1, RU-5)",
                                                            number=b.number)))
                    out.append(Step("battle brief", Msg("the brief of battle {number} for the table", number=b.number)))
                    if side not in b.aftermath.claims:
                        out.append(Step("battle report", Msg("report your camp's result of battle {number} once "
                                                             "it is fought (BR)", number=b.number)))
        case Phase.AFTERMATH:
            out += _aftermath(state, side)
    if not out:
        who = _waiting(state, Reader(side=side))
        if who:
            out.append(Step("campaign status", Msg("nothing for you to do now: the phase waits for {who}", who=who)))
    return out


def _rerolls(state: CampaignState, own: list[ForceState], declared: set[str]) -> list[Step]:
    """FC-3, when the setting is on: a Force with a scout may re-roll the die it just rolled."""
    if not state.settings.scout_rerolls or not any(f.key in declared and f.scouts > 0 for f in own):
        return []
    return [Step("order reroll", Msg("spend a scout to re-roll a Force's die (FC-3)"))]


def _aftermath(state: CampaignState, side: str) -> list[Step]:
    out: list[Step] = []
    for b in state.turn_battles(status=BattleStatus.REPORTED):
        if side not in b.sides:
            continue
        if not b.aftermath.rolled.get(side):
            out.append(Step("battle aftermath", Msg("roll your wounded and deserter checks of battle {number} (MC-7.1, "
                                                    "MC-7.2)", number=b.number)))
        for fk, where in b.aftermath.retreats.items():
            f = state.forces.get(fk)
            if where is None and f is not None and f.side == side and f.status is ForceStatus.ACTIVE:
                out.append(Step("battle retreat", Msg("{force} must leave the square of battle {number} (MC-7.3)",
                                                      force=f.name, number=b.number)))
        led = b.aftermath.commanders or {}
        for name, fate in b.aftermath.fates.items():
            mine = any(c.name == name and state.forces[k].side == side for k, c in led.items()
                       if k in state.forces)
            if fate is None and mine:
                out.append(Step("leader fate", Msg("roll the fate of {leader} (CC-1)", leader=name)))
        for (unit, _), taken in b.aftermath.trophies.items():
            owner = next((f for f in state.forces.values() for u in f.units if u.key == unit), None)
            if taken is None and owner is not None and owner.side == side:
                out.append(Step("trophy roll", Msg("try for a trophy in battle {number} (CC-3)", number=b.number)))
                break
    return out


def _gm(state: CampaignState, reader: Reader) -> list[Step]:
    out: list[Step] = []
    if state.phase is Phase.BATTLE:
        for b in state.turn_battles(status=BattleStatus.PENDING):
            out.append(Step("battle report", Msg("report battle {number} at {square} once it is fought (BR)",
                                                 number=b.number, square=b.square)))
    if state.phase is Phase.BATTLE and out:
        return out
    who = _waiting(state, reader)
    if who:
        out.append(Step("gm deadline", Msg("the phase waits for {who}: set a deadline to resolve it then", who=who)))
    out.append(Step("gm advance", Msg("resolve the phase now (MC-3)")))
    return out


def _waiting(state: CampaignState, reader: Reader) -> str:
    """Who the phase waits for, as the reader may know it (:func:`.views.waiting`), each named once."""
    return Msg.join(", ", dict.fromkeys(w.who for w in waiting(state, reader)))



# --- how to play (the button on joining a side) ---------------------------------------------------


@dataclass(frozen=True)
class Stage:
    """A phase of the turn as a player meets it: the commands a player uses in it, none when the bot
    (or the GM) does the phase alone. What the phase waits for is its own (``phase.spec.needs``, MC-3)."""

    phase: Phase
    steps: tuple[Step, ...]


ANY_TIME = (
    Step("campaign status", Msg("where the campaign stands and who it waits for")),
    Step("campaign map", Msg("the map as you may see it")),
    Step("campaign timelapse", Msg("the campaign turn by turn, as your side saw it")),
    Step("order list", Msg("your side's Forces, their orders and what each still has to do")),
    Step("help", Msg("what you can do now, for your role and the phase")),
    Step("rules", Msg("the text of a rule: every roll names the one it applies, like MC-4")),
)
"""The commands a player uses in any phase."""


def how_to_play(settings: Settings) -> tuple[Stage, ...]:
    """A player's turn, phase by phase in MC-3's order, for a campaign with these settings: the phases
    it plays (weather and random events are options) and the commands each asks of a player (FC-2
    supply and FC-3 scout re-rolls only when they are on)."""
    rerolls = (Step("order reroll", Msg("spend a scout to re-roll a Force's die (FC-3)")),) if settings.scout_rerolls \
        else ()
    player: dict[Phase, tuple[Step, ...]] = {
        Phase.ORDERS: (
            Step("order give", Msg("change a Force's order or shed a reaction with a Force test (MC-4)")),
            *((Step("supply buy", Msg("spend supply points on your Forces (FC-2)")),) if settings.supply else ()),
            *rerolls,
            Step("order done", Msg("say your side has finished its orders")),
        ),
        Phase.MOVEMENT: (
            Step("order move", Msg("declare a path for each Force that moves (MC-5, RU-13)")),
            *rerolls,
            Step("order done", Msg("say your side has finished moving")),
        ),
        Phase.BATTLE: (
            Step("battle scout", Msg("scout before each battle of yours (MC-6.1, RU-5)")),
            Step("battle brief", Msg("the brief of your battle for the table")),
            Step("glory spend", Msg("spend Glory in a battle of yours (CC-4, RU-17)")),
        ),
        Phase.AFTERMATH: (
            Step("battle aftermath", Msg("roll your wounded and deserter checks (MC-7.1, MC-7.2)")),
            Step("battle retreat", Msg("choose the square a beaten Force retreats to (MC-7.3)")),
            Step("leader fate", Msg("roll the fate of a fallen leader (CC-1)")),
            Step("trophy roll", Msg("try to take a trophy (CC-3)")),
        ),
    }
    on = {Phase.WEATHER: settings.weather, Phase.EVENTS: settings.random_events}
    return tuple(Stage(phase, player.get(phase, ())) for phase in Phase if on.get(phase, True))
