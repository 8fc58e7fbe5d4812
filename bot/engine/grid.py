"""The square grid of the campaign map: bounds, adjacency (RU-11) and paths."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from .errors import InvalidInput
from .model import Cell, Place, Square
from .text import Msg

DIRECTIONS_8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
DIRECTIONS_4 = ((0, -1), (-1, 0), (1, 0), (0, 1))
COMPASS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1), "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}


@dataclass(frozen=True)
class CampaignMap:
    """A ``width`` x ``height`` grid; squares not listed in ``cells`` are open ground."""

    width: int
    height: int
    cells: Mapping[Square, Cell] = field(default_factory=dict)
    adjacency: int = 8
    """RU-11: 8 directions by default, 4 as an option."""

    def __post_init__(self) -> None:
        if not (1 <= self.width <= 702 and 1 <= self.height <= 999):
            raise InvalidInput("A map of {width}x{height} squares is not allowed: 1x1 to 702x999.", width=self.width, height=self.height)
        if self.adjacency not in (4, 8):
            raise InvalidInput("Adjacency {adjacency!r} is not allowed: 8 (default) or 4 (RU-11).", adjacency=self.adjacency)
        for sq in self.cells:
            if not self.contains(sq):
                raise InvalidInput("Square {sq} is outside the {width}x{height} map.", sq=sq, width=self.width, height=self.height)

    def contains(self, sq: Square) -> bool:
        return sq.col < self.width and sq.row < self.height

    def cell(self, sq: Square) -> Cell:
        self.require(sq)
        return self.cells.get(sq) or _OPEN

    def require(self, sq: Square) -> Square:
        if not self.contains(sq):
            last = Square(self.width - 1, self.height - 1)
            raise InvalidInput("Square {sq} is off the map: squares run from A1 to {last}.", sq=sq, last=last)
        return sq

    def parse(self, text: str) -> Square:
        return self.require(Square.parse(text))

    def places(self) -> Iterator[tuple[Square, Place]]:
        """The named places (:attr:`Cell.place`), by square, top row first and left to right."""
        for sq in sorted(self.cells, key=lambda q: (q.row, q.col)):
            place = self.cells[sq].place
            if place is not None:
                yield sq, place

    def squares(self) -> Iterator[Square]:
        for row in range(self.height):
            for col in range(self.width):
                yield Square(col, row)

    def neighbours(self, sq: Square) -> Iterator[Square]:
        dirs = DIRECTIONS_8 if self.adjacency == 8 else DIRECTIONS_4
        for dc, dr in dirs:
            c, r = sq.col + dc, sq.row + dr
            if 0 <= c < self.width and 0 <= r < self.height:
                yield Square(c, r)

    def adjacent(self, a: Square, b: Square) -> bool:
        dc, dr = abs(a.col - b.col), abs(a.row - b.row)
        if self.adjacency == 8:
            return max(dc, dr) == 1
        return dc + dr == 1

    def distance(self, a: Square, b: Square) -> int:
        """Steps between two squares under this map's adjacency."""
        dc, dr = abs(a.col - b.col), abs(a.row - b.row)
        return max(dc, dr) if self.adjacency == 8 else dc + dr

    def parse_path(self, start: Square, text: str | Sequence[str]) -> tuple[Square, ...]:
        """Read a path like ``"D4 E5 E6"``; a leading start square may be given or left out."""
        words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        if not words:
            raise InvalidInput("The path is empty: give the squares to move through, like `D4 E5 E6`.")
        path = [self.parse(w) for w in words]
        if path[0] == start:
            path = path[1:]
        return self.check_path(start, path)

    def check_path(self, start: Square, path: Iterable[Square]) -> tuple[Square, ...]:
        """Every step must go to an adjacent square on the map (RU-11)."""
        steps = tuple(path)
        if not steps:
            raise InvalidInput("The path goes nowhere: name at least one square after {start}.", start=start)
        prev = start
        for sq in steps:
            self.require(sq)
            if sq == prev:
                raise InvalidInput("The path names {sq} twice in a row: list each square once.", sq=sq)
            if not self.adjacent(prev, sq):
                how = Msg("8 directions") if self.adjacency == 8 else Msg("4 directions (no diagonals)")
                raise InvalidInput(  # malformed input (errors.InvalidInput), not a rules refusal
                    "The path has a gap between {prev} and {sq}: each step must be to an adjacent square ({how}, RU-11).", prev=prev, sq=sq, how=how
                )
            prev = sq
        return steps

    def direction(self, a: Square, b: Square) -> str:
        """Compass direction of the step from ``a`` to the adjacent ``b``."""
        step = (b.col - a.col, b.row - a.row)
        for name, d in COMPASS.items():
            if d == step:
                return name
        raise InvalidInput("{a} and {b} are not adjacent.", a=a, b=b)


_OPEN = Cell()
