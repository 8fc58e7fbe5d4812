"""Every English text the engine and the services can show a player, found in the source.

* templates of :class:`~bot.engine.text.Msg` and of the errors players read (``RuleViolation("...")``),
  read from the code's syntax tree (so a new message cannot be forgotten by the catalogues);
* the labels, reasons, meanings and help texts of ``rules/*.yaml``;
* what each phase needs and what ends it (MC-3);
* the model's words (orders, terrain, qualities, leader statuses...).

``python -m bot.i18n.sources it`` prints the entries ``text_it.py`` still lacks, ready to fill in.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
CODE = ("bot/engine", "bot/campaign", "bot/services", "bot/scenario.py", "bot/freeroll.py", "bot/limits.py",
        "bot/generate.py")
CALLS = frozenset({
    "Msg", "InvalidInput", "RuleViolation", "NotFound", "PermissionDenied", "WrongPhase", "AlreadyResolved",
    "ImportRejected", "ServiceError",
})
"""Calls whose first argument is text for players (errors the bot shows as they are)."""
FAIL_FILES = frozenset({"bot/scenario.py", "bot/engine/reports.py"})
"""Where `at.fail("...")` builds an error for a GM (scenario and report files)."""
PASS_ON = "# i18n: passes a template on"
"""Marks a call whose text is a template made elsewhere (a Msg, a Msg.join): not a new message."""
YAML_FIELDS = frozenset({"label", "reason", "meaning", "help", "wind"})


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


def code_texts() -> tuple[dict[str, list[str]], list[str]]:
    """(template -> where it is written, calls whose text is not a literal and so cannot be translated)."""
    found: dict[str, list[str]] = {}
    dynamic: list[str] = []
    for path in _code_files():
        rel = path.relative_to(ROOT).as_posix()
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            if not (name in CALLS or name in ("plural", "require_phase") or (name == "fail" and rel in FAIL_FILES)):
                continue
            if not node.args:
                continue
            extra = {"plural": 1, "require_phase": 2}.get(name or "")
            if extra is not None:  # Msg.plural(n, "{n} die", "{n} dice"); require_phase(campaign, phase, "Scouting")
                for arg in node.args[extra:]:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        found.setdefault(arg.value, []).append(f"{rel}:{node.lineno}")
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.setdefault(first.value, []).append(f"{rel}:{node.lineno}")
            elif PASS_ON not in lines[node.lineno - 1]:
                dynamic.append(f"{rel}:{node.lineno}")
    return found, dynamic


def yaml_texts() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in YAML_FIELDS and isinstance(v, str):
                    found.setdefault(v, []).append(where)
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
        for text in (spec.needs, spec.ends):
            found.setdefault(text, []).append(f"MC-3 phase {int(spec.phase)}")
    return found


def vocabulary() -> dict[str, list[str]]:
    """The words of the model (orders, reactions, terrain, qualities, statuses...) as the services
    write them (``forced_march``): a message's parameter that is one of them is translated too."""
    from bot.engine import cc_model, model

    found: dict[str, list[str]] = {}
    for enum in (model.Order, model.Reaction, model.Terrain, model.Feature, model.Quality, model.UnitType,
                 model.LeaderStatus, model.Outcome, model.Season, model.Territory, cc_model.Circumstance,
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


def main(argv: list[str]) -> int:
    from bot.i18n.text import CATALOGUES

    lang = argv[0] if argv else "it"
    catalogue = CATALOGUES[lang]
    missing = [(text, where) for text, where in english_texts().items() if text not in catalogue]
    for text, where in missing:
        print(f"    {text!r}: '',  # {where[0]}")
    print(f"# {len(missing)} missing in {lang}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
