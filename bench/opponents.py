"""The bot general's opponents for its win rates (issue 25 item 4), and a whole campaign played through the
campaign core (no database: hundreds of campaigns in minutes; the services' whole campaigns are the tests').

- ``hold``: the side nobody plays (``unmanned_sides: hold``): it keeps its orders and never moves; what a
  phase asks of it, the bot does for it when the phase is resolved (the aftermath's rolls and retreats).
- ``random``: a player that picks uniformly among the actions the core offers a member: in Phase 1, for each
  Force, keep its order or test for one of the others; in Phase 2, for each Force able to move, stay or
  march a random land path of 1 to the longest move's squares (a path the core refuses is not offered, and
  another is drawn); the rest as for ``hold``. It draws from its own seeded generator, not the turn's dice.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from dataclasses import dataclass
from enum import StrEnum

from bot.campaign.dice import Context
from bot.campaign.ending import result
from bot.campaign.events import Journal
from bot.campaign.general import act_all
from bot.campaign.new import from_scenario
from bot.campaign.orders import declare_move, give_order, mark_done
from bot.campaign.seats import Seat, seating
from bot.campaign.state import CampaignState, CampaignStatus
from bot.campaign.turn import resolve
from bot.engine.errors import EngineError
from bot.engine.model import Order
from bot.engine.movement import max_squares
from bot.engine.phases import Phase
from bot.engine.tables import RuleBook, default_rulebook
from bot.scenario import Scenario


class Opponent(StrEnum):
    HOLD = "hold"
    RANDOM = "random"


SEAT = -1000
"""The random player's member id while it acts (never a Discord id, nor a general's)."""


def random_player(state: CampaignState, sides: tuple[str, ...], rng: random.Random, ctx: Context) -> CampaignState:
    """The random player acts for ``sides`` in the current phase, seated for the length of the call."""
    if state.status is not CampaignStatus.ACTIVE or state.phase not in (Phase.ORDERS, Phase.MOVEMENT):
        return state
    journal = Journal()
    players = state.players
    longest = max_squares(ctx.rules)
    for side in sides:
        if state.sides[side].defeated:
            continue
        state = state.evolve(players={**players, SEAT: side})
        for f in sorted((f for f in state.active() if f.side == side and f.square), key=lambda f: f.key):
            try:
                if state.phase is Phase.ORDERS:
                    order = rng.choice([None, *Order])
                    if order is not None and order is not f.order:
                        state, _ = give_order(state, SEAT, f.key, order, journal, ctx)
                elif f.order is not Order.DEFEND:
                    state = _march(state, f.key, rng, longest, journal, ctx)
            except EngineError:
                pass  # not offered to a member (a reaction's limit, say): nothing done
        state, _ = mark_done(state, SEAT, True)
        state = state.evolve(players=players)
    return state


def _march(state: CampaignState, force: str, rng: random.Random, longest: int, journal: Journal,
           ctx: Context) -> CampaignState:
    """Stay, or a random land path; a path the core refuses is drawn again (a few times)."""
    cmap = state.map
    for _ in range(8):
        n = rng.randint(0, longest)
        if n == 0:
            return state
        here, path = cmap.parse(state.forces[force].square or ""), []
        for _ in range(n):
            steps = [s for s in cmap.neighbours(here) if not cmap.cell(s).terrain.is_water]
            if not steps:
                break
            here = rng.choice(steps)
            path.append(here)
        if not path:
            continue
        try:
            state, _ = declare_move(state, SEAT, force, " ".join(str(s) for s in path), journal, ctx)
            return state
        except EngineError:
            continue
    return state


@dataclass(frozen=True)
class Outcome:
    won: bool
    ended: bool
    turns: int
    battles: int


def campaign(spec: Scenario, generals: tuple[str, ...], opponent: Opponent, seed: int, *, turns: int = 60,
             rules: RuleBook | None = None, options: dict[str, object] | None = None) -> Outcome:
    """The general plays ``generals`` against ``opponent`` playing every other side, battles settled quickly
    (RU-27), every phase resolved as soon as it opens; won when the generals' camp is the one left (RU-25)."""
    rules = rules or default_rulebook()
    counter = itertools.count(1)
    ctx = Context(lambda: hashlib.sha256(f"bench/{spec.key}/{seed}/{next(counter)}".encode()).digest(), rules)
    opts = {"battles": "quick", "unmanned_sides": "hold", **(options or {})}
    state = from_scenario(spec, campaign_id=1, name="bench", gm_id=1, options=opts, rules=rules)
    for side in generals:  # the GM's word (/gm assign side general:bot)
        state = state.evolve(options=seating(state.options, side, Seat.BOT))
    others = tuple(s for s in state.sides if s not in generals)
    rng = random.Random(seed)
    while state.status is CampaignStatus.ACTIVE and state.turn <= turns:
        state = resolve(state, Journal(), ctx, forced=True).state
        state, _ = act_all(state, Journal(), ctx)
        if opponent is Opponent.RANDOM:
            state = random_player(state, others, rng, ctx)
    end = result(state)
    camp = state.camps.camp_of(generals[0])
    return Outcome(end is not None and end.camp == camp, state.status is CampaignStatus.ENDED, state.turn,
                   len(state.battles))
