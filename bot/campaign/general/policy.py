"""The bot general's policy data (RU-26): its orders table per personality, read from
``rules/general.yaml`` (docs/general.md), and the check a group's die rolls against it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from bot.engine.model import Order
from bot.engine.rolls import BandTable, Check, Modifier
from bot.engine.tables import read_bands, read_modifiers, read_yaml, rules_dir

from ..settings import Personality


class Stance(StrEnum):
    """What a group does this turn: the results of the orders table."""

    HOLD = "hold"
    ADVANCE = "advance"
    ATTACK = "attack"


MODIFIERS = ("stronger", "weaker", "shaken", "quiet", "stalemate")


@dataclass(frozen=True)
class Temper:
    """One personality's row of the policy."""

    table: BandTable
    win_chance: Fraction
    """The chance of winning (RU-27's battle table, against the enemy's estimated SP) it wants before it strikes."""
    shake_risk: Fraction
    """The Force test's chance of leaving the Force shaken or worse it accepts to change a Force's order."""
    disaster_risk: Fraction
    """The Force test's chance of disaster it accepts to change a Force's order."""
    rally_risk: Fraction
    """... and to rally a shaken Force (RU-3: passing sheds the reaction)."""
    attack_order: Order


@dataclass(frozen=True)
class Policy:
    rule: str
    name: str
    group_within: int
    muster_within: int
    """Its Forces within this many squares of an enemy Force it cannot yet beat gather beside it."""
    quiet_turns: int
    """After this many turns without a battle its side is bolder (the ``quiet`` modifier, and no Defend), and
    after twice as many more so (``stalemate``): a stalemate is pushed."""
    quiet_win: Fraction
    """How much less win chance it wants to strike, per step of quiet (:meth:`quiet`)."""
    unseen_edge: int
    """RU-27's edge it counts against itself for what it cannot see in the enemy (quality, generalship), while
    its side is not quiet (:meth:`quiet`)."""
    modifiers: Mapping[str, Modifier]
    tempers: Mapping[Personality, Temper]

    def quiet(self, quiet: int) -> int:
        """How much bolder a side that has fought no battle for ``quiet`` turns is: 0 to 3."""
        return min(3, quiet // self.quiet_turns)

    def stance_check(self, personality: Personality, modifiers: tuple[Modifier, ...], subject: str) -> Check:
        """The group's die against its personality's orders table (verifiable: the record carries the table)."""
        return Check(self.rule, self.name, modifiers, self.tempers[personality].table, subject=subject)


@cache
def policy() -> Policy:
    node = read_yaml(rules_dir() / "general.yaml")
    node.keys_exactly({"rule", "name", "group_within", "muster_within", "quiet_turns", "quiet_win", "unseen_edge", "modifiers",
                        "personalities"})
    rule = node.key("rule").str()
    tempers: dict[Personality, Temper] = {}
    people = node.key("personalities")
    people.keys_exactly([p.value for p in Personality])
    for name, row in people.items():
        row.keys_exactly({"win_chance", "shake_risk", "disaster_risk", "rally_risk", "attack_order", "bands"})
        tempers[Personality(name)] = Temper(
            read_bands(row.key("bands"), [s.value for s in Stance]),
            Fraction(row.key("win_chance").int(1, 100), 100), Fraction(row.key("shake_risk").int(0, 100), 100),
            Fraction(row.key("disaster_risk").int(0, 100), 100),
            Fraction(row.key("rally_risk").int(0, 100), 100), Order(row.key("attack_order").str()))
    return Policy(rule, node.key("name").str(), node.key("group_within").int(0, 10), node.key("muster_within").int(1, 20),
                  node.key("quiet_turns").int(1, 100), Fraction(node.key("quiet_win").int(0, 100), 100),
                  node.key("unseen_edge").int(0, 3),
                  read_modifiers(node.key("modifiers"), rule, MODIFIERS), tempers)
