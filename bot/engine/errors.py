"""The engine's exception tree.

Every message is meant to be shown to a player as it is: it quotes the input and says
what is allowed instead.
"""

from __future__ import annotations

from .text import Msg


class EngineError(Exception):
    """Base of every error the rules engine raises.

    ``message`` is an English template and ``params`` fill it (``str(error)`` is the filled English).
    The bot shows it in the member's language: the template is looked up in the catalogues of
    :mod:`bot.i18n.text` and filled with the same params.
    """

    def __init__(self, message: str = "", /, **params: object) -> None:
        self.text = message if isinstance(message, Msg) and not params else Msg(message, **params)  # i18n: passes a template on
        super().__init__(str(self.text))


class InvalidInput(EngineError, ValueError):
    """The input is malformed: a negative SP, an unknown terrain, a path with a gap."""


class RuleViolation(EngineError):
    """The input is well formed but the rules do not allow it (a Defend Force asked to move)."""


class TableError(EngineError):
    """A rules table (``rules/*.yaml``) is missing, unreadable or fails validation."""


class VerificationError(EngineError):
    """A roll log cannot be read by the verifier."""
