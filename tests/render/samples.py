"""Snapshots to draw in the render tests and the render benchmark.

``scenario_snapshot`` builds a snapshot from a bundled scenario as the services would at the
start of a campaign (every Force that starts on the map, the GM's view). ``large_snapshot``
generates a 60x40 map with 200 Forces from a seeded generator, always the same.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Iterator

from bot.engine.grid import CampaignMap
from bot.engine.model import Cell, Feature, Square, Terrain
from bot.render import Arrow, Counter, MapSnapshot, SideStyle
from bot.scenario import Scenario, load_bundled


def scenario_snapshot(scenario: Scenario) -> MapSnapshot:
    counters = tuple(
        Counter(f.key, f.name, f.side, f.square, sum(u.sp for u in f.units), f.order.value)
        for f in scenario.forces
        if f.arrives_turn is None
    )
    return MapSnapshot(
        campaign=scenario.name, turn=1, date=f"{scenario.start_date:%d %B %Y}".lstrip("0"), season="autumn",
        weather="Fine", phase="Phase 1: Orders", cmap=scenario.map,
        sides=tuple(SideStyle(s.key, s.name, s.colour) for s in scenario.sides), counters=counters,
    )


def tutorial_snapshot() -> MapSnapshot:
    return scenario_snapshot(load_bundled("tutorial"))


def tutorial_battle_snapshot() -> MapSnapshot:
    """The tutorial on turn 3: a stack, moves into a battle at the bridge, reactions, a last-seen marker."""
    scenario = load_bundled("tutorial")
    sq = Square.parse
    return MapSnapshot(
        campaign=scenario.name, turn=3, date="9 October 1805", season="autumn", weather="Rain",
        phase="Phase 3: Battles", cmap=scenario.map,
        sides=tuple(SideStyle(s.key, s.name, s.colour) for s in scenario.sides),
        counters=(
            Counter("soult", "IV Corps", "fr", sq("E5"), 28, "forced_march"),
            Counter("lannes", "V Corps", "fr", sq("C7"), 14, "defend", "unsteady"),
            Counter("ney", "VI Corps", "fr", sq("E5"), 10, "explore"),
            Counter("murat", "Cavalry Reserve", "fr", sq("E5"), 8, "explore", "confused"),
            Counter("mack", "Army of Mack", "au", sq("F5"), 22, None, "routed"),
            Counter("kienmayer", "Kienmayer", "au", sq("F5"), 9),
            Counter("werneck", "Werneck's Corps", "au", sq("I2"), None, faded=True),
        ),
        moves=(Arrow(sq("C4"), (sq("D4"), sq("E5")), "fr"),
               Arrow(sq("J5"), (sq("I5"), sq("H5"), sq("G5"), sq("F5")), "au")),
        battles=(sq("F5"),),
    )


def tutorial_battle_snapshot_it() -> MapSnapshot:
    """:func:`tutorial_battle_snapshot` for an Italian reader: the campaign's ISO date and the phase's
    title as the services give them, said in Italian on the map."""
    return dataclasses.replace(tutorial_battle_snapshot(), lang="it", date="1805-10-09", phase="Phase 3: Battle (MC-6)")


ITALY_PLACES = {"J18": ("Dego", "town"), "K18": ("Montenotte", "town"), "L19": ("Savona", "fortress"),
                "I19": ("Bormida", "river"), "K20": ("Cadibona", "pass"), "L22": ("Ligurian Sea", "region"),
                "J23": ("Vado", "town"), "M17": ("Sassello", "town")}
"""Place names for the Italy 1796 samples, the same whatever the bundled scenario names (goldens stay put)."""


def with_places(snapshot: MapSnapshot, places: dict[str, tuple[str, str]]) -> MapSnapshot:
    """``snapshot`` with only ``places`` named on its map (square -> (name, kind))."""
    from bot.engine.model import Place, PlaceKind

    cmap = snapshot.cmap
    cells = {sq: dataclasses.replace(c, place=None) for sq, c in cmap.cells.items()}
    for name, (text, kind) in places.items():
        sq = Square.parse(name)
        cells[sq] = dataclasses.replace(cells.get(sq, Cell()), place=Place(text, PlaceKind(kind)))
    return dataclasses.replace(snapshot, cmap=CampaignMap(cmap.width, cmap.height, cells, adjacency=cmap.adjacency))


def fogged(snapshot: MapSnapshot, side: str, sight: int = 2) -> MapSnapshot:
    """``snapshot`` as ``side`` sees it: the squares within ``sight`` of its Forces, enemies there with
    their strength hidden, and the enemies out of sight as last-seen markers where they stand."""
    cmap = snapshot.cmap
    own = [c.square for c in snapshot.counters if c.side == side and not c.faded]
    visible = frozenset(Square(col, row) for col in range(cmap.width) for row in range(cmap.height)
                        if any(cmap.distance(Square(col, row), o) <= sight for o in own))
    counters = tuple(c if c.side == side else dataclasses.replace(c, sp=None, order=None, faded=c.square not in visible)
                     for c in snapshot.counters)
    return dataclasses.replace(snapshot, counters=counters, visible=visible, view="")


def italy_snapshot() -> MapSnapshot:
    """Italy 1796 at its start (every Force, the GM's view), with :data:`ITALY_PLACES` named."""
    return with_places(scenario_snapshot(load_bundled("italy1796")), ITALY_PLACES)


def italy_phone_snapshot() -> MapSnapshot:
    """Italy 1796 as France sees it (fog of war), for a phone."""
    return fogged(italy_snapshot(), "fr")


def tutorial_fog_snapshot() -> MapSnapshot:
    """The tutorial on turn 3 as France sees it (fog of war: Austria's Forces out of sight are last seen)."""
    return fogged(tutorial_battle_snapshot(), "fr")


SIDES = (SideStyle("fr", "France", "#1f4e9c"), SideStyle("au", "Austria", "#d9a400"),
         SideStyle("ru", "Russia", None))
NAMES = ("Corps", "Division", "Army of", "Brigade", "Column", "Grenadiers", "Hussars", "Cuirassiers")
LEADERS = ("Soult", "Lannes", "Ney", "Davout", "Murat", "Bernadotte", "Marmont", "Augereau", "Mack", "Werneck",
           "Kienmayer", "Riesch", "Jellacic", "Kutuzov", "Bagration", "Dokhturov", "Miloradovich", "Württemberg")


def large_map(width: int = 60, height: int = 40, *, seed: int = 1805) -> CampaignMap:
    """Blobs of every land terrain, a sea in one corner, lakes, two rivers, roads and three territories."""
    rng = random.Random(seed)
    terrain = {Square(c, r): Terrain.OPEN for r in range(height) for c in range(width)}
    land = [t for t in Terrain if not t.is_water and t is not Terrain.OPEN]
    for _ in range(width * height // 25):
        t = rng.choice(land)
        c0, r0, size = rng.randrange(width), rng.randrange(height), rng.randint(2, 5)
        for _ in range(size * 3):
            sq = Square(min(width - 1, max(0, c0 + rng.randint(-size // 2, size // 2))),
                        min(height - 1, max(0, r0 + rng.randint(-size // 2, size // 2))))
            terrain[sq] = t
    for r in range(height):
        for c in range(width):
            if c + r < 8:
                terrain[Square(c, r)] = Terrain.SEA
    for c0, r0 in ((40, 30), (15, 25)):
        for dc in range(3):
            for dr in range(2):
                terrain[Square(c0 + dc, r0 + dr)] = Terrain.LAKE
    features: dict[Square, set[Feature]] = {}
    flow: dict[Square, str] = {}
    col = 20
    for r in range(height):  # a river winding south
        col = min(width - 2, max(2, col + rng.choice((-1, 0, 0, 1))))
        features.setdefault(Square(col, r), set()).add(Feature.RIVER)
        flow[Square(col, r)] = "S"
        terrain[Square(col, r)] = Terrain.OPEN
    for c in range(30, width):  # a tributary flowing west into it
        sq = Square(c, 12)
        features.setdefault(sq, set()).add(Feature.RIVER)
        flow[sq] = "W"
        terrain[sq] = Terrain.OPEN
    for c in range(8, width):
        features.setdefault(Square(c, 20), set()).add(Feature.ROAD)
    for r in range(8, height):
        features.setdefault(Square(45, r), set()).add(Feature.ROAD)
    for feats in features.values():
        if {Feature.ROAD, Feature.RIVER} <= feats:
            feats.add(Feature.BRIDGE)
    owner = {sq: ("fr" if sq.col < 20 else "au" if sq.row < 22 else "ru") for sq in terrain
             if not terrain[sq].is_water and (sq.col < 18 or sq.col > 22)}
    strongholds = {Square(10, 20): "fr", Square(50, 10): "au", Square(45, 32): "ru", Square(30, 5): "au"}
    capitals = {Square(10, 20), Square(50, 10), Square(45, 32)}
    cells = {
        sq: Cell(terrain[sq], frozenset(features.get(sq, ())), owner.get(sq), strongholds.get(sq), sq in capitals,
                 flow.get(sq))
        for sq in terrain
    }
    return CampaignMap(width, height, cells)


def large_snapshot(width: int = 60, height: int = 40, forces: int = 200, *, seed: int = 1805) -> MapSnapshot:
    rng = random.Random(seed)
    cmap = large_map(width, height, seed=seed)
    land = [sq for sq, cell in cmap.cells.items() if not cell.terrain.is_water]
    orders = ("forced_march", "explore", "defend", None)
    reactions = (None, None, None, None, "confused", "unsteady", "routed")
    counters = []
    hubs = rng.sample(land, forces // 4)  # many squares hold a stack
    for i in range(forces):
        sq = rng.choice(hubs) if i % 2 else rng.choice(land)
        side = SIDES[i % 3].key
        name = f"{rng.choice(LEADERS)}'s {rng.choice(NAMES)}" if i % 3 else f"{_roman(i % 12 + 1)} Corps"
        faded = i % 17 == 0
        counters.append(Counter(f"f{i}", name, side, sq, None if faded else rng.randint(2, 40), rng.choice(orders),
                                rng.choice(reactions), faded))
    moves = []
    for c in counters[:40]:
        path, at = [], c.square
        for _ in range(rng.randint(1, 4)):
            at = Square(min(width - 1, max(0, at.col + rng.choice((-1, 0, 1)))),
                        min(height - 1, max(0, at.row + rng.choice((-1, 1)))))
            path.append(at)
        moves.append(Arrow(c.square, tuple(path), c.side))
    battles = tuple(sorted({c.square for c in counters[1::7]}, key=lambda s: (s.row, s.col)))[:12]
    return MapSnapshot(
        campaign="The Danube, 1805 (generated)", turn=12, date="14 November 1805", season="autumn",
        weather="Heavy rain", phase="Phase 2: Movement", cmap=cmap, sides=SIDES, counters=tuple(counters),
        moves=tuple(moves), battles=battles, view="GM: all Forces",
    )


def _roman(n: int) -> str:
    out = ""
    for value, letters in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + letters, n - value
    return out


@contextlib.contextmanager
def drawn_text_sizes() -> Iterator[list[tuple[float, str]]]:
    """Every text Pillow draws meanwhile, as (font size in pixels on the final picture, text). Legend
    samples are drawn at 4x and shrunk (square images of 4x a legend swatch), so theirs count a quarter.
    The legend samples and the slanted river names are cached: their caches are emptied first."""
    from PIL import ImageDraw

    from bot.render import furniture, places

    drawn: list[tuple[float, str]] = []
    original = ImageDraw.ImageDraw.text

    def record(self, xy, text, fill=None, font=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        w, h = self.im.size
        scale = 1 / 4 if w == h and w % 4 == 0 and 40 <= w <= 4 * 4 * 22 else 1
        drawn.append((getattr(font, "size", 10) * scale, str(text)))
        return original(self, xy, text, fill, font, *args, **kwargs)

    furniture._swatch.cache_clear()
    places._slanted.cache_clear()
    ImageDraw.ImageDraw.text = record  # type: ignore[method-assign]
    try:
        yield drawn
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
        furniture._swatch.cache_clear()
        places._slanted.cache_clear()


def italy_gazette_snapshot() -> MapSnapshot:
    """Italy 1796's turn 1 as its gazette draws it for the public (issue 22, item 3): no Force, the battle of
    Montenotte ringed in the winner's (France's) colour, Austria's retreat from it, the turn's own heading."""
    from bot.render import BattleResult

    base = italy_snapshot()
    sq = Square.parse
    return dataclasses.replace(base, counters=(), phase="end of the turn", battles=(sq("K18"),),
                               results=(BattleResult(sq("K18"), "fr"),),
                               retreats=(Arrow(sq("K18"), (sq("L17"),), "au"),))
