"""Errors the campaign core raises for a member to read, beside the engine's InvalidInput and
RuleViolation: the message is shown as is."""

from __future__ import annotations

from bot.engine.errors import EngineError


class ServiceError(EngineError):
    """Base of the service layer's errors; the message is shown to the user as is."""


class NotFound(ServiceError):
    pass


class PermissionDenied(ServiceError):
    pass


class WrongPhase(ServiceError):
    pass


class AlreadyResolved(ServiceError):
    """Someone else resolved (or undid) the phase first: a double click, a retry, a second process."""


class ImportRejected(ServiceError):
    pass


class TooSoon(ServiceError):
    """Heavy work (a timelapse, a painted map) asked for again within its cooldown, or while its own gate
    is full: the message says when to try again (issue 24, item 1)."""
