"""Pictures of games for Discord: PNG images drawn with Pillow from views.

A renderer reads views only (never game state) and ships its own fonts, so an image
depends on nothing but the view it is given. The shared core is here (shapes, fonts,
palette, the painter, the after-action report, the replay's GIF); each system has its
layout of the sky (``rendering/<system>/``), found through :mod:`rendering.registry`.
"""

from __future__ import annotations

from rendering.shapes import Layout
from rendering.table import draw_layout, encode_png

__all__ = ["Layout", "draw_layout", "encode_png"]
