"""A dogfight display (§9.1): its aircraft as a chain of who tails whom.

The view gives a dogfight as its aircraft and each aircraft's ``tailing`` and
Position Level (§9.31). The display draws that relation as a tree, top down: the
aircraft that tails nobody (the most tailed, at the front of the fight) on top, the
aircraft tailing it below it, behind it, with an arrow up to it labelled with their
Position Level, and so on (§9.22). An aircraft tails one enemy at most (§9.32) and
is tailed by two at most (§9.45), so with four aircraft (§9.13) the tree is a chain
or has two branches: the display then has two columns, each aircraft as wide as
the branches below it. A loop of tails (possible in principle) is cut at the top
aircraft, whose own position is then written on its tile.

The display's title strip gives its number and altitude marker (§11.13), and its
Climb Progress track shows while a climb is under way (§9.12, §11.45).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.eagles.view import DogfightView, PlaneView
from rendering.eagles.colours import (
    ALTITUDE_BG,
    ARROW_INK,
    DISPLAY_HEAD,
    EMPTY_TRACK,
    SIDE_COLOUR,
    TRACK_ON,
)
from rendering.eagles.tiles import Tile, tile_for
from rendering.eagles.words import Words
from rendering.fonts import Face
from rendering.palette import CARD_BG, CARD_BORDER, INK, WHITE
from rendering.shapes import MIN_TEXT_SIZE, Drawing, Line, Polygon, Rect, fit_text, text_width

__all__ = ["Display", "Node", "fight_tree"]

HEAD_H = 44
CLIMB_H = 38
PAD = 12
ARROW_GAP = 50
COLUMN_GAP = 12
CLIMB_CELLS = 5  # progress 1-5; 6 completes the climb (§11.44)
_ARROW_X = 30  # an arrow's distance from its tailer's left edge
_HEAD_LEN = 18


@dataclass(slots=True)
class Node:
    """One aircraft of the tree: its depth (0 on top) and the columns it spans."""

    ref: str
    parent: str | None
    depth: int = 0
    children: list[str] = field(default_factory=list)
    col0: int = 0
    col1: int = 0


def fight_tree(fight: DogfightView, planes: Mapping[str, PlaneView]) -> tuple[list[Node], int]:
    """The nodes of ``fight`` (parents before children) and the number of columns."""
    members = [ref for ref in fight.planes if ref in planes]
    inside = set(members)

    def tails(ref: str) -> str | None:
        target = planes[ref].tailing
        return target if target in inside else None

    nodes: dict[str, Node] = {}
    order: list[str] = []
    # Roots: aircraft tailing nobody here, in the view's order (the most tailed first);
    # a loop of tails has none, so its first aircraft is taken.
    roots = [ref for ref in members if tails(ref) is None] or members[:1]
    while True:
        for root in roots:
            if root in nodes:
                continue
            nodes[root] = Node(root, None)
            stack = [root]
            while stack:
                ref = stack.pop(0)
                order.append(ref)
                for other in members:
                    if other not in nodes and tails(other) == ref:
                        nodes[other] = Node(other, ref, nodes[ref].depth + 1)
                        nodes[ref].children.append(other)
                        stack.append(other)
        left = [ref for ref in members if ref not in nodes]
        if not left:
            break
        roots = left[:1]
    # Leaves take the columns in depth-first order; a parent spans its children's.
    column = 0

    def place(ref: str) -> None:
        nonlocal column
        node = nodes[ref]
        if not node.children:
            node.col0 = node.col1 = column
            column += 1
            return
        for child in node.children:
            place(child)
        node.col0 = nodes[node.children[0]].col0
        node.col1 = nodes[node.children[-1]].col1

    for ref in order:
        if nodes[ref].parent is None:
            place(ref)
    return [nodes[ref] for ref in order], max(column, 1)


class Display:
    """One dogfight display, measured for a width, then drawn."""

    def __init__(self, fight: DogfightView, words: Words, width: int) -> None:
        self.fight = fight
        self.words = words
        self.width = width
        self.nodes, self.columns = fight_tree(fight, words.planes)
        self.tiles: dict[str, Tile] = {}
        for n in self.nodes:
            p = words.planes[n.ref]
            note = None
            if p.tailing is not None and p.tailing != n.parent:
                # The loop's cut: this aircraft's own position, in words.
                note = words.word(
                    "picture.eagles.also_tailing", who=words.plane(p.tailing), level=p.level
                )
            self.tiles[n.ref] = tile_for(p, words, note=note)
        inner = width - 2 * PAD
        self.col_w = (inner - (self.columns - 1) * COLUMN_GAP) // self.columns
        # Each aircraft sits an arrow's length below the one it tails.
        self.tops: dict[str, int] = {}
        bottoms: dict[str, int] = {}
        for n in self.nodes:
            top = 0 if n.parent is None else bottoms[n.parent] + ARROW_GAP
            self.tops[n.ref] = top
            bottoms[n.ref] = top + self.tiles[n.ref].height(self.span(n)[1])
        self.body = max(bottoms.values(), default=0)

    @property
    def climbing(self) -> bool:
        return self.fight.climb > 0

    def span(self, n: Node) -> tuple[int, int]:
        """``(x offset, width)`` of a node inside the display's body."""
        x = n.col0 * (self.col_w + COLUMN_GAP)
        return x, (n.col1 - n.col0 + 1) * self.col_w + (n.col1 - n.col0) * COLUMN_GAP

    def height(self) -> int:
        return HEAD_H + (CLIMB_H if self.climbing else 0) + PAD + self.body + PAD

    def draw(self, d: Drawing, x: int, y: int) -> Rect:
        rect = Rect(x, y, x + self.width, y + self.height())
        d.box(rect, CARD_BG, CARD_BORDER, 2, 10)
        self.head(d, x, y)
        top = y + HEAD_H
        if self.climbing:
            self.climb_track(d, x + PAD, top + CLIMB_H // 2)
            top += CLIMB_H
        top += PAD
        placed: dict[str, Rect] = {}
        for n in self.nodes:
            dx, w = self.span(n)
            placed[n.ref] = self.tiles[n.ref].draw(d, x + PAD + dx, top + self.tops[n.ref], w)
        for n in self.nodes:
            if n.parent is not None:
                self.arrow(d, n.ref, placed[n.ref], n.parent, placed[n.parent])
        d.regions[f"dogfight:{self.fight.display}"] = rect
        return rect

    def head(self, d: Drawing, x: int, y: int) -> None:
        d.box(Rect(x, y, x + self.width, y + HEAD_H), DISPLAY_HEAD, radius=10)
        d.box(Rect(x, y + HEAD_H - 12, x + self.width, y + HEAD_H), DISPLAY_HEAD)
        title = self.words.word("picture.eagles.dogfight", n=self.fight.display)
        altitude = self.words.altitude(self.fight.altitude)
        pill_w = d.pill(
            x + self.width - PAD,
            y + HEAD_H // 2,
            altitude,
            ALTITUDE_BG.get(self.fight.altitude, WHITE),
            INK,
            right=True,
        )
        text, size = fit_text(title, Face.BOLD, 24, self.width - 3 * PAD - pill_w)
        d.text(x + PAD, y + HEAD_H // 2, text, Face.BOLD, size, WHITE)

    def climb_track(self, d: Drawing, x: int, y: int) -> None:
        """The Climb Progress track: a cell per point, filled up to the progress."""
        label = self.words.word("picture.eagles.climb")
        d.text(x, y, label, Face.BOLD, MIN_TEXT_SIZE, INK)
        left = x + text_width(label, Face.BOLD, MIN_TEXT_SIZE) + 12
        for i in range(1, CLIMB_CELLS + 1):
            on = i <= self.fight.climb
            d.box(
                Rect(left, y - 11, left + 24, y + 11), TRACK_ON if on else WHITE, EMPTY_TRACK, 2, 4
            )
            left += 30
        value = self.words.word("picture.eagles.climb_of", n=self.fight.climb)
        d.text(left + 6, y, value, Face.BOLD, MIN_TEXT_SIZE, INK)

    def arrow(self, d: Drawing, child: str, low: Rect, parent: str, high: Rect) -> None:
        """An arrow up from the tailer ``child`` to the aircraft it tails, with the
        Position Level beside it."""
        p = self.words.planes[child]
        colour = SIDE_COLOUR.get(p.side, INK)
        ax = low.x0 + _ARROW_X
        y0, y1 = low.y0 - 2, high.y1 + 2
        d.items.append(Line(((ax, y0), (ax, y1 + _HEAD_LEN - 2)), ARROW_INK, 12))
        d.items.append(Line(((ax, y0), (ax, y1 + _HEAD_LEN - 2)), colour, 8))
        head = ((ax, y1), (ax - 14, y1 + _HEAD_LEN), (ax + 14, y1 + _HEAD_LEN))
        d.items.append(Polygon(head, colour, ARROW_INK, 2))
        label = self.words.word("picture.eagles.level", level=p.level)
        mid = (y0 + y1 + _HEAD_LEN) // 2
        d.pill(ax + 22, mid, label, colour, WHITE)
        d.regions[f"arrow:{child}>{parent}"] = Rect(ax - 14, y1, ax + 14, y0)
