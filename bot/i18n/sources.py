"""Every English text the engine and the services can show a player, found in the source.

* templates of :class:`~bot.engine.text.Msg` and of the errors players read (``RuleViolation("...")``),
  read from the code's syntax tree (so a new message cannot be forgotten by the catalogues);
* the labels, reasons, meanings and help texts of ``rules/*.yaml``;
* what each phase needs and what ends it (MC-3);
* the model's words (orders, terrain, qualities, leader statuses...).

Babel's extraction (:mod:`bot.i18n.extract`) reads the code through :func:`file_texts`;
``python -m bot.i18n check`` lists what each catalogue still lacks.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
CODE = ("bot/engine", "bot/campaign", "bot/services", "bot/scenario.py", "bot/freeroll.py", "bot/limits.py",
        "bot/generate.py", "bot/render", "bot/paint.py")
CALLS = frozenset({
    "Msg", "InvalidInput", "RuleViolation", "NotFound", "PermissionDenied", "WrongPhase", "AlreadyResolved",
    "ImportRejected", "ServiceError", "TooSoon",
})
"""Calls whose first argument is text for players (errors the bot shows as they are)."""
FAIL_FILES = frozenset({"bot/scenario.py", "bot/engine/reports.py", "bot/engine/tables.py"})
"""Where `at.fail("...")` builds an error for a GM (scenario and report files, a scenario's own tables)."""
PASS_ON = "# i18n: passes a template on"
"""Marks a call whose text is a template made elsewhere (a Msg, a Msg.join): not a new message."""
YAML_FIELDS = frozenset({"label", "reason", "meaning", "help", "wind", "name"})


def _code_files() -> Iterator[Path]:
    for part in CODE:
        path = ROOT / part
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and func.attr in ("fail", "plural"):  # at.fail("..."), Msg.plural(n, ...)
        return func.attr
    return None


def file_texts(rel: str, source: str) -> tuple[list[tuple[int, str | tuple[str, str]]], list[str]]:
    """The templates written in one file, in order: ``(line, text)``, or ``(line, (one, many))`` for
    the two forms of :meth:`Msg.plural`; and the calls whose text is not a literal."""
    found: list[tuple[int, str | tuple[str, str]]] = []
    dynamic: list[str] = []
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if not (name in CALLS or name in ("plural", "require_phase") or (name == "fail" and rel in FAIL_FILES)):
            continue
        if not node.args:
            continue
        if name == "plural":  # Msg.plural(n, "{n} die", "{n} dice"): one entry with its plural form
            forms = [a.value for a in node.args[1:3] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if len(forms) == 2:
                found.append((node.lineno, (forms[0], forms[1])))
            continue
        if name == "require_phase":  # require_phase(campaign, phase, "Scouting")
            found.extend((node.lineno, a.value) for a in node.args[2:]
                         if isinstance(a, ast.Constant) and isinstance(a.value, str))
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            found.append((node.lineno, first.value))
        elif PASS_ON not in lines[node.lineno - 1]:
            dynamic.append(f"{rel}:{node.lineno}")
    found.sort(key=lambda item: item[0])
    return found, dynamic


def code_texts() -> tuple[dict[str, list[str]], list[str]]:
    """(template -> where it is written, calls whose text is not a literal and so cannot be translated).
    Both forms of a plural are listed."""
    found: dict[str, list[str]] = {}
    dynamic: list[str] = []
    for path in _code_files():
        rel = path.relative_to(ROOT).as_posix()
        texts, bad = file_texts(rel, path.read_text(encoding="utf-8"))
        for line, text in texts:
            for form in (text if isinstance(text, tuple) else (text,)):
                found.setdefault(form, []).append(f"{rel}:{line}")
        dynamic.extend(bad)
    return found, dynamic


def plural_pairs() -> dict[str, tuple[str, str]]:
    """Each form of a plural written in the code -> (singular, plural)."""
    pairs: dict[str, tuple[str, str]] = {}
    for path in _code_files():
        rel = path.relative_to(ROOT).as_posix()
        for _line, text in file_texts(rel, path.read_text(encoding="utf-8"))[0]:
            if isinstance(text, tuple):
                pairs[text[0]] = pairs[text[1]] = text
    return pairs


def yaml_texts() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in YAML_FIELDS and isinstance(v, str):
                    found.setdefault(v, []).append(where)
                elif k == "labels" and isinstance(v, dict):  # a die's faces by symbol (CC-3's battle die)
                    for label in v.values():
                        if isinstance(label, str):
                            found.setdefault(label, []).append(where)
                else:
                    walk(v, where)
        elif isinstance(node, list):
            for v in node:
                walk(v, where)

    for path in sorted((ROOT / "rules").glob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")), path.relative_to(ROOT).as_posix())
    return found


def phase_texts() -> dict[str, list[str]]:
    from bot.engine.phases import PHASES

    found: dict[str, list[str]] = {}
    for spec in PHASES.values():
        for text in (spec.title, spec.name, spec.needs, spec.ends):
            found.setdefault(text, []).append(f"MC-3 phase {int(spec.phase)}")
    return found


def vocabulary() -> dict[str, list[str]]:
    """The words of the model (orders, reactions, terrain, qualities, statuses...) as the services
    write them (``forced_march``): a message's parameter that is one of them is translated too."""
    from bot.engine import cc_model, model

    found: dict[str, list[str]] = {}
    for enum in (model.Order, model.Reaction, model.Terrain, model.Feature, model.Quality, model.UnitType,
                 model.LeaderStatus, model.Outcome, model.Season, model.Climate, model.Territory, cc_model.Circumstance,
                 cc_model.Commander, cc_model.GloryKind):
        for member in enum:
            where = f"{enum.__module__.replace('.', '/')}.py {enum.__name__}"
            found.setdefault(str(member.value), []).append(where)
            if "_" in str(member.value):  # the services also write it as words: "forced march"
                found.setdefault(str(member.value).replace("_", " "), []).append(where)
            label = getattr(member, "label", None)
            if isinstance(label, str):
                found.setdefault(label, []).append(where + " label")
    return found


def english_texts() -> dict[str, list[str]]:
    """Every English text a catalogue must translate, with where it comes from."""
    out: dict[str, list[str]] = {}
    for part in (code_texts()[0], yaml_texts(), phase_texts(), vocabulary()):
        for text, where in part.items():
            out.setdefault(text, []).extend(where)
    return out
