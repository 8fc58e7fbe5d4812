"""The map in words, for readers who cannot see the picture (screen readers, text-only clients).

One line for the turn, one per side, one per Force (where it is, on what ground, its strength,
order and reaction), then this turn's moves and battles. Only what the snapshot holds is told, so
the report keeps the fog of war the services applied.
"""

from __future__ import annotations

from bot.engine.model import Feature, Square

from .furniture import subtitle
from .model import Counter, MapSnapshot


def _where(snapshot: MapSnapshot, sq: Square) -> str:
    cell = snapshot.cmap.cell(sq)
    parts = [cell.terrain.label]
    parts += [f.value.replace("_", " ") for f in (Feature.RIVER, Feature.BRIDGE, Feature.ROAD, Feature.CARAVAN_TRACK)
              if cell.has(f)]
    if cell.stronghold:
        owner = _side_name(snapshot, cell.stronghold)
        parts.append(f"{owner}'s capital" if cell.capital else f"{owner}'s stronghold")
    return ", ".join(parts)


def _side_name(snapshot: MapSnapshot, key: str) -> str:
    return next((s.name for s in snapshot.sides if s.key == key), key)


def _force(snapshot: MapSnapshot, c: Counter) -> str:
    where = f"last seen at {c.square}" if c.faded else f"at {c.square}"
    facts = [f"{c.sp} SP" if c.sp is not None else "strength unknown"]
    if c.order:
        facts.append(c.order.replace("_", " ").strip().lower())
    if c.reaction:
        facts.append(c.reaction.replace("_", " ").strip().lower())
    return f"- {c.name} {where} ({_where(snapshot, c.square)}): {', '.join(facts)}."


def text_report(snapshot: MapSnapshot, *, view: str | None = None) -> str:
    """A short plain-text situation report: what is where, as this snapshot shows it."""
    lines = [f"{snapshot.title or snapshot.campaign}. {subtitle(snapshot).replace('  ·  ', ', ')}."]
    label = snapshot.view or (f"{_side_name(snapshot, view)}'s view" if view and view != "gm" else "")
    if label:
        lines.append(f"{label}.")
    order = sorted(snapshot.sides, key=lambda s: s.key != view)
    for side in order:
        mine = sorted((c for c in snapshot.counters if c.side == side.key),
                      key=lambda c: (c.faded, c.square.row, c.square.col, c.name))
        if not mine:
            lines.append(f"{side.name}: no Forces shown.")
            continue
        seen = [c for c in mine if not c.faded]
        known = [c.sp for c in seen if c.sp is not None]
        total = f", {sum(known)} SP" if seen and len(known) == len(seen) else ""
        count = f"{len(seen)} Force{'s' if len(seen) != 1 else ''}"
        if len(seen) < len(mine):
            count += f" and {len(mine) - len(seen)} last seen"
        lines.append(f"{side.name}: {count}{total}.")
        lines += [_force(snapshot, c) for c in mine]
    if snapshot.moves:
        lines.append("Moves this turn:")
        for a in snapshot.moves:
            lines.append(f"- {_side_name(snapshot, a.side)}: {' → '.join(str(sq) for sq in (a.start, *a.path))}.")
    for sq in snapshot.battles:
        there = [c.name for c in snapshot.counters if c.square == sq and not c.faded]
        lines.append(f"Battle at {sq}" + (f": {', '.join(there)}." if there else "."))
    return "\n".join(lines)
