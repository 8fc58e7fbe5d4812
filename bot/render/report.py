"""The map in words, for readers who cannot see the picture (screen readers, text-only clients).

One line for the turn, one per side, one per Force (where it is, on what ground, its strength,
order and reaction), then this turn's moves and battles. Only what the snapshot holds is told, so
the report keeps the fog of war the services applied. It is written in the snapshot's language
(:mod:`bot.render.words`); names stay as they are.
"""

from __future__ import annotations

from bot.engine.model import Feature, Square
from bot.engine.text import Msg

from .compose import view_label
from .furniture import subtitle
from .model import Counter, MapSnapshot
from .words import say


def _where(snapshot: MapSnapshot, sq: Square) -> str:
    cell = snapshot.cmap.cell(sq)
    place = getattr(cell, "place", None)
    parts = [place.name] if place is not None and getattr(place, "name", "") else []
    parts.append(say(snapshot, cell.terrain.label))
    parts += [say(snapshot, f.value.replace("_", " "))
              for f in (Feature.RIVER, Feature.BRIDGE, Feature.ROAD, Feature.CARAVAN_TRACK) if cell.has(f)]
    if cell.stronghold:
        owner = _side_name(snapshot, cell.stronghold)
        parts.append(say(snapshot, Msg("{side}'s capital", side=owner) if cell.capital
                         else Msg("{side}'s stronghold", side=owner)))
    return ", ".join(parts)


def _side_name(snapshot: MapSnapshot, key: str) -> str:
    return next((s.name for s in snapshot.sides if s.key == key), key)


def _force(snapshot: MapSnapshot, c: Counter) -> str:
    where = Msg("last seen at {square}", square=str(c.square)) if c.faded else Msg("at {square}", square=str(c.square))
    facts = [say(snapshot, Msg("{sp} SP", sp=c.sp) if c.sp is not None else Msg("strength unknown"))]
    for word in (c.order, c.reaction):
        if word:
            facts.append(say(snapshot, word.replace("_", " ").strip().lower()))
    return f"- {c.name} {say(snapshot, where)} ({_where(snapshot, c.square)}): {', '.join(facts)}."


def text_report(snapshot: MapSnapshot, *, view: str | None = None) -> str:
    """A short plain-text situation report: what is where, as this snapshot shows it."""
    lines = [f"{snapshot.title or snapshot.campaign}. {subtitle(snapshot).replace('  ·  ', ', ')}."]
    label = snapshot.view or (view_label(_side_name(snapshot, view)) if view and view != "gm" else "")
    if label:
        lines.append(f"{say(snapshot, label)}.")
    order = sorted(snapshot.sides, key=lambda s: s.key != view)
    for side in order:
        mine = sorted((c for c in snapshot.counters if c.side == side.key),
                      key=lambda c: (c.faded, c.square.row, c.square.col, c.name))
        if not mine:
            lines.append(f"{side.name}: {say(snapshot, Msg('no Forces shown'))}.")
            continue
        seen = [c for c in mine if not c.faded]
        known = [c.sp for c in seen if c.sp is not None]
        count = Msg.plural(len(seen), "{n} Force", "{n} Forces")
        if len(seen) < len(mine):
            count = Msg.plural(len(mine) - len(seen), "{forces} and {n} Force last seen",
                               "{forces} and {n} Forces last seen", forces=count)
        if seen and len(known) == len(seen):
            count = Msg("{forces}, {sp} SP", forces=count, sp=sum(known))
        lines.append(f"{side.name}: {say(snapshot, count)}.")
        lines += [_force(snapshot, c) for c in mine]
    if snapshot.moves:
        lines.append(say(snapshot, Msg("Moves this turn:")))
        for a in snapshot.moves:
            lines.append(f"- {_side_name(snapshot, a.side)}: {' → '.join(str(sq) for sq in (a.start, *a.path))}.")
    lines += battle_lines(snapshot)
    return "\n".join(lines)


def battle_lines(snapshot: MapSnapshot) -> list[str]:
    """The battles in words (named after their place when the map names it, with their winner once
    reported and the Forces seen there), then the retreats the snapshot shows."""
    lines = []
    for sq in snapshot.battles:
        there = [c.name for c in snapshot.counters if c.square == sq and not c.faded]
        place = getattr(snapshot.cmap.cell(sq), "place", None)
        battle = say(snapshot, Msg("Battle of {place} ({square})", place=place.name, square=str(sq))
                     if place is not None and place.name.strip() else Msg("Battle at {square}", square=str(sq)))
        result = snapshot.result(sq)
        if result is not None:
            battle += ", " + say(snapshot, Msg("won by {side}", side=_side_name(snapshot, result.winner))
                                 if result.winner else Msg("fought to a draw"))
        lines.append(battle + (f": {', '.join(there)}." if there else "."))
    if snapshot.retreats:
        lines.append(say(snapshot, Msg("Retreats this turn:")))
        for a in snapshot.retreats:
            lines.append(f"- {_side_name(snapshot, a.side)}: {' → '.join(str(sq) for sq in (a.start, *a.path))}.")
    return lines
