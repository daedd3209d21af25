"""The fonts the renderer draws with: DejaVu, shipped inside the package.

Images must not depend on the host (STYLE.md, Rendering): the TrueType files in
``rendering/fonts/`` are read through :mod:`importlib.resources`, so they load the
same way from a source checkout, a wheel or a zip, and are handed to Pillow as
bytes, never as a path that FreeType or fontconfig could resolve elsewhere.

Text is laid out with Pillow's BASIC engine, not Raqm: Raqm is an optional system
library, and whether it is present would otherwise change glyph positions (and so
the golden images) from one host to the next. Latin labels need no shaping.

Fonts are cached per (face, size). Sharing them between the worker threads the bot
renders in is safe: Pillow's FreeType binding keeps the GIL while it works.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache, lru_cache
from importlib import resources
from io import BytesIO

from PIL import ImageFont

__all__ = ["Face", "clear_caches", "font", "font_bytes"]


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


def clear_caches() -> None:
    """Forget every loaded font (the next picture loads them again): what a picture
    costs right after start-up, for ``bench/render.py``."""
    font.cache_clear()
