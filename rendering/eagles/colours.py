"""The Eagles in the Sky picture's colours: the two sides as their counters, the sky's
four altitude levels, and the markers of the play mat.

The counters give the sides' colours (§2.11: Allied Scouts have tan backgrounds,
German ones grey-green): a dark tan and a dark grey-green that keep >= 4.5:1
contrast with white text (5.4:1 and 6.6:1). Colour is never the only signal: each
side keeps its marker glyph from :mod:`rendering.palette` (● the Allies, ◆ the
Germans) and its name.

The shared greys, inks and the header's navy come from :mod:`rendering.palette`.
"""

from __future__ import annotations

from rendering.palette import SIDE_MARKERS
from rendering.shapes import RGB

__all__ = [
    "ACTIVATED",
    "ALTITUDE_BG",
    "ARROW_INK",
    "BROKEN",
    "DAMAGE",
    "DISPLAY_HEAD",
    "EMPTY_TRACK",
    "FOCUS",
    "GROUND_BG",
    "JAMMED",
    "MISSION",
    "OUT_BG",
    "OUT_STRIP",
    "SIDES",
    "SIDE_COLOUR",
    "SIDE_MARKER",
    "TRACK_ON",
    "WOUNDED",
]

SIDE_COLOUR: dict[str, RGB] = {"allied": (138, 99, 47), "german": (76, 97, 78)}
"""Tan and grey-green, like the Scouts' counters (§2.11)."""
SIDE_MARKER: dict[str, str] = {"allied": SIDE_MARKERS[0], "german": SIDE_MARKERS[1]}
SIDES: tuple[str, ...] = tuple(SIDE_COLOUR)
"""The two sides, in the order the picture shows them (the Allies on the left)."""

ALTITUDE_BG: dict[str, RGB] = {
    "H": (199, 219, 242),
    "M": (214, 230, 247),
    "L": (228, 238, 250),
    "T": (232, 240, 226),
}
"""Deeper blue higher up; Treetop takes a green tinge from the trees below."""
GROUND_BG: RGB = (231, 222, 200)
"""The airfield (§16.47)."""
OUT_BG: RGB = (229, 231, 235)
OUT_STRIP: RGB = (107, 114, 128)

DISPLAY_HEAD: RGB = (51, 65, 85)
"""A dogfight display's title strip."""
TRACK_ON: RGB = (245, 158, 11)
FOCUS: RGB = TRACK_ON
"""The outline of the aircraft the pending decision is about."""
EMPTY_TRACK: RGB = (148, 163, 184)
ARROW_INK: RGB = (17, 24, 39)

ACTIVATED: RGB = (185, 28, 28)
"""The red stripe on an activated counter's back (§2.13)."""
MISSION: RGB = (30, 64, 175)
"""Mission aircraft: the Allied 2-Seaters' blue (§2.12)."""
DAMAGE: RGB = (251, 191, 36)
JAMMED: RGB = (220, 38, 38)
BROKEN: RGB = (55, 65, 81)
WOUNDED: RGB = (194, 65, 12)
