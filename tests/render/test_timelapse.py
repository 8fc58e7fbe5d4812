"""The timelapse renderer (bot/render/timelapse.py): snapshots in, one looping GIF out, phone-sized,
under the upload limit, one frame per snapshot up to a cap."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from bot.engine.model import Square
from bot.render.errors import RenderError
from bot.render.timelapse import MAX_WIDTH, crop_around, pick_frames, render_timelapse

from .samples import large_snapshot, tutorial_snapshot


def turns(n: int, base=None):  # type: ignore[no-untyped-def]
    snap = base or tutorial_snapshot()
    out = []
    for turn in range(1, n + 1):
        moved = tuple(dataclasses.replace(c, square=Square(min(c.square.col + turn - 1, 11), c.square.row))
                      if c.side == "fr" else c for c in snap.counters)
        out.append(dataclasses.replace(snap, turn=turn, counters=moved))
    return out


def frames_of(gif: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(gif))
    out = []
    for i in range(image.n_frames):
        image.seek(i)
        out.append(image.convert("RGB"))
    assert image.info.get("loop") == 0  # loops for ever
    return out


def test_one_frame_per_snapshot_on_one_phone_sized_canvas() -> None:
    gif = render_timelapse(turns(4), view="fr")
    assert gif.startswith(b"GIF89a")
    frames = frames_of(gif)
    assert len(frames) == 4
    assert {f.size for f in frames} == {frames[0].size} and frames[0].width <= MAX_WIDTH
    assert frames[0].tobytes() != frames[1].tobytes()  # the Forces moved


def test_too_many_snapshots_keep_the_first_the_last_and_an_even_spread() -> None:
    assert pick_frames(5, 10) == [0, 1, 2, 3, 4]
    picked = pick_frames(100, 10)
    assert len(picked) == 10 and picked[0] == 0 and picked[-1] == 99
    gif = render_timelapse(turns(9), max_frames=4)
    assert len(frames_of(gif)) == 4


def test_a_large_map_is_drawn_smaller_until_it_fits_the_byte_cap() -> None:
    snaps = turns(3, large_snapshot())
    roomy = render_timelapse(snaps, view="gm")
    tight = render_timelapse(snaps, view="gm", max_bytes=len(roomy) // 2)
    assert len(tight) <= len(roomy) // 2
    assert frames_of(tight)[0].width < frames_of(roomy)[0].width
    with pytest.raises(RenderError, match="does not fit"):
        render_timelapse(snaps, view="gm", max_bytes=2_000)


def test_a_crop_holds_the_squares_with_a_margin_unless_it_is_most_of_the_map() -> None:
    assert crop_around(60, 40, [Square(10, 10), Square(14, 12)], 3) == (Square(12, 11), 5)
    assert crop_around(12, 9, [Square(0, 0), Square(11, 8)], 2) is None
    assert crop_around(60, 40, [], 2) is None
    gif = render_timelapse(turns(2, large_snapshot()), view="gm", around=Square(12, 11), radius=5)
    assert len(frames_of(gif)) == 2


def test_no_snapshot_no_timelapse() -> None:
    with pytest.raises(RenderError, match="at least one"):
        render_timelapse([])
