"""Painted maps (bot/paint.py): a bundled scenario's terrain painted in the palette reads back as the
same rows (one pixel per square, and 8 pixels per square with noise and blurred edges, as PNG and
JPEG); a colour off the palette is named with its squares and the nearest palette colour; what is not
a still image of a sane size is refused; a painted map and a small YAML make a scenario the parser
accepts and a campaign can start from; and the command line does the same."""

from __future__ import annotations

import io
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageFilter

from bot import paint
from bot.cli import main
from bot.engine.errors import InvalidInput
from bot.engine.model import Terrain
from bot.paint import PALETTE, hex_rgb, painted_scenario, palette_png, read_painting
from bot.scenario import DEFAULT_LEGEND, SCENARIO_DIR, parse_scenario_text
from bot.services import campaigns, views
from bot.services.actors import Actor
from bot.store.db import Database
from tests.databases import migrated_sqlite

from .conftest import DOC_PATH, worked_examples

TERRAIN_OF = {ch: Terrain(t) for ch, t in DEFAULT_LEGEND.items()}


def image_of(rows: list[str], *, scale: int = 1, blur: float = 0, noise: int = 0, fmt: str = "PNG",
             colours: dict[str, tuple[int, int, int]] | None = None) -> bytes:
    """``rows`` painted with the palette (or ``colours`` for some characters), ``scale`` pixels a square
    (nearest neighbour), then blurred edges and random noise, saved as ``fmt``."""
    pick = {ch: hex_rgb(PALETTE[t]) for ch, t in TERRAIN_OF.items()} | (colours or {})
    image = Image.new("RGB", (len(rows[0]), len(rows)))
    image.putdata([pick[ch] for row in rows for ch in row])
    if scale > 1:
        image = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    if noise:
        rnd = random.Random(7)
        image.putdata([tuple(min(255, max(0, v + rnd.randint(-noise, noise))) for v in px)
                       for px in image.get_flattened_data()])
    out = io.BytesIO()
    image.save(out, fmt, **({"quality": 80} if fmt == "JPEG" else {}))
    return out.getvalue()


def bundled(key: str) -> dict[str, Any]:
    return yaml.safe_load((SCENARIO_DIR / f"{key}.yaml").read_text(encoding="utf-8"))


def refusal(png: bytes, **size: int | None) -> str:
    with pytest.raises(InvalidInput) as exc:
        read_painting(png, width=size.get("width"), height=size.get("height"))
    return str(exc.value)


def test_the_palette_is_one_colour_per_terrain_far_apart() -> None:
    assert set(PALETTE) == set(Terrain)
    colours = [hex_rgb(h) for h in PALETTE.values()]
    assert len(set(colours)) == len(colours)
    for i, a in enumerate(colours):
        for b in colours[i + 1:]:  # a pixel within the tolerance of one is never within it of another
            assert max(abs(x - y) for x, y in zip(a, b, strict=True)) > 2 * paint.TOLERANCE


@pytest.mark.parametrize("key", ["tutorial", "italy1796"])
@pytest.mark.parametrize("how", [
    {}, {"scale": 8}, {"scale": 8, "blur": 1, "noise": 10}, {"scale": 8, "fmt": "JPEG"},
    {"scale": 6, "noise": 12, "fmt": "JPEG"}, {"fmt": "GIF"},
])
def test_a_bundled_map_painted_reads_back_as_its_rows(key: str, how: dict[str, Any]) -> None:
    m = bundled(key)["map"]
    png = image_of(m["rows"], **how)
    assert read_painting(png, width=m["width"], height=m["height"]) == m["rows"]
    if not how.get("scale"):  # one pixel per square: the size may be left out
        assert read_painting(png, width=None, height=None) == m["rows"]


def test_grid_lines_and_cells_of_uneven_size_are_read() -> None:
    rows = bundled("tutorial")["map"]["rows"]  # 12x9 squares on 100x70 pixels, black grid lines
    image = Image.open(io.BytesIO(image_of(rows))).resize((100, 70), Image.Resampling.NEAREST)
    for c in range(13):
        image.paste((0, 0, 0), (c * 100 // 12, 0, c * 100 // 12 + 1, 70))
    for r in range(10):
        image.paste((0, 0, 0), (0, r * 70 // 9, 100, r * 70 // 9 + 1))
    out = io.BytesIO()
    image.save(out, "PNG")
    assert read_painting(out.getvalue(), width=12, height=9) == rows


def test_transparent_pixels_are_open() -> None:
    image = Image.new("RGBA", (3, 2), (0, 0, 0, 0))
    image.putpixel((1, 1), (*hex_rgb(PALETTE[Terrain.SEA]), 255))
    out = io.BytesIO()
    image.save(out, "PNG")
    assert read_painting(out.getvalue(), width=None, height=None) == ["...", ".S."]


def test_an_unknown_colour_is_named_with_its_squares_and_the_nearest_palette_colour() -> None:
    rows = ["..ff", ".xxf", "..x."]
    purple = {"x": (0x90, 0x30, 0xC0)}
    assert refusal(image_of(rows, colours=purple)) == (
        "The colour #9030C0 (3 squares, the first at B2) is not in the palette; nearest is #808080 (wasteland).")
    one = refusal(image_of(["..", ".x"], scale=8, colours={"x": (0xFF, 0x00, 0x00)}), width=2, height=2)
    assert one == "The colour #FF0000 (1 square, at B2) is not in the palette; nearest is #FF8000 (hill)."
    noisy = refusal(image_of(rows, scale=8, noise=6, fmt="JPEG", colours=purple), width=4, height=3)
    assert "(3 squares, the first at B2) is not in the palette; nearest is #808080 (wasteland)." in noisy
    colour = noisy.split()[2]  # JPEG moves the colour a little: still near the painted one
    assert all(abs(int(colour[i:i + 2], 16) - v) <= 16 for i, v in zip((1, 3, 5), purple["x"], strict=True))


def test_what_is_not_a_still_image_of_a_sane_size_is_refused() -> None:
    not_image = "The map image is not an image: paint it as PNG, GIF, JPEG or WebP."
    assert refusal(b"name: not a picture\n") == not_image
    assert refusal(image_of(["..", ".."])[:40]) == not_image  # a truncated PNG
    huge = Image.new("1", (paint.MAX_SIDE + 1, 8))
    out = io.BytesIO()
    huge.save(out, "PNG")
    assert refusal(out.getvalue(), width=10, height=2) == "The map image is 2001x8 pixels: at most 2000x2000 are read."
    frames = [Image.new("RGB", (4, 4), c) for c in ((255, 255, 255), (0, 0, 255))]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:])
    assert refusal(out.getvalue()) == "The map image is animated: paint a still image (one frame)."
    assert refusal(b"x" * (paint.MAX_BYTES + 1)).startswith("The map image is 8,388,609 bytes: at most")


@pytest.mark.parametrize("compression", [None, "rle8"])
def test_a_bmp_is_refused_before_it_is_decoded(compression: str | None) -> None:
    """Issue 24, item 1: a 17 KB RLE8 BMP cost 2.3-3.5 s of CPU to decode; no BMP is read."""
    out = io.BytesIO()
    Image.new("P", (64, 64)).save(out, "BMP")
    data = out.getvalue()
    if compression == "rle8":  # BI_RLE8 in the header: what Pillow decodes slowly
        data = data[:30] + (1).to_bytes(4, "little") + data[34:]
    assert refusal(data) == "The map image is a BMP file, which is not read: save it as PNG."


def test_the_pixel_cap_is_what_the_largest_map_needs() -> None:
    """Issue 24, item 1: the largest map (100x100 squares) at 20 pixels a square, no more."""
    from bot.scenario import LIMITS

    assert 20 * LIMITS.map_side == paint.MAX_SIDE and paint.MAX_PIXELS == paint.MAX_SIDE ** 2
    rows = ["f" * 100] * 100
    assert read_painting(image_of(rows, scale=20), width=100, height=100) == rows


def test_the_image_must_fit_the_map_size() -> None:
    png = image_of(["...", "..."])
    assert refusal(png, width=4, height=2) == ("The map image is 3x2 pixels, smaller than the 4x2 map: give each "
                                               "square at least one pixel.")
    assert refusal(png, width=3) == "Give both the map's width and height, or neither (the image's size is then the map's)."
    big = image_of(["." * 101, "." * 101])
    assert refusal(big).startswith("The map image is 101x2 pixels: give map.width and map.height")
    assert read_painting(big, width=50, height=2) == ["." * 50] * 2


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 30), st.integers(2, 30), st.integers(1, 5), st.data())
def test_any_rows_of_palette_terrain_read_back(width: int, height: int, scale: int, data: st.DataObject) -> None:
    chars = st.sampled_from(sorted(DEFAULT_LEGEND))
    rows = data.draw(st.lists(st.text(chars, min_size=width, max_size=width), min_size=height, max_size=height))
    assert read_painting(image_of(rows, scale=scale), width=width, height=height) == rows


SMALL = """\
name: Painted Crossing
start_date: 1805-10-07
map:
  width: 12
  height: 9
  rivers:
    - {squares: ["F1:F9"], flow: S}
  roads: ["A5:L5"]
  bridges: [F5]
  territories: {fr: ["A1:E9"], au: ["G1:L9"]}
  strongholds: {fr: [B5], au: [K5]}
  capitals: {fr: B5, au: K5}
sides:
  - {key: fr, name: France, colour: "#1f4e9c"}
  - {key: au, name: Austria}
forces:
  - {key: soult, name: Soult, side: fr, square: C5, leader: {name: Soult, cv: 2}, units: [{key: s1, name: Line, sp: 6}]}
  - {key: mack, name: Mack, side: au, square: J5, leader: {name: Mack}, units: [{key: m1, name: Line, sp: 6}]}
"""


def test_a_painted_scenario_parses_with_the_painted_terrain() -> None:
    rows = bundled("tutorial")["map"]["rows"]
    text = painted_scenario(image_of(rows, scale=8), SMALL)
    s = parse_scenario_text(text)
    assert yaml.safe_load(text)["map"]["rows"] == rows
    assert s.map.cell(s.map.parse("A9")).terrain is Terrain.LAKE
    assert s.map.cell(s.map.parse("L3")).terrain is Terrain.MOUNTAIN
    assert s.map.cell(s.map.parse("B5")).stronghold == "fr"
    assert [f.key for f in s.forces] == ["soult", "mack"]
    # Without a size the image's own is the map's; a bundled scenario less its rows works the same.
    tutorial = bundled("tutorial")
    tutorial["map"] = {k: v for k, v in tutorial["map"].items() if k not in ("rows", "width", "height")}
    again = parse_scenario_text(painted_scenario(image_of(rows), yaml.safe_dump(tutorial)))
    assert (again.map.width, again.map.height) == (12, 9)
    assert again.map.cells == parse_scenario_text((SCENARIO_DIR / "tutorial.yaml").read_text("utf-8")).map.cells


def test_the_small_yaml_is_checked_like_an_upload() -> None:
    png = image_of(["..", ".."])

    def refused(text: str) -> str:
        with pytest.raises(InvalidInput) as exc:
            painted_scenario(png, text)
        return str(exc.value)

    assert refused(SMALL.replace("  width: 12\n", "  width: 12\n  rows: ['..']\n")) == (
        "Scenario field map.rows: a painted map takes its terrain from the image: leave out map.rows and map.legend "
        "(map.terrain may still set a few squares)")
    assert refused(SMALL.replace("  width: 12\n", "  width: many\n")) == (
        "Scenario field map.width: expected a whole number, got 'many'")
    assert refused(SMALL.replace("  width: 12\n", "")).startswith("Give both the map's width and height")
    assert refused("name: [unclosed").startswith("The scenario is not valid YAML")
    assert refused("- a list\n") == "Scenario field (top): expected a mapping, got list"
    assert refused(SMALL.replace("square: J5", "square: Z5")).startswith("The map image is 2x2 pixels, smaller")
    two = yaml.safe_load(SMALL)  # a 2x2 map the size of its image
    two["map"] = {"strongholds": {"fr": ["A1"], "au": ["B1"]}, "capitals": {"fr": "A1", "au": "B1"}}
    two["forces"][0]["square"], two["forces"][1]["square"] = "A2", "B2"
    assert parse_scenario_text(painted_scenario(png, yaml.safe_dump(two))).map.width == 2
    with pytest.raises(InvalidInput, match=r"forces\[1\].square: B2 is water"):
        parse_scenario_text(painted_scenario(image_of(["..", ".S"]), yaml.safe_dump(two)))


@pytest.fixture
async def db(tmp_path) -> AsyncIterator[Database]:
    database = Database(migrated_sqlite(tmp_path / "painted.db"))
    yield database
    await database.dispose()


async def test_a_campaign_starts_from_a_painted_map(db: Database) -> None:
    rows = bundled("italy1796")["map"]["rows"]
    italy = bundled("italy1796")
    italy["map"] = {k: v for k, v in italy["map"].items() if k != "rows"}
    text = painted_scenario(image_of(rows, scale=4, noise=8, fmt="JPEG"), yaml.safe_dump(italy, allow_unicode=True))
    gm = Actor(1001, name="Gina")
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=2, gm=gm, name="Painted Italy",
                                              scenario_text=text)
    assert created.sides == (("fr", "France"), ("au", "Austria"), ("pi", "Piedmont-Sardinia"))
    st_ = await views.status(db, created.campaign_id, gm)
    assert (st_.position.turn, st_.position.phase.name) == (1, "WEATHER")


def test_the_palette_legend_is_a_png_of_every_terrain() -> None:
    image = Image.open(io.BytesIO(palette_png(16)))
    assert image.format == "PNG" and image.height >= 16 * len(PALETTE)
    colours = {c for _n, c in image.convert("RGB").getcolors(1 << 16)}
    assert {hex_rgb(h) for h in PALETTE.values()} <= colours


def test_the_command_line_paints_and_writes_the_palette(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = bundled("tutorial")["map"]["rows"]
    (tmp_path / "map.png").write_bytes(image_of(rows, scale=8))
    (tmp_path / "sides.yaml").write_text(SMALL, encoding="utf-8")
    out = tmp_path / "scenario.yaml"
    assert main(["scenario", "paint", str(tmp_path / "map.png"), str(tmp_path / "sides.yaml"), "-o", str(out)]) == 0
    assert parse_scenario_text(out.read_text(encoding="utf-8")).map.width == 12
    assert "Painted Crossing: 12x9" in capsys.readouterr().out
    red = [row[:11] + "x" for row in rows]
    (tmp_path / "bad.png").write_bytes(image_of(red, scale=8, colours={"x": (255, 0, 0)}))
    assert main(["scenario", "paint", str(tmp_path / "bad.png"), str(tmp_path / "sides.yaml")]) == 2
    assert capsys.readouterr().err == ("python -m bot scenario paint: error: The colour #FF0000 (9 squares, the first "
                                       "at L1) is not in the palette; nearest is #FF8000 (hill).\n")
    assert main(["scenario", "paint", str(tmp_path / "nope.png"), str(tmp_path / "sides.yaml")]) == 2
    assert "Cannot read" in capsys.readouterr().err
    assert main(["scenario", "palette", "-o", str(tmp_path / "p.png")]) == 0
    assert Image.open(tmp_path / "p.png").format == "PNG"


def test_the_palette_is_documented() -> None:
    text = DOC_PATH.read_text(encoding="utf-8")
    assert "## Painted maps" in text
    for terrain, colour in PALETTE.items():
        assert f"| {terrain.value} | `{colour}` | {paint.SWATCH_NAMES[terrain]} |" in text, terrain


def test_the_documented_example_paints_the_worked_example() -> None:
    """The section's picture (a table of swatch names) and small YAML make the doc's worked example's map."""
    section = DOC_PATH.read_text(encoding="utf-8").split("## Painted maps", 1)[1].split("\n## ", 1)[0]
    swatch = {name: TERRAIN_OF_NAME[t] for t, name in paint.SWATCH_NAMES.items()}
    picture = [line.split("|")[2:-1] for line in section.splitlines() if re.match(r"\| \d+ \|", line)]
    rows = ["".join(swatch[cell.strip()] for cell in line) for line in picture]
    small = re.search(r"```yaml\n(.*?)```", section, flags=re.S)
    assert small and rows
    painted = parse_scenario_text(painted_scenario(image_of(rows, scale=8), small.group(1)))
    example = parse_scenario_text(worked_examples()[0])
    assert painted.name == example.name and painted.map.width == example.map.width
    for sq in example.map.squares():  # (the worked example also names places: not this test's business)
        a, b = painted.map.cell(sq), example.map.cell(sq)
        assert (a.terrain, a.features, a.territory, a.stronghold, a.capital, a.river_flow) == (
            b.terrain, b.features, b.territory, b.stronghold, b.capital, b.river_flow), sq


TERRAIN_OF_NAME = {Terrain(t): ch for ch, t in DEFAULT_LEGEND.items()}
