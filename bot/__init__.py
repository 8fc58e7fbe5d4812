"""Aide-de-Camp: a Discord bot for play-by-post Napoleonic map campaigns."""

__version__ = "0.1.0"
