"""Who may read an imported log entry (issue 24, item 5): a visibility from a file is kept only where the
entry's own content says it is right; anything else is the GM's alone.

A file can say anything of an entry's visibility, so the codec (:func:`bot.campaign.codec.decode_log`)
never widens an audience on the file's word:

- ``gm`` stands (the narrowest).
- A roll's audience is its key's (the bot names every roll for what it rolls, :func:`bot.engine.dice.roll_key`):
  ``force:<key>/...`` is that Force's side's (orders, moves, attrition, exploration, re-rolls);
  ``general:<side>/...`` that side's (the bot general's die); ``battle:<n>/...`` that battle's camps
  (aftermath, fate, trophies, Stragglers, quick battles); any other (``campaign``, ``side:<side>``: weather,
  initiative, Will to Fight, events) is public. The file's visibility stands only when it is that one.
- A message (its ``data.msg`` template, or an older entry's plain text) stands as public only when the code
  writes that template publicly and never to a side or a battle (:func:`public_templates`, read from the
  code itself); a side's or a battle's news cannot tell whose it is, so any other label is the GM's.

So a private entry relabelled public stays private (GM-only), and a side's entry relabelled another side's
is the GM's; the price is that an honest side's own messages come back GM-only (its rolls keep theirs).
"""

from __future__ import annotations

import ast
import re
from functools import cache
from importlib import resources
from typing import Any

from .events import PUBLIC

GM = "gm"
_SUBJECT = re.compile(r"t[0-9]+/p[0-9]+/(?:(force):([^/]+)|(general):([^/]+)|(battle):([0-9]+))/")
PRIVATE_WRITERS = frozenset({"tell", "battle_notices", "notices", "Notice"})
"""The calls that write what only some sides read (bot/campaign/sight.py)."""
SCANNED = ("bot.campaign", "bot.services")


def roll_audience(key: str, force_sides: dict[str, str]) -> str:
    """Who reads a roll, by its key: a Force's side, the general's side, a battle's camps, or everyone
    (GM-only for a Force the campaign does not have)."""
    m = _SUBJECT.match(key)
    if m is None:
        return PUBLIC
    if m[1]:
        side = force_sides.get(m[2])
        return f"side:{side}" if side is not None else GM
    if m[3]:
        return f"side:{m[4]}"
    return f"battle:{m[6]}"


def entry_visibility(given: str, *, roll_key: str | None, template: str | None, force_sides: dict[str, str]) -> str:
    """The visibility an imported entry gets (the module doc): ``given`` where its content says it is right,
    else GM-only."""
    if given == GM:
        return GM
    if roll_key:
        return given if given == roll_audience(roll_key, force_sides) else GM
    return given if given == PUBLIC and template in public_templates() else GM


def _msg_template(node: ast.AST) -> str | None:
    """``Msg("template", ...)``'s template."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Msg" and node.args \
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _private_write(call: ast.Call) -> bool:
    """A call that may write to a side or a battle: a notice, or a say with a visibility that is not PUBLIC."""
    if _name(call) in PRIVATE_WRITERS:
        return True
    vis = next((k.value for k in call.keywords if k.arg == "visibility"), None)
    return _name(call) == "say" and vis is not None and not (isinstance(vis, ast.Name) and vis.id == "PUBLIC")


@cache
def public_templates() -> frozenset[str]:
    """The templates the code may write to the public log: every ``Msg("...")`` of bot/campaign and
    bot/services but those that may reach a side or a battle alone. A function that writes to a side or
    a battle (a notice, a say with a visibility) is private, and so is every function it calls by its name
    (``detail(...)``, not ``x.detail(...)``), however deep, that writes nothing itself (the detail of a
    notice is often made elsewhere; a function that writes to the log is judged by its own writes); every template of a private function
    counts as private, whatever it also writes publicly. Too many private templates is safe (an entry is
    then GM-only); the scan is by names, so it errs that way."""
    functions: dict[str, list[tuple[set[str], set[str]]]] = {}
    every: set[str] = set()
    roots: list[tuple[set[str], set[str]]] = []
    for package in SCANNED:
        for path in _sources(package):
            for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                calls = [c for c in ast.walk(fn) if isinstance(c, ast.Call)]
                templates = {t for c in calls if (t := _msg_template(c)) is not None}
                every |= templates
                node = (templates, {c.func.id for c in calls if isinstance(c.func, ast.Name)})
                if not any(_name(c) == "say" for c in calls):  # a writer's public says are its own (below)
                    functions.setdefault(fn.name, []).append(node)
                if any(_private_write(c) for c in calls):
                    roots.append(node)
    private: set[str] = set()
    seen: set[str] = set()
    todo = roots
    while todo:
        templates, called = todo.pop()
        private |= templates
        for name in called - seen:
            seen.add(name)
            todo += functions.get(name, [])
    return frozenset(every - private)


def _sources(package: str) -> list[Any]:
    out = []
    stack = [resources.files(package)]
    while stack:
        d = stack.pop()
        for p in d.iterdir():
            if p.is_dir() and p.name != "__pycache__":
                stack.append(p)
            elif p.name.endswith(".py"):
                out.append(p)
    return out
