"""The edge every slash command passes first: text a member typed in an option is refused, naming
the option in the member's language, when it holds a character no part of the bot should ever see
(a control character but newline and tab, NUL, a lone surrogate: PostgreSQL cannot store a NUL,
no encoder can write a lone surrogate). Wired in :meth:`bot.app.AideTree.interaction_check`, so it
runs before any command, and before any autocomplete (which then suggests nothing)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import discord

from bot.engine.errors import InvalidInput
from bot.engine.uploads import bad_character
from bot.i18n import command_name, lang_of, t

log = logging.getLogger("adc.edge")

STRING = 3
"""Discord's option type of text options."""
GROUPS = (1, 2)
"""Discord's option types of a subcommand and a subcommand group."""


def string_options(data: Any) -> Iterator[tuple[str, str, str]]:
    """(command's qualified name, option name, value) of every text option in an interaction's data."""
    if not isinstance(data, dict):
        return
    path = [str(data.get("name", ""))]
    options = data.get("options") or []
    while True:
        groups = [o for o in options if isinstance(o, dict) and o.get("type") in GROUPS]
        if not groups:
            break
        path.append(str(groups[0].get("name", "")))
        options = groups[0].get("options") or []
    for o in options:
        if isinstance(o, dict) and o.get("type") == STRING and isinstance(o.get("value"), str):
            yield " ".join(path), str(o.get("name", "")), o["value"]


def option_label(lang: str, command: str, option: str) -> str:
    """The option's name as the member sees it (``nome`` for ``name`` in Italian)."""
    return command_name(lang, f"{command}.{option}", option)


async def check_text_options(interaction: discord.Interaction) -> bool:
    """True when every text option is clean. Otherwise the member is told which option holds which
    character (an autocomplete gets no suggestions) and False is returned: the command never runs."""
    if interaction.type not in (discord.InteractionType.application_command, discord.InteractionType.autocomplete):
        return True
    for command, option, value in string_options(interaction.data):
        char = bad_character(value)
        if char is None:
            continue
        log.info("event=refused_text command=%s option=%s char=%s user=%s", command, option, char, interaction.user.id)
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
            return False
        lang = lang_of(interaction.locale)
        error = InvalidInput(t(lang, "edge.bad_character", option=option_label(lang, command, option), char=char))
        await interaction.client.report_error(interaction, error)  # type: ignore[attr-defined]
        return False
    return True
