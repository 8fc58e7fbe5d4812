"""The rules engine: pure, synchronous, standard library only (plus the YAML loader in tables).

Every procedure takes plain values and an injected dice source and returns frozen results with
their roll records. Rule IDs (``MC-4``, ``RU-13``...) are those of ``shared/RULES.md``.
"""

from .dice import DiceSource, ScriptedDice, SeededDice, new_turn_seed, roll_key, seed_commitment
from .errors import EngineError, InvalidInput, RuleViolation, TableError
from .model import (
    Cell,
    Climate,
    Feature,
    Force,
    Leader,
    LeaderStatus,
    Order,
    Outcome,
    Quality,
    Reaction,
    Season,
    Side,
    Square,
    Terrain,
    Territory,
    Unit,
    UnitType,
)
from .rolls import BatchRoll, Check, Modifier, Roll
from .tables import RuleBook, default_rulebook, load_rulebook

__all__ = [
    "BatchRoll", "Cell", "Check", "Climate", "DiceSource", "EngineError", "Feature", "Force", "InvalidInput",
    "Leader", "LeaderStatus", "Modifier", "Order", "Outcome", "Quality", "Reaction", "Roll", "RuleBook",
    "RuleViolation", "ScriptedDice", "Season", "SeededDice", "Side", "Square", "TableError", "Terrain",
    "Territory", "Unit", "UnitType", "default_rulebook", "load_rulebook", "new_turn_seed", "roll_key",
    "seed_commitment",
]
