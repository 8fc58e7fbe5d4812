"""The dice of a turn, from its secret seed (docs/dice.md), and the turn's seed itself.

The core never draws randomness: a new turn's seed comes from ``fresh_seed``, which the service
passes in (secrets in the bot, a fixed source in the demo and the tests)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.engine.dice import SeededDice, seed_commitment
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg

from .events import EventKind, Journal
from .state import CampaignState, TurnSeed


@dataclass(frozen=True)
class Context:
    """What an application needs besides the state: the rules and where new turn seeds come from."""

    fresh_seed: Callable[[], bytes]
    rules: RuleBook

    @classmethod
    def default(cls, fresh_seed: Callable[[], bytes]) -> Context:
        return cls(fresh_seed, default_rulebook())


def turn_dice(state: CampaignState, journal: Journal, ctx: Context) -> tuple[CampaignState, SeededDice]:
    """The dice of the current turn; its seed is drawn, and its hash published, on first use."""
    seed = state.seed()
    if seed is None:
        raw = ctx.fresh_seed()
        seed = TurnSeed(state.turn, raw.hex(), seed_commitment(raw))
        state = state.with_seed(seed)
        journal.say(state, Msg("Turn {turn} dice: SHA-256 of the turn seed is {sha256} (revealed when the turn ends).",
                               turn=state.turn, sha256=seed.sha256),
                    kind=EventKind.SEED, data={"turn": state.turn, "seed_sha256": seed.sha256})
    return state, SeededDice(bytes.fromhex(seed.seed_hex))


def reveal_turn(state: CampaignState, journal: Journal) -> CampaignState:
    """The turn ends (or the campaign does): its seed is revealed, with the hash of its last roll (the
    chain head), so anyone can verify its rolls (docs/dice.md)."""
    seed = state.seed()
    if seed is None or seed.revealed:
        return state
    head = journal.chain_end
    state = state.with_seed(replace(seed, revealed=True, chain_head=head))
    journal.say(state, Msg("Turn {turn} is over; its dice seed was {seed} (SHA-256 {sha256}). Check every roll "
                           "with `/campaign verify`.", turn=state.turn, seed=seed.seed_hex, sha256=seed.sha256),
                kind=EventKind.SEED, data={"turn": state.turn, "seed": seed.seed_hex, "seed_sha256": seed.sha256})
    journal.say(state, Msg("Turn {turn}'s roll chain ends at {head}: each roll record carries the hash of "
                           "the one before it, so a roll removed, added or changed later shows. "
                           "`/campaign verify` checks the log against it.", turn=seed.turn, head=head),
                kind=EventKind.SEED, data={"turn": seed.turn, "chain_head": head})
    return state
