"""What makes the pictures quick (issue 16) changes no pixel: the renderer's caches
(:mod:`rendering.fonts`' text widths and glyph masks, :mod:`rendering.table`'s blends
and corner masks) give the picture drawn without them, a text is blended as Pillow's
public calls would blend it, and a rounded box, and a polygon's wide outline drawn on
its own box, are Pillow's.

The timings themselves are machine-dependent: ``python bench/render.py`` prints them.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from rendering import fonts
from rendering.campaign import render_sheet
from rendering.dif import render_table
from rendering.eagles import render_eagles
from rendering.registry import renderer
from rendering.shapes import RGB, Box, Layout, Point, Polygon, Rect, Text, text_width
from rendering.table import _Painter, clear_caches, draw_layout


def _load(name: str) -> ModuleType:
    """A sibling test module, by path (tests/ is no package; pytest imports by path)."""
    path = Path(__file__).parent / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_fast_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


table, eagles, campaign = (
    _load("test_table"),
    _load("test_eagles_picture"),
    _load("test_campaign_picture"),
)

PICTURES: dict[str, Callable[[], bytes]] = {
    "dif 8v8": lambda: render_table(table.view_8v8()),
    "dif 2v2 fr": lambda: render_table(table.view_2v2(), language="fr"),
    "eagles": lambda: render_eagles(eagles.three_dogfights()),
    "campaign": lambda: render_sheet(campaign.sheet_midway()),
}


# --- the caches -----------------------------------------------------------------------


def test_a_picture_is_the_same_from_empty_caches_or_after_other_pictures() -> None:
    clear_caches()
    assert fonts.text_mask.cache_info().currsize == fonts.text_length.cache_info().currsize == 0
    first = {}
    for name, picture in PICTURES.items():
        clear_caches()
        first[name] = picture()
        assert picture() == first[name], f"{name}: drawn again from full caches"
    for name, picture in reversed(PICTURES.items()):
        assert picture() == first[name], f"{name}: after the other pictures"


def test_a_text_mask_is_the_text_drawn_cut_to_its_ink_box() -> None:
    for text, face, size, anchor in (
        ("Buffalo I (A1)", fonts.Face.CONDENSED, 28, "lm"),
        ("◀ Tailed by Ki-43 (J1)", fonts.Face.REGULAR, 24, "mm"),
        ("3/4", fonts.Face.BOLD, 26, "rm"),
    ):
        mask = fonts.text_mask(text, face, size, anchor)
        assert mask is not None and mask is fonts.text_mask(text, face, size, anchor)
        x, y = 300, 60
        drawn = Image.new("L", (600, 120), 0)
        ImageDraw.Draw(drawn).text(
            (x, y), text, fill=255, font=fonts.font(face, size), anchor=anchor
        )
        box = (x + mask.left, y + mask.top, x + mask.left + mask.width, y + mask.top + mask.height)
        ink = drawn.getbbox()
        assert ink is not None and box[0] <= ink[0] and box[1] <= ink[1], text
        assert ink[2] <= box[2] and ink[3] <= box[3], text
        assert drawn.crop(box).tobytes() == mask.coverage, text


def test_a_text_without_ink_has_no_mask_and_no_width() -> None:
    assert fonts.text_mask("", fonts.Face.REGULAR, 24, "lm") is None
    assert text_width("", fonts.Face.REGULAR, 24) == 0


# --- text -------------------------------------------------------------------------


class _PlainPainter(_Painter):
    """Text blended through Pillow's public calls only: the colour under a text is the
    most frequent index of its box's histogram (the lowest of equally frequent ones),
    and the blend is pasted as a new image. Rounded boxes are Pillow's own."""

    def rounded(self, *box: Any) -> bool:
        return False

    def text(self, item: Text) -> None:
        mask = fonts.text_mask(item.text, item.face, item.size, item.anchor)
        if mask is None:
            return
        x0, y0 = item.x + mask.left, item.y + mask.top
        box = (x0, y0, x0 + mask.width, y0 + mask.height)
        counts = self.canvas.crop(box).histogram()
        under = self.colours[counts.index(max(counts))]
        blend = mask.coverage.translate(self.ramp(item.fill, under))
        self.canvas.paste(Image.frombytes("P", (mask.width, mask.height), blend), box)


def _plainly_drawn(layout: Layout) -> Image.Image:
    return _PlainPainter(layout).paint()


def _straddling_texts() -> Layout:
    """Texts on two colours at once (no picture has one, the painter must still pick
    the colour most of the box shows), on a tie, and running off the canvas."""
    word = ("Tailing", fonts.Face.BOLD, 28, _OUTLINE)
    tie = fonts.text_mask("ll", fonts.Face.REGULAR, 22, "lm")
    assert tie is not None and tie.width % 2 == 0  # half on each box: a tie
    return Layout(
        400,
        200,
        _PAPER,
        (
            Box(Rect(0, 0, 120, 200), _FILL),
            Box(Rect(120, 0, 400, 100), (250, 204, 21)),
            Text(100, 40, *word),  # mostly on the yellow box
            Text(90, 150, *word, anchor="rm"),  # mostly on the blue one
            Text(120 - tie.left - tie.width // 2, 80, "ll", fonts.Face.REGULAR, 22, _PAPER),
            Text(380, 190, *word),  # off the right edge
            Text(-20, 100, *word),  # off the left edge
        ),
    )


def _sky_8v8() -> Layout:
    return renderer("dif").layout(table.view_8v8())


@pytest.mark.parametrize("make", [_sky_8v8, _straddling_texts])
def test_text_is_blended_as_pillows_public_calls_blend_it(make: Callable[[], Layout]) -> None:
    layout = make()
    drawn, plain = draw_layout(layout), _plainly_drawn(layout)
    assert drawn.tobytes() == plain.tobytes() and drawn.getpalette() == plain.getpalette()


# --- rounded boxes --------------------------------------------------------------------


def _rounded_boxes() -> Layout:
    """Rounded boxes of every radius and outline the pictures use and more: filled,
    outlined, both, the outline the fill's colour; odd and even corners, boxes just
    wide or tall enough for four corners and too small for them (Pillow's own), some
    off the canvas."""
    boxes: list[Box] = []
    x, y = -6, -6
    for radius in (3, 4, 5, 6, 8, 10, 12, 16):
        for width in (0, 1, 2, 3, 4):
            for fill, outline in (
                (_FILL, None),
                (_FILL, _OUTLINE),
                (None, _OUTLINE),
                (_FILL, _FILL),
            ):
                if width == 0 and outline is not None:
                    continue
                for w, h in (
                    (2 * radius + 1, 30),
                    (2 * radius + 3, 2 * radius + 3),
                    (61, 2 * radius + 4),
                    (47, 30),
                ):
                    if x + w > 412:
                        x, y = -6, y + 40
                    boxes.append(Box(Rect(x, y, x + w, y + h), fill, outline, width, radius))
                    x += w + 4
    return Layout(400, y + 30, _PAPER, tuple(boxes))


def test_a_rounded_box_is_drawn_as_pillow_draws_it() -> None:
    layout = _rounded_boxes()
    drawn, plain = draw_layout(layout), _plainly_drawn(layout)
    assert drawn.tobytes() == plain.tobytes() and drawn.getpalette() == plain.getpalette()


# --- polygons -------------------------------------------------------------------------

_PAPER: RGB = (221, 235, 249)
_FILL: RGB = (29, 78, 216)
_OUTLINE: RGB = (17, 24, 39)


def _arrow_head(start: Point, end: Point) -> tuple[Point, ...]:
    """The head of a line arrow, as ``rendering.dif.sky`` draws it."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    bx, by = end[0] - ux * 26, end[1] - uy * 26
    return (
        end,
        (round(bx - uy * 16), round(by + ux * 16)),
        (round(bx + uy * 16), round(by - ux * 16)),
    )


@pytest.mark.parametrize(
    ("points", "width"),
    [
        # Block arrows across the gutter, rightwards and leftwards (dif.sky).
        (((40, 78), (150, 78), (150, 66), (176, 100), (150, 134), (150, 122), (40, 122)), 2),
        (((176, 78), (66, 78), (66, 66), (40, 100), (66, 134), (66, 122), (176, 122)), 2),
        # Line arrow heads at several angles.
        (_arrow_head((20, 20), (180, 170)), 2),
        (_arrow_head((190, 30), (35, 120)), 2),
        (_arrow_head((100, 190), (103, 15)), 2),
        # Wider outlines, and a polygon running off the canvas.
        (((30, 30), (170, 50), (120, 180)), 5),
        (((-20, 40), (120, -15), (230, 150), (60, 230)), 3),
    ],
)
def test_a_wide_outline_is_drawn_as_pillow_draws_it(points: tuple[Point, ...], width: int) -> None:
    polygon = Polygon(points, _FILL, _OUTLINE, width)
    drawn = draw_layout(Layout(200, 200, _PAPER, (polygon,))).convert("RGB")
    reference = Image.new("RGB", (200, 200), _PAPER)
    ImageDraw.Draw(reference).polygon(points, fill=_FILL, outline=_OUTLINE, width=width)
    assert ImageChops.difference(drawn, reference).getbbox() is None
    assert drawn.getcolors() is not None and len(drawn.getcolors()) == 3  # outline drawn
