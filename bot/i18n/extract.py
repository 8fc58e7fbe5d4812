"""Babel extraction methods: what each catalogue's template (``bot/locale/*.pot``) holds.

Named in ``babel/*.cfg``, so ``pybabel extract -F babel/engine.cfg -o bot/locale/engine.pot .``
(or ``python -m bot.i18n extract``, which runs the same methods) finds every text for players:

* ``bot`` domain: :func:`messages`, the bot's own sentences in ``bot/i18n/en.py``, each with its key
  as message context (``status.turn``), so one English word can be said several ways;
* ``engine`` domain: :func:`templates` (the :class:`~bot.engine.text.Msg` templates and the errors in
  the code, plurals with their plural form), :func:`rules` (labels, reasons and help of
  ``rules/*.yaml``) and :func:`model` (the words of the model and what each phase needs, MC-3);
* ``commands`` domain: :func:`commands`, the slash commands' names, descriptions and choices, read
  off the command tree the bot syncs, each in context (``name:order give``, ``choice:explore``).

Each method yields Babel's ``(line, function, messages, comments)``; the function names are
gettext's (``pgettext`` for a context, ``ngettext`` for a plural), which Babel's default keywords read.
"""

from __future__ import annotations

import ast
import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import yaml

from . import sources

Extracted = Iterator[tuple[int, str, str | tuple[str, ...], list[str]]]


def _rel(fileobj: IO[bytes]) -> str:
    name = Path(getattr(fileobj, "name", "")).resolve()
    try:
        return name.relative_to(sources.ROOT).as_posix()
    except ValueError:
        return name.as_posix()


def messages(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Extracted:
    """``bot/i18n/en.py``: each ``MESSAGES`` entry, its key as context; a ``(one, many)`` pair is a plural."""
    tree = ast.parse(fileobj.read().decode("utf-8"))
    for node in ast.walk(tree):
        target = getattr(node, "target", None) or (getattr(node, "targets", None) or [None])[0]
        if not (isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(target, ast.Name)
                and target.id == "MESSAGES" and isinstance(node.value, ast.Dict)):
            continue
        for key, value in zip(node.value.keys, node.value.values, strict=True):
            assert isinstance(key, ast.Constant), "MESSAGES keys are literals"
            literal = ast.literal_eval(value)
            if isinstance(literal, tuple):
                yield key.lineno, "npgettext", (key.value, *literal), []
            else:
                yield key.lineno, "pgettext", (key.value, literal), []


def templates(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Extracted:
    """A module's templates (``Msg("...")``, ``RuleViolation("...")``, ``Msg.plural(n, one, many)``)."""
    found, _dynamic = sources.file_texts(_rel(fileobj), fileobj.read().decode("utf-8"))
    for line, text in found:
        if isinstance(text, tuple):
            yield line, "ngettext", text, []
        else:
            yield line, "gettext", text, []


def rules(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Extracted:
    """The labels, reasons, meanings and help texts of a rules YAML file."""
    out: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in sources.YAML_FIELDS and isinstance(v, str):
                    out.append(v)
                elif k == "labels" and isinstance(v, dict):  # a die's faces by symbol (CC-3's battle die)
                    out.extend(label for label in v.values() if isinstance(label, str))
                else:
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(yaml.safe_load(fileobj.read().decode("utf-8")))
    for text in out:
        yield 0, "gettext", text, []


def model(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Extracted:
    """The model's words (orders, terrain, statuses: ``bot/engine/model.py``, ``cc_model.py``) and
    what each phase needs and what ends it (``bot/engine/phases.py``), after the file's templates."""
    rel = _rel(fileobj)
    yield from templates(fileobj, keywords, comment_tags, options)
    texts = sources.phase_texts() if rel.endswith("phases.py") else {
        text: where for text, where in sources.vocabulary().items() if where[0].startswith(rel)}
    for text in texts:
        yield 0, "gettext", text, []


def commands(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Extracted:
    """``bot/app.py``: the command tree the bot syncs, loaded as the bot loads it."""
    for context, text in asyncio.run(command_texts()):
        yield 0, "pgettext", (context, text), []


async def command_texts() -> list[tuple[str, str]]:
    """(context, English) of every command, group, option and choice: ``name:order give``,
    ``description:order give``, ``name:order give.force``, ``choice:explore``."""
    import tempfile

    from discord import app_commands

    from bot.app import EXTENSIONS, create_bot
    from bot.settings import Settings

    from . import command_key

    out: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Settings(database_url=f"sqlite+aiosqlite:///{tmp}/x.db"), background_tasks=False)
        try:
            for ext in EXTENSIONS:
                await bot.load_extension(ext)
            for cmd in bot.tree.walk_commands():
                key = command_key(cmd)
                out += [(f"name:{key}", cmd.name), (f"description:{key}", str(cmd.description))]
                if isinstance(cmd, app_commands.Command):
                    for p in cmd.parameters:
                        key = command_key(p)
                        out += [(f"name:{key}", p.name), (f"description:{key}", str(p.description))]
                        out += [(f"choice:{c.value}", c.name) for c in p.choices]
        finally:
            await bot.db.dispose()
    seen: set[tuple[str, str]] = set()
    return [item for item in out if not (item in seen or seen.add(item))]
