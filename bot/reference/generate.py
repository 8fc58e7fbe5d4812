"""``en.md`` from ``shared/RULES.md``: every rule by its ID, its tables turned into lists that read on
a phone (Discord shows no Markdown tables).

    python -m bot.reference.generate [RULES.md]           # rewrite bot/reference/en.md
    python -m bot.reference.generate [RULES.md] --check   # exit 1 if en.md differs from RULES.md

RULES.md's shapes: ``## MC — Title`` opens a section, ``### MC-4 Title`` a rule, a paragraph that
starts ``**MC-5.1 Title.**`` a sub-rule, and ``- **RU-1** ...`` or ``- **FC-1 Title** ...`` a ruling
or module; the text before the first section is not a rule. Rulings have no titles in RULES.md:
:data:`RULING_TITLES` names them for the autocomplete.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from . import ID, Rule, render

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = ROOT.parent / "shared" / "RULES.md"
"""Where RULES.md lives beside a checkout of this repository (not shipped, not in CI)."""
TARGET = Path(__file__).resolve().parent / "en.md"
PREAMBLE = (
    "# Rules reference (English)\n"
    "<!-- Generated from shared/RULES.md by `python -m bot.reference.generate`: do not edit, regenerate. "
    "it.md and es.md translate it entry by entry. -->"
)

RULING_TITLES = {
    "RU-1": "Strength points",
    "RU-2": "Maximum Speed, wizard or scouts",
    "RU-3": "A Force test passed under a reaction",
    "RU-4": "Initiative",
    "RU-5": "Exploration",
    "RU-6": "Mercenaries on a lost battle",
    "RU-7": "Quality ladder",
    "RU-8": "No square to retreat to",
    "RU-9": "The reaction ladder",
    "RU-10": "House tables: weather, calendar, reinforcements, events",
    "RU-11": "Adjacent squares and paths",
    "RU-12": "Attrition's 25%",
    "RU-13": "Simultaneous movement",
    "RU-14": "Capitals in the Will-to-Fight test",
    "RU-15": "Glory where the source is silent",
    "RU-16": "Embarking and landing; upstream and downstream",
    "RU-17": "When Glory is spent",
    "RU-18": "Leader fate over time",
    "RU-19": "Alliances",
    "RU-20": "Battles of three or more camps",
    "RU-21": "Field works",
    "RU-22": "Optional modules are campaign settings",
    "RU-23": "Camps in scouting and Glory",
    "RU-24": "FC-2 supply in strength points",
    "RU-25": "Defeat and the campaign's end",
    "RU-26": "The bot general",
    "RU-27": "Quick battle",
}

_SECTION = re.compile(r"## (?P<id>[A-Z]{2}) — (?P<title>.+)")
_RULE = re.compile(r"### (?P<id>[A-Z]{2}-\d+) (?P<title>.+)")
_SUB = re.compile(r"\*\*(?P<id>[A-Z]{2}-\d+\.\d+) (?P<title>[^*]+?)\.\*\* ?(?P<rest>.*)")
_ITEM = re.compile(r"- \*\*(?P<id>[A-Z]{2}-\d+)(?: (?P<title>[^*]+))?\*\* ?(?P<rest>.*)")


class _Builder:
    def __init__(self) -> None:
        self.rules: list[tuple[str, str, list[str]]] = []
        self.section: str | None = None

    def open(self, rule_id: str, title: str, first: str = "") -> list[str]:
        if not ID.fullmatch(rule_id):
            raise ValueError(f"not a rule ID: {rule_id!r}")
        if any(r[0] == rule_id for r in self.rules):
            raise ValueError(f"{rule_id} appears twice in RULES.md")
        body = [first] if first else []
        self.rules.append((rule_id, title, body))
        return body

    def body_of(self, rule_id: str) -> list[str]:
        return next(r[2] for r in self.rules if r[0] == rule_id)


def parse_rules_md(text: str) -> list[Rule]:
    """The rules of RULES.md, in its order, as the reference shows them."""
    b = _Builder()
    body: list[str] | None = None
    rule_of_body: str | None = None  # the ### rule whose sub-rules follow
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        i += 1
        if line.strip() == "---":
            continue
        if m := _SECTION.fullmatch(line):
            b.section = m["id"]
            body = b.open(m["id"], m["title"].strip())
            rule_of_body = None
            continue
        if body is None:  # before the first section: the introduction, not a rule
            continue
        if m := _RULE.fullmatch(line):
            body = b.open(m["id"], m["title"].strip())
            rule_of_body = m["id"]
            continue
        if (m := _SUB.fullmatch(line)) and rule_of_body and m["id"].startswith(rule_of_body + "."):
            body = b.open(m["id"], m["title"].strip(), m["rest"])
            continue
        if (m := _ITEM.fullmatch(line)) and m["id"].startswith((b.section or "?") + "-"):
            # a bullet item with its continuation lines (indented) is one rule
            rest = [m["rest"]]
            while i < len(lines) and lines[i].startswith("  ") and lines[i].strip():
                rest.append(lines[i].strip())
                i += 1
            text_of = " ".join(rest)
            if m["title"]:  # - **FC-1 Overwhelm check** before a battle: ...
                title = m["title"].strip()
                text_of = f"**{title}** {text_of}"
            else:  # - **RU-1** Strength points: ...
                title = RULING_TITLES.get(m["id"]) or _derived_title(text_of)
            b.open(m["id"], title, text_of)
            body = b.body_of(b.section or "")  # what follows the list belongs to the section
            continue
        body.append(line)
    return [Rule(rule_id, title, _shape(body)) for rule_id, title, body in b.rules]


def _derived_title(text: str) -> str:
    head = re.split(r"[:.;]", text, maxsplit=1)[0].strip().strip("*")
    return head if len(head) <= 60 else head[:57].rsplit(" ", 1)[0] + "…"


def _shape(lines: list[str]) -> str:
    """Paragraphs joined back into lines, tables turned into lists, blank lines between blocks."""
    blocks: list[str] = []
    paragraph: list[str] = []
    table: list[list[str]] = []

    def flush() -> None:
        if paragraph:
            blocks.append(_join(paragraph))
            paragraph.clear()
        if table:
            blocks.append(_table(table))
            table.clear()

    for line in lines:
        stripped = line.strip()
        if stripped.startswith("|"):
            if paragraph:
                flush()
            table.append([c.strip() for c in stripped.strip("|").split("|")])
            continue
        if table:
            flush()
        if not stripped:
            flush()
            continue
        paragraph.append(line)
    flush()
    return "\n\n".join(b for b in blocks if b)


_ITEM_START = re.compile(r"(?:[-*] |\d+\. )")
_LABEL_START = re.compile(r"[A-Z][\w/-]*(?: [\w/-]+){0,2}:")
"""``Sea or lake:``, ``River:``, ``Modifiers:``: a line of its own in RULES.md's paragraphs."""


def _join(lines: list[str]) -> str:
    """A Markdown paragraph's wrapped lines joined back: a list item, a numbered line, a line that
    starts with a label (``River:``) or an unindented line after a list item starts a new line;
    anything else continues the one before."""
    out: list[str] = []
    for line in lines:
        stripped = line.strip()
        after_item = bool(out) and _ITEM_START.match(out[-1]) is not None and not line.startswith(" ")
        if not out or after_item or _ITEM_START.match(stripped) or _LABEL_START.match(stripped):
            out.append(stripped)
        else:
            out[-1] = f"{out[-1]} {stripped}"
    return "\n".join(out)


def _table(rows: list[list[str]]) -> str:
    """A Markdown table as a list: ``- **first cell** — second cell`` under an italic header line;
    with three columns or more, each further cell is named by its header."""
    header, *rest = rows
    rest = [r for r in rest if not all(re.fullmatch(r":?-+:?", c) for c in r)]
    out = [f"*{' — '.join(header)}*" if len(header) == 2 else f"*{header[0]}*"]
    for row in rest:
        cells = row + [""] * (len(header) - len(row))
        if not any(cells[1:]):
            out.append(cells[0])
        elif len(header) == 2:
            out.append(f"- **{cells[0]}** — {cells[1]}")
        else:
            named = " · ".join(f"{h}: {c}" for h, c in zip(header[1:], cells[1:], strict=False))
            out.append(f"- **{cells[0]}** — {named}")
    return "\n".join(out)


def generate(rules_md: str) -> str:
    """The text of ``en.md`` for this RULES.md."""
    return render(parse_rules_md(rules_md), preamble=PREAMBLE)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    paths = [a for a in args if a != "--check"]
    source = Path(paths[0]) if paths else RULES_MD
    fresh = generate(source.read_text(encoding="utf-8"))
    if check:
        same = TARGET.read_text(encoding="utf-8") == fresh
        print(f"{TARGET.name} {'matches' if same else 'differs from'} {source}")
        return 0 if same else 1
    TARGET.write_text(fresh, encoding="utf-8")
    print(f"wrote {TARGET} from {source}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
