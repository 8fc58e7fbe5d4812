"""The turn gazette: a turn told in a few plain sentences, for one reader (issue 13, item 6).

What it tells is public news, or what the reader's log already holds: the weather, each battle's
name (after its place, "Battle of Montenotte"), square, camps and outcome (public news, README "Fog of war"), strongholds taken, reinforcements the
reader was told of, Will-to-Fight results, the random events, whether the turn's dice can now be
checked, and what comes next. It never names a Force the reader's log does not name, and it carries
no hash and no roll record: the full log stays with ``/campaign log``, the dice with ``/campaign verify``.

A pure function of the state and the turn's log entries (visibility and text), which it filters
again by what the reader may read (:func:`.views.log_visibilities`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.engine.errors import EngineError
from bot.engine.model import Outcome
from bot.engine.seasons import season_of, turn_date
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg

from .reported import battle_outcomes
from .rulebook import rules_for
from .sight import Reader
from .state import Battle, CampaignState, CampaignStatus
from .views import log_visibilities

WEATHER = "Weather (house rule RU-10): {weather}{mod}; {wind}."
"""The weather line of Phase 0, told again in short."""

NEWS = (
    ("holdings", ("{side} takes the capital at {square}.", "{side} takes the stronghold at {square}.")),
    ("arrivals", ("{force} arrives at {square} ({side}).",)),
    ("will", ("{side} tests its Will to Fight because {why}: {outcome}.",
              "{side} is in total defeat and leaves the campaign (RU-25): its Forces leave the map and its "
              "reinforcements will not come.",
              "{side} has no Force left on the map and none to come: it is in total defeat and leaves the campaign "
              "(RU-25).")),
    ("end", ("The campaign is over: {camp} won (RU-25).", "The campaign is over: no side is left in play (RU-25).",
             "The campaign is over: turn {turn} was its last, and it ends in a draw between {camps} (RU-25).")),
    ("events", ("{side}: {event} (house rule RU-10).",)),
)
"""The log's lines the gazette repeats as they are, by kind, in the order it tells them. Each is
already plain; which of them a reader gets is the log's visibility (fog of war)."""


FINGERPRINT = 16
"""Hex digits of the chain head the gazette shows (64 bits): a commitment, not a hash to read."""


@dataclass(frozen=True)
class Gazette:
    """One turn, as a reader may be told it."""

    turn: int
    lines: tuple[str, ...]
    """The news, in order: weather, battles, strongholds, arrivals, Will to Fight, events."""
    dice_revealed: bool
    """The turn's seed is revealed: its dice can be checked (``/campaign verify``)."""
    next: str | None
    """What comes next (None once the campaign is over)."""
    fingerprint: str | None
    """The start of the turn's roll chain head once revealed (docs/dice.md): posted with the gazette, it
    commits the channel to the turn's dice, so a roll changed later shows; ``/campaign verify`` has it in full."""
    battle_squares: tuple[str, ...]
    """The squares of the turn's battles (public news), for a map around them."""


def gazette(state: CampaignState, reader: Reader, turn: int, log: Iterable[tuple[str, str]], *,
            rules: RuleBook | None = None) -> Gazette:
    """Turn ``turn`` told to ``reader``, from the state and the turn's log entries ``(visibility, text)``
    (undone entries left out by the caller); entries the reader may not read are ignored."""
    rules = rules_for(state, rules or default_rulebook())  # RU-10: the scenario's own calendar
    allowed = log_visibilities(state, reader)
    texts = [text for visibility, text in log if allowed is None or visibility in allowed]
    by_template = [(text.template, text) for text in texts if isinstance(text, Msg)]
    lines: list[str] = []
    weather = [m for template, m in by_template if template == WEATHER]
    if weather:
        p = weather[-1].params
        lines.append(Msg("Weather: {weather}{mod}; {wind}.", weather=p["weather"], mod=p["mod"], wind=p["wind"]))
    battles = sorted((b for b in state.battles.values() if b.turn == turn), key=lambda b: b.number)
    lines += [battle_line(state, b) for b in battles] or [Msg("No battle was fought this turn.")]
    for _kind, templates in NEWS:
        lines += [m for template, m in by_template if template in templates]
    seed = state.seeds.get(turn)
    nxt = None
    if state.status is CampaignStatus.ACTIVE:
        date = turn_date(state.start_date, turn + 1, rules=rules)
        nxt = Msg("Next: turn {turn}, {date} ({season}).", turn=turn + 1, date=date.isoformat(),
                  season=season_of(date, rules=rules).value)
    revealed = bool(seed and seed.revealed)
    head = seed.chain_head if seed is not None and revealed else None
    return Gazette(turn, tuple(lines), revealed, nxt, head[:FINGERPRINT] if head else None,
                   tuple(b.square for b in battles))


def outcomes(battle: Battle) -> dict[str, Outcome]:
    """A reported battle's outcome for each side (empty when it has no readable report)."""
    return battle_outcomes(battle)


def battle_name(state: CampaignState, battle: Battle) -> Msg:
    """A battle as history names it: after the place the map names at its square ("Battle of Montenotte
    (L18)"), else by its number and square ("Battle 1 at L18")."""
    try:
        place = state.map.cell(state.map.parse(battle.square)).place
    except EngineError:
        place = None
    if place is not None and place.name.strip():
        return Msg("Battle of {place} ({square})", place=" ".join(place.name.split()), square=battle.square)
    return Msg("Battle {number} at {square}", number=battle.number, square=battle.square)


def battle_line(state: CampaignState, battle: Battle) -> str:
    """A battle as public news: its name (its place, else its number and square), camps and outcome, in one
    plain sentence."""
    def names(keys: Iterable[str]) -> Msg:
        return Msg.join(", ", (state.sides[k].name if k in state.sides else k for k in keys))

    args = {"battle": battle_name(state, battle)}
    result = outcomes(battle)
    if not result:
        return Msg("{battle} between {camps}: no result reported.", camps=names(battle.sides), **args)
    won = [k for k in battle.sides if result.get(k) is Outcome.WON]
    lost = [k for k in battle.sides if result.get(k) is Outcome.LOST]
    drew = [k for k in battle.sides if result.get(k) is Outcome.DRAW]
    if won and lost and not drew:
        return Msg("{battle}: {winners} beat {losers}.", winners=names(won), losers=names(lost), **args)
    if drew and not won and not lost:
        return Msg("{battle}: {camps} fought to a draw.", camps=names(drew), **args)
    return Msg("{battle}: {outcomes}.", outcomes=Msg.join(", ", (
        Msg("{side} {outcome}", side=state.sides[k].name if k in state.sides else k, outcome=o.value)
        for k, o in result.items())), **args)
