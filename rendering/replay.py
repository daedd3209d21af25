"""The replay of a finished game as an animated GIF.

Each frame is the spectators' picture of the sky of one moment (the game's system's
layout, :mod:`rendering.registry`; the bot picks when play begins, after every turn,
and the end, see :func:`bot.history.replay_frames`), under a dark caption strip saying which frame
it is and what notable happened since the previous one (shoot-downs, damage,
evasions). Frames are drawn straight onto palette images by the painter of the
picture of the sky, so every colour is exact and the output is deterministic.

Discord refuses uploads over 8 MB (the default limit of a server), so
:func:`render_replay` fits the GIF under :data:`MAX_BYTES`: it first keeps fewer
frames (evenly spaced, always the first and the last, merging the captions of the
frames it drops), then shrinks the frames, and gives up (``ValueError``) only if
even :data:`MIN_FRAMES` frames at :data:`MIN_SCALE` do not fit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from io import BytesIO
from typing import Any

from PIL import Image

from rendering.fonts import Face
from rendering.shapes import RGB, Box, Item, Layout, Line, Polygon, Rect, Text, fit_text, wrap_text
from rendering.table import draw_layout
from strings import t

__all__ = [
    "FRAME_MS",
    "LAST_MS",
    "MAX_BYTES",
    "MAX_FRAMES",
    "MIN_FRAMES",
    "MIN_SCALE",
    "NOTABLE_MS",
    "frame_layout",
    "pick_frames",
    "render_replay",
]

MAX_BYTES = 7_800_000
"""Under Discord's 8 MB default upload limit, with room for the rest of the request."""
MAX_FRAMES = 90
"""Frames kept at most (a 2v2 of six turns has about 25; an 8v8 about 100)."""
MIN_FRAMES = 12
MIN_SCALE = 0.5
"""Shrink no further: the 22 px text of the picture becomes 11 px."""
FRAME_MS = 1200
NOTABLE_MS = 2500
"""A frame whose caption tells of a shoot-down, damage or an evasion stays longer."""
FIRST_MS = 2000
LAST_MS = 6000

_CAPTION_BG: RGB = (51, 65, 85)
"""Lighter than the picture's own dark header, so the two read apart."""
_CAPTION_INK: RGB = (255, 255, 255)
_CAPTION_SUB: RGB = (203, 213, 225)
_CAPTION_LINES = 2
_LINE_H = 32
_PAD = 10

Frame = tuple[Any, str]
"""A spectator view and its caption."""
Sky = Callable[..., Layout]
"""A system's picture of the sky: ``sky(view, language=...)``."""


def _shift(item: Item, dy: int) -> Item:
    """``item`` moved down by ``dy`` px."""
    if isinstance(item, Text):
        return replace(item, y=item.y + dy)
    if isinstance(item, Box):
        r = item.rect
        return replace(item, rect=Rect(r.x0, r.y0 + dy, r.x1, r.y1 + dy))
    if isinstance(item, (Line, Polygon)):
        return replace(item, points=tuple((x, y + dy) for x, y in item.points))
    raise TypeError(item)


def frame_layout(
    table: Layout, caption: str, index: int, total: int, *, language: str = "en"
) -> Layout:
    """One frame: the caption strip, then the picture of the sky (``table``) under it,
    in ``language`` (the caption is given in it already)."""
    width = table.width
    counter = f"{index + 1}/{total}"
    inner = width - 2 * 16 - 110
    lines = wrap_text(caption, Face.REGULAR, 22, inner) if caption else []
    if len(lines) > _CAPTION_LINES:
        rest = " ".join(lines[_CAPTION_LINES - 1 :])
        lines = [*lines[: _CAPTION_LINES - 1], fit_text(rest, Face.REGULAR, 22, inner)[0]]
    strip_h = 2 * _PAD + _LINE_H * max(len(lines), 1)
    items: list[Item] = [Box(Rect(0, 0, width, strip_h), _CAPTION_BG)]
    items.append(
        Text(width - 16, _PAD + _LINE_H // 2, counter, Face.BOLD, 24, _CAPTION_SUB, anchor="rm")
    )
    text = lines or [t("picture.replay.title", language)]
    for i, line in enumerate(text):
        y = _PAD + _LINE_H * i + _LINE_H // 2
        face = Face.REGULAR if lines else Face.BOLD
        items.append(Text(16, y, line, face, 22, _CAPTION_INK))
    items += [_shift(item, strip_h) for item in table.items]
    regions = {
        k: Rect(r.x0, r.y0 + strip_h, r.x1, r.y1 + strip_h) for k, r in table.regions.items()
    }
    return Layout(width, table.height + strip_h, table.background, tuple(items), regions)


def pick_frames(frames: Sequence[Frame], count: int) -> list[Frame]:
    """At most ``count`` frames, evenly spaced, first and last kept; a kept frame's
    caption also tells what the dropped frames before it told."""
    n = len(frames)
    if n <= count:
        return list(frames)
    count = max(count, 2)
    keep = sorted({round(i * (n - 1) / (count - 1)) for i in range(count)})
    out: list[Frame] = []
    start = 0
    for k in keep:
        captions = [c for _, c in frames[start : k + 1] if c]
        out.append((frames[k][0], " ".join(captions)))
        start = k + 1
    return out


def _durations(frames: Sequence[Frame]) -> list[int]:
    out = [NOTABLE_MS if caption else FRAME_MS for _, caption in frames]
    if out:
        out[0] = max(out[0], FIRST_MS)
        out[-1] = LAST_MS
    return out


def _encode(images: Iterator[Image.Image], durations: list[int]) -> bytes:
    out = BytesIO()
    next(images).save(
        out,
        format="GIF",
        save_all=True,
        append_images=images,
        duration=durations,
        loop=0,
        disposal=1,
    )
    return out.getvalue()


def _scaled(image: Image.Image, scale: float) -> Image.Image:
    """``image`` shrunk by ``scale``, nearest neighbour: the palette stays exact and
    flat, so what did not change between two frames stays identical and the GIF's
    frame differences stay small (smoothing would make every frame new)."""
    if scale >= 1:
        return image
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return image.resize(size, Image.Resampling.NEAREST)


def render_replay(
    frames: Sequence[Frame],
    sky: Sky,
    *,
    max_bytes: int = MAX_BYTES,
    max_frames: int = MAX_FRAMES,
    language: str = "en",
) -> bytes:
    """The frames as a looping animated GIF of at most ``max_bytes`` bytes, each view
    drawn by ``sky`` (its system's layout), in ``language`` (the captions are given in
    it already).

    Raises ValueError if there is no frame, or if it cannot fit (see the module).
    """
    if not frames:
        raise ValueError("no frame to show")
    count = min(len(frames), max_frames)
    scale = 1.0
    for _ in range(8):
        chosen = pick_frames(frames, count)
        layouts = [
            frame_layout(sky(v, language=language), c, i, len(chosen), language=language)
            for i, (v, c) in enumerate(chosen)
        ]
        height = max(layout.height for layout in layouts)
        # Every frame has the canvas of the tallest: the background fills the rest.
        # Frames are drawn as the encoder asks for them, so only its copies are held.
        images = (_scaled(draw_layout(replace(lay, height=height)), scale) for lay in layouts)
        data = _encode(images, _durations(chosen))
        if len(data) <= max_bytes:
            return data
        ratio = max_bytes / len(data)
        fewer = max(MIN_FRAMES, min(count - 1, int(count * ratio * 0.9)))
        if fewer < count:
            count = fewer
        elif scale > MIN_SCALE:
            scale = max(MIN_SCALE, round(scale * max(ratio, 0.25) ** 0.5 * 0.95, 2))
        else:
            break
    raise ValueError(f"the replay does not fit in {max_bytes} bytes")
