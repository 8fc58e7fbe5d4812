"""Errors a service raises for a user to read: the campaign core's (:mod:`bot.campaign.errors`)."""

from __future__ import annotations

from bot.campaign.errors import (  # noqa: F401 (re-exported)
    AlreadyResolved,
    ImportRejected,
    NotFound,
    PermissionDenied,
    ServiceError,
    TooSoon,
    WrongPhase,
)
