"""Closed sets of the C&C Napoleonics Plus campaign (CC) and the battle report (BR).

They live apart from the procedures so that the tables loader (:mod:`.cc_tables`) and the
procedures (:mod:`.leaders`, :mod:`.trophies`, :mod:`.glory`, :mod:`.reports`) can all import them
without importing each other. Their values are the words used in YAML, uploads and the bot.
"""

from __future__ import annotations

from enum import StrEnum


class Circumstance(StrEnum):
    """CC-1: how a leader fell, which picks the fate table."""

    MELEE = "melee"
    """In melee combat against infantry or cavalry."""
    OTHER = "other"
    """Any other circumstance (fire, artillery, melee against artillery...)."""

    @property
    def label(self) -> str:
        return "melee vs infantry or cavalry" if self is Circumstance.MELEE else "other circumstances"


class Presence(StrEnum):
    """CC-2: where a leader stands at the next battle, given his status."""

    COMMANDS = "commands"
    """Takes the field as usual."""
    CARRIAGE = "carriage"
    """Commands from an open carriage (Serious wound) until the campaign ends."""
    MISSES = "misses"
    """Misses the next battle (Moderate wound); a Temporary Leader stands in, then he returns."""
    GONE = "gone"
    """Leaves for good (Slain, Mortal wound, Captured, Crippled); a New Leader takes over."""


class Commander(StrEnum):
    """CC-2: who actually commands: the leader himself or a replacement."""

    LEADER = "leader"
    NEW_LEADER = "new_leader"
    TEMPORARY_LEADER = "temporary_leader"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").title()


class BattleDieFace(StrEnum):
    """CC-3: the symbols of a C&C battle die."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    FLAG = "flag"
    SABRE = "sabre"


class StragglerEffect(StrEnum):
    """CC-4 Stragglers: what one battle die does to the opponent."""

    REMOVE_BLOCK = "remove_block"
    """The opponent removes one block from a unit of the die's type, of his choice."""
    RETREAT = "retreat"
    """The opponent retreats one unit of his choice one hex."""
    NONE = "none"


class GloryKind(StrEnum):
    """CC-4: why Glory entered or left a side's ledger."""

    AWARD = "award"
    HEROIC = "heroic"
    RALLY = "rally"
    LEADERSHIP = "leadership"
    STRAGGLERS = "stragglers"
    ANTI_GUERRILLA = "anti_guerrilla"
    ORDENANZA = "ordenanza"

    @property
    def label(self) -> str:
        return {"anti_guerrilla": "Anti-Guerrilla patrol", "ordenanza": "Ordenanza"}.get(
            self.value, self.value.capitalize()
        )


SPEND_KINDS = tuple(k for k in GloryKind if k is not GloryKind.AWARD)


class Theatre(StrEnum):
    """Where a campaign is fought, for the CC-4 spends limited to one country."""

    SPAIN = "spain"
    PORTUGAL = "portugal"
    OTHER = "other"


class BattleSystem(StrEnum):
    """BR: the rules a battle was fought with, which decides what its report must carry."""

    CC = "cc"
    """Commands & Colors: Napoleonics (Victory Banners, blocks)."""
    EPIC = "epic"
    """C&C Epic Napoleonics (Victory Banners; final totals taken at the end)."""
    MURAT = "murat"
    """Murat miniatures rules (losses in FoU points; a dissolved unit leaves in rout)."""
    MINIATURES = "miniatures"
    """Any other miniatures rules (figures)."""

    @property
    def uses_banners(self) -> bool:
        return self in (BattleSystem.CC, BattleSystem.EPIC)

    @property
    def label(self) -> str:
        return {
            "cc": "C&C Napoleonics",
            "epic": "Epic Napoleonics",
            "murat": "Murat",
            "miniatures": "miniatures",
        }[self.value]
