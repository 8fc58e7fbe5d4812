"""The log as members read it (:func:`entry_text`), and the roll log's files for the verifiers
(docs/dice.md; the roll log itself: :mod:`bot.store.rolllog`)."""

from __future__ import annotations

import functools
import json
import re
import string
from typing import Any

from bot.campaign.gazette import FINGERPRINT
from bot.engine.rolls import LABELS, BatchRoll, composed, record_from_dict
from bot.engine.text import Msg, UnknownMessage
from bot.engine.verify import verifier_html
from bot.i18n import sources, t
from bot.i18n.catalogues import translations
from bot.i18n.text import known_templates, tr
from bot.store import log as store_log
from bot.store.db import Database
from bot.store.models import LogEntry
from bot.store.rolllog import roll_log

from .loading import get_campaign


def entry_text(entry: LogEntry) -> str:
    """The entry's text: a Msg again when it was written as one (events) or is a roll; else as stored.

    Only the code's own templates are formatted (:meth:`Msg.from_json`): an entry whose stored
    template is not one of them is shown as its stored plain text."""
    data = entry.data or {}
    if "msg" in data:
        try:
            return Msg.from_json(data["msg"], known=known_templates())
        except UnknownMessage:
            return entry.text
    if entry.kind == "roll" and data.get("kind") in ("roll", "batch"):
        try:
            return str(record_from_dict(data))
        except (KeyError, TypeError, ValueError):
            return entry.text
    return entry.text


async def verifier_files(db: Database, campaign_id: int, lang: str = "en") -> list[tuple[str, bytes]]:
    """Anyone's roll log (:func:`roll_log`, public) as JSON (for ``python -m bot verify``) and in a
    self-contained HTML page that checks it offline in a browser, in the reader's language ``lang``: each
    file's name and bytes."""
    async with db.sessions() as s:
        campaign = await get_campaign(s, campaign_id)
        log = await roll_log(s, campaign, public=True)
        name = campaign.name
    return [(f"roll-log-{campaign_id}.json", json.dumps(log, ensure_ascii=False, indent=1).encode("utf-8")),
            (f"roll-log-{campaign_id}.html", verifier_page(log, name, lang))]


async def full_record(db: Database, campaign_id: int) -> tuple[list[LogEntry], dict[str, Any]]:
    """Every log entry (undone ones too, whoever may read them) and the whole roll log: what the offline
    demo writes out, with the GM's eyes."""
    async with db.sessions() as s:
        campaign = await get_campaign(s, campaign_id)
        return await store_log.all_entries(s, campaign_id), await roll_log(s, campaign)


def verifier_page(log: dict[str, Any], name: str, lang: str = "en") -> bytes:
    """The HTML page that checks ``log`` in a browser (bot/engine/verify.html), for campaign ``name``, in
    the reader's language (issue 23, item 6): its words, each public roll as the channel showed it (the
    page marks each against its turn's seed) and each turn's dice fingerprint, as the gazette showed it."""
    return verifier_html(log, title=name, words=page_words(lang, name), shown=shown_rolls(log, lang)).encode("utf-8")


PAGE_WORDS = ("intro", "checking", "fingerprints_title", "fingerprints_help", "rolls_title", "report_title",
              "other_file", "other_file_help", "what_checked", "what_checked_short", "verdict_matched",
              "verdict_consistent", "verdict_bad", "announced", "compare",
              "cannot_check", "not_json", "no_log", "roll_ok", "roll_bad")
"""The verifier page's texts, each the catalogue's ``verify.<name>`` (``heading`` names the campaign)."""


def page_words(lang: str, name: str) -> dict[str, Any]:
    """The verifier page's texts in ``lang`` (English: the page's own, untouched), and its report's lines
    (the verifier's, :mod:`bot.engine.verify`) said in ``lang`` (issue 23)."""
    if lang == "en":
        return {}
    return {"lang": lang, "heading": t(lang, "verify.heading", name=name),
            **{key: t(lang, f"verify.{key}") for key in PAGE_WORDS}, "lines": report_lines(lang)}


_JS_SPECIAL = re.compile(r"[\\^$.*+?()\[\]{}|/]")


@functools.lru_cache(maxsize=8)
def report_lines(lang: str) -> list[dict[str, Any]]:
    """The verifier report's templates that ``lang`` says otherwise, for the page to say each line the
    same way as the bot: an anchored JavaScript pattern of the English line (each field a group), the
    fields' names in order, and the template in ``lang``; the most specific templates first (the page's
    script tries them in order, and a field that is a line in turn is said in its turn)."""
    source = (sources.ROOT / "bot" / "engine" / "verify.py").read_text(encoding="utf-8")
    found, _ = sources.file_texts("bot/engine/verify.py", source)
    catalogue = translations(lang, "engine")
    out = []
    for _, template in found:
        if not isinstance(template, str):
            continue
        said = catalogue.gettext(template)
        if said == template and "{" not in template:  # a line with fields may hold one to say (PROBLEM: ...)
            continue
        pattern, fields = [], []
        for literal, field, _spec, _conv in string.Formatter().parse(template):
            pattern.append(_JS_SPECIAL.sub(lambda m: "\\" + m.group(), literal))
            if field is not None:
                pattern.append("([\\s\\S]+?)")
                fields.append(field)
        out.append({"re": "^" + "".join(pattern) + "$", "fields": fields, "say": said,
                    "weight": len(template) - sum(len(f) + 2 for f in fields)})
    out.sort(key=lambda line: -line["weight"])
    return [{k: v for k, v in line.items() if k != "weight"} for line in out]


def shown_rolls(log: dict[str, Any], lang: str) -> dict[str, list[dict[str, str]]]:
    """The public rolls of ``log`` as the channel showed them (``Tour 1, Météo (règle maison) (RU-10) : 5 →
    Couvert``), by key, and each turn's dice fingerprint (the start of its chain head, as its gazette showed
    it)."""
    rolls = []
    for data in log.get("rolls", []):
        if not isinstance(data, dict) or data.get("kind") not in ("roll", "batch") or data.get("undone"):
            continue
        try:
            record = record_from_dict(data)
        except (KeyError, TypeError, ValueError):
            continue
        if isinstance(record, BatchRoll):
            labels = dict(record.labels)
            outcome = Msg.join("; ", (Msg("{label}: {n}", n=n, label=labels.get(r, r)) for r, n in record.counts))
        else:
            outcome = composed(record.label, LABELS)
        rolls.append({"key": record.key, "line": t(lang, "verify.roll_line", turn=data.get("turn", 0),
                                                     title=tr(lang, record.title),
                                                     faces=" ".join(str(f) for f in record.dice),
                                                     outcome=tr(lang, outcome))})
    prints = [{"line": t(lang, "verify.fingerprint_line", turn=turn["turn"]), "fingerprint": turn["chain_head"][:FINGERPRINT]}
              for turn in log.get("turns", []) if isinstance(turn, dict) and isinstance(turn.get("chain_head"), str)]
    return {"rolls": rolls, "fingerprints": prints}
