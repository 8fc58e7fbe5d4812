"""The renderer's exception tree: one base, and one class for a snapshot that cannot be drawn."""

from __future__ import annotations


class RenderError(Exception):
    """Base of every error the map renderer raises."""


class InvalidSnapshot(RenderError, ValueError):
    """The snapshot or an option is malformed: a counter off the map, an unknown side, a bad colour."""
