"""Locked-On's pictures: the range chart and aircraft cards (:mod:`rendering.lockedon.sky`)
of a :class:`~engine.lockedon.view.LockedOnView`, registered for the ``lockedon``
system in :mod:`rendering.registry`."""

from __future__ import annotations

from collections.abc import Mapping

from engine.lockedon.view import LockedOnView
from rendering.lockedon.sky import WIDTH, layout_lockedon, render_lockedon
from rendering.shapes import Layout

__all__ = ["WIDTH", "layout", "layout_lockedon", "render_lockedon"]


def layout(
    view: LockedOnView, *, language: str = "en", players: Mapping[str, str] | None = None
) -> Layout:
    """The picture of the sky for a spectator's view, as shapes; ``players``: who flies
    each seat."""
    return layout_lockedon(view, language=language, players=players)
