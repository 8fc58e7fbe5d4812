"""What to post, where and for whom: the plan of a resolution's or an action's posts, decided here and
nowhere else (DESIGN.md, "publishing is a plan"; issue 22).

A pure function of the state before and after and the events the core returned. It says which posts to
make (a phase card, a side's news, a battle's thread, its aftermath prompt, the turn's gazette) and
where (the campaign's channel, a side's own channel, a battle's thread), by side keys and battle
numbers, with fog of war already decided by the events' visibilities (:mod:`.sight`). The shell
(:mod:`bot.cogs._publish`) renders and sends, and decides nothing.

The channel stays quiet (issue 22, item 2): one phase card per phase, edited in place while sides
finish; the phase change and what it did are folded into the next card; at a turn's end the gazette
alone carries the next card, and the turn's public dice stay behind its button and in the log.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from bot.engine.phases import Phase

from .events import PUBLIC, Event, EventKind
from .frames import Frame, end_of_turn
from .reminders import did_not_act
from .settings import BattleMode
from .state import BattleStatus, CampaignState, CampaignStatus


class Where(StrEnum):
    CHANNEL = "channel"
    """The campaign's channel: what every member may read."""
    SIDE = "side"
    """A side's own channel, when the GM set one (else its lines are in its log only)."""
    THREAD = "thread"
    """A battle's thread (private to its camps and the GM when Discord allows)."""


class What(StrEnum):
    PHASE_CARD = "phase_card"
    """A new phase card for the phase the campaign stands in, the resolution's public news folded in."""
    GAZETTE = "gazette"
    """The turn told in a few sentences, with its picture, its dice behind a button, and the next card."""
    SIDE_NEWS = "side_news"
    """What only one side may read of what happened (fog of war)."""
    BATTLE_THREAD = "battle_thread"
    """A new battle's thread, with its brief for the table."""
    AFTERMATH_PROMPT = "aftermath_prompt"
    """Phase 4 begins: a reported battle's camps roll their aftermath (its button)."""
    BATTLE_NEWS = "battle_news"
    """What the resolution did to a battle's Forces (the bot's rolls for whoever did not roll, retreats),
    for its camps, in its thread."""


@dataclass(frozen=True)
class Post:
    """One post to make."""

    what: What
    where: Where
    lines: tuple[str, ...] = ()
    """Texts (messages of the code, said in the reader's language by the shell)."""
    side: str | None = None
    """The side whose channel it goes to (Where.SIDE)."""
    battle: int | None = None
    """The battle it is about (its thread, its prompt)."""
    turn: int | None = None
    """The turn a gazette tells."""
    frame: Frame | None = None
    """The picture of the turn a gazette tells: its frame, kept before the next turn started (its battles,
    their winners, their retreats), drawn for the public reader (issue 22, item 3)."""
    quick: bool = False
    """A battle's thread offers "Resolve quickly" (RU-27, ``battles: ask``)."""


@dataclass(frozen=True)
class Plan:
    """The posts of one resolution or action, in the order to make them."""

    posts: tuple[Post, ...] = ()
    retire_card: bool = False
    """The current phase card is done with: it is edited into its last state before the next is posted."""

    def of(self, what: What) -> tuple[Post, ...]:
        return tuple(p for p in self.posts if p.what is what)


def public_lines(events: Iterable[Event]) -> tuple[str, ...]:
    """The lines every member may read (not rolls, not the log's position markers)."""
    return tuple(e.text for e in events if e.visibility == PUBLIC and e.roll is None and e.kind is EventKind.EVENT
                 and not (e.data and "position" in e.data))


def battle_lines(events: Iterable[Event], battles: dict[int, tuple[str, ...]]) -> dict[int, tuple[str, ...]]:
    """What each battle's camps read of what the resolution did to it (its thread): the lines about it that
    are public or one of its sides' own, each once."""
    out: dict[int, list[str]] = {}
    for e in events:
        number = (e.data or {}).get("battle")
        if e.roll is None and isinstance(number, int) and number in battles and (
                e.visibility == PUBLIC or e.side in battles[number]):
            lines = out.setdefault(number, [])
            if e.text not in lines:
                lines.append(e.text)
    return {k: tuple(v) for k, v in out.items()}


def side_lines(events: Iterable[Event]) -> dict[str, tuple[str, ...]]:
    """Each side's own lines, by side key."""
    out: dict[str, list[str]] = {}
    for e in events:
        if e.roll is None and e.kind is EventKind.EVENT and e.side is not None:
            out.setdefault(e.side, []).append(e.text)
    return {k: tuple(v) for k, v in out.items()}


def resolution(before: CampaignState, after: CampaignState, events: Iterable[Event], *,
               battles: Iterable[int] = (), turn_ended: bool = False, frame: Frame | None = None,
               forced: bool = False) -> Plan:
    """The posts of a phase resolution: each side's own news in its channel; a thread for each new battle;
    the aftermath prompts when Phase 4 begins; then one post in the campaign's channel: the turn's gazette
    with the next phase card when a turn ended (or the campaign did, RU-25), else the next phase card with
    the resolution's public news folded in. ``frame``: the ended turn's (:func:`.frames.end_of_turn`), the
    gazette's picture; made here from ``before`` and ``after`` when not given. A resolution the deadline
    forced (``forced``) says first, in the channel, which side did not act and what the rules did for it
    (issue 22, item 5)."""
    events = list(events)
    idle = did_not_act(before) if forced else ()
    posts = [Post(What.SIDE_NEWS, Where.SIDE, lines, side=side) for side, lines in side_lines(events).items()]
    offer = after.settings.battles is BattleMode.ASK  # RU-27: its thread offers "Resolve quickly"
    posts += [Post(What.BATTLE_THREAD, Where.THREAD, battle=number, quick=offer and number in after.battles
                   and after.battles[number].status is BattleStatus.PENDING) for number in battles]
    # A battle begun and settled in the same resolution (RU-27, battles: quick) has its news in its new thread.
    fought = {b.number: b.sides for b in (*after.battles.values(), *before.battles.values())}
    posts += [Post(What.BATTLE_NEWS, Where.THREAD, lines, battle=number)
              for number, lines in battle_lines(events, fought).items()]
    if after.status is CampaignStatus.ACTIVE and after.phase is Phase.AFTERMATH and before.phase is not Phase.AFTERMATH:
        posts += [Post(What.AFTERMATH_PROMPT, Where.THREAD, battle=b.number)
                  for b in sorted(after.turn_battles(status=BattleStatus.REPORTED), key=lambda b: b.number)]
    if turn_ended:  # the campaign stays in the turn it ended in (RU-25); else the next turn has begun
        told = after.turn if after.status is not CampaignStatus.ACTIVE else after.turn - 1
        posts.append(Post(What.GAZETTE, Where.CHANNEL, idle, turn=told, frame=frame or end_of_turn(before, after)))
    else:
        posts.append(Post(What.PHASE_CARD, Where.CHANNEL, idle + public_lines(events)))
    return Plan(tuple(posts), retire_card=True)
