"""The spectators' picture of an Eagles in the Sky engagement: the play mat (§2.5),
computed as plain data.

:func:`layout_eagles` turns an :class:`~engine.eagles.view.EaglesView` into a
:class:`~rendering.shapes.Layout` (shapes with integer coordinates plus named
``regions`` that tests check without pixels); :mod:`rendering.table` paints it.

The picture, top to bottom, on a 960 px wide canvas (no text under 22 px: Discord
shows it about 400 px wide on a phone):

- a header: the turn (and the engagement of a series), the Engagement type, month,
  weather and the Clouds marker's altitude (§5.1), this turn's Random Event, the
  deck; earlier engagements' results; the result once over; and in gold what the
  game waits on (the side to act, a Response and to what, followers, discards);
- the mat's tracks: the Game Turn track and the zone track (§2.5);
- a box per side: VP and Glory so far, cards in hand (a count: no card is named),
  its hand size, aircraft left on the mat, and tags for the Initiative, the side to
  act and the attacker (§16.13);
- the dogfight displays (§9.1), in display order: each a chain of who tails whom
  with the Position Level on each arrow (:mod:`rendering.eagles.display`); a display
  of one column takes half the width, two side by side;
- the Unengaged section by altitude, High at the top (§11.12), Allies left and
  Germans right, the Clouds marker and the displays at each altitude named on its
  band; aircraft on the airfield below Treetop (§16.47);
- the box of the lost: shot down (by whom), escaped, removed, balloons hauled down.

Every aircraft is a tile (:mod:`rendering.eagles.tiles`) saying its pilot, loads,
damage, jams, crew and whether it has been activated. Colour is never the only
signal: sides have marker glyphs and names, every state is written out. Words come
from ``picture.eagles.*`` in the reader's language (:mod:`rendering.eagles.words`);
aircraft names and refs stay as printed. No randomness: the same view gives the
same layout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.eagles.view import EaglesView, PendingView, PlaneView, SideView
from rendering.eagles.colours import (
    ALTITUDE_BG,
    DISPLAY_HEAD,
    EMPTY_TRACK,
    GROUND_BG,
    MISSION,
    OUT_BG,
    OUT_STRIP,
    SIDE_COLOUR,
    SIDE_MARKER,
    SIDES,
    TRACK_ON,
)
from rendering.eagles.display import Display
from rendering.eagles.tiles import Badge, Tile, tile_for
from rendering.eagles.words import ALTITUDES, Words
from rendering.fonts import Face
from rendering.palette import (
    CARD_BG,
    GOLD_LIGHT,
    HEADER_BG,
    HEADER_SUB,
    INK,
    MUTED,
    PAGE,
    WHITE,
)
from rendering.shapes import (
    MIN_TEXT_SIZE,
    RGB,
    Box,
    Drawing,
    Layout,
    Rect,
    fit_text,
    text_width,
    wrap_text,
)

__all__ = ["WIDTH", "layout_eagles"]

WIDTH = 960
_MARGIN = 16
_GAP = 16
_PAD = 12
_LINE = 32
_INNER = WIDTH - 2 * _MARGIN
_HALF = (_INNER - _GAP) // 2
_BAND_HEAD = 44
_TILE_GAP = 10
_TRACK_H = 38
_ZONE_LINE = 26

_RESPONSES = {
    "headon": "picture.eagles.respond_headon",
    "escape": "picture.eagles.respond_escape",
}
"""A Response's wording by the activation's verb (§8.4, §10.4, §12); others target."""
_FIGHT_PILLS = 3
"""Dogfights an altitude band names one pill each; more share one pill."""
_GROUND = "G"
"""The airfield's band, below Treetop (§16.47)."""


class _Builder(Drawing):
    def __init__(self, view: EaglesView, language: str, players: Mapping[str, str]) -> None:
        super().__init__()
        self.players = players
        self.view = view
        self.words = Words(view, language)
        self.word = self.words.word
        self.y = 0
        in_fight = {ref for fight in view.dogfights for ref in fight.planes}
        self.free = [p for p in view.planes if p.flying and p.ref not in in_fight]

    # --- primitives ------------------------------------------------------------------
    def lines(
        self, x: int, width: int, texts: Sequence[str], face: Face, fill: RGB, size: int = 24
    ) -> None:
        """Word-wrapped lines from ``self.y``, advancing it."""
        for text in texts:
            for line in wrap_text(text, face, size, width):
                self.text(x, self.y + _LINE // 2, line, face, size, fill)
                self.y += _LINE

    def heading(self, text: str) -> None:
        self.y += _GAP
        self.text(_MARGIN, self.y + 18, text, Face.BOLD, 28, INK)
        self.y += 40

    # --- the picture -----------------------------------------------------------------
    def build(self) -> Layout:
        self.header()
        self.tracks()
        self.side_boxes()
        self.dogfights()
        self.unengaged()
        self.lost()
        return Layout(WIDTH, self.y + _MARGIN, PAGE, tuple(self.items), dict(self.regions))

    def header(self) -> None:
        v, w = self.view, self.words
        top = self.y
        start = len(self.items)
        self.y += _PAD
        over = w.over
        kind = w.engagement_type()
        if over:
            title = self.word("picture.eagles.game_over", verdict=w.verdict())
        else:
            parts = []
            if v.engagements > 1:
                parts.append(
                    self.word("picture.eagles.engagement", n=v.engagement, of=v.engagements)
                )
            parts.append(self.word("picture.eagles.turn", turn=v.turn, turns=v.turns))
            if kind:
                parts.append(kind)
            title = " · ".join(parts)
        text, size = fit_text(title, Face.BOLD, 30, _INNER)
        self.text(_MARGIN, self.y + 22, text, Face.BOLD, size, WHITE)
        self.y += 44
        about = [kind] if over and kind else []
        about.append(w.month() or "")
        weather = w.weather()
        if weather:
            about.append(self.word("picture.eagles.weather", weather=weather))
        if v.clouds is not None:
            about.append(self.word("picture.eagles.clouds", altitude=w.altitude(v.clouds)))
        turn = []
        event = w.event()
        if event:
            turn.append(self.word("picture.eagles.event", event=event))
        turn.append(self.word("picture.eagles.deck", deck=v.deck, discards=v.discards))
        texts = [" · ".join(a for a in about if a), " · ".join(turn)]
        # A series' finished engagements, in order (§17.0 scenarios 1 and 7).
        for n, result in enumerate(v.results if v.engagements > 1 else (), 1):
            vp = result.get("vp")
            scores = vp if isinstance(vp, dict) else {}
            texts.append(
                self.word(
                    "picture.eagles.series_result",
                    n=n,
                    allied=scores.get(SIDES[0], 0),
                    german=scores.get(SIDES[1], 0),
                )
            )
        self.lines(_MARGIN, _INNER, texts, Face.REGULAR, HEADER_SUB)
        if v.pending is not None:
            self.lines(_MARGIN, _INNER, [self.waiting(v.pending)], Face.BOLD, GOLD_LIGHT)
        self.y += _PAD
        self.items.insert(start, Box(Rect(0, top, WIDTH, self.y), HEADER_BG))
        self.regions["header"] = Rect(0, top, WIDTH, self.y)

    def waiting(self, p: PendingView) -> str:
        """What the game waits on, in words (no card is named: only the rating played
        and its total, which the table sees)."""
        w = self.words
        side = w.side(p.side)
        verb = (p.action or "").split(" ", 1)[0]
        lines = {
            "activate": lambda: self.word("picture.eagles.to_act", side=side),
            "respond": lambda: self.word(
                _RESPONSES.get(verb, "picture.eagles.respond"),
                side=side,
                actor=w.plane(p.actor),
                target=w.plane(p.target),
                rating=w.rating(p.symbol),
                total=p.total,
            ),
            "follow": lambda: self.word(
                "picture.eagles.follow",
                side=side,
                who=w.plane(p.chain[0] if p.chain else None),
                actor=w.plane(p.actor),
            ),
            "discard": lambda: self.word(
                "picture.eagles.discard", sides=", ".join(w.side(s) for s in p.waiting)
            ),
            "place": lambda: self.word(
                "picture.eagles.place",
                side=side,
                who=w.plane(p.actor),
                altitudes=", ".join(w.altitude(code) for code in p.chain),
            ),
            "remove": lambda: self.word(
                "picture.eagles.remove", side=side, planes=", ".join(w.plane(r) for r in p.chain)
            ),
        }
        line = lines.get(p.kind)
        return line() if line else self.word("picture.eagles.decide", side=side)

    # --- the mat's tracks --------------------------------------------------------------
    def tracks(self) -> None:
        v = self.view
        self.y += _GAP
        top = self.y
        labels = (self.word("picture.eagles.track.turn"), self.word("picture.eagles.track.zone"))
        label_w = max(text_width(label, Face.BOLD, MIN_TEXT_SIZE) for label in labels) + 14
        x0 = _MARGIN + label_w
        # The Game Turn track.
        cells = max(v.turns, 1)
        cell_w = (_INNER - label_w) // cells
        self.text(_MARGIN, top + _TRACK_H // 2, labels[0], Face.BOLD, MIN_TEXT_SIZE, INK)
        for i in range(cells):
            on = i + 1 == v.turn
            rect = Rect(x0 + i * cell_w, top, x0 + (i + 1) * cell_w - 4, top + _TRACK_H)
            self.box(rect, TRACK_ON if on else CARD_BG, EMPTY_TRACK, 2, 6)
            self.text(*rect.center, str(i + 1), Face.BOLD, 24 if on else MIN_TEXT_SIZE, INK, "mm")
        # The zone track, from the Allied rear to the German rear.
        ztop = top + _TRACK_H + 8
        zones = self.words.zones()
        zone_w = (_INNER - label_w) // len(zones)
        wrapped = [wrap_text(name, Face.CONDENSED, MIN_TEXT_SIZE, zone_w - 14) for _, name in zones]
        height = max(len(lines) for lines in wrapped) * _ZONE_LINE + 10
        self.text(_MARGIN, ztop + height // 2, labels[1], Face.BOLD, MIN_TEXT_SIZE, INK)
        for i, ((code, _), lines) in enumerate(zip(zones, wrapped, strict=True)):
            on = code == v.zone
            rect = Rect(x0 + i * zone_w, ztop, x0 + (i + 1) * zone_w - 4, ztop + height)
            self.box(rect, TRACK_ON if on else CARD_BG, EMPTY_TRACK, 2, 6)
            y = rect.center[1] - (len(lines) - 1) * _ZONE_LINE // 2
            for line in lines:
                self.text(rect.center[0], y, line, Face.CONDENSED, MIN_TEXT_SIZE, INK, "mm")
                y += _ZONE_LINE
        self.y = ztop + height
        self.regions["chart"] = Rect(_MARGIN, top, WIDTH - _MARGIN, self.y)

    # --- the sides ---------------------------------------------------------------------
    def side_boxes(self) -> None:
        self.y += _GAP
        top = self.y
        tiles = [self.side_tile(side) for side in self.view.sides]
        height = max((tile.height(_HALF) for tile in tiles), default=0)
        for i, tile in enumerate(tiles):
            tile.draw(self, _MARGIN + i * (_HALF + _GAP), top, _HALF, height)
        self.y = top + height

    def side_tile(self, s: SideView) -> Tile:
        v = self.view
        word = self.word
        body = [
            word("picture.eagles.seat", seat=seat, player=_cut(self.players[seat], 24))
            for seat in s.seats
            if self.players.get(seat)
        ]
        body.append(word("picture.eagles.score", vp=s.vp, glory=s.glory))
        body.append(word("picture.eagles.hand", n=s.cards, size=s.hand_size))
        flying = sum(1 for p in v.planes if p.side == s.id and p.flying)
        body.append(
            word("picture.eagles.flying", n=flying)
            if s.on_mat and flying
            else word("picture.eagles.none_left")
        )
        tags: list[Badge] = []
        if v.pending is not None:
            if v.initiative == s.id:
                tags.append(Badge(word("picture.eagles.tag.initiative"), GOLD_LIGHT, INK))
            acting = v.pending.waiting if v.pending.side is None else (v.pending.side,)
            if s.id in acting:
                tags.append(Badge(word("picture.eagles.tag.to_act"), TRACK_ON, INK))
        if v.attacker == s.id:
            tags.append(Badge(word("picture.eagles.tag.attacker"), MISSION, WHITE))
        return Tile(
            region=f"card:{s.id}",
            title=f"{SIDE_MARKER.get(s.id, '')} {self.words.side(s.id)}".strip(),
            strip=SIDE_COLOUR.get(s.id, OUT_STRIP),
            tags=(),
            body=tuple(body),
            badges=tuple(tags),
        )

    # --- the dogfight displays ---------------------------------------------------------
    def dogfights(self) -> None:
        self.heading(self.word("picture.eagles.dogfights"))
        fights = self.view.dogfights
        if not fights:
            self.lines(
                _MARGIN,
                _INNER,
                [self.word("picture.eagles.no_dogfight")],
                Face.REGULAR,
                MUTED,
                MIN_TEXT_SIZE,
            )
            return
        self.lines(
            _MARGIN,
            _INNER,
            [self.word("picture.eagles.legend")],
            Face.REGULAR,
            MUTED,
            MIN_TEXT_SIZE,
        )
        # Displays of one column go two abreast, in display order; a display of two
        # columns, or one left without a partner, takes the whole width.
        rows: list[list[Display]] = []
        single: list[Display] = []
        for fight in fights:
            half = Display(fight, self.words, _HALF)
            if half.columns == 1:
                single.append(half)
                if len(single) == 2:
                    rows.append(single)
                    single = []
                continue
            if single:
                rows.append([Display(single[0].fight, self.words, _INNER)])
                single = []
            rows.append([Display(fight, self.words, _INNER)])
        if single:
            rows.append([Display(single[0].fight, self.words, _INNER)])
        for row in rows:
            self.y += 8
            height = 0
            for i, display in enumerate(row):
                display.draw(self, _MARGIN + i * (_HALF + _GAP), self.y)
                height = max(height, display.height())
            self.y += height

    # --- the Unengaged section ---------------------------------------------------------
    def unengaged(self) -> None:
        self.heading(self.word("picture.eagles.unengaged"))
        for code in ALTITUDES:
            planes = [p for p in self.free if p.altitude == code and not p.on_ground]
            self.band(code, self.words.altitude(code), ALTITUDE_BG.get(code, OUT_BG), planes)
        grounded = [p for p in self.free if p.on_ground]
        if grounded:
            self.y += 4
            self.band(_GROUND, self.word("picture.eagles.on_airfield"), GROUND_BG, grounded)

    def band(self, code: str, title: str, fill: RGB, planes: list[PlaneView]) -> None:
        """An altitude level of the Unengaged section: its name, the Clouds marker and
        the displays at this altitude, then the Allies' tiles left, the Germans' right."""
        v = self.view
        top = self.y
        start = len(self.items)
        right = WIDTH - _MARGIN - _PAD
        centre = top + _BAND_HEAD // 2
        here = [fight.display for fight in v.dogfights if fight.altitude == code]
        if len(here) > _FIGHT_PILLS:
            # Many dogfights at one altitude: one pill names them all, so the band's
            # title and the Clouds marker keep their room.
            numbers = ", ".join(str(n) for n in here)
            label = self.word("picture.eagles.fights_here", n=numbers)
            right -= self.pill(right, centre, label, DISPLAY_HEAD, WHITE, right=True) + 6
        else:
            for n in reversed(here):
                label = self.word("picture.eagles.fight_here", n=n)
                right -= self.pill(right, centre, label, DISPLAY_HEAD, WHITE, right=True) + 6
        if v.clouds == code:
            label = self.word("picture.eagles.tag.clouds")
            right -= self.pill(right, centre, label, WHITE, INK, right=True) + 6
        text, size = fit_text(title, Face.BOLD, 26, right - _MARGIN - 2 * _PAD)
        self.text(_MARGIN + _PAD, centre, text, Face.BOLD, size, INK)
        self.y = top + _BAND_HEAD
        self.columns(planes, _MARGIN + _PAD, _INNER - 2 * _PAD, unengaged=True)
        self.y += _PAD if planes else 0
        self.items.insert(start, Box(Rect(_MARGIN, top, WIDTH - _MARGIN, self.y), fill, radius=8))
        self.regions[f"band:{code}"] = Rect(_MARGIN, top, WIDTH - _MARGIN, self.y)
        self.y += 4

    def columns(self, planes: list[PlaneView], x: int, width: int, *, unengaged: bool) -> None:
        """Tiles in two columns from ``self.y``, a side a column (Allies left)."""
        col_w = (width - _TILE_GAP) // 2
        bottom = self.y
        for i, side in enumerate(SIDES):
            y = self.y
            for p in planes:
                if p.side == side:
                    rect = tile_for(p, self.words, unengaged=unengaged).draw(
                        self, x + i * (col_w + _TILE_GAP), y, col_w
                    )
                    y = rect.y1 + _TILE_GAP
            bottom = max(bottom, y - _TILE_GAP if y > self.y else y)
        self.y = bottom

    # --- the lost ----------------------------------------------------------------------
    def lost(self) -> None:
        lost = [p for p in self.view.planes if not p.flying]
        if not lost:
            return
        self.y += _GAP
        top = self.y
        start = len(self.items)
        title = self.word("picture.eagles.out")
        self.text(_MARGIN + _PAD, top + _BAND_HEAD // 2, title, Face.BOLD, 26, INK)
        self.y = top + _BAND_HEAD
        self.columns(lost, _MARGIN + _PAD, _INNER - 2 * _PAD, unengaged=False)
        self.y += _PAD
        self.items.insert(start, Box(Rect(_MARGIN, top, WIDTH - _MARGIN, self.y), OUT_BG, radius=8))
        self.regions["band:out"] = Rect(_MARGIN, top, WIDTH - _MARGIN, self.y)


def layout_eagles(
    view: EaglesView, *, language: str = "en", players: Mapping[str, str] | None = None
) -> Layout:
    """The layout of ``view`` (pass the spectators' view: the picture never reads a
    hand, and a seat's view lays out the same); ``players``: who flies each seat."""
    return _Builder(view, language, players or {}).build()


def _cut(text: str, n: int) -> str:
    """``text`` cut to ``n`` characters, an ellipsis marking the cut."""
    return text if len(text) <= n else text[: n - 1] + "…"
