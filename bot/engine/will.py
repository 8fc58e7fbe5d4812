"""MC-9 Phase 5: the Will-to-Fight test, from the campaign's tallies so far."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .camps import NO_CAMPS, Camps
from .dice import DiceSource
from .errors import InvalidInput
from .rolls import Check, Modifier, Roll
from .tables import RuleBook, default_rulebook
from .text import Msg


@dataclass(frozen=True)
class Tallies:
    """A side's record over the whole campaign so far (MC-9)."""

    battles_won: int = 0
    battles_lost: int = 0
    strongholds_taken: int = 0
    """Enemy strongholds taken and still held."""
    strongholds_lost: int = 0
    """Friendly strongholds lost and held by the enemy."""
    holds_enemy_capital: bool = False
    lost_capital: bool = False

    def __post_init__(self) -> None:
        for name in ("battles_won", "battles_lost", "strongholds_taken", "strongholds_lost"):
            n = getattr(self, name)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise InvalidInput("Will-to-Fight tally {replace} must be 0 or more, got {n!r}.", replace=name.replace('_', ' '), n=n)

    @classmethod
    def of(cls, side: str, held: Iterable[Holding], *, battles_won: int = 0, battles_lost: int = 0,
           camps: Camps = NO_CAMPS) -> Tallies:
        """``side``'s tallies from the strongholds held by a side other than their owner (MC-9).

        RU-14: a capital is also a stronghold on the map, but here it counts **only as a capital**
        (+3 / -3), never also as a stronghold (+1 / -1); and only a side's own strongholds and capital
        count for it (an ally's lost stronghold is not its loss; holding its own is no gain).

        RU-19 (``camps``, default every side its own camp): MC-9 counts strongholds "held by the enemy"
        and "enemy strongholds taken", so a stronghold its owner's **ally** holds is neither lost by
        the owner nor taken by the ally; only a hostile holder counts, on both sides of the tally."""
        taken = lost = 0
        holds_capital = lost_capital = False
        for h in held:
            if camps.friendly(h.holder, h.owner):
                continue  # held by its owner, or by its owner's ally: not in enemy hands (RU-19)
            if h.holder == side:
                holds_capital = holds_capital or h.capital
                taken += not h.capital
            elif h.owner == side:
                lost_capital = lost_capital or h.capital
                lost += not h.capital
        return cls(battles_won, battles_lost, taken, lost, holds_capital, lost_capital)


@dataclass(frozen=True)
class Holding:
    """A stronghold (or capital) and who holds it now (MC-9 tallies)."""

    owner: str
    holder: str
    capital: bool = False


def stronghold_holder(owner: str, holder: str, present: Iterable[str], *, camps: Camps = NO_CAMPS) -> str:
    """Who holds a stronghold once the Forces of the sides ``present`` stand in it (MC-9 tallies).

    ``owner``: the side whose stronghold it is; ``holder``: who holds it now (the owner when it never
    changed hands). It changes hands only when every Force in it is of **one camp hostile to its
    holder** (RU-19): allies never take a stronghold from one another. Retaken by its owner's camp it
    goes back to its owner (an ally frees it for him); taken by another camp it goes to the side
    standing in it, the first by key when several allies do. Without ``camps`` every side is its own
    camp: the stronghold goes to the one side standing in it."""
    sides = sorted(set(present))
    if len(camps.camps_of(sides)) != 1 or not camps.hostile(sides[0], holder):
        return holder  # empty, contested, or held by the camp already there
    return owner if camps.friendly(sides[0], owner) else sides[0]


def all_forces_lost(*, on_map: int, to_arrive: int) -> bool:
    """MC-9: all Forces of a side's army are destroyed or lost to reactions. A Force that has not yet
    arrived as a reinforcement (MC-10 Phase 7, RU-10) is neither: a side waiting for one has not lost
    its army, however many it has lost on the map."""
    for n in (on_map, to_arrive):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidInput("A count of Forces must be 0 or more, got {n!r}.", n=n)
    return on_map == 0 and to_arrive == 0


@dataclass(frozen=True)
class WillTriggers:
    """What happened to a side this turn (MC-9: when a side tests)."""

    all_forces_lost: bool = False
    lost_battle: bool = False
    lost_stronghold: bool = False
    force_test_disaster: bool = False

    def reasons(self) -> tuple[str, ...]:
        out: list[str] = []
        if self.all_forces_lost:
            out.append(Msg("all its Forces are destroyed or lost to reactions"))
        if self.lost_battle:
            out.append(Msg("it lost a battle this turn"))
        if self.lost_stronghold:
            out.append(Msg("it lost a friendly stronghold now held by the enemy"))
        if self.force_test_disaster:
            out.append(Msg("a Force test ended in disaster (MC-4)"))
        return tuple(out)

    @property
    def why(self) -> str:
        """The reasons, as one text for the log ("" when the side need not test)."""
        return Msg.join("; ", self.reasons()) if self.must_test else ""

    @property
    def must_test(self) -> bool:
        return bool(self.reasons())


def will_to_fight_check(tallies: Tallies, *, subject: str = "", rules: RuleBook | None = None) -> Check:
    """1D6 + per-battle, per-stronghold and capital modifiers; below zero is total defeat."""
    proc = (rules or default_rulebook()).mc.will_to_fight
    mods: list[Modifier] = []
    for name, count in (
        ("battle_won", tallies.battles_won),
        ("battle_lost", tallies.battles_lost),
        ("stronghold_taken", tallies.strongholds_taken),
        ("stronghold_lost", tallies.strongholds_lost),
        ("capital_taken", int(tallies.holds_enemy_capital)),
        ("capital_lost", int(tallies.lost_capital)),
    ):
        if count:
            base = proc.mod(name)
            reason = base.reason if count == 1 else Msg("{reason} x{count}", reason=base.reason, count=count)
            mods.append(Modifier(base.value * count, base.rule, reason))
    return Check(proc.rule, proc.name, tuple(mods), proc.bands, subject=subject)


def will_to_fight(tallies: Tallies, dice: DiceSource, key: str, *, subject: str = "", rules: RuleBook | None = None) -> Roll:
    return will_to_fight_check(tallies, subject=subject, rules=rules).roll(dice, key)
