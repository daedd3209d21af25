"""The spectators' picture of a Locked-On dogfight, computed as plain data.

:func:`layout_lockedon` turns a :class:`~engine.lockedon.view.LockedOnView` into a
:class:`~rendering.shapes.Layout` (shapes with integer coordinates plus named
``regions`` that tests check without pixels); :func:`render_lockedon` paints it with
the same painter as every picture (:mod:`rendering.table`).

The picture, top to bottom, on a 960 px wide canvas (no text under 22 px: Discord
shows it about 400 px wide on a phone):

- a header: round and step, whose move it is and who the game waits on, deck and
  discard counts, VP per side; the result once the game is over; the Action being
  resolved (its cards, the missile and its mini-hand's size), if any;
- the range chart: one row per altitude, High at the top, and the four range bands
  on each half, Gun in the middle (L44-58): the first, third... side on the left
  half, the others on the right, each aircraft a chip at its own Range counter;
  then who is Advantaged or Tailing whom, and the range between each pair of enemies
  (farther counter plus one band per altitude level apart, L189-193, as the view
  gives it);
- one card per aircraft, in two columns: altitude, range counter, afterburners
  (on, and counters left), missiles and Countermeasures left, cards in hand, the
  ratings at this altitude, skills (once-per-game ones marked used), its positions,
  and SHOT DOWN once destroyed.

Colour is never the only signal: every side has a marker glyph and its name, every
state is written out. Words come from ``lockedon.picture.*`` in the reader's
language; aircraft, missile and card names stay as printed. No randomness: the same
view gives the same layout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.lockedon.components import Altitude, Position, Range
from engine.lockedon.view import AircraftView, LockedOnView
from rendering.fonts import Face
from rendering.palette import (
    CARD_BG,
    CARD_BORDER,
    GOLD_LIGHT,
    HEADER_BG,
    HEADER_SUB,
    INK,
    MUTED,
    PAGE,
    SIDE_ON_DARK,
    WHITE,
    side_colour,
    side_marker,
)
from rendering.palette import plural as plural_of
from rendering.shapes import (
    MIN_TEXT_SIZE,
    RGB,
    Box,
    Drawing,
    Layout,
    Rect,
    fit_text,
    wrap_text,
)
from rendering.table import draw_layout, encode_png
from strings import t, tr

__all__ = ["WIDTH", "layout_lockedon", "render_lockedon"]

WIDTH = 960
_MARGIN = 16
_GAP = 16
_PAD = 12
_LINE = 32
_CHIP_H = 34

_GOLD: RGB = (245, 158, 11)
_OUT_BG: RGB = (229, 231, 235)
_OUT_STRIP: RGB = (107, 114, 128)
_EXCHANGE_BG: RGB = (255, 247, 224)
_AB_ON: RGB = (234, 88, 12)
_GRID_LINE: RGB = (148, 163, 184)
_BAND_HEAD_BG: RGB = (226, 232, 240)
_ALT_BG: dict[Altitude, RGB] = {
    Altitude.HIGH: (210, 227, 246),
    Altitude.MEDIUM: (221, 235, 249),
    Altitude.LOW: (230, 240, 251),
}
_BANDS_OUT = (Range.ACTIVE, Range.RADAR, Range.HEAT, Range.GUN)
"""A half of the chart, from its outer edge to the middle."""
_LABEL_W = 116  # the altitude labels' column


@dataclass(frozen=True, slots=True)
class _Side:
    id: str
    colour: RGB
    on_dark: RGB
    marker: str
    left: bool


class _Builder(Drawing):
    def __init__(
        self, view: LockedOnView, language: str, players: Mapping[str, str] | None = None
    ) -> None:
        super().__init__()
        self.view = view
        self.lang = language
        self.players = players or {}
        self.y = 0
        self.sides = {
            side: _Side(
                side,
                side_colour(i),
                SIDE_ON_DARK[i % len(SIDE_ON_DARK)],
                side_marker(i),
                i % 2 == 0,
            )
            for i, side in enumerate(_side_order(view))
        }
        self.by_seat = {a.seat: a for a in view.aircraft}
        self.waiting = {p.seat for p in view.pending}

    # --- primitives -------------------------------------------------------------
    def word(self, key: str, **fields: object) -> str:
        return t(key, self.lang, **fields)

    def lines(
        self, x: int, width: int, texts: Sequence[str], face: Face, fill: RGB, size: int = 24
    ) -> None:
        """Word-wrapped lines from ``self.y``, advancing it."""
        for text in texts:
            for line in wrap_text(text, face, size, width):
                self.text(x, self.y + _LINE // 2, line, face, size, fill)
                self.y += _LINE

    def name(self, seat: str) -> str:
        a = self.by_seat.get(seat)
        return f"{seat} {a.name}" if a is not None else seat

    # --- the picture ------------------------------------------------------------
    def build(self) -> Layout:
        self.header()
        if self.view.exchange is not None or self.view.launch is not None:
            self.exchange()
        self.chart()
        self.relations()
        self.cards()
        return Layout(WIDTH, self.y + _MARGIN, PAGE, tuple(self.items), dict(self.regions))

    def header(self) -> None:
        v = self.view
        top = self.y
        start = len(self.items)
        self.y += _PAD
        inner = WIDTH - 2 * _MARGIN
        if v.result is not None:
            title = self.word("lockedon.picture.game_over", verdict=tr(v.result.verdict, self.lang))
        else:
            title = self.word("lockedon.picture.round", round=max(v.round, 1), rounds=v.rounds)
            title += " · " + tr(v.step, self.lang)
        text, size = fit_text(title, Face.BOLD, 30, inner)
        self.text(_MARGIN, self.y + 22, text, Face.BOLD, size, WHITE)
        self.y += 44
        sub = [self.word("lockedon.picture.deck", deck=v.deck_count, discard=v.discard_count)]
        vp = v.result.vp if v.result is not None else v.vp
        if vp:
            sub.append(
                self.word("lockedon.picture.vp")
                + " "
                + " · ".join(
                    f"{self.sides[s].marker if s in self.sides else ''} {s} {n}".strip()
                    for s, n in vp.items()
                )
            )
        self.lines(_MARGIN, inner, [" · ".join(sub)], Face.REGULAR, HEADER_SUB)
        if v.mission is not None:  # a campaign mission: its number, title, stated VP
            stated = " · ".join(
                f"{self.sides[s].marker if s in self.sides else ''} {s} {n}".strip()
                for s, n in v.mission.vp.items()
            )
            line = self.word(
                "lockedon.picture.mission",
                number=v.mission.number,
                title=v.mission.title,
                vp=stated,
            )
            self.lines(_MARGIN, inner, [line], Face.REGULAR, HEADER_SUB)
        if v.sites:  # a campaign mission's SAM/AAA sites (L290-300); none: no line
            sites = [
                self.word(
                    "lockedon.picture.site",
                    side=f"{self.sides[x.side].marker if x.side in self.sides else ''} {x.side}",
                    name=x.name,
                    ranges=", ".join(r.code for r in x.ranges),
                    altitudes=", ".join(self.altitude(a) for a in x.altitudes),
                    n=x.cards,
                    looks=" / ".join(x.looks_for),
                )
                for x in v.sites
            ]
            self.lines(
                _MARGIN,
                inner,
                [f"{self.word('lockedon.picture.sites')} {' · '.join(sites)}"],
                Face.REGULAR,
                HEADER_SUB,
            )
        if v.result is None and v.pending:
            seats = list(dict.fromkeys(p.seat for p in v.pending))
            key = (
                "lockedon.picture.to_move"
                if v.active in seats and len(seats) == 1
                else "lockedon.picture.waiting_on"
            )
            self.lines(
                _MARGIN,
                inner,
                [f"{self.word(key)} {', '.join(self.name(s) for s in seats)}"],
                Face.BOLD,
                GOLD_LIGHT,
            )
        self.y += _PAD
        self.items.insert(start, Box(Rect(0, top, WIDTH, self.y), HEADER_BG))
        self.regions["header"] = Rect(0, top, WIDTH, self.y)

    def exchange(self) -> None:
        v = self.view
        self.y += _GAP
        top = self.y
        start = len(self.items)
        self.y += _PAD // 2
        x, width = _MARGIN + _PAD, WIDTH - 2 * (_MARGIN + _PAD)
        texts: list[str] = []
        if v.exchange is not None:
            ex = v.exchange
            cards = " → ".join(tr(c, self.lang) for c in ex.cards)
            head = self.name(ex.actor)
            if ex.target is not None:
                head = self.word("lockedon.picture.versus", actor=head, target=self.name(ex.target))
            texts.append(f"{self.word('lockedon.picture.action')} {head}: {cards}")
            if ex.missile is not None:
                texts.append(
                    self.word(
                        "lockedon.picture.missile",
                        missile=ex.missile,
                        n=ex.missiles,
                        cards=ex.mini_count,
                    )
                )
            if ex.waiting_on is not None:
                texts.append(
                    self.word("lockedon.picture.exchange_waiting", who=self.name(ex.waiting_on))
                )
        if v.launch is not None:
            texts.append(
                self.word(
                    "lockedon.picture.launch",
                    who=self.name(v.launch.seat),
                    missile=v.launch.missile,
                    target=self.name(v.launch.target),
                )
            )
        self.lines(x, width, texts, Face.REGULAR, INK)
        self.y += _PAD // 2
        self.items.insert(
            start,
            Box(Rect(_MARGIN, top, WIDTH - _MARGIN, self.y), _EXCHANGE_BG, _GOLD, 2, 10),
        )
        self.regions["exchange"] = Rect(_MARGIN, top, WIDTH - _MARGIN, self.y)

    # the range chart
    def chart(self) -> None:
        v = self.view
        self.y += _GAP
        x0 = _MARGIN + _LABEL_W
        cell_w = (WIDTH - _MARGIN - x0) // 8
        # Column heads: each half's bands, outer edge to the middle, with its sides.
        head_top = self.y
        self.box(Rect(_MARGIN, head_top, WIDTH - _MARGIN, head_top + 2 * _LINE), _BAND_HEAD_BG)
        left = [s for s in self.sides.values() if s.left]
        right = [s for s in self.sides.values() if not s.left]
        half_w = cell_w * 4
        for sides, hx in ((left, x0), (right, x0 + half_w)):
            label = " ".join(f"{s.marker} {self.side_name(s.id)}" for s in sides)
            text, size = fit_text(label, Face.BOLD, MIN_TEXT_SIZE, half_w - 8)
            colour = sides[0].colour if len(sides) == 1 else INK
            self.text(hx + half_w // 2, head_top + _LINE // 2, text, Face.BOLD, size, colour, "mm")
        for i in range(8):
            band = _BANDS_OUT[i] if i < 4 else _BANDS_OUT[7 - i]
            cx = x0 + i * cell_w + cell_w // 2
            self.text(
                cx, head_top + _LINE + _LINE // 2, band.code, Face.BOLD, MIN_TEXT_SIZE, MUTED, "mm"
            )
        self.text(
            _MARGIN + 8,
            head_top + _LINE + _LINE // 2,
            self.word("lockedon.picture.range"),
            Face.BOLD,
            MIN_TEXT_SIZE,
            MUTED,
        )
        self.y = head_top + 2 * _LINE
        flying = [a for a in v.aircraft if not a.destroyed]
        for alt in (Altitude.HIGH, Altitude.MEDIUM, Altitude.LOW):
            cells: dict[int, list[AircraftView]] = {}
            for a in flying:
                if a.altitude is alt:
                    cells.setdefault(self.column(a), []).append(a)
            per_line = max(1, (cell_w - 6) // 50)
            rows = max([(len(c) + per_line - 1) // per_line for c in cells.values()] or [1])
            height = max(_CHIP_H + 12, rows * (_CHIP_H + 6) + 6)
            top = self.y
            self.box(Rect(_MARGIN, top, WIDTH - _MARGIN, top + height), _ALT_BG[alt])
            self.text(_MARGIN + 8, top + height // 2, self.altitude(alt), Face.BOLD, 24, INK)
            self.regions[f"band:{alt.code}"] = Rect(_MARGIN, top, WIDTH - _MARGIN, top + height)
            for col, chips in sorted(cells.items()):
                cx = x0 + col * cell_w
                for k, a in enumerate(chips):
                    row, pos = divmod(k, per_line)
                    self.chip(cx + 4 + pos * 50, top + 6 + row * (_CHIP_H + 6), a)
            self.y = top + height
        # The grid: the middle line is heavier (Gun Range is the centre of the fight).
        for i in range(9):
            x = x0 + i * cell_w
            w = 3 if i == 4 else 1
            self.box(Rect(x - w // 2, head_top + _LINE, x - w // 2 + w, self.y), _GRID_LINE)
        self.box(Rect(_MARGIN, head_top, WIDTH - _MARGIN, self.y), None, _GRID_LINE, 1)
        self.regions["chart"] = Rect(_MARGIN, head_top, WIDTH - _MARGIN, self.y)
        hidden = [a for a in flying if a.altitude is None]
        if hidden:
            self.y += 6
            names = ", ".join(a.seat for a in hidden)
            self.lines(
                _MARGIN,
                WIDTH - 2 * _MARGIN,
                [self.word("lockedon.picture.secret", seats=names)],
                Face.REGULAR,
                MUTED,
            )

    def column(self, a: AircraftView) -> int:
        """The chart column of an aircraft's Range counter: 0..3 on the left half
        (Active Homing at the edge), 4..7 on the right (Gun at the middle)."""
        out = _BANDS_OUT.index(a.range)
        return out if self.sides[a.side].left else 7 - out

    def chip(self, x: int, y: int, a: AircraftView) -> None:
        side = self.sides[a.side]
        rect = Rect(x, y, x + 46, y + _CHIP_H)
        self.box(rect, side.colour, radius=8)
        self.text(rect.center[0], rect.center[1], a.seat, Face.BOLD, MIN_TEXT_SIZE, WHITE, "mm")
        if a.afterburner_on:  # a flame mark on the chip's corner
            self.box(Rect(x + 38, y - 3, x + 49, y + 8), _AB_ON, radius=5)
        self.regions[f"chip:{a.seat}"] = rect

    def relations(self) -> None:
        v = self.view
        width = WIDTH - 2 * _MARGIN
        texts = []
        if v.engagements:
            parts = [
                self.word(
                    "lockedon.picture.tailing"
                    if e.position is Position.TAILING
                    else "lockedon.picture.advantaged",
                    who=e.seat,
                    on=e.on,
                )
                for e in v.engagements
            ]
            texts.append(f"{self.word('lockedon.picture.positions')} " + " · ".join(parts))
        if v.ranges:
            parts = [f"{r.a}–{r.b} {r.range.code}" for r in v.ranges]
            texts.append(f"{self.word('lockedon.picture.ranges')} " + " · ".join(parts))
        texts.append(self.word("lockedon.picture.legend"))
        if texts:
            self.y += 6
            top = self.y
            self.lines(_MARGIN, width, texts, Face.REGULAR, INK, MIN_TEXT_SIZE)
            self.regions["relations"] = Rect(_MARGIN, top, WIDTH - _MARGIN, self.y)

    # the aircraft cards
    def cards(self) -> None:
        col_w = (WIDTH - 2 * _MARGIN - _GAP) // 2
        columns: tuple[list[AircraftView], list[AircraftView]] = ([], [])
        for a in self.view.aircraft:
            columns[0 if self.sides[a.side].left else 1].append(a)
        self.y += _GAP
        top = self.y
        bottoms = []
        for i, column in enumerate(columns):
            x = _MARGIN + i * (col_w + _GAP)
            self.y = top
            for a in column:
                self.card(x, col_w, a)
                self.y += _GAP
            bottoms.append(self.y)
        self.y = max(bottoms) - _GAP

    def card(self, x: int, width: int, a: AircraftView) -> None:
        side = self.sides[a.side]
        top = self.y
        start = len(self.items)
        strip = _OUT_STRIP if a.destroyed else side.colour
        self.box(Rect(x, top, x + width, top + 40), strip, radius=10)
        self.box(Rect(x, top + 20, x + width, top + 40), strip)
        tag = ""
        if a.destroyed:
            tag = self.word("lockedon.picture.shot_down")
        elif a.seat in self.waiting:
            tag = self.word(
                "lockedon.picture.tag.to_move"
                if a.seat == self.view.active
                else "lockedon.picture.tag.waiting"
            )
        tag_w = 0
        if tag:
            tag_w = (
                self.pill(
                    x + width - 8,
                    top + 20,
                    tag,
                    _GOLD if not a.destroyed else INK,
                    INK if not a.destroyed else WHITE,
                    right=True,
                )
                + 8
            )
        player = self.players.get(a.seat)
        seat = f"{a.seat} · {player} ·" if player else a.seat  # who flies it, by its seat
        title, size = fit_text(
            f"{side.marker} {seat} {a.name}", Face.CONDENSED, 26, width - 2 * _PAD - tag_w
        )
        self.text(x + _PAD, top + 20, title, Face.CONDENSED, size, WHITE)
        self.y = top + 44
        inner_x, inner_w = x + _PAD, width - 2 * _PAD
        fill = MUTED if a.destroyed else INK
        texts = []
        if a.destroyed:
            by = a.destroyed_by
            texts.append(
                self.word("lockedon.picture.destroyed_by", who=self.name(by))
                if by
                else self.word("lockedon.picture.destroyed")
            )
            texts.append(self.word("lockedon.picture.value", vp=a.value))
            self.lines(inner_x, inner_w, texts, Face.REGULAR, fill, MIN_TEXT_SIZE)
            self.close_card(x, width, top, start, a)
            return
        where = (
            self.altitude(a.altitude)
            if a.altitude is not None
            else self.word(
                "lockedon.picture.picked" if a.altitude_chosen else "lockedon.picture.picking"
            )
        )
        texts.append(
            f"{where} · {self.range_name(a.range)} · {self.word('lockedon.picture.value', vp=a.value)}"
        )
        if a.ratings.ab_pre is None:
            texts.append(self.word("lockedon.picture.no_ab"))
        else:
            key = "lockedon.picture.ab_on" if a.afterburner_on else "lockedon.picture.ab_off"
            texts.append(self.plural(key, a.afterburner_counters))
        missiles = " · ".join(f"{m.name} ×{m.count}" for m in a.missiles if m.count)
        texts.append(
            (missiles or self.word("lockedon.picture.no_missiles"))
            + " · "
            + self.word("lockedon.picture.cm", n=a.countermeasures)
        )
        r = a.ratings
        gun = "–" if r.gun is None else str(r.gun)
        texts.append(
            self.word("lockedon.picture.hand", n=a.hand_count)
            + " · "
            + self.word(
                "lockedon.picture.ratings",
                speed=r.speed,
                performance=r.performance,
                ew=r.ew,
                gun=gun,
            )
        )
        for e in self.view.engagements:
            if e.seat == a.seat:
                key = (
                    "lockedon.picture.note.tailing"
                    if e.position is Position.TAILING
                    else "lockedon.picture.note.advantaged"
                )
                texts.append(self.word(key, who=self.name(e.on)))
            elif e.on == a.seat:
                key = (
                    "lockedon.picture.note.tailed"
                    if e.position is Position.TAILING
                    else "lockedon.picture.note.disadvantaged"
                )
                texts.append(self.word(key, who=self.name(e.seat)))
        if a.skills:
            names = ", ".join(
                self.word("lockedon.picture.used", skill=s.name) if s.used else s.name
                for s in a.skills
            )
            texts.append(self.word("lockedon.picture.skills", skills=names))
        self.lines(inner_x, inner_w, texts, Face.REGULAR, fill, MIN_TEXT_SIZE)
        self.close_card(x, width, top, start, a)

    def close_card(self, x: int, width: int, top: int, start: int, a: AircraftView) -> None:
        """The card's background under what was drawn since ``start``."""
        self.y += 6
        self.items.insert(
            start,
            Box(
                Rect(x, top, x + width, self.y),
                _OUT_BG if a.destroyed else CARD_BG,
                CARD_BORDER,
                2,
                10,
            ),
        )
        self.regions[f"card:{a.seat}"] = Rect(x, top, x + width, self.y)

    # words
    def plural(self, key: str, n: int) -> str:
        return plural_of(key, self.lang, n)

    def altitude(self, alt: Altitude) -> str:
        return self.word(f"lockedon.picture.altitude.{alt.code}")

    def range_name(self, r: Range) -> str:
        return self.word(f"lockedon.picture.band.{r.code}")

    def side_name(self, side: str) -> str:
        """'Team A'; a campaign mission's side by its nation: 'Israel (A)'."""
        names = self.view.mission.names if self.view.mission is not None else {}
        if side in names:
            return self.word("lockedon.picture.nation", nation=names[side], side=side)
        return self.word("lockedon.picture.side", side=side)


def _side_order(view: LockedOnView) -> list[str]:
    """The sides in the view's turn order, then any others (by id)."""
    order = list(dict.fromkeys(view.sides))
    for a in view.aircraft:
        if a.side not in order:
            order.append(a.side)
    return order


def layout_lockedon(
    view: LockedOnView, *, language: str = "en", players: Mapping[str, str] | None = None
) -> Layout:
    """The layout of ``view`` (pass the spectators' view: the picture never reads a
    hand); ``players``: who flies each seat, named next to it on its card."""
    return _Builder(view, language, players).build()


def render_lockedon(
    view: LockedOnView, *, language: str = "en", players: Mapping[str, str] | None = None
) -> bytes:
    """The spectators' picture of a Locked-On dogfight, as PNG bytes."""
    return encode_png(draw_layout(layout_lockedon(view, language=language, players=players)))
