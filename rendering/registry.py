"""The explicit registry of pictures: each system's layout of the sky, by system id.

The bot asks for a game's picture by its system's id (``picture``, ``replay_gif``) and
never imports a system's rendering package. Adding a system's pictures is one line
here (and its package ``rendering/<system>/``, with a ``layout(view, *, language)``).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from rendering.replay import render_replay
from rendering.shapes import Layout
from rendering.table import draw_layout, encode_png

__all__ = ["RENDERERS", "Renderer", "has_pictures", "picture", "renderer", "replay_gif"]

RENDERERS: dict[str, str] = {
    "dif": "rendering.dif",
    "lockedon": "rendering.lockedon",
    "eagles": "rendering.eagles",
}
"""System id -> the module of its pictures."""


class Renderer(Protocol):
    """A system's pictures."""

    def layout(
        self, view: Any, *, language: str = "en", players: Mapping[str, str] | None = None
    ) -> Layout:
        """The spectators' picture of the sky, as shapes (see :mod:`rendering.shapes`);
        ``players``: who flies each seat (the bot's seat table), named next to it."""
        ...


def has_pictures(system_id: str) -> bool:
    """Whether a system's pictures exist yet: a system registered before its pictures
    are drawn is played without them (its games post no picture of the sky)."""
    return system_id in RENDERERS


@functools.cache
def renderer(system_id: str) -> Renderer:
    """The pictures of a system (KeyError if it has none)."""
    found: Renderer = importlib.import_module(RENDERERS[system_id])
    return found


def picture(
    system_id: str, view: Any, language: str = "en", players: Mapping[str, str] | None = None
) -> bytes:
    """The picture of the sky of a spectator's ``view``, as PNG bytes; ``players``: who
    flies each seat."""
    sky = renderer(system_id).layout(view, language=language, players=players)
    return encode_png(draw_layout(sky))


def replay_gif(
    system_id: str,
    frames: Sequence[tuple[Any, str]],
    language: str = "en",
    players: Mapping[str, str] | None = None,
) -> bytes:
    """A finished game's replay as a GIF, one picture of the sky per frame."""
    sky = functools.partial(renderer(system_id).layout, players=players)
    return render_replay(frames, sky, language=language)
