"""What a picture is made of: shapes with integer coordinates, and text fitting.

:mod:`rendering.layout` computes a :class:`Layout` from a view; :mod:`rendering.table`
paints it. Keeping the shapes apart lets both sides (and the tests) share them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rendering.fonts import Face, text_length

__all__ = [
    "MIN_TEXT_SIZE",
    "RGB",
    "Box",
    "Drawing",
    "Item",
    "Layout",
    "Line",
    "Point",
    "Polygon",
    "Rect",
    "Text",
    "fit_text",
    "text_width",
    "wrap_text",
]

RGB = tuple[int, int, int]
Point = tuple[int, int]

MIN_TEXT_SIZE = 22
"""No text is smaller: Discord shows the 960 px picture about 400 px wide on a phone."""


# --- the data a layout is made of -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle, ``x1``/``y1`` exclusive as in Pillow."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    @property
    def center(self) -> Point:
        return ((self.x0 + self.x1) // 2, (self.y0 + self.y1) // 2)

    def grow(self, by: int) -> Rect:
        """The rectangle pushed out by ``by`` px on every side."""
        return Rect(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)


@dataclass(frozen=True, slots=True)
class Box:
    """A filled and/or outlined rectangle, with rounded corners if ``radius``."""

    rect: Rect
    fill: RGB | None
    outline: RGB | None = None
    width: int = 0
    radius: int = 0


@dataclass(frozen=True, slots=True)
class Line:
    """A polyline."""

    points: tuple[Point, ...]
    fill: RGB
    width: int


@dataclass(frozen=True, slots=True)
class Polygon:
    """A closed, filled polygon (arrow heads and block arrows)."""

    points: tuple[Point, ...]
    fill: RGB
    outline: RGB | None = None
    width: int = 0


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text at ``(x, y)``, placed by a Pillow text ``anchor``."""

    x: int
    y: int
    text: str
    face: Face
    size: int
    fill: RGB
    anchor: str = "lm"


Item = Box | Line | Polygon | Text


@dataclass(frozen=True, slots=True)
class Layout:
    """Everything to draw, in painting order, and the named regions of the picture."""

    width: int
    height: int
    background: RGB
    items: tuple[Item, ...]
    regions: Mapping[str, Rect] = field(default_factory=dict)


# --- drawing a layout ---------------------------------------------------------


class Drawing:
    """What a layout builder draws with: items in painting order, named regions, and
    the primitives every picture uses (text, boxes, the rounded badge)."""

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.regions: dict[str, Rect] = {}

    def text(
        self,
        x: int,
        y: int,
        text: str,
        face: Face,
        size: int,
        fill: RGB,
        anchor: str = "lm",
    ) -> None:
        self.items.append(Text(x, y, text, face, size, fill, anchor))

    def box(
        self,
        rect: Rect,
        fill: RGB | None,
        outline: RGB | None = None,
        width: int = 0,
        radius: int = 0,
    ) -> None:
        self.items.append(Box(rect, fill, outline, width, radius))

    def pill(self, x: int, y: int, text: str, fill: RGB, ink: RGB, *, right: bool = False) -> int:
        """A rounded badge centred on ``y``, starting (or ending if ``right``) at ``x``.

        Returns its width.
        """
        size = MIN_TEXT_SIZE
        width = text_width(text, Face.CONDENSED, size) + 18
        x0 = x - width if right else x
        self.box(Rect(x0, y - 15, x0 + width, y + 15), fill, radius=8)
        self.text(x0 + width // 2, y, text, Face.CONDENSED, size, ink, anchor="mm")
        return width


# --- text -----------------------------------------------------------------


def text_width(text: str, face: Face, size: int) -> int:
    """``text``'s width in whole pixels (measured once per text, face and size:
    :func:`rendering.fonts.text_length`)."""
    return round(text_length(text, face, size))


def fit_text(text: str, face: Face, size: int, max_width: int) -> tuple[str, int]:
    """``text`` at the largest size down to :data:`MIN_TEXT_SIZE` that fits, else cut with …."""
    while size > MIN_TEXT_SIZE and text_width(text, face, size) > max_width:
        size -= 2
    size = max(size, MIN_TEXT_SIZE)
    if text_width(text, face, size) <= max_width:
        return text, size
    while text and text_width(text + "…", face, size) > max_width:
        text = text[:-1]
    return text.rstrip() + "…", size


def wrap_text(text: str, face: Face, size: int, max_width: int) -> list[str]:
    """Greedy word wrap; a word too long for a line is cut with …."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, face, size) <= max_width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = fit_text(word, face, size, max_width)[0]
    if current:
        lines.append(current)
    return lines
