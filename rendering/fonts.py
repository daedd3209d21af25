"""The fonts the renderer draws with: DejaVu, shipped inside the package.

Images must not depend on the host (STYLE.md, Rendering): the TrueType files in
``rendering/fonts/`` are read through :mod:`importlib.resources`, so they load the
same way from a source checkout, a wheel or a zip, and are handed to Pillow as
bytes, never as a path that FreeType or fontconfig could resolve elsewhere.

Text is laid out with Pillow's BASIC engine, not Raqm: Raqm is an optional system
library, and whether it is present would otherwise change glyph positions (and so
the golden images) from one host to the next. Latin labels need no shaping.

What FreeType computes is cached, because a game's pictures write the same words
turn after turn (aircraft names, seat ids, labels, "2/4 hits"): fonts per (face,
size), text widths and anti-aliased glyph masks per (text, face, size[, anchor]).
The key holds everything the result depends on (the shipped font bytes never
change in a process), and every cached value is immutable (floats, a frozen
:class:`TextMask` of bytes), so a cached answer is exactly the computed one.
Sharing the caches between the worker threads the bot renders in is safe:
``functools.lru_cache`` is thread-safe, and Pillow's FreeType binding keeps the GIL
while it works. :func:`clear_caches` empties them (``bench/render.py`` times a
picture after start-up with it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from importlib import resources
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

__all__ = ["Face", "TextMask", "clear_caches", "font", "font_bytes", "text_length", "text_mask"]


class Face(StrEnum):
    """The three shipped faces, by file name."""

    REGULAR = "DejaVuSans.ttf"
    """Body text: counts, prompts."""
    BOLD = "DejaVuSans-Bold.ttf"
    """Headings, badges, hit counts."""
    CONDENSED = "DejaVuSansCondensed-Bold.ttf"
    """Aircraft names and arrow labels, where width is scarce."""


@cache
def font_bytes(face: Face) -> bytes:
    """The raw TrueType file of ``face``, read once from the package."""
    return resources.files("rendering").joinpath("fonts").joinpath(face.value).read_bytes()


@lru_cache(maxsize=64)
def font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    """``face`` at ``size`` pixels, loaded from the shipped bytes (never a host path)."""
    return ImageFont.truetype(BytesIO(font_bytes(face)), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=8192)
def text_length(text: str, face: Face, size: int) -> float:
    """The advance width of ``text`` in ``face`` at ``size`` px (Pillow's ``getlength``).

    Layouts measure the same few hundred strings for every picture, often several
    times while fitting one (:func:`rendering.shapes.fit_text`); 8192 entries of a
    short string and a float hold those of many games at once.
    """
    return font(face, size).getlength(text)


@dataclass(frozen=True, slots=True)
class TextMask:
    """A line of text's anti-aliased ink, cropped to its ink box.

    ``left``/``top``: the box's corner relative to the anchor point; ``coverage``:
    ``width * height`` bytes, row by row, 0 (no ink) to 255 (full ink).
    """

    left: int
    top: int
    width: int
    height: int
    coverage: bytes


@lru_cache(maxsize=2048)
def text_mask(text: str, face: Face, size: int, anchor: str) -> TextMask | None:
    """The anti-aliased ("L") ink of ``text`` placed by ``anchor``; None if it has no ink.

    The box is the anti-aliased rendering's (``getbbox(mode="L")``): a palette
    canvas's own ``textbbox`` would measure the monochrome rendering, whose hinting
    gives a narrower box. The box's corner is rounded outwards to whole pixels and
    the text drawn at integer coordinates, so the mask is the same wherever the text
    is placed. A mask is a few kB: 2048 of them hold every text of several big games.
    """
    drawn = font(face, size)
    left, top, right, bottom = drawn.getbbox(text, mode="L", anchor=anchor)
    x0, y0 = math.floor(left), math.floor(top)
    width, height = math.ceil(right) - x0, math.ceil(bottom) - y0
    if width <= 0 or height <= 0:
        return None
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, fill=255, font=drawn, anchor=anchor)
    return TextMask(x0, y0, width, height, mask.tobytes())


def clear_caches() -> None:
    """Forget every loaded font, width and mask (the next picture computes them again):
    what a picture costs right after start-up, for ``bench/render.py``."""
    font.cache_clear()
    text_length.cache_clear()
    text_mask.cache_clear()
