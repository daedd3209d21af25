"""The community's pictures: a leaderboard's page, a player's ratings (``/rank``) and
a pilot's record (``/profile``), each a card of titled tables.

:class:`CardView` is what a card shows, as plain public data in the reader's words
(the bot builds it in the reader's language: :mod:`cogs.community`); this module only
lays it out and paints it, with the shapes, fonts, palette and painter every picture
shares. 960 px wide with no text under 22 px, like the other pictures; the output
depends on the view only (the same view always gives the same bytes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rendering.fonts import Face
from rendering.palette import (
    CARD_BG,
    CARD_BORDER,
    GOLD_LIGHT,
    HEADER_BG,
    HEADER_SUB,
    INK,
    MUTED,
    PAGE,
    WHITE,
)
from rendering.shapes import (
    MIN_TEXT_SIZE,
    Drawing,
    Layout,
    Rect,
    fit_text,
    text_width,
    wrap_text,
)
from rendering.table import draw_layout, encode_png

__all__ = ["CardTable", "CardView", "layout_card", "render_card"]

WIDTH = 960
_M = 20  # outer margin
_PAD = 16  # inside a table
_ROW = 40  # a row's height (of one line)
_LINE = 28  # each more line of a wrapped cell
_LINES = 2  # a cell's lines at most
_SIZE = 24  # a cell's text size
_HIGHLIGHT = (254, 243, 199)  # the reader's own row: pale gold behind ink
_STRIPE = (241, 245, 249)


@dataclass(frozen=True, slots=True)
class CardTable:
    """One titled table of a card."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    highlight: int | None = None
    """The index of the row drawn highlighted (the reader's own), if any."""
    empty: str = ""
    """What the table says when it has no row."""


@dataclass(frozen=True, slots=True)
class CardView:
    """A card: a title, a line under it, and tables."""

    title: str
    subtitle: str
    tables: tuple[CardTable, ...]


def _widths(table: CardTable, room: int) -> list[int]:
    """Each column's width: what its widest cell needs, the first column (a name)
    taking whatever room is left, and giving it back first when there is too little;
    then, if still too wide, the widest columns give room until the table fits (a
    short column, a rating or a place, keeps its width)."""
    bold = {0, *([table.highlight + 1] if table.highlight is not None else [])}
    cells = [table.header, *table.rows]  # the header and the highlighted row are bold
    natural = [
        max(
            text_width(row[i], Face.BOLD if n in bold else Face.REGULAR, _SIZE)
            for n, row in enumerate(cells)
        )
        + 2 * _PAD
        for i in range(len(table.header))
    ]
    fixed = sum(natural) - natural[0]
    first = max(room - fixed, min(natural[0], room // 3))
    widths = [first, *natural[1:]]
    while sum(widths) > room:  # take from the widest columns: they wrap (_cell_lines)
        top = max(widths)
        n = widths.count(top)
        below = max((w for w in widths if w < top), default=0)
        each = -(-min(sum(widths) - room, (top - below) * n) // n)  # rounded up
        widths = [w - each if w == top else w for w in widths]
    return widths


def _cell_lines(cell: str, face: Face, width: int) -> list[str]:
    """A cell's lines: one if it fits, else wrapped onto :data:`_LINES` at most (the
    last one cut with … if even that is too little)."""
    room = width - 2 * _PAD
    if text_width(cell, face, _SIZE) <= room:
        return [cell]
    lines = wrap_text(cell, face, _SIZE, room)
    if len(lines) > _LINES:
        rest = " ".join(lines[_LINES - 1 :])
        lines = [*lines[: _LINES - 1], fit_text(rest + " …", face, _SIZE, room)[0]]
    return lines


def _row(
    draw: Drawing,
    cells: Sequence[list[str]],
    widths: Sequence[int],
    y: int,
    height: int,
    face: Face,
    ink: tuple[int, int, int],
) -> None:
    """One row of cells (each its lines, centred in the row's ``height``), the first
    left-aligned, the others right-aligned (numbers)."""
    x = _M
    for i, (lines, width) in enumerate(zip(cells, widths, strict=True)):
        top = y + (height - _LINE * len(lines)) // 2 + _LINE // 2
        for n, line in enumerate(lines):
            text, size = fit_text(line, face, _SIZE, width - 2 * _PAD)
            if i == 0:
                draw.text(x + _PAD, top + n * _LINE, text, face, size, ink)
            else:
                draw.text(x + width - _PAD, top + n * _LINE, text, face, size, ink, anchor="rm")
        x += width


def _height(cells: Sequence[list[str]]) -> int:
    """A row's height: one line's, or more for a wrapped cell."""
    return _ROW + _LINE * (max(len(lines) for lines in cells) - 1)


def _table(draw: Drawing, table: CardTable, y: int) -> int:
    """Draw ``table`` from ``y``; return the y under it. A cell too long for its column
    wraps onto a second line rather than lose its end (a French count, a long name)."""
    draw.text(
        _M, y + 22, fit_text(table.title, Face.BOLD, 26, WIDTH - 2 * _M)[0], Face.BOLD, 26, INK
    )
    y += 50
    widths = _widths(table, WIDTH - 2 * _M)
    header = [_cell_lines(c, Face.BOLD, w) for c, w in zip(table.header, widths, strict=True)]
    rows = [
        [
            _cell_lines(c, Face.BOLD if n == table.highlight else Face.REGULAR, w)
            for c, w in zip(cells, widths, strict=True)
        ]
        for n, cells in enumerate(table.rows)
    ]
    heights = [_height(header), *(_height(r) for r in rows)] if rows else [_height(header), _ROW]
    draw.box(
        Rect(_M, y, WIDTH - _M, y + sum(heights) + _PAD // 2),
        CARD_BG,
        CARD_BORDER,
        width=2,
        radius=10,
    )
    _row(draw, header, widths, y, heights[0], Face.BOLD, MUTED)
    y += heights[0]
    if not rows:
        draw.text(_M + _PAD, y + _ROW // 2, table.empty, Face.REGULAR, MIN_TEXT_SIZE, MUTED)
        return y + _ROW + _PAD // 2 + 16
    for n, (cells, height) in enumerate(zip(rows, heights[1:], strict=True)):
        band = _HIGHLIGHT if n == table.highlight else _STRIPE if n % 2 else None
        if band is not None:
            draw.box(Rect(_M + 2, y, WIDTH - _M - 2, y + height), band)
        face = Face.BOLD if n == table.highlight else Face.REGULAR
        _row(draw, cells, widths, y, height, face, INK)
        y += height
    return y + _PAD // 2 + 16


def layout_card(card: CardView) -> Layout:
    """The card as shapes: a dark header with its title and line, then its tables."""
    draw = Drawing()
    title, size = fit_text(card.title, Face.BOLD, 32, WIDTH - 2 * _M)
    sub, sub_size = fit_text(card.subtitle, Face.REGULAR, 24, WIDTH - 2 * _M)
    draw.box(Rect(0, 0, WIDTH, 104), HEADER_BG)
    draw.text(_M, 36, title, Face.BOLD, size, WHITE)
    draw.text(_M, 76, sub, Face.REGULAR, sub_size, HEADER_SUB)
    draw.box(Rect(0, 100, WIDTH, 104), GOLD_LIGHT)
    y = 120
    for table in card.tables:
        y = _table(draw, table, y)
    return Layout(WIDTH, y + _M, PAGE, tuple(draw.items))


def render_card(card: CardView) -> bytes:
    """The card as PNG bytes (deterministic)."""
    return encode_png(draw_layout(layout_card(card)))
