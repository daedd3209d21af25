"""Eagles in the Sky's pictures: the play mat (:mod:`rendering.eagles.mat`) of an
:class:`~engine.eagles.view.EaglesView`, registered for the ``eagles`` system in
:mod:`rendering.registry`."""

from __future__ import annotations

from collections.abc import Mapping

from engine.eagles.view import EaglesView
from rendering.eagles.mat import WIDTH, layout_eagles
from rendering.shapes import Layout
from rendering.table import draw_layout, encode_png

__all__ = ["WIDTH", "layout", "layout_eagles", "render_eagles"]


def layout(
    view: EaglesView, *, language: str = "en", players: Mapping[str, str] | None = None
) -> Layout:
    """The picture of the play mat for a spectator's view, as shapes; ``players``: who
    flies each seat, named in the side's box."""
    return layout_eagles(view, language=language, players=players)


def render_eagles(
    view: EaglesView, *, language: str = "en", players: Mapping[str, str] | None = None
) -> bytes:
    """The spectators' picture of the play mat for ``view``, in ``language``, as PNG
    bytes. Pass the spectators' view (``view(state, None)``): the picture draws only
    how many cards each side holds, never a hand."""
    return encode_png(draw_layout(layout(view, language=language, players=players)))
