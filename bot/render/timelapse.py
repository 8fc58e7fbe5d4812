"""A timelapse: the map turn by turn as one animated GIF, drawn from snapshots the services have
already filtered for the reader (fog of war), oldest first.

    gif = render_timelapse(snapshots, view="fr")                        # the whole map, as France saw it
    gif = render_timelapse(snapshots, view="fr", around=Square(5, 4), radius=4)  # a crop

Each frame is a whole picture of :func:`~.compose.render_image` (the title band says its turn and
date), drawn with squares small enough for a phone (at most :data:`MAX_WIDTH` pixels wide), all on a
canvas of one size. GIF, not APNG: Discord animates GIFs in the chat; it shows an APNG still. The
frames share one palette of 256 colours (no dithering: flat map colours, small deltas between
frames), at most :data:`MAX_FRAMES` of them (the first and the last always), and the file is drawn
again smaller until it is under ``max_bytes`` (Discord's default upload limit, 8 MB).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from bot.engine.model import Square
from bot.engine.text import Msg

from .compose import render_image
from .errors import RenderError
from .layout import MIN_CELL_ABS, layout_for
from .model import MapSnapshot
from .palette import PAPER
from .report import battle_lines, text_report
from .words import say

MAX_WIDTH = 800
"""A phone's screen: wider pictures are shrunk in the chat anyway."""
MAX_FRAMES = 60
MAX_BYTES = 8 * 1024 * 1024
"""Discord's upload limit without boosts."""
FRAME_MS = 1200
LAST_FRAME_MS = 4000
"""The last frame (the campaign now) stays longer before the loop starts again."""
SHRINK = 0.8
PALETTE_SAMPLES = 8
"""Frames whose colours make the shared palette (spread over the whole timelapse)."""


def timelapse_report(snapshots: Sequence[MapSnapshot], *, view: str | None = None) -> str:
    """A timelapse in words, its alt text: which turns it shows, each turn's battles and retreats as the
    frames show them, then the last frame's situation (:func:`~.report.text_report`), in the snapshots'
    language and fog of war."""
    if not snapshots:
        return ""
    first, last = snapshots[0], snapshots[-1]
    lines = [say(last, Msg("Animated map, turn {first} to turn {last}, {frames} frames.", first=first.turn,
                           last=last.turn, frames=len(snapshots)))]
    for snap in snapshots[:-1]:
        told = battle_lines(snap)
        if told:
            lines.append(say(snap, Msg("Turn {turn}", turn=snap.turn)) + ": " + " ".join(told))
    return "\n".join([*lines, text_report(last, view=view)])


def pick_frames(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """Which of ``count`` frames to keep when there are more than ``limit``: evenly spread, the first
    and the last always among them."""
    if limit < 2:
        raise RenderError(f"A timelapse needs room for at least 2 frames, got {limit}.")
    if count <= limit:
        return list(range(count))
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})


def crop_around(width: int, height: int, squares: Sequence[Square], margin: int) -> tuple[Square, int] | None:
    """The centre and radius of the square window that holds ``squares`` with ``margin`` squares around
    them, or None when it would hold (nearly) the whole map anyway, or there are no squares."""
    if not squares:
        return None
    c0, c1 = min(s.col for s in squares), max(s.col for s in squares)
    r0, r1 = min(s.row for s in squares), max(s.row for s in squares)
    radius = max(c1 - c0 + 1, r1 - r0 + 1) // 2 + margin
    span = 2 * radius + 1
    if (span >= width and span >= height) or span * span >= 0.8 * width * height:
        return None
    return Square((c0 + c1) // 2, (r0 + r1) // 2), radius


def _cell(snapshot: MapSnapshot, around: Square | None, radius: int, max_width: int) -> int:
    """The largest square size that keeps the picture within ``max_width`` (or the smallest allowed)."""
    layout = layout_for(snapshot, around=around, radius=radius)
    cell = layout.cell
    while layout.width > max_width and cell > MIN_CELL_ABS:
        cell = max(MIN_CELL_ABS, min(cell - 1, int(cell * max_width / layout.width)))
        layout = layout_for(snapshot, around=around, radius=radius, cell=cell)
    return cell


def _frames(snapshots: Sequence[MapSnapshot], view: str | None, around: Square | None, radius: int,
            max_width: int, scale: float) -> list[Image.Image]:
    """Every snapshot drawn at one square size, on canvases of one size (the tallest and widest)."""
    cell = max(MIN_CELL_ABS, int(_cell(snapshots[-1], around, radius, max_width) * scale))
    images = [render_image(s, view=view, around=around, radius=radius, cell=cell) for s in snapshots]
    limit = max(1, int(max_width * scale))
    images = [im if im.width <= limit else im.resize((limit, max(1, round(im.height * limit / im.width))),
                                                     Image.Resampling.LANCZOS) for im in images]
    width, height = max(im.width for im in images), max(im.height for im in images)
    out = []
    for im in images:
        if im.size != (width, height):
            canvas = Image.new("RGB", (width, height), PAPER)
            canvas.paste(im, ((width - im.width) // 2, 0))
            im = canvas
        out.append(im)
    return out


def _palette(images: Sequence[Image.Image]) -> Image.Image:
    """One palette for every frame, from the colours of a few frames spread over the timelapse."""
    picks = [images[i] for i in pick_frames(len(images), min(PALETTE_SAMPLES, max(2, len(images))))]
    w, h = images[0].size
    sheet = Image.new("RGB", (w, h * len(picks)))
    for i, im in enumerate(picks):
        sheet.paste(im, (0, i * h))
    return sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def encode_gif(images: Sequence[Image.Image], *, frame_ms: int = FRAME_MS, last_ms: int = LAST_FRAME_MS) -> bytes:
    """The frames as an animated GIF that loops for ever."""
    palette = _palette(images)
    frames = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in images]
    buf = io.BytesIO()
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   disposal=1, optimize=False)
    return buf.getvalue()


def render_timelapse(snapshots: Sequence[MapSnapshot], *, view: str | None = None, around: Square | None = None,
                     radius: int = 3, max_width: int = MAX_WIDTH, max_frames: int = MAX_FRAMES,
                     max_bytes: int = MAX_BYTES, frame_ms: int = FRAME_MS, last_ms: int = LAST_FRAME_MS) -> bytes:
    """The snapshots (oldest first) as an animated GIF. ``view``, ``around`` and ``radius`` as for
    :func:`~.compose.render_image`; at most ``max_frames`` frames (the first and last kept), redrawn
    smaller while the file is over ``max_bytes``."""
    if not snapshots:
        raise RenderError("A timelapse needs at least one snapshot.")
    if max_width < 100:
        raise RenderError(f"A timelapse {max_width} pixels wide is too narrow: give at least 100.")
    chosen = [snapshots[i] for i in pick_frames(len(snapshots), max_frames)]
    scale = 1.0
    while True:
        data = encode_gif(_frames(chosen, view, around, radius, max_width, scale), frame_ms=frame_ms,
                          last_ms=last_ms)
        if len(data) <= max_bytes:
            return data
        if scale * max_width < 200:
            raise RenderError(f"The timelapse does not fit in {max_bytes:,} bytes even {int(scale * max_width)} "
                              "pixels wide.")
        scale *= SHRINK
