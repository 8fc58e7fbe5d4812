"""Embeds for what players see, inside Discord's limits.

Every builder takes plain values from the services (rolls, views) and a language; none looks
anything up. :func:`fit` enforces the embed limits (title 256, description 4096, 25 fields, field
value 1024, footer 2048, 6,000 in all); :func:`paged_embeds` pages long text and
:func:`text_file` attaches what would need too many pages.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import discord

from bot.campaign import views as core_views
from bot.campaign.odds import Odds
from bot.engine.rolls import LABELS, BatchRoll, Roll, composed
from bot.i18n import locale, t
from bot.i18n import names as local_names
from bot.i18n.text import tr, tr_lines
from bot.services.views import ForceView, Gazette, StatusView, Waiting

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
TOTAL = 6000
EMBEDS_PER_MESSAGE = 10
CONTENT = 2000
MAX_PAGES = 5
"""More pages than this and the text goes out as an attached file instead."""

COLOUR = discord.Colour(0x1F4E9C)
PRIVATE = discord.Colour(0x6B4E9C)
GOOD = discord.Colour(0x2E7D32)
BAD = discord.Colour(0xC62828)
NEUTRAL = discord.Colour(0x757575)
ELLIPSIS = "…"


def clip(text: str | None, limit: int) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    text = text or ""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def embed_size(embed: discord.Embed) -> int:
    """Characters counted against the 6,000 limit of an embed."""
    size = len(embed.title or "") + len(embed.description or "")
    size += sum(len(f.name or "") + len(f.value or "") for f in embed.fields)
    size += len(embed.footer.text or "") + len(embed.author.name or "")
    return size


def fit(embed: discord.Embed) -> discord.Embed:
    """The embed with every part cut to Discord's limits, fields past 25 dropped, and the
    description then fields trimmed until the whole is at most 6,000 characters."""
    out = discord.Embed(
        title=clip(embed.title, TITLE) if embed.title else None,
        description=clip(embed.description, DESCRIPTION) if embed.description else None,
        colour=embed.colour,
        url=embed.url,
        timestamp=embed.timestamp,
    )
    for f in embed.fields[:FIELDS]:
        out.add_field(name=clip(f.name, FIELD_NAME) or "\u200b", value=clip(f.value, FIELD_VALUE) or "\u200b",
                      inline=bool(f.inline))
    if embed.footer.text:
        out.set_footer(text=clip(embed.footer.text, FOOTER))
    if embed.author.name:
        out.set_author(name=clip(embed.author.name, AUTHOR))
    if embed.image.url:
        out.set_image(url=embed.image.url)
    over = embed_size(out) - TOTAL
    if over > 0 and out.description:
        keep = max(0, len(out.description) - over)
        out.description = clip(out.description, keep) if keep > 1 else None
    while embed_size(out) > TOTAL and out.fields:
        out.remove_field(len(out.fields) - 1)
    return out


def pages(lines: Iterable[str], limit: int = DESCRIPTION) -> list[str]:
    """Lines joined into pages of at most ``limit`` characters (a longer line is cut)."""
    out: list[str] = []
    page = ""
    for line in lines:
        line = clip(line, limit)
        if page and len(page) + 1 + len(line) > limit:
            out.append(page)
            page = line
        else:
            page = f"{page}\n{line}" if page else line
    if page or not out:
        out.append(page)
    return out


def paged_embeds(title: str, lines: Sequence[str], *, colour: discord.Colour = COLOUR,
                 limit: int = DESCRIPTION) -> list[discord.Embed]:
    """One embed per page of ``lines`` (titles numbered when there are several)."""
    parts = pages(lines, limit)
    many = len(parts) > 1
    return [
        fit(discord.Embed(title=f"{title} ({i}/{len(parts)})" if many else title, description=part or "\u200b",
                          colour=colour))
        for i, part in enumerate(parts, start=1)
    ]


def batches(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """Embeds grouped into messages: at most 10 per message and 6,000 characters in all."""
    out: list[list[discord.Embed]] = []
    size = 0
    for e in embeds:
        e = fit(e)
        n = embed_size(e)
        if not out or len(out[-1]) >= EMBEDS_PER_MESSAGE or size + n > TOTAL:
            out.append([])
            size = 0
        out[-1].append(e)
        size += n
    return out


def text_file(name: str, lines: Iterable[str]) -> discord.File:
    """A fresh text attachment (a discord.File is consumed by one send)."""
    return discord.File(io.BytesIO("\n".join(lines).encode("utf-8")), filename=name)


def long_text(title: str, lines: Sequence[str], *, filename: str = "log.txt",
              colour: discord.Colour = COLOUR, lang: str = "en") -> tuple[list[discord.Embed], discord.File | None]:
    """Embeds for ``lines``; past :data:`MAX_PAGES` pages, the last pages plus the whole text as a file."""
    embeds = paged_embeds(title, lines, colour=colour)
    if len(embeds) <= MAX_PAGES and sum(embed_size(e) for e in embeds) <= TOTAL:
        return embeds, None
    last = paged_embeds(title, lines, colour=colour)[-1]
    last.set_footer(text=t(lang, "format.attached", name=filename))
    return [fit(last)], text_file(filename, lines)


def message_text(text: str) -> str:
    return clip(text, CONTENT)


# --- rolls ----------------------------------------------------------------------------------


def _faces(dice: Sequence[int], shown: int = 60) -> str:
    text = " ".join(f"**{f}**" for f in dice[:shown])
    if len(dice) > shown:
        text += f" … (+{len(dice) - shown})"
    return text or "-"


def roll_embed(record: Roll | BatchRoll, lang: str, *, private: bool = False) -> discord.Embed:
    """A roll as players see it: the rule (ID and name), the natural dice, each modifier with its
    reason and rule ID, the total and the outcome."""
    e = discord.Embed(title=tr(lang, record.title), colour=PRIVATE if private else COLOUR)
    mods = "\n".join(f"{m.value:+d} {tr(lang, m.reason)} ({m.rule})" for m in record.modifiers) \
        or t(lang, "roll.no_modifiers")
    if isinstance(record, Roll):
        e.add_field(name=t(lang, "roll.dice"), value=f"{len(record.dice)}d{record.sides}: {_faces(record.dice)}",
                    inline=True)
        e.add_field(name=t(lang, "roll.modifiers"), value=mods, inline=True)
        if record.multiplier != 1:
            e.add_field(name=t(lang, "roll.multiplier"), value=f"x{record.multiplier}", inline=True)
        e.add_field(name=t(lang, "roll.total"), value=f"**{record.total}**", inline=True)
        outcome = tr(lang, composed(record.label, LABELS))
        if record.natural:
            outcome = t(lang, "roll.natural", face=record.dice[0]) + " " + outcome
        e.add_field(name=t(lang, "roll.outcome"), value=outcome, inline=False)
    else:
        e.add_field(name=t(lang, "roll.dice"), value=f"{len(record.dice)}d{record.sides}: {_faces(record.dice)}",
                    inline=False)
        e.add_field(name=t(lang, "roll.modifiers"), value=mods, inline=True)
        labels = dict(record.labels)
        tally = "\n".join(t(lang, "roll.tally", label=tr(lang, labels.get(r, r)), n=n) for r, n in record.counts) or "-"
        e.add_field(name=t(lang, "roll.outcome"), value=tally, inline=True)
    e.set_footer(text=t(lang, "roll.key", key=record.key))
    return fit(e)


def percent(p: Fraction, lang: str = "en") -> str:
    """A chance as ``lang`` writes it (``16.7%``, ``16,7 %``; Babel), one decimal."""
    return locale.percent(lang, p)


def odds_embed(title: str, odds: Odds, lang: str) -> discord.Embed:
    """What a roll can do, before the player commits (:mod:`bot.campaign.odds`): the roll with its
    modifiers and the face its best outcome needs, then each outcome that can happen with its chance and
    the faces of the die that give it, the best first; a warning when the worst outcome is a danger."""
    lines = [f"{tr(lang, odds.expression)}: {tr(lang, odds.needs)}", ""]
    lines += [f"**{percent(row.chance, lang)}** {tr(lang, row.label)} ({tr(lang, row.die)})" for row in odds.rows]
    if odds.danger:
        lines += ["", t(lang, "odds.danger", chance=percent(odds.worst_chance, lang), worst=tr(lang, odds.worst))]
    e = discord.Embed(title=t(lang, "odds.title", what=tr(lang, title)), description="\n".join(lines), colour=PRIVATE)
    e.set_footer(text=t(lang, "odds.footer"))
    return fit(e)


# --- campaign views -------------------------------------------------------------------------


def timestamp(when: dt.datetime | None, style: str = "f") -> str:
    """A Discord timestamp (each reader sees it in their own time zone)."""
    if when is None:
        return "-"
    return f"<t:{int(when.timestamp())}:{style}>"


STATUS_FORCES = core_views.STATUS_FORCES
"""Own Forces listed one a line on a status; past this many, the rest are counted (``/order list``)."""
STATUS_NAMES = core_views.STATUS_NAMES
"""Forces named per side in the "In sight" part of a status; past this many, the rest are counted.
Both are the campaign core's, which builds a status card with only these (issue 26 item 2)."""


def status_embed(sv: StatusView, lang: str, *, public: bool = False) -> discord.Embed:
    """Where the campaign stands. ``public``: the phase card for the channel (no Force, whoever reads it).
    Otherwise a member's own status, short enough for a phone: what the reader still has to do first,
    then their Forces one a line, then what they see, grouped by side name."""
    if public:
        return phase_card(sv, lang)
    spec = sv.position.phase.spec
    names = {key: name for key, name, _ in sv.sides}
    head = [f"**{tr(lang, spec.title)}**"]
    if sv.gm:
        head.append(t(lang, "status.you_gm"))
    elif sv.reader_side:
        head.append(t(lang, "status.you_side", side=names.get(sv.reader_side, sv.reader_side)))
    deadline = (f"{timestamp(sv.deadline)} ({timestamp(sv.deadline, 'R')})" if sv.deadline
                else t(lang, "status.no_deadline"))
    head.append(t(lang, "status.line", date=locale.date(lang, sv.date), season=tr(lang, sv.season),
                  weather=tr(lang, sv.weather) or t(lang, "status.not_rolled"), deadline=deadline))
    if sv.status != "active":
        head.append(tr(lang, sv.ending) if sv.ending else t(lang, "status.ended"))
    if sv.defeated:
        head.append(t(lang, "status.defeated", sides=locale.listing(lang, list(sv.defeated))))
    e = discord.Embed(title=f"{sv.name}: {t(lang, 'status.turn', turn=sv.position.turn)}", description="\n".join(head),
                      colour=COLOUR if sv.status == "active" else NEUTRAL)
    if sv.gm or sv.reader_side:
        todo = "\n".join(tr(lang, what) for what in sv.todo) or t(lang, "status.todo_none")
        e.add_field(name=t(lang, "status.todo"), value=todo, inline=False)
    # sv.forces may hold only the Forces shown (a status card): the counts are the view's (seen_count)
    own = [f for f in sv.forces if f.own and not sv.gm]
    if own:
        mine = sv.seen_count(sv.reader_side)
        lines = [status_force_line(f, lang) for f in own[:STATUS_FORCES]]
        if mine > STATUS_FORCES:
            lines.append(t(lang, "status.more_forces", count=mine - STATUS_FORCES))
        e.add_field(name=t(lang, "status.your_forces", count=mine), value="\n".join(lines), inline=False)
    seen = [f for f in sv.forces if sv.gm or not f.own]
    if sv.gm or sv.reader_side:
        groups: dict[str, list[ForceView]] = {}
        for f in seen:
            groups.setdefault(f.side, []).append(f)
        lines = [seen_group(local_names.said(lang, names.get(side, side)), fs, lang, sv.seen_count(side))
                 for side, fs in groups.items()]
        e.add_field(name=t(lang, "status.forces_all" if sv.gm else "status.in_sight"),
                    value="\n".join(lines) or t(lang, "status.none_in_sight"), inline=False)
    others = [w for w in sv.waiting if sv.gm or w.who != names.get(sv.reader_side or "")]
    if others or not sv.todo:
        e.add_field(name=t(lang, "status.waiting"),
                    value=waiting_lines(others, lang) or t(lang, "status.waiting_nobody"), inline=False)
    e.add_field(name=t(lang, "status.needs"), value=tr(lang, spec.needs), inline=False)
    e.set_footer(text=t(lang, "status.footer", version=sv.version))
    return fit(e)


def waiting_lines(waiting: Sequence[Waiting], lang: str) -> str:
    """Who the phase waits for, one line per thing awaited, the names listed the reader's way:
    ``**Austria** and **Piedmont**: give orders`` (``**Austria** e **Piedmont**`` in Italian)."""
    by_what: dict[str, list[str]] = {}
    for w in waiting:
        whos = by_what.setdefault(tr(lang, w.what), [])
        if w.who not in whos:
            whos.append(w.who)
    return "\n".join(locale.listing(lang, [f"**{local_names.said(lang, who)}**" for who in whos]) + f": {what}"
                     for what, whos in by_what.items())


def status_force_line(f: ForceView, lang: str) -> str:
    """One of the reader's own Forces on one short line, with what it still has to do."""
    parts = [f"**{local_names.said(lang, f.name)}** {f.square}", t(lang, "force.sp_count", sp=f.sp),
             word(lang, f.order)]
    if f.reaction:
        parts.append(word(lang, f.reaction))
    todo = f" — {tr(lang, f.todo)}" if f.todo else ""
    return " · ".join(parts) + todo


def seen_group(side: str, forces: Sequence[ForceView], lang: str, count: int | None = None) -> str:
    """A side's Forces the reader sees: the side's name, how many (``count``: all of them, when ``forces``
    holds only the first few), and the first few (with squares)."""
    count = len(forces) if count is None else count
    shown = ", ".join(f"{local_names.said(lang, f.name)} {f.square}" for f in forces[:STATUS_NAMES])
    if count > STATUS_NAMES:
        shown += " " + t(lang, "status.and_more", count=count - STATUS_NAMES)
    return f"**{local_names.said(lang, side)}** ({count}): {shown}"


def phase_card(sv: StatusView, lang: str, *, news: Sequence[str] = ()) -> discord.Embed:
    """The phase card: where the campaign stands and who the phase still waits for, and for what (no
    Force: a card for the channel, whoever reads it); ``news``, what the resolution that began the phase
    did, as every member may read it, folded in above; the sides already done, once any is."""
    spec = sv.position.phase.spec
    head = [f"**{tr(lang, spec.title)}**"]
    if news:
        head += ["", *(f"• {line}" for line in tr_lines(lang, news))]
    e = discord.Embed(title=f"{sv.name}: {t(lang, 'status.turn', turn=sv.position.turn)}", description="\n".join(head),
                      colour=COLOUR if sv.status == "active" else NEUTRAL)
    e.add_field(name=t(lang, "status.date"), value=f"{locale.date(lang, sv.date)} ({tr(lang, sv.season)})", inline=True)
    e.add_field(name=t(lang, "status.weather"), value=tr(lang, sv.weather) or t(lang, "status.not_rolled"),
                inline=True)
    deadline = (f"{timestamp(sv.deadline)} ({timestamp(sv.deadline, 'R')})" if sv.deadline
                else t(lang, "status.no_deadline"))
    e.add_field(name=t(lang, "status.deadline"), value=deadline, inline=True)
    standing = ([tr(lang, sv.ending) if sv.ending else t(lang, "status.ended")] if sv.status != "active" else []) + (
        [t(lang, "status.defeated", sides=locale.listing(lang, list(sv.defeated)))] if sv.defeated else [])
    if standing:
        e.add_field(name=t(lang, "status.state"), value="\n".join(standing), inline=False)
    waiting = "\n".join(f"**{local_names.said(lang, w.who)}**: {tr(lang, w.what)}" for w in sv.waiting) \
        or t(lang, "status.waiting_nobody")
    e.add_field(name=t(lang, "status.waiting"), value=waiting, inline=False)
    if sv.done and sv.status == "active":
        e.add_field(name=t(lang, "card.done"), value=locale.listing(lang, [f"✅ {local_names.said(lang, name)}" for name in sv.done]),
                    inline=False)
    e.add_field(name=t(lang, "status.needs"), value=tr(lang, spec.needs), inline=False)
    e.set_footer(text=t(lang, "status.footer", version=sv.version))
    return fit(e)


def checklist(sv: StatusView, players: Sequence[Any], lang: str) -> str:
    """A new campaign's first steps for its GM: invite the players, who join a side (each side with who plays
    it so far), then start."""
    playing: dict[str, list[str]] = {}
    for p in players:
        playing.setdefault(p.side, []).append(f"<@{p.member_id}>")
    sides = "\n".join(f"• **{local_names.said(lang, name)}**: " + (locale.listing(lang, playing[key]) if key in playing
                                           else t(lang, "start.nobody")) for key, name, _ in sv.sides)
    return "\n".join([t(lang, "start.invite"), sides, t(lang, "start.when_ready")])


def force_line(f: ForceView, lang: str) -> str:
    if not f.own:
        return t(lang, "force.line_enemy", name=f.name, square=f.square, side=f.side)
    extra = f", {word(lang, f.reaction)}" if f.reaction else ""
    todo = f" — {tr(lang, f.todo)}" if f.todo else ""
    return t(lang, "force.line_own", name=f.name, square=f.square, sp=f.sp, order=word(lang, f.order),
             extra=extra) + todo


def word(lang: str, value: str | None) -> str:
    """A model word (``forced_march``) in the reader's language."""
    return tr(lang, value).replace("_", " ") if value else ""


def force_embed(f: ForceView, lang: str) -> discord.Embed:
    e = discord.Embed(title=f.name, colour=PRIVATE if f.own else NEUTRAL)
    e.add_field(name=t(lang, "force.square"), value=f.square or "-", inline=True)
    e.add_field(name=t(lang, "force.side"), value=f.side, inline=True)
    if not f.own:
        e.description = t(lang, "force.enemy_only")
        return fit(e)
    e.add_field(name=t(lang, "force.order"), value=word(lang, f.order) or "-", inline=True)
    e.add_field(name=t(lang, "force.reaction"), value=word(lang, f.reaction) or t(lang, "force.no_reaction"),
                inline=True)
    e.add_field(name=t(lang, "force.scouts"), value=str(f.scouts or 0), inline=True)
    e.add_field(name=t(lang, "force.sp"), value=str(f.sp), inline=True)
    if f.leader:
        e.add_field(name=t(lang, "force.leader"),
                    value=t(lang, "force.leader_line", leader=f.leader, cv=f.leader_cv,
                            status=word(lang, f.leader_status or "fit")), inline=False)
    units = []
    for u in f.units:
        marks = [word(lang, u.quality), word(lang, u.type)] + ([t(lang, "unit.mercenary")] if u.mercenary else []) \
            + ([t(lang, "unit.heroic")] if u.heroic else []) + ([] if u.flag else [t(lang, "unit.no_flag")])
        line = t(lang, "unit.line", key=u.key, unit=u.name, sp=u.sp, original=u.original_sp,
                 marks=", ".join(marks))
        if u.out_of_ranks:  # the report's losses, whose fate the aftermath still has to roll (MC-7)
            line += " " + t(lang, "unit.out_of_ranks", sp=u.out_of_ranks)
        units.append(line)
    for i, chunk in enumerate(pages(units, FIELD_VALUE)):
        e.add_field(name=t(lang, "force.units") if i == 0 else "\u200b", value=chunk or "-", inline=False)
    if f.todo:
        e.add_field(name=t(lang, "force.todo"), value=tr(lang, f.todo), inline=False)
    return fit(e)


# --- the turn gazette -----------------------------------------------------------------------


def gazette_embed(g: Gazette, lang: str, *, verify: str, log: str) -> discord.Embed:
    """A turn in a few plain sentences (:mod:`bot.campaign.gazette`): the news, then where to check the
    dice (``verify``: the command's mention) and read the whole log (``log``), then what comes next; in the
    footer, the fingerprint of the turn's dice (the start of its roll chain head)."""
    news = [tr(lang, line) for line in g.lines]
    tail = [t(lang, "gazette.verify", turn=g.turn, verify=verify)] if g.dice_revealed else []
    tail.append(t(lang, "gazette.log", turn=g.turn, log=log))
    if g.next:
        tail.append(f"**{tr(lang, g.next)}**")
    e = discord.Embed(title=t(lang, "gazette.title", turn=g.turn), description="\n".join([*news, "", *tail]),
                      colour=COLOUR)
    if g.fingerprint:
        e.set_footer(text=t(lang, "gazette.fingerprint", turn=g.turn, fingerprint=g.fingerprint))
    return fit(e)
