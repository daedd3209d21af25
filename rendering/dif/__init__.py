"""Down in Flames' pictures: the spectators' sky (:mod:`rendering.dif.sky`) of a
:class:`~engine.dif.view.DifView`, registered for the ``dif`` system in
:mod:`rendering.registry`."""

from __future__ import annotations

from collections.abc import Mapping

from engine.dif.view import DifView
from rendering.dif.sky import layout_table
from rendering.shapes import Layout
from rendering.table import draw_layout, encode_png

__all__ = ["layout", "layout_table", "render_table"]


def layout(
    view: DifView, *, language: str = "en", players: Mapping[str, str] | None = None
) -> Layout:
    """The picture of the sky for a spectator's view, as shapes; ``players``: who flies
    each seat."""
    return layout_table(view, language=language, players=players)


def render_table(
    view: DifView, *, language: str = "en", players: Mapping[str, str] | None = None
) -> bytes:
    """The spectators' picture of the sky for ``view``, in ``language``, as PNG bytes.

    Pass the spectators' view (``view(state, None)``): the picture shows everything
    the view holds except hands and mini-hands, which it never reads.
    """
    return encode_png(draw_layout(layout(view, language=language, players=players)))
