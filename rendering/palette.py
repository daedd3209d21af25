"""Colours and side markers shared by every picture (the sky of each system, the
after-action report), and plurals of the pictures' words.

Side colours keep >= 4.5:1 contrast with white text; on the dark header the lighter
tints are used instead. Colour is never the only signal: each side also has a marker
glyph and its name. Sides take their colour and marker by their order in the game
(the first side blue ●, the second red ◆, then more).
"""

from __future__ import annotations

from rendering.shapes import RGB
from strings import t

__all__ = [
    "CARD_BG",
    "CARD_BORDER",
    "GOLD_LIGHT",
    "HEADER_BG",
    "HEADER_SUB",
    "INK",
    "MUTED",
    "PAGE",
    "SIDE_COLOURS",
    "SIDE_MARKERS",
    "SIDE_ON_DARK",
    "WHITE",
    "plural",
    "side_colour",
    "side_marker",
]

INK: RGB = (17, 24, 39)
MUTED: RGB = (75, 85, 99)
WHITE: RGB = (255, 255, 255)
PAGE: RGB = (241, 245, 249)
HEADER_BG: RGB = (15, 23, 42)
HEADER_SUB: RGB = (203, 213, 225)
CARD_BG: RGB = (255, 255, 255)
CARD_BORDER: RGB = (100, 116, 139)
GOLD_LIGHT: RGB = (252, 211, 77)
# Eight sides: a Locked-On free-for-all has up to one side a player.
SIDE_COLOURS: tuple[RGB, ...] = (
    (29, 78, 216),
    (185, 28, 28),
    (21, 128, 61),
    (126, 34, 206),
    (180, 83, 9),
    (14, 116, 144),
    (190, 24, 93),
    (63, 63, 70),
)
SIDE_ON_DARK: tuple[RGB, ...] = (
    (147, 197, 253),
    (252, 165, 165),
    (134, 239, 172),
    (216, 180, 254),
    (253, 186, 116),
    (103, 232, 249),
    (249, 168, 212),
    (212, 212, 216),
)
SIDE_MARKERS: tuple[str, ...] = ("●", "◆", "▲", "■", "★", "✚", "⬟", "◉")


def side_colour(index: int) -> RGB:
    return SIDE_COLOURS[index % len(SIDE_COLOURS)]


def side_marker(index: int) -> str:
    return SIDE_MARKERS[index % len(SIDE_MARKERS)]


def plural(key: str, language: str, n: int) -> str:
    """``key.one`` or ``key.other`` for ``n`` (French uses the singular for 0 and 1)."""
    one = n <= 1 if language == "fr" else n == 1
    return t(f"{key}.{'one' if one else 'other'}", language, n=n)
