"""A member's report form half entered (BR; issue 23, item 2): what they typed on its pages, kept in the
campaign's book between two pages, so that a bot restart loses nothing ("nothing lost on restart").

Pure: the draft's type, its plain data as the book stores it, and the bounds checked at the edge (a member
cannot grow it: one draft per member per battle, every value within what the form's boxes allow).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.engine.errors import InvalidInput

OUTCOMES = ("won", "lost", "draw")
SYSTEMS = ("cc", "epic", "murat", "miniatures")
KINDS = ("killed", "rout", "other_order")
"""A unit's loss counts in the form (:data:`bot.campaign.claims.LOSS_KINDS`' keys)."""
MAX_BANNERS, MAX_MORE, MAX_CHOSEN, MAX_CHOICE = 9, 1000, 25, 100
"""The form's own limits: its banners box, its typed last box, its select's options and their values."""
MAX_UNITS, MAX_KEY, MAX_COUNT = 200, 64, 6
"""Units a draft counts (a side's in one battle), a unit key's length, a typed count's length."""
MAX_DRAFTS = 100
"""Drafts a campaign's book keeps at most (the oldest dropped first): one per member per open battle."""


@dataclass(frozen=True)
class FormDraft:
    """What a member entered in their report form, carried from page to page and kept between them."""

    outcome: str
    system: str
    banners: str
    more: str
    chosen: tuple[str, ...] | None = None
    """What was picked in the last box's select (None: it was typed)."""
    counts: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """The losses entered so far: unit key -> kind (:data:`KINDS`) -> number as entered."""

    def as_data(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "system": self.system, "banners": self.banners, "more": self.more,
                "chosen": None if self.chosen is None else list(self.chosen),
                "counts": {k: dict(v) for k, v in self.counts.items()}}

    def checked(self) -> FormDraft:
        """This draft, or a refusal when a value is past what the form allows (values from Discord are
        the member's: checked at the edge before they are kept)."""
        if read(self.as_data()) != self:
            raise InvalidInput("The report form's entries are not ones the form offers: open it again with "
                               "/battle report (BR).")
        return self


def _text(value: Any, most: int) -> str | None:
    return value if isinstance(value, str) and len(value) <= most else None


def read(data: Any) -> FormDraft | None:
    """A stored draft, every value checked (None: not one the bot writes, dropped)."""
    if not isinstance(data, Mapping):
        return None
    outcome, system = data.get("outcome"), data.get("system")
    banners, more = _text(data.get("banners"), MAX_BANNERS), _text(data.get("more"), MAX_MORE)
    chosen, counts = data.get("chosen"), data.get("counts")
    if outcome not in OUTCOMES or system not in SYSTEMS or banners is None or more is None:
        return None
    if chosen is not None and not (isinstance(chosen, list) and len(chosen) <= MAX_CHOSEN
                                   and all(_text(c, MAX_CHOICE) is not None for c in chosen)):
        return None
    if not isinstance(counts, Mapping) or len(counts) > MAX_UNITS:
        return None
    typed: dict[str, dict[str, str]] = {}
    for key, kinds in counts.items():
        if _text(key, MAX_KEY) is None or not isinstance(kinds, Mapping):
            return None
        if any(k not in KINDS or _text(v, MAX_COUNT) is None for k, v in kinds.items()):
            return None
        typed[key] = dict(kinds)
    return FormDraft(outcome, system, banners, more, None if chosen is None else tuple(chosen), typed)


def key(battle: int, member: int) -> str:
    """A draft's key in the book: one per member per battle."""
    return f"{battle}:{member}"


def battle_of(draft_key: str) -> int | None:
    head = draft_key.split(":", 1)[0]
    return int(head) if head.isdigit() else None


def kept(drafts: Mapping[str, FormDraft], open_battles: Iterable[int]) -> dict[str, FormDraft]:
    """The drafts of battles still awaiting their report, the newest :data:`MAX_DRAFTS` (a resolved
    battle's drafts go with it)."""
    still = set(open_battles)
    out = {k: d for k, d in drafts.items() if battle_of(k) in still}
    return dict(list(out.items())[-MAX_DRAFTS:])
