"""The bot general (RU-26): a side's view in (:mod:`.view`), its decisions out (:mod:`.decide`), made
through the members' own core functions (:mod:`.act`). Policy: docs/general.md and rules/general.yaml."""

from .act import Acted, Reporter, act, act_all, general_member
from .decide import Decisions, decide
from .view import SideView, side_view

__all__ = ["Acted", "Decisions", "Reporter", "SideView", "act", "act_all", "decide", "general_member", "side_view"]
