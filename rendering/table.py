"""Paint a :class:`~rendering.shapes.Layout` with Pillow and encode it as PNG.

All the decisions are in the layouts (each system's sky, the report); this module
only draws the items
in order, straight onto a palette ("P") image:

- Boxes, lines and polygons are flat colours (Pillow draws them without
  anti-aliasing anyway), so each colour gets one palette entry and stays exact. A
  rounded box is Pillow's ``rounded_rectangle`` with its corners (pie slices, arcs:
  most of its work) drawn once per size and pasted from masks (:meth:`_Painter.rounded`).
- Text is anti-aliased: its coverage mask (drawn with the shipped font, once per
  text, face, size and anchor: :func:`rendering.fonts.text_mask`) is reduced
  to :data:`AA_LEVELS` steps, and each step gets the palette entry of the text
  colour blended over the colour the text sits on.

Text is most of the items (132 of the 8v8's 239), so its path is lean (issue 16):
the colour under a text is read from one crop of Pillow's core image (a one-colour
box, as every text of the pictures has, needs no histogram), the blend is a
``bytes.translate`` of the mask through a ramp whose blended colours are cached
across pictures, and the result is pasted as a core image over those bytes. Pillow's
``Image`` wrappers around crops and new images cost more than the pixel work. With
the rounded boxes' cached corners, drawing the 8v8 went from 11-17 to 3-5 ms of CPU
and the 1v1 from 2.4-4 to 0.8-1.4 ms (``python bench/render.py``, runs alternated with
the earlier code on a shared machine); encoding is now most of a render.

Drawing a palette image directly, instead of drawing RGB and quantizing it, keeps
every colour exact (a quantizer merges the pale sky tints of neighbouring bands and
turns white off-white), is faster, and gives a small PNG. The result is
deterministic: no text chunks, no timestamp, palette entries allocated in drawing
order, and fonts from the package (:mod:`rendering.fonts`).

Rendering is CPU work: the bot calls :func:`rendering.registry.picture` through
``asyncio.to_thread``, never on the event loop.
"""

from __future__ import annotations

from functools import lru_cache
from io import BytesIO

from PIL import Image, ImageDraw

from rendering import fonts
from rendering.fonts import text_mask
from rendering.shapes import RGB, Box, Layout, Line, Polygon, Text

__all__ = ["AA_LEVELS", "clear_caches", "draw_layout", "encode_png"]

AA_LEVELS = 8
"""Coverage steps of anti-aliased text (0 = background, 8 = text colour).

Eight steps are indistinguishable from 256 at these sizes and keep the palette far
below 256 entries (about 30 text/background pairs times 7 blends).
"""

_PALETTE_SIZE = 256

# The raw decoder's arguments for a palette image's bytes: mode, no padding, top down.
_RAW_P = ("P", 0, 1)

# Coverage 0..255 -> step 0..AA_LEVELS, rounded (a ``bytes.translate`` table).
_STEP = bytes(round(v * AA_LEVELS / 255) for v in range(256))


def _blend(top: RGB, bottom: RGB, step: int) -> RGB:
    """``top`` over ``bottom`` at ``step`` / :data:`AA_LEVELS` coverage."""
    return (
        round(bottom[0] + (top[0] - bottom[0]) * step / AA_LEVELS),
        round(bottom[1] + (top[1] - bottom[1]) * step / AA_LEVELS),
        round(bottom[2] + (top[2] - bottom[2]) * step / AA_LEVELS),
    )


@lru_cache(maxsize=1024)
def _blends(top: RGB, bottom: RGB) -> tuple[RGB, ...]:
    """``top`` over ``bottom`` at every step 0..:data:`AA_LEVELS`.

    Cached across pictures: a game's pictures write the same few text colours on the
    same few fills, and a ramp's palette indices (per picture) come from these.
    """
    return tuple(_blend(top, bottom, step) for step in range(AA_LEVELS + 1))


# The quarters of a rounded rectangle's corners, in Pillow's order: top left, top
# right, bottom right, bottom left (degrees clockwise from three o'clock).
_QUARTERS = ((180, 270), (270, 360), (0, 90), (90, 180))


@lru_cache(maxsize=64)
def _corner_masks(d: int, width: int) -> tuple[Image.core.ImagingCore, ...]:
    """The four corners of a rounded rectangle whose corner circles are ``d`` + 1 px
    wide: pie slices (``width`` 0, the fill) or arcs ``width`` px thick (the outline),
    as one-bit core images for ``draw_bitmap``, drawn by the core calls Pillow's
    ``rounded_rectangle`` makes.

    Pictures use a handful of radii and widths; the masks are never written to after,
    so the worker threads share them.
    """
    masks = []
    for start, end in _QUARTERS:
        mask = Image.new("1", (d + 1, d + 1), 0)
        if width:
            ImageDraw.Draw(mask).draw.draw_arc((0, 0, d, d), start, end, 1, width)
        else:
            ImageDraw.Draw(mask).draw.draw_pieslice((0, 0, d, d), start, end, 1, 1)
        masks.append(mask.im)
    return tuple(masks)


def _distance(a: RGB, b: RGB) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


class _Painter:
    """One palette canvas: palette entries allocated in first-use order."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.entries: dict[RGB, int] = {}
        self.colours: list[RGB] = []
        self.ramps: dict[tuple[RGB, RGB], bytes] = {}
        size = (layout.width, layout.height)
        self.canvas = Image.new("P", size, self.ink(layout.background))
        self.draw = ImageDraw.Draw(self.canvas)

    def ink(self, colour: RGB) -> int:
        """The palette index of ``colour``; once the palette is full, the nearest entry."""
        found = self.entries.get(colour)
        if found is None:
            if len(self.colours) < _PALETTE_SIZE:
                found = self.entries[colour] = len(self.colours)
                self.colours.append(colour)
            else:  # far more text/background pairs than a table has: stay drawable
                found = self.entries[min(self.colours, key=lambda c: (_distance(c, colour), c))]
        return found

    def ramp(self, fill: RGB, background: RGB) -> bytes:
        """Coverage 0..255 -> palette index of ``fill`` blended over ``background``, as a
        ``bytes.translate`` table."""
        key = (fill, background)
        found = self.ramps.get(key)
        if found is None:
            steps = bytes(self.ink(colour) for colour in _blends(fill, background))
            found = self.ramps[key] = _STEP.translate(steps.ljust(256, b"\0"))
        return found

    def box(self, item: Box) -> None:
        rect = item.rect
        # Pillow's rectangles include their far edge; Rect's x1/y1 are exclusive.
        xy = (rect.x0, rect.y0, rect.x1 - 1, rect.y1 - 1)
        fill = None if item.fill is None else self.ink(item.fill)
        outline = None if item.outline is None else self.ink(item.outline)
        if item.radius:
            if not self.rounded(xy, item.radius, fill, outline, item.width):
                self.draw.rounded_rectangle(
                    xy, item.radius, fill=fill, outline=outline, width=item.width
                )
        else:
            self.draw.rectangle(xy, fill=fill, outline=outline, width=item.width)

    def rounded(
        self,
        xy: tuple[int, int, int, int],
        radius: int,
        fill: int | None,
        outline: int | None,
        width: int,
    ) -> bool:
        """Pillow's ``rounded_rectangle`` with its corners pasted from cached masks; False
        (nothing drawn) for a box too small for four separate corners.

        The same core calls as Pillow's (rectangles with the same corners), except that
        each corner's pie slice or arc, the bulk of the work, is drawn once per size into
        a mask (:func:`_corner_masks`): a corner's pixels only move with the box.
        ``tests/rendering/test_fast_paths.py`` holds this to Pillow's own drawing.
        """
        x0, y0, x1, y1 = xy
        d = min(x1 - x0, y1 - y0, radius * 2)
        if d == 0 or d >= x1 - x0 - 1 or d >= y1 - y0 - 1:
            return False
        r = d // 2
        draw = self.draw.draw
        corners = ((x0, y0), (x1 - d, y0), (x1 - d, y1 - d), (x0, y1 - d))
        if fill is not None:
            for corner, mask in zip(corners, _corner_masks(d, 0), strict=True):
                draw.draw_bitmap(corner, mask, fill)
            if x1 - r - 1 >= x0 + r + 1:
                draw.draw_rectangle((x0 + r + 1, y0, x1 - r - 1, y1), fill, 1)
            draw.draw_rectangle((x0, y0 + r + 1, x0 + r, y1 - r - 1), fill, 1)
            draw.draw_rectangle((x1 - r, y0 + r + 1, x1, y1 - r - 1), fill, 1)
        if outline is not None and outline != fill and width != 0:
            for corner, mask in zip(corners, _corner_masks(d, width), strict=True):
                draw.draw_bitmap(corner, mask, outline)
            draw.draw_rectangle((x0 + r + 1, y0, x1 - r - 1, y0 + width - 1), outline, 1)
            draw.draw_rectangle((x0 + r + 1, y1 - width + 1, x1 - r - 1, y1), outline, 1)
            draw.draw_rectangle((x0, y0 + r + 1, x0 + width - 1, y1 - r - 1), outline, 1)
            draw.draw_rectangle((x1 - width + 1, y0 + r + 1, x1, y1 - r - 1), outline, 1)
        return True

    def polygon(self, item: Polygon) -> None:
        outline = None if item.outline is None else self.ink(item.outline)
        fill = self.ink(item.fill)
        if outline is None or item.width <= 1:
            self.draw.polygon(item.points, fill=fill, outline=outline, width=item.width)
            return
        # Pillow keeps a wide outline inside the polygon through a mask as large as
        # the image: drawn on a copy of the polygon's own box (its outline is inside
        # the polygon, one width of margin for safety) and pasted back, the pixels are
        # the same for a fraction of the work.
        xs, ys = [x for x, _ in item.points], [y for _, y in item.points]
        x0, y0 = min(xs) - item.width, min(ys) - item.width
        box = (x0, y0, max(xs) + item.width + 1, max(ys) + item.width + 1)
        tile = self.canvas.crop(box)
        ImageDraw.Draw(tile).polygon(
            [(x - x0, y - y0) for x, y in item.points], fill=fill, outline=outline, width=item.width
        )
        self.canvas.paste(tile, box)

    def text(self, item: Text) -> None:
        mask = text_mask(item.text, item.face, item.size, item.anchor)
        if mask is None:
            return
        x0, y0 = item.x + mask.left, item.y + mask.top
        box = (x0, y0, x0 + mask.width, y0 + mask.height)
        # The text is blended over the colour most of its ink box shows (the card,
        # strip, badge... it is written on), and the whole box is repainted with the
        # blend: texts sit inside one flat shape, so this is exact without a mask.
        # (The most frequent palette index; the lowest of equally frequent ones.)
        # Pillow's core image (``Image.im``, what ImageDraw draws on) is cropped and
        # pasted directly: the Image wrappers around a crop cost more than the crop.
        # A box of one colour (every text of the pictures measured) needs no histogram.
        canvas = self.canvas.im
        under_box = canvas.crop(box)
        under, highest = under_box.getextrema()
        if under != highest:
            counts = under_box.histogram()
            under = counts.index(max(counts))
        indices = mask.coverage.translate(self.ramp(item.fill, self.colours[under]))
        # ``Image.frombuffer``'s own core call: an image over ``indices``, no copy.
        tile = Image.core.map_buffer(indices, (mask.width, mask.height), "raw", 0, _RAW_P)
        canvas.paste(tile, box)

    def paint(self) -> Image.Image:
        """Every item of the painter's layout, in order."""
        for item in self.layout.items:
            if isinstance(item, Text):
                self.text(item)
            elif isinstance(item, Box):
                self.box(item)
            elif isinstance(item, Line):
                self.draw.line(item.points, fill=self.ink(item.fill), width=item.width)
            elif isinstance(item, Polygon):
                self.polygon(item)
        return self.finish()

    def finish(self) -> Image.Image:
        self.canvas.putpalette([channel for colour in self.colours for channel in colour])
        return self.canvas


def clear_caches() -> None:
    """Forget the cached blends and corner masks, and every font, width and glyph mask
    (:func:`rendering.fonts.clear_caches`): what a picture costs right after start-up,
    for ``bench/render.py``."""
    _blends.cache_clear()
    _corner_masks.cache_clear()
    fonts.clear_caches()


def draw_layout(layout: Layout) -> Image.Image:
    """Paint every item of ``layout``, in order, on a new palette image."""
    return _Painter(layout).paint()


def encode_png(image: Image.Image) -> bytes:
    """``image`` as PNG without metadata chunks (see the module docstring).

    zlib level 3: encoding is nearly all deflate (a palette image is not filtered) and,
    since drawing got lean, costs twice as much as drawing. Measured again on the 8v8
    (issue 16; levels alternated, warm CPU on a shared machine): level 3 takes 12.4 ms
    for 104 kB; levels 1-2 save 1.3-1.8 ms for a 9-17% larger file (113-121 kB); level
    4 takes 19 ms for 96 kB, level 6 29 ms for 85 kB, level 9 about 180 ms for 77 kB.
    Level 3 sits at the knee: lower saves little time, higher costs much time for
    little size (every picture is far below Discord's limits either way). A PNG written
    by hand around one ``zlib`` call (memLevel 8, not Pillow's 9) was no faster: 3-4 ms
    slower in alternating runs, though zlib alone on the same rows measured faster.
    """
    out = BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()
