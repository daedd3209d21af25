"""Pictures of games for Discord: PNG images drawn with Pillow from engine views.

The renderer reads views only (``engine.dif.view``), never game state, and ships its
own fonts, so an image depends on nothing but the view it is given.
"""

from __future__ import annotations

from rendering.layout import Layout, layout_table
from rendering.table import render_table

__all__ = ["Layout", "layout_table", "render_table"]
