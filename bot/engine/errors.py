"""The engine's exception tree.

Every message is meant to be shown to a player as it is: it quotes the input and says
what is allowed instead.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the rules engine raises."""


class InvalidInput(EngineError, ValueError):
    """The input is malformed: a negative SP, an unknown terrain, a path with a gap."""


class RuleViolation(EngineError):
    """The input is well formed but the rules do not allow it (a Defend Force asked to move)."""


class TableError(EngineError):
    """A rules table (``rules/*.yaml``) is missing, unreadable or fails validation."""


class VerificationError(EngineError):
    """A roll log cannot be read by the verifier."""
