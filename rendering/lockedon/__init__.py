"""Locked-On's pictures: the range chart and aircraft cards (:mod:`rendering.lockedon.sky`)
of a :class:`~engine.lockedon.view.LockedOnView`, registered for the ``lockedon``
system in :mod:`rendering.registry`."""

from __future__ import annotations

from engine.lockedon.view import LockedOnView
from rendering.lockedon.sky import WIDTH, layout_lockedon, render_lockedon
from rendering.shapes import Layout

__all__ = ["WIDTH", "layout", "layout_lockedon", "render_lockedon"]


def layout(view: LockedOnView, *, language: str = "en") -> Layout:
    """The picture of the sky for a spectator's view, as shapes."""
    return layout_lockedon(view, language=language)
