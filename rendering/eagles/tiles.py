"""An aircraft's tile: the counter as the picture shows it, wherever it sits (on a
dogfight display, in the Unengaged section, on the airfield, among the lost).

A tile is measured before it is drawn (:meth:`Tile.height` for a width), so the
dogfight displays can line their rows up and the sections stack without overlap.
Top to bottom:

- a strip in the side's colour (grey once off the mat): the side's marker, the ref
  and the aircraft's name, and on the right its tags: ACTIVATED (the red stripe of a
  flipped counter, §2.13; the tile also gets a red edge), MISSION (§16.13), or its
  fate (SHOT DOWN, ESCAPED...);
- one paragraph, word-wrapped: the pilot worth a word (Ace or Flight Leader by name,
  Green, Inexperienced, §14.1), what it carries (bombs, Le Prieur rockets,
  incendiary ammunition, the Lewis gun's ammunition, §15), its climb progress when
  Unengaged (§11.45), its defence class once damaged (§10.83), its victories, and
  for the lost, by whom;
- badges: damage by kind (amber), jammed or broken guns (red, dark), wounded or
  killed crew (orange).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.eagles.view import PlaneView
from rendering.eagles.colours import (
    ACTIVATED,
    BROKEN,
    DAMAGE,
    FOCUS,
    JAMMED,
    MISSION,
    OUT_BG,
    OUT_STRIP,
    SIDE_COLOUR,
    SIDE_MARKER,
    WOUNDED,
)
from rendering.eagles.words import CREW, GUNS, HITS, Words
from rendering.fonts import Face
from rendering.palette import CARD_BG, CARD_BORDER, INK, MUTED, WHITE
from rendering.shapes import MIN_TEXT_SIZE, RGB, Drawing, Rect, fit_text, text_width, wrap_text

__all__ = ["Badge", "Tile", "badge_rows", "draw_badges", "tile_for"]

STRIP_H = 38
LINE_H = 30
BADGE_H = 30
BADGE_GAP = 8
PAD = 10
BODY_SIZE = 24
TITLE_SIZE = 26
_EDGE = 6  # the red edge of an activated counter
_GUN_FILL = {"jammed": JAMMED, "broken": BROKEN}
_LOWERS_DEFENCE = {"structure": "§10.83"}
"""Damage that lowers the defence class: the tile then says the class left."""


@dataclass(frozen=True, slots=True)
class Badge:
    """A rounded label: its text, fill and ink."""

    text: str
    fill: RGB
    ink: RGB

    @property
    def width(self) -> int:
        return text_width(self.text, Face.CONDENSED, MIN_TEXT_SIZE) + 18


@dataclass(frozen=True, slots=True)
class Tile:
    """What one aircraft's tile says; placed and drawn by :meth:`draw`."""

    region: str
    """Its name in the layout's regions (``plane:A1``)."""
    title: str
    strip: RGB
    tags: tuple[Badge, ...]
    body: tuple[str, ...]
    """Paragraphs, each word-wrapped."""
    badges: tuple[Badge, ...]
    activated: bool = False
    lost: bool = False
    focus: bool = False
    """The pending decision is about it (the header says how): outlined in gold."""

    def lines(self, width: int) -> list[str]:
        return [
            line
            for paragraph in self.body
            for line in wrap_text(paragraph, Face.REGULAR, BODY_SIZE, width - 2 * PAD)
        ]

    def split(self, width: int) -> tuple[tuple[Badge, ...], tuple[Badge, ...]]:
        """The tags on the strip and the badges below at ``width``: tags that would
        leave the title no room move down, first among the badges."""
        room = width - PAD - PAD // 2 - (_EDGE if self.activated else 0)
        room -= sum(tag.width + 6 for tag in self.tags)
        if text_width(self.title, Face.CONDENSED, MIN_TEXT_SIZE) <= room:
            return self.tags, self.badges
        return (), self.tags + self.badges

    def height(self, width: int) -> int:
        """Its height at ``width``: the strip alone when it has nothing more to say."""
        rows = badge_rows(self.split(width)[1], width - 2 * PAD)
        body = len(self.lines(width)) * LINE_H + len(rows) * (BADGE_H + BADGE_GAP)
        return STRIP_H + (PAD + body if body else 0)

    def draw(self, d: Drawing, x: int, y: int, width: int, height: int = 0) -> Rect:
        """Draw the tile with its top-left corner at ``(x, y)``, at least ``height``
        tall; its rectangle."""
        rect = Rect(x, y, x + width, y + max(height, self.height(width)))
        if rect.height > STRIP_H:
            d.box(rect, OUT_BG if self.lost else CARD_BG, CARD_BORDER, 2, 8)
            d.box(Rect(x, y, x + width, y + STRIP_H), self.strip, radius=8)
            d.box(Rect(x, y + STRIP_H - 10, x + width, y + STRIP_H), self.strip)
        else:
            d.box(rect, self.strip, CARD_BORDER, 2, 8)
        if self.activated:
            d.box(Rect(x, y, x + _EDGE, rect.y1), ACTIVATED, radius=3)
        # Tags from the right edge, then the title in the room left.
        tags, badges = self.split(width)
        right = x + width - PAD // 2
        for tag in reversed(tags):
            right -= d.pill(right, y + STRIP_H // 2, tag.text, tag.fill, tag.ink, right=True) + 6
        left = x + PAD + (_EDGE if self.activated else 0)
        title, size = fit_text(self.title, Face.CONDENSED, TITLE_SIZE, right - left)
        d.text(left, y + STRIP_H // 2, title, Face.CONDENSED, size, WHITE)
        top = y + STRIP_H + PAD // 2
        for line in self.lines(width):
            d.text(
                x + PAD,
                top + LINE_H // 2,
                line,
                Face.REGULAR,
                BODY_SIZE,
                MUTED if self.lost else INK,
            )
            top += LINE_H
        rows = badge_rows(badges, width - 2 * PAD)
        if rows:
            draw_badges(d, x + PAD, top + 4, rows)
        if self.focus:
            d.box(rect, None, FOCUS, 4, 8)
        d.regions[self.region] = rect
        return rect


def badge_rows(badges: tuple[Badge, ...], width: int) -> list[list[Badge]]:
    """The badges in rows no wider than ``width``."""
    rows: list[list[Badge]] = []
    used = width + 1
    for badge in badges:
        if rows and used + BADGE_GAP + badge.width <= width:
            rows[-1].append(badge)
            used += BADGE_GAP + badge.width
        else:
            rows.append([badge])
            used = badge.width
    return rows


def draw_badges(d: Drawing, x: int, y: int, rows: list[list[Badge]]) -> int:
    """Draw badge rows from ``(x, y)`` (their top); the y below them."""
    for row in rows:
        left = x
        for badge in row:
            left += d.pill(left, y + BADGE_H // 2, badge.text, badge.fill, badge.ink) + BADGE_GAP
        y += BADGE_H + BADGE_GAP
    return y


def tile_for(
    p: PlaneView, words: Words, *, unengaged: bool = False, note: str | None = None
) -> Tile:
    """The tile of ``p``. ``unengaged``: it sits in the Unengaged section, where its
    own climb progress shows (on a display, the display's track does, §11.45).
    ``note``: a last word for its paragraph."""
    word = words.word
    lost = not p.flying
    tags: list[Badge] = []
    fate, by = words.fate(p) if lost else ("", None)
    if lost:
        if fate:
            tags.append(Badge(fate, INK, WHITE))
    elif p.activated and not words.over:  # the flip matters within a turn only
        tags.append(Badge(word("picture.eagles.tag.activated"), ACTIVATED, WHITE))
    if p.mission:
        tags.append(Badge(word("picture.eagles.tag.mission"), MISSION, WHITE))
    parts: list[str] = []
    if by:
        parts.append(by)
    pilot = words.pilot(p)
    if pilot:
        parts.append(pilot)
    if not lost:
        parts += _loads(p, words)
        if unengaged and p.climb:
            parts.append(word("picture.eagles.climbing", n=p.climb))
        if words.named(p) and any(p.damage.get(kind) for kind in _LOWERS_DEFENCE):
            parts.append(words.defence(p))
    if p.kills:
        parts.append(word("picture.eagles.kills", refs=", ".join(p.kills)))
    if note:
        parts.append(note)
    badges = [] if lost else _badges(p, words)
    marker = SIDE_MARKER.get(p.side, "")
    return Tile(
        region=f"plane:{p.ref}",
        title=f"{marker} {words.plane(p.ref)}".strip(),
        strip=OUT_STRIP if lost else SIDE_COLOUR.get(p.side, OUT_STRIP),
        tags=tuple(tags),
        body=(" · ".join(parts),) if parts else (),
        badges=tuple(badges),
        activated=p.activated and not lost and not words.over,
        focus=p.ref in words.focus,
        lost=lost,
    )


def _loads(p: PlaneView, words: Words) -> list[str]:
    """What it carries (§15): bombs, rockets, incendiary ammunition, the Lewis gun's
    ammunition."""
    out = []
    if p.bombs:
        out.append(words.word("picture.eagles.bombs", n=p.bombs))
    if p.rockets:
        out.append(words.word("picture.eagles.rockets"))
    if p.incendiary:
        out.append(words.word("picture.eagles.incendiary"))
    lewis = words.lewis(p)
    if lewis:
        out.append(lewis)
    return out


def _badges(p: PlaneView, words: Words) -> list[Badge]:
    """Damage by kind, then jammed or broken guns, then wounded or killed crew."""
    out = [
        Badge(words.word(key, n=p.damage[kind]), DAMAGE, INK)
        for kind, key in HITS.items()
        if p.damage.get(kind)
    ]
    for group, state in sorted(p.guns.items()):
        key = GUNS.get((group, state))
        if key is not None:
            out.append(Badge(words.word(key), _GUN_FILL.get(state, JAMMED), WHITE))
    for who, state in sorted(p.crew.items()):
        key = CREW.get((who, state))
        if key is not None:
            out.append(Badge(words.word(key), WOUNDED, WHITE))
    return out
