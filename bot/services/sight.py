"""Fog of war is decided in the campaign core, :mod:`bot.campaign.sight` (and applied to the read
commands' views in :mod:`bot.campaign.views`). This module keeps the services' import path for what
the cogs publish: the :class:`Notice` of each reader.
"""

from __future__ import annotations

from bot.campaign.sight import PUBLIC, Notice, Reader, notices

__all__ = ["PUBLIC", "Notice", "Reader", "notices"]
