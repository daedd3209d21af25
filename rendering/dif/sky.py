"""The spectators' picture of the sky, computed as plain data before any pixel is drawn.

:func:`layout_table` turns a :class:`~engine.dif.view.DifView` into a :class:`Layout`:
a canvas size and an ordered list of boxes, lines, polygons and texts with integer
coordinates, plus named ``regions`` (``card:A1``, ``plane:A1W``, ``band:H``,
``arrow:A1>J1``...) that tests can check without looking at pixels.
:mod:`rendering.table` only paints it.

The picture, top to bottom, on a 960 px wide canvas (Discord shrinks it to about
400 px on a phone, so no text is smaller than 22 px):

- a header: turn and step, whose move it is and who the game waits on, deck and
  discard counts, VP per side; the result banner once the game is over; the attack
  being resolved, if any;
- in a Zero! campaign mission, a strip right under the header (above the result
  banner or the attack): the mission's phase, the target with its Damage, and the
  turn track of the phases, the current turn marked;
- one band per altitude, Very High at the top; bands holding no element shrink to a
  thin labelled strip so the vertical order of the sky stays readable;
- in each band, Allied elements in the left column and Axis ones in the right, laid
  out in rows (any number per side); two engaged leaders share a row, so the arrow
  from the one holding the advantage to the other is a short horizontal block
  arrow across the gutter, labelled "Tailing" or "Advantaged";
- elements whose altitude is still secret, then elements out of the fight.

Colour is never the only signal: each side also has a marker glyph (● Allied,
◆ Axis), its name on every card (or, when the players are given, the player's name
next to the seat) and its own column; plane states are written out (DAMAGED,
DESTROYED, EVADED, PROMOTED).

Every text comes from the strings catalogue (``picture.sky.*`` in
``strings/<lang>/picture.yaml``) in the ``language`` asked for, and the engine's
labels (steps, prompts, sides, altitudes, positions, verdicts) are put in it with
:func:`strings.tr`; aircraft names, card names and seat ids stay as printed.

Everything is computed from the view alone, with no randomness, so the same view
always gives the same layout.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import zip_longest

from engine.dif.components import Altitude, Position, Side
from engine.dif.view import (
    DifView,
    ElementView,
    EngagementView,
    FormationView,
    MissionView,
    PlaneStatus,
    PlaneView,
)
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
    SIDE_COLOURS,
    SIDE_MARKERS,
    SIDE_ON_DARK,
    WHITE,
    plural,
)
from rendering.shapes import (
    MIN_TEXT_SIZE,
    RGB,
    Box,
    Drawing,
    Item,
    Layout,
    Line,
    Polygon,
    Rect,
    Text,
    fit_text,
    text_width,
    wrap_text,
)
from strings import t, tr

__all__ = [
    "MIN_TEXT_SIZE",
    "RGB",
    "WIDTH",
    "Box",
    "Item",
    "Layout",
    "Line",
    "Polygon",
    "Rect",
    "Text",
    "layout_table",
]

WIDTH = 960
"""Canvas width: about twice what a phone shows, so 22 px text stays legible."""
"""No text is drawn smaller than this (about 9 px once Discord shrinks the image)."""

_MARGIN = 16
_GUTTER = 184  # between the two columns: room for the "Advantaged" block arrow
_COL_W = (WIDTH - 2 * _MARGIN - _GUTTER) // 2
_LEFT_X = _MARGIN
_RIGHT_X = WIDTH - _MARGIN - _COL_W
_PAD = 14  # inside a card
_ROW_GAP = 16  # between two rows of cards

# Card rows (heights in px).
_STRIP_H = 38
_NAME_H = 46
_BADGE_H = 36
_WING_H = 40
_NOTE_H = 34
_FOOT_H = 34

# Colours (rendering.palette: shared with the report; sides by their order, Allied first).
_INK, _MUTED, _WHITE, _PAGE = INK, MUTED, WHITE, PAGE
_HEADER_BG, _HEADER_SUB, _CARD_BG, _CARD_BORDER = HEADER_BG, HEADER_SUB, CARD_BG, CARD_BORDER
_GREY: RGB = (115, 120, 130)
_OUT_BG: RGB = (229, 231, 235)
_OUT_STRIP: RGB = (107, 114, 128)
_WING_BG: RGB = (241, 245, 249)
_GOLD: RGB = (245, 158, 11)
_GOLD_LIGHT = GOLD_LIGHT
_DAMAGED: RGB = (251, 191, 36)
_DESTROYED: RGB = (55, 65, 81)
_PROMOTED: RGB = (15, 118, 110)
_EXCHANGE_BG: RGB = (255, 247, 224)
_DRAW_BG: RGB = (71, 85, 105)
_SIDE: dict[Side, RGB] = {Side.ALLIED: SIDE_COLOURS[0], Side.AXIS: SIDE_COLOURS[1]}
_SIDE_ON_DARK: dict[Side, RGB] = {Side.ALLIED: SIDE_ON_DARK[0], Side.AXIS: SIDE_ON_DARK[1]}
_MARKER: dict[Side, str] = {Side.ALLIED: SIDE_MARKERS[0], Side.AXIS: SIDE_MARKERS[1]}
# Sky tints, deeper blue higher up; empty bands and the off-sky sections are grey.
_BAND_BG: dict[Altitude, RGB] = {
    Altitude.VERY_HIGH: (199, 219, 242),
    Altitude.HIGH: (210, 227, 246),
    Altitude.MEDIUM: (221, 235, 249),
    Altitude.LOW: (230, 240, 251),
    Altitude.VERY_LOW: (238, 244, 252),
}
_EMPTY_BAND_BG: RGB = (226, 232, 240)
_BOMBS: RGB = (153, 27, 27)  # a Loaded aircraft's badge
_MISSION_BG: RGB = (30, 41, 59)
_TRACK_NOW: RGB = (245, 158, 11)

_SIDES = (Side.ALLIED, Side.AXIS)  # left column, right column
_MODE_KEYS = {
    "saturation": "picture.sky.mission.mode.saturation",
    "level": "picture.sky.mission.mode.level",
    "torpedo": "picture.sky.mission.mode.torpedo",
    "dive": "picture.sky.mission.mode.dive",
    "none": "picture.sky.mission.mode.none",
}
"""A formation's Bombing Mode on its strip (Zero! 21.2)."""
_TRACK_KEYS = {
    "arrival": "picture.sky.mission.track.arrival",
    "ingress": "picture.sky.mission.track.ingress",
    "bomb": "picture.sky.mission.track.bomb",
    "egress": "picture.sky.mission.track.egress",
    "home": "picture.sky.mission.track.home",
    "dogfight": "picture.sky.mission.track.dogfight",
}
"""A phase's short label over its turns on the mission's turn track (Zero! 23.1)."""
_TRACK_TOP = 84  # the track's first row, below the mission strip's two lines
_TRACK_LABEL_H = 28
_TRACK_BOX_H = 36
_TRACK_WIDEST = 44  # a turn's box, when the track has room
_TRACK_NARROWEST = 34  # still room for a two-digit turn number
_TRACK_ROW_GAP = 10
_TRACK_GAP = 4  # between two turns of one phase
_PHASE_GAP = 14  # between two phases
_TRACK_PAST: RGB = (51, 65, 85)
_TRACK_LINE: RGB = (148, 163, 184)


# --- the view, indexed ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Engaged:
    """One engagement as seen from one element of it."""

    partner: ElementView
    position: Position  # of this element's leader relative to the partner's


class _Index:
    """Look-ups over a view: seats and plane refs to elements, engagements per seat."""

    def __init__(self, view: DifView, language: str = "en") -> None:
        self.view = view
        self.language = language
        rank = {seat: i for i, seat in enumerate(view.order)}
        # The view's seat order, then seat name for any seat missing from ``order``.
        self.elements = tuple(
            sorted(view.elements, key=lambda e: (rank.get(e.seat, len(rank)), e.seat))
        )
        self.by_key: dict[str, ElementView] = {}
        for element in self.elements:
            self.by_key[element.seat] = element
            for plane in (element.leader, element.wingman, *element.lost):
                if plane is not None:
                    self.by_key[plane.ref] = element
        self.engaged: dict[str, list[_Engaged]] = {e.seat: [] for e in self.elements}
        self.engagements: list[tuple[EngagementView, ElementView, ElementView]] = []
        for engagement in view.engagements:
            holder = self.by_key.get(engagement.leader)
            other = self.by_key.get(engagement.on)
            if holder is None or other is None or holder.seat == other.seat:
                continue
            self.engagements.append((engagement, holder, other))
            self.engaged[holder.seat].append(_Engaged(other, engagement.position))
            self.engaged[other.seat].append(_Engaged(holder, Position(-engagement.position)))

    def label(self, key: str) -> str:
        """A seat or plane ref as the narration writes it: ``Buffalo I (A1)``,
        ``Buffalo I wingman (A1)``, ``Buffalo I (A1, shot down)``."""
        element = self.by_key.get(key)
        if element is None:
            return key
        wingman = element.wingman
        if wingman is not None and key == wingman.ref:
            return t(
                "dif.plane.wingman", self.language, aircraft=wingman.aircraft, seat=element.seat
            )
        for plane in element.lost:
            if key == plane.ref:
                return t(
                    "dif.plane.shot_down", self.language, aircraft=plane.aircraft, seat=element.seat
                )
        return tr(element.label, self.language)

    def side_label(self, side: Side) -> str:
        return tr(side.label(self.view.ruleset), self.language)


def _lost(element: ElementView) -> list[PlaneView]:
    """Leaders shot down and replaced (11.2), except one still shown as the leader."""
    shown = element.leader.ref if element.leader is not None else None
    return [plane for plane in element.lost if plane.ref != shown]


def _out_of_action(plane: PlaneView | None) -> bool:
    return plane is None or plane.status is not PlaneStatus.FLYING


def _greyed(element: ElementView) -> bool:
    """The whole card is greyed: the element left the fight or has no plane flying."""
    return not element.in_fight or (
        _out_of_action(element.leader) and _out_of_action(element.wingman)
    )


_NOTE_MARK: dict[Position, str] = {
    Position.TAILING: "▶ ",
    Position.ADVANTAGED: "▶ ",
    Position.NEUTRAL: "",
    Position.DISADVANTAGED: "◀ ",
    Position.TAILED: "◀ ",
}
"""The arrow before a position note: towards the partner if this leader holds the
advantage, from it if the partner does."""


def _position_note(engaged: _Engaged, who: str, language: str) -> str:
    """``▶ Tailing Ki-43 (J1)``: this leader's position on its partner, in words."""
    key = f"picture.sky.note.{engaged.position.name.lower()}"
    return _NOTE_MARK[engaged.position] + t(key, language, who=who)


def _fit_note(engaged: _Engaged, max_width: int, language: str) -> tuple[str, int]:
    """The position note, naming the partner by label, else by aircraft, else by seat."""
    partner = engaged.partner
    names = [tr(partner.label, language)]
    if partner.leader is not None:
        names.append(partner.leader.aircraft)
    names.append(partner.seat)
    for who in names:
        note = _position_note(engaged, who, language)
        for size in (24, MIN_TEXT_SIZE):
            if text_width(note, Face.REGULAR, size) <= max_width:
                return note, size
    return fit_text(_position_note(engaged, names[-1], language), Face.REGULAR, 24, max_width)


def _phase_widths(box: int, groups: list[tuple[int, int]]) -> list[int]:
    """Each phase's width on the track with turn boxes ``box`` px wide; ``groups``: each
    phase's turn count and label width (a phase is at least as wide as its label)."""
    return [max(n * box + (n - 1) * _TRACK_GAP, label) for n, label in groups]


def _track_box(groups: list[tuple[int, int]]) -> int:
    """The widest turn box with which the whole track fits on one row, else the
    narrowest (and the track wraps between phases)."""
    for box in range(_TRACK_WIDEST, _TRACK_NARROWEST, -2):
        widths = _phase_widths(box, groups)
        if sum(widths) + _PHASE_GAP * (len(widths) - 1) <= WIDTH - 2 * _MARGIN:
            return box
    return _TRACK_NARROWEST


def _track_rows(widths: list[int]) -> list[list[int]]:
    """The phases (by index) on each row of the track: as many as fit, in order."""
    rows: list[list[int]] = [[]]
    x = _MARGIN
    for i, width in enumerate(widths):
        if rows[-1] and x + width > WIDTH - _MARGIN:
            rows.append([])
            x = _MARGIN
        rows[-1].append(i)
        x += width + _PHASE_GAP
    return rows


def _hits(plane: PlaneView, language: str) -> str:
    return t("picture.sky.hits", language, hits=plane.hits, capacity=plane.capacity)


def _badges(
    plane: PlaneView, language: str, loaded: frozenset[str] = frozenset()
) -> list[tuple[str, RGB, RGB]]:
    """Badges under a plane's row: (text, fill, text colour). The status goes on the row;
    ``loaded``: the refs still carrying bombs in a campaign mission (Zero! 18.21)."""
    badges: list[tuple[str, RGB, RGB]] = []
    if plane.damaged and plane.status is PlaneStatus.FLYING:
        badges.append((t("picture.sky.damaged", language), _DAMAGED, _INK))
    if plane.promoted:
        badges.append(("★ " + t("picture.sky.promoted", language), _PROMOTED, _WHITE))
    origin = f"{plane.ref[:-1]}W" if plane.promoted else plane.ref  # 11.2: by its first ref
    if origin in loaded and plane.status is PlaneStatus.FLYING:
        badges.append((t("picture.sky.mission.bombs", language), _BOMBS, _WHITE))
    return badges


_plural = plural


# --- the builder ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Card:
    """Where a card was placed."""

    rect: Rect
    leader_y: int  # centre line of the leader row: where arrows attach


class _Builder(Drawing):
    def __init__(
        self, view: DifView, language: str = "en", players: Mapping[str, str] | None = None
    ) -> None:
        super().__init__()
        self.view = view
        self.language = language
        self.players = players or {}
        self.index = _Index(view, language)
        self.cards: dict[str, _Card] = {}
        self.y = 0

    # the picture

    def build(self) -> Layout:
        self.header()
        self.sky()
        self.arrows()
        height = self.y + _MARGIN
        return Layout(WIDTH, height, _PAGE, tuple(self.items), dict(self.regions))

    def header(self) -> None:
        view, index, lang = self.view, self.index, self.language
        lines: list[list[tuple[str, Face, int, RGB]]] = []
        left = WIDTH - 2 * _MARGIN

        if view.active is not None and view.result is None:
            lines.append(
                [
                    (t("picture.sky.to_move", lang) + " ", Face.REGULAR, 26, _HEADER_SUB),
                    (index.label(view.active), Face.BOLD, 26, _WHITE),
                ]
            )
        waiting = [p for p in view.pending if p.seat != view.active]
        if view.exchange is not None and {p.seat for p in waiting} == {view.exchange.waiting_on}:
            waiting = []  # the attack panel below says who must answer
        if waiting and view.result is None:
            names = ", ".join(index.label(p.seat) for p in waiting)
            prompts = {p.prompt for p in waiting}
            prompt = waiting[0].prompt
            tail = " — " + tr(prompt, lang) if len(prompts) == 1 and prompt else ""
            lines.append(
                [
                    (t("picture.sky.waiting_on", lang) + " ", Face.REGULAR, 26, _HEADER_SUB),
                    (names + tail, Face.BOLD, 26, _WHITE),
                ]
            )

        top = self.y
        height = 16 + 48 + 40 * len(lines) + 40 + 12
        self.box(Rect(0, top, WIDTH, top + height), _HEADER_BG)
        y = top + 16 + 24
        if view.turn < 1:
            if view.max_turns:
                turn = _plural("picture.sky.setup.turns", lang, view.max_turns)
            else:
                turn = t("picture.sky.setup.death", lang)
        elif view.max_turns is None:
            turn = t("picture.sky.turn.death", lang, turn=view.turn)
        else:  # a game decided after its last turn stays "6 of 6"
            turn_no = min(view.turn, view.max_turns)
            turn = t("picture.sky.turn.of", lang, turn=turn_no, max=view.max_turns)
        # The turn keeps at least half the line; the step gets the rest.
        turn, turn_size = fit_text(turn, Face.BOLD, 36, left // 2)
        self.text(_MARGIN, y, turn, Face.BOLD, turn_size, _WHITE)
        step_text, step_size = fit_text(
            tr(view.step, lang), Face.BOLD, 28, left - text_width(turn, Face.BOLD, turn_size) - 24
        )
        self.text(WIDTH - _MARGIN, y, step_text, Face.BOLD, step_size, _GOLD_LIGHT, "rm")
        y += 24 + 20
        for segments in lines:
            self.segments(_MARGIN, y, segments, left)
            y += 40
        deck = t("picture.sky.deck", lang, deck=view.deck_count, discard=view.discard_count)
        self.text(_MARGIN, y, deck, Face.REGULAR, 24, _HEADER_SUB)
        if view.result is None:  # else the result banner shows the final VP
            self.vp_line(WIDTH - _MARGIN, y, view.vp, 24)
        self.regions["header"] = Rect(0, top, WIDTH, top + height)
        self.y = top + height
        if view.mission is not None:
            self.mission_panel(view.mission)
        if view.result is not None:
            self.result_banner()
        elif view.exchange is not None:
            self.exchange_panel()

    def mission_panel(self, mission: MissionView) -> None:
        """A Zero! campaign mission: its phase (Arrival, Ingress, Bomb, Egress, Return
        Home), the target with its Damage and level, the clouds once drawn (15.1, 21.8),
        and the turn track of its phases (23.1)."""
        lang = self.language
        top = self.y
        rect = Rect(0, top, WIDTH, top + 84)
        panel = len(self.items)
        self.box(rect, _MISSION_BG)  # grown under the turn track, if any
        left = WIDTH - 2 * _MARGIN
        label = t("picture.sky.mission.title", lang) + " "
        phase = tr(mission.phase, lang)
        self.segments(
            _MARGIN,
            top + 24,
            [(label, Face.REGULAR, 24, _HEADER_SUB), (phase, Face.BOLD, 26, _TRACK_NOW)],
            left,
        )
        if mission.target is None:
            target = t("picture.sky.mission.no_target", lang)
        else:
            target = t(
                "picture.sky.mission.target",
                lang,
                target=mission.target,
                damage=mission.target_damage,
                level=mission.target_level or "",
            )
        if mission.clouds:
            target += " · " + t("picture.sky.mission.clouds", lang)
        target, size = fit_text(target, Face.BOLD, 26, left)
        self.text(_MARGIN, top + 60, target, Face.BOLD, size, _WHITE)
        if mission.track:
            self.track(mission, top + _TRACK_TOP)
            rect = Rect(0, top, WIDTH, self.regions["track"].y1 + 14)
            self.items[panel] = Box(rect, _MISSION_BG)
        self.regions["mission"] = rect
        self.y = rect.y1

    def track(self, mission: MissionView, top: int) -> None:
        """The mission's turn track (Zero! 23.1): one box a game turn, numbered, grouped
        under its phase's short label; the current turn filled and taller, the turns
        played filled dark, those to come outlined (so it reads without colour)."""
        lang = self.language
        now = min(self.view.turn, len(mission.track))
        phases = [(t(_TRACK_KEYS[phase], lang), turns) for phase, turns in mission.phases]
        sizes = [
            (len(turns), text_width(label, Face.CONDENSED, MIN_TEXT_SIZE))
            for label, turns in phases
        ]
        box = _track_box(sizes)
        widths = _phase_widths(box, sizes)
        y = top
        for row in _track_rows(widths):
            x, box_top = _MARGIN, y + _TRACK_LABEL_H
            for i in row:
                label, turns = phases[i]
                ink = _TRACK_NOW if now in turns else _HEADER_SUB
                label_y = y + _TRACK_LABEL_H // 2
                self.text(
                    x + widths[i] // 2, label_y, label, Face.CONDENSED, MIN_TEXT_SIZE, ink, "mm"
                )
                bx = x + (widths[i] - (len(turns) * (box + _TRACK_GAP) - _TRACK_GAP)) // 2
                for turn in turns:
                    self.turn_box(Rect(bx, box_top, bx + box, box_top + _TRACK_BOX_H), turn, now)
                    bx += box + _TRACK_GAP
                x += widths[i] + _PHASE_GAP
            y = box_top + _TRACK_BOX_H + _TRACK_ROW_GAP
        self.regions["track"] = Rect(_MARGIN, top, WIDTH - _MARGIN, y - _TRACK_ROW_GAP)

    def turn_box(self, rect: Rect, turn: int, now: int) -> None:
        """One game turn on the track: the current one, one played, or one to come."""
        number = str(turn)
        if turn == now:
            rect = Rect(rect.x0, rect.y0 - 4, rect.x1, rect.y1 + 4)
            self.box(rect, _TRACK_NOW, _WHITE, 2, 6)
            ink, face = _INK, Face.BOLD
        elif turn < now:
            self.box(rect, _TRACK_PAST, radius=6)
            ink, face = _TRACK_LINE, Face.CONDENSED
        else:
            self.box(rect, None, _TRACK_LINE, 2, 6)
            ink, face = _WHITE, Face.CONDENSED
        number, size = fit_text(number, face, MIN_TEXT_SIZE, rect.width - 4)
        self.text(rect.center[0], rect.center[1], number, face, size, ink, "mm")
        self.regions[f"turn:{turn}"] = rect

    def segments(
        self, x: int, y: int, segments: list[tuple[str, Face, int, RGB]], max_width: int
    ) -> None:
        """Texts side by side on one line; the last one is cut to fit ``max_width``."""
        end = x + max_width
        for i, (text, face, size, fill) in enumerate(segments):
            if i == len(segments) - 1:
                text, size = fit_text(text, face, size, end - x)
            self.text(x, y, text, face, size, fill)
            x += text_width(text, face, size)

    def vp_line(self, right: int, y: int, vp: Mapping[Side, int], size: int) -> None:
        """``VP ● Allies 3 ◆ Axis 0``, right-aligned at ``right``, markers in side tints."""
        parts: list[tuple[str, Face, RGB]] = [
            (t("picture.sky.vp", self.language), Face.REGULAR, _HEADER_SUB)
        ]
        for side in _SIDES:
            parts.append((f"  {_MARKER[side]} ", Face.BOLD, _SIDE_ON_DARK[side]))
            parts.append((f"{self.index.side_label(side)} {vp.get(side, 0)}", Face.BOLD, _WHITE))
        x = right - sum(text_width(t, f, size) for t, f, _ in parts)
        for text, face, fill in parts:
            self.text(x, y, text, face, size, fill)
            x += text_width(text, face, size)

    def result_banner(self) -> None:
        result = self.view.result
        assert result is not None
        fill = _SIDE[result.winner] if result.winner is not None else _DRAW_BG
        top = self.y
        rect = Rect(0, top, WIDTH, top + 124)
        self.box(rect, fill)
        lang = self.language
        self.text(_MARGIN, top + 26, t("picture.sky.game_over", lang), Face.BOLD, 24, _WHITE)
        verdict, size = fit_text(tr(result.verdict, lang), Face.BOLD, 36, WIDTH - 2 * _MARGIN)
        self.text(_MARGIN, top + 64, verdict, Face.BOLD, size, _WHITE)
        parts = [(t("picture.sky.final_vp", lang) + " ", Face.REGULAR)]
        parts += [
            (
                f"{_MARKER[side]} {self.index.side_label(side)} {result.vp.get(side, 0)}   ",
                Face.BOLD,
            )
            for side in _SIDES
        ]
        x = _MARGIN
        for text, face in parts:
            self.text(x, top + 102, text, face, 24, _WHITE)
            x += text_width(text, face, 24)
        self.regions["result"] = rect
        self.y = rect.y1

    def exchange_panel(self) -> None:
        exchange = self.view.exchange
        assert exchange is not None
        index, lang = self.index, self.language
        inner = WIDTH - 2 * _MARGIN - 2 * _PAD
        label = t("picture.sky.attack", lang)
        label_w = text_width(label + " ", Face.BOLD, 26)
        attack = f"{index.label(exchange.attacker)} → {index.label(exchange.target)}"
        attack_lines = wrap_text(attack, Face.BOLD, 26, inner - label_w)
        cards = " ▸ ".join(tr(card, lang) for card in exchange.cards)
        card_lines = wrap_text(cards, Face.REGULAR, 24, inner)
        who = index.label(exchange.waiting_on)
        waiting = t("picture.sky.exchange_waiting", lang, who=who)
        waiting_text, waiting_size = fit_text(waiting, Face.BOLD, 24, inner)
        top = self.y + 12
        height = 12 + 36 * len(attack_lines) + 34 * len(card_lines) + 36 + 10
        rect = Rect(_MARGIN, top, WIDTH - _MARGIN, top + height)
        self.box(rect, _EXCHANGE_BG, _GOLD, 3, 10)
        x = _MARGIN + _PAD
        y = top + 12 + 18
        self.text(x, y, label, Face.BOLD, 26, (146, 64, 14))
        for line in attack_lines:
            self.text(x + label_w, y, line, Face.BOLD, 26, _INK)
            y += 36
        y += -1
        for line in card_lines:
            self.text(x, y, line, Face.REGULAR, 24, _INK)
            y += 34
        self.text(x, y + 1, waiting_text, Face.BOLD, waiting_size, (146, 64, 14))
        self.regions["exchange"] = rect
        self.y = rect.y1

    def sky(self) -> None:
        index, lang = self.index, self.language
        self.y += 10
        # Column headings: which side is where, in words and marker, not only colour.
        y = self.y + 18
        for side, x in zip(_SIDES, (_LEFT_X, _RIGHT_X), strict=True):
            title = f"{_MARKER[side]} {index.side_label(side).upper()}"
            self.text(x + 4, y, title, Face.BOLD, 24, _SIDE[side])
        self.y += 40
        flying = [e for e in index.elements if e.in_fight]
        formations = self.view.mission.formations if self.view.mission is not None else ()
        for altitude in sorted(Altitude, reverse=True):
            members = [e for e in flying if e.altitude is altitude]
            bombers = [f for f in formations if f.altitude is altitude]
            self.band(
                f"band:{altitude.code}",
                tr(altitude.label, lang).upper(),
                members,
                _BAND_BG[altitude] if members or bombers else _EMPTY_BAND_BG,
                bombers,
            )
        hidden = [e for e in flying if e.altitude is None]
        if hidden:
            title = t("picture.sky.hidden", lang)
            self.band("band:hidden", title, hidden, _EMPTY_BAND_BG)
        out = [e for e in index.elements if not e.in_fight]
        if out:
            self.band("band:out", t("picture.sky.out", lang), out, _EMPTY_BAND_BG)

    def band(
        self,
        name: str,
        title: str,
        members: list[ElementView],
        fill: RGB,
        formations: list[FormationView] | None = None,
    ) -> None:
        top = self.y
        formations = formations or []
        if not members and not formations:
            rect = Rect(0, top, WIDTH, top + 40)
            self.box(rect, fill)
            self.text(_MARGIN, top + 20, title, Face.BOLD, 24, _MUTED)
            width = text_width(title, Face.BOLD, 24)
            empty = "· " + t("picture.sky.empty", self.language)
            self.text(_MARGIN + width + 12, top + 20, empty, Face.REGULAR, 24, _GREY)
            self.box(Rect(0, rect.y1 - 1, WIDTH, rect.y1), (203, 213, 225))
            self.regions[name] = rect
            self.y = rect.y1
            return
        band_index = len(self.items)
        self.y = top + 38
        for left, right in self.rows(members):
            self.row(left, right)
        allied = [f for f in formations if f.side is Side.ALLIED]
        axis = [f for f in formations if f.side is Side.AXIS]
        for pair in zip_longest(allied, axis):
            self.formation_row(pair)
        rect = Rect(0, top, WIDTH, self.y + 4)
        # The band's background goes under the cards already placed in it.
        self.items.insert(band_index, Box(rect, fill))
        self.items.insert(band_index + 1, Text(_MARGIN, top + 20, title, Face.BOLD, 24, _INK))
        self.items.insert(
            band_index + 2, Box(Rect(0, rect.y1 - 1, WIDTH, rect.y1), (148, 163, 184))
        )
        self.regions[name] = rect
        self.y = rect.y1

    def rows(
        self, members: list[ElementView]
    ) -> list[tuple[ElementView | None, ElementView | None]]:
        """Allied/Axis pairs for the rows of a band: engaged leaders first, side by side."""
        allied = [e for e in members if e.side is Side.ALLIED]
        axis = [e for e in members if e.side is Side.AXIS]
        rows: list[tuple[ElementView | None, ElementView | None]] = []
        placed: set[str] = set()
        in_band = {e.seat for e in axis}
        for element in allied:
            for engaged in self.index.engaged[element.seat]:
                partner = engaged.partner
                if partner.seat in in_band and partner.seat not in placed:
                    rows.append((element, partner))
                    placed.update((element.seat, partner.seat))
                    break
        rest = zip_longest(
            [e for e in allied if e.seat not in placed],
            [e for e in axis if e.seat not in placed],
        )
        rows.extend(rest)
        return rows

    def row(self, left: ElementView | None, right: ElementView | None) -> None:
        top = self.y
        heights = [self.card_height(e) for e in (left, right) if e is not None]
        height = max(heights)
        for element, x in ((left, _LEFT_X), (right, _RIGHT_X)):
            if element is not None:
                self.card(element, Rect(x, top, x + _COL_W, top + height))
        self.y = top + height + _ROW_GAP

    def formation_row(self, pair: tuple[FormationView | None, FormationView | None]) -> None:
        """Bombers in formation (Zero! 17.22) in their altitude band, each side in its
        column: they never change altitude (17.24)."""
        top = self.y
        height = max(
            _STRIP_H + 10 + len(f.bombers) * (_WING_H + 4) + _NOTE_H for f in pair if f is not None
        )
        for formation, x in zip(pair, (_LEFT_X, _RIGHT_X), strict=True):
            if formation is not None:
                self.formation_card(formation, Rect(x, top, x + _COL_W, top + height))
        self.y = top + height + _ROW_GAP

    def formation_card(self, formation: FormationView, rect: Rect) -> None:
        """A formation: side, seat and bombing mode on its strip; one row a bomber
        with its hits, DAMAGED once it has left the formation (17.28), DESTROYED."""
        lang = self.language
        self.box(rect, _CARD_BG, _CARD_BORDER, 2, 10)
        self.regions[f"formation:{formation.seat}"] = rect
        colour = _SIDE[formation.side]
        strip = Rect(rect.x0, rect.y0, rect.x1, rect.y0 + _STRIP_H)
        self.box(strip, colour, radius=10)
        self.box(Rect(strip.x0, strip.y1 - 10, strip.x1, strip.y1), colour)
        cy = strip.y0 + _STRIP_H // 2
        side = self.index.side_label(formation.side).upper()
        # One type a formation (17.22c): named once, on the strip; each row its ref.
        kind = formation.bombers[0].aircraft if formation.bombers else ""
        strip_text = f"{_MARKER[formation.side]} {side} · {formation.seat} · {kind}"
        title, size = fit_text(strip_text, Face.BOLD, 24, rect.width - 2 * _PAD)
        self.text(rect.x0 + _PAD, cy, title, Face.BOLD, size, _WHITE)
        y = strip.y1 + 6
        x0, x1 = rect.x0 + _PAD, rect.x1 - _PAD
        for bomber in formation.bombers:
            row_y = y + _WING_H // 2
            flying = bomber.status != "destroyed"
            if not flying:
                right = self.pill(
                    x1, row_y, t("picture.sky.destroyed", lang), _DESTROYED, _WHITE, right=True
                )
            else:
                hits = t("picture.sky.mission.bomber_hits", lang, hits=bomber.hits)
                self.text(x1, row_y, hits, Face.BOLD, 26, _INK, "rm")
                right = text_width(hits, Face.BOLD, 26)
                if bomber.damaged:
                    right += 8 + self.pill(
                        x1 - right - 8,
                        row_y,
                        t("picture.sky.damaged", lang),
                        _DAMAGED,
                        _INK,
                        right=True,
                    )
            name, size = fit_text(bomber.ref, Face.CONDENSED, 28, x1 - x0 - right - 12)
            self.text(x0, row_y, name, Face.CONDENSED, size, _INK if flying else _GREY)
            if not flying:
                width = text_width(name, Face.CONDENSED, size)
                self.items.append(Line(((x0, row_y + 1), (x0 + width, row_y + 1)), _GREY, 3))
            self.regions[f"plane:{bomber.ref}"] = Rect(x0, y, x1, y + _WING_H)
            y += _WING_H + 4
        mode = t(_MODE_KEYS[formation.mode or "none"], lang)
        mode, size = fit_text(mode, Face.REGULAR, 24, x1 - x0)
        self.text(x0, y + _NOTE_H // 2, mode, Face.REGULAR, size, _MUTED)

    # cards

    def badges(self, plane: PlaneView) -> list[tuple[str, RGB, RGB]]:
        mission = self.view.mission
        loaded = frozenset(mission.loaded) if mission is not None else frozenset()
        return _badges(plane, self.language, loaded)

    def status_tag(self, element: ElementView) -> str | None:
        view = self.view
        if view.result is not None:
            return None
        if element.seat == view.active:
            return "▶ " + t("picture.sky.tag.to_move", self.language)
        if any(p.seat == element.seat for p in view.pending):
            return t("picture.sky.tag.waiting", self.language)
        return None

    def notes(self, element: ElementView) -> list[str]:
        """Extra lines at the foot of a card: the state of a secret altitude, the
        aircraft's ceiling (Zero! 16.22), Full Throttle counters and the leader's pilot
        skills (all public)."""
        if not element.in_fight:
            return []
        lang = self.language
        out = []
        if element.altitude is None:
            if element.altitude_chosen:
                out.append("✓ " + t("picture.sky.picked", lang))
            else:
                out.append(t("picture.sky.picking", lang))
        if element.ceiling is not None:
            out.append(t("picture.sky.ceiling", lang, altitude=tr(element.ceiling.label, lang)))
        if element.counters:
            out.append(t("picture.sky.counters", lang, n=element.counters))
        if element.leader is not None and element.leader.pilot:
            skills = ", ".join(element.leader.pilot)
            out.append(t("picture.sky.pilot", lang, skills=skills))
        mission = self.view.mission
        if mission is not None and element.seat in mission.away:
            out.append(t("picture.sky.mission.away", lang))
        return out

    def card_height(self, element: ElementView) -> int:
        height = _STRIP_H + 6 + _NAME_H
        if element.leader is not None:
            height += _BADGE_H if self.badges(element.leader) else 0
        for plane in (element.wingman, *_lost(element)):
            if plane is not None:
                height += 6 + _WING_H + (_BADGE_H if self.badges(plane) else 0) + 4
        lines = len(self.index.engaged[element.seat]) + len(self.notes(element))
        height += _NOTE_H * lines
        height += _FOOT_H if self.status_tag(element) else 0
        return height + 10

    def card(self, element: ElementView, rect: Rect) -> None:
        lang = self.language
        greyed = _greyed(element)
        side_colour = _OUT_STRIP if greyed else _SIDE[element.side]
        tag = self.status_tag(element)
        if tag is not None:
            self.box(rect.grow(4), _GOLD, radius=12)
        self.box(rect, _OUT_BG if greyed else _CARD_BG, _CARD_BORDER, 2, 10)
        self.regions[f"card:{element.seat}"] = rect

        # Side strip: marker, side, seat; hand size on the right.
        strip = Rect(rect.x0, rect.y0, rect.x1, rect.y0 + _STRIP_H)
        self.box(strip, side_colour, radius=10)
        self.box(Rect(strip.x0, strip.y1 - 10, strip.x1, strip.y1), side_colour)
        cy = strip.y0 + _STRIP_H // 2
        side_text = f"{_MARKER[element.side]} {self.index.side_label(element.side).upper()}"
        cards = _plural("picture.sky.cards", lang, element.hand_count)
        self.text(rect.x1 - _PAD, cy, cards, Face.REGULAR, 24, _WHITE, "rm")
        room = rect.width - 2 * _PAD - text_width(cards, Face.REGULAR, 24) - 12
        player = self.players.get(element.seat)
        # Who flies it, next to its seat; the marker and the column still say the side.
        strip_text = (
            f"{_MARKER[element.side]} {element.seat} · {player}"
            if player
            else f"{side_text} · {element.seat}"
        )
        title, size = fit_text(strip_text, Face.BOLD, 24, room)
        self.text(rect.x0 + _PAD, cy, title, Face.BOLD, size, _WHITE)

        y = strip.y1 + 6
        x0, x1 = rect.x0 + _PAD, rect.x1 - _PAD
        leader = element.leader
        leader_y = y + _NAME_H // 2
        if leader is not None:
            self.plane_row(leader, x0, x1, y, _NAME_H, leader.aircraft, Face.CONDENSED, 32)
        else:
            no_leader = t("picture.sky.no_leader", lang)
            self.text(x0, leader_y, no_leader, Face.CONDENSED, 30, _GREY)
        y += _NAME_H
        if leader is not None and self.badges(leader):
            self.badge_row(leader, x0, y)
            y += _BADGE_H
        branch_top = y - 6

        wingman = element.wingman
        if wingman is not None:
            name = t("picture.sky.wingman", lang)
            if leader is None or wingman.aircraft != leader.aircraft:
                name = f"{name} · {wingman.aircraft}"
            wing = self.sub_row(wingman, name, rect, y, greyed)
            # The connector ties the wingman to its leader like a tree branch.
            mid = wing.y0 + _WING_H // 2
            branch = ((x0 + 10, branch_top), (x0 + 10, mid), (wing.x0, mid))
            self.items.append(Line(branch, _CARD_BORDER, 3))
            y = wing.y1 + 4
        for plane in _lost(element):
            name = t("picture.sky.lost_leader", lang)
            if leader is not None and plane.aircraft != leader.aircraft:
                name = f"{name} · {plane.aircraft}"
            y = self.sub_row(plane, name, rect, y, greyed).y1 + 4

        engaged = self.index.engaged[element.seat]
        notes = [_fit_note(e, x1 - x0, lang) for e in engaged]
        notes += [fit_text(note, Face.REGULAR, 24, x1 - x0) for note in self.notes(element)]
        for note, size in notes:
            self.text(x0, y + _NOTE_H // 2, note, Face.REGULAR, size, _GREY if greyed else _INK)
            y += _NOTE_H

        if tag is not None:
            foot = Rect(rect.x0 + 2, rect.y1 - _FOOT_H - 2, rect.x1 - 2, rect.y1 - 2)
            self.box(foot, _GOLD_LIGHT, radius=8)
            tag, size = fit_text(tag, Face.BOLD, 24, foot.width - 2 * _PAD)
            self.text(foot.center[0], foot.center[1], tag, Face.BOLD, size, _INK, "mm")
        self.cards[element.seat] = _Card(rect, leader_y)

    def sub_row(self, plane: PlaneView, name: str, card: Rect, top: int, greyed: bool) -> Rect:
        """A wingman or a lost leader: a small box indented under the leader's row."""
        y = top + 6
        extra = _BADGE_H if self.badges(plane) else 0
        box = Rect(card.x0 + _PAD + 26, y, card.x1 - _PAD, y + _WING_H + extra)
        self.box(box, _OUT_BG if greyed else _WING_BG, (203, 213, 225), 1, 8)
        self.plane_row(plane, box.x0 + 10, box.x1 - 10, y, _WING_H, name, Face.CONDENSED, 28)
        if extra:
            self.badge_row(plane, box.x0 + 10, y + _WING_H - 2)
        self.regions[f"plane:{plane.ref}"] = box
        return box

    def plane_row(
        self,
        plane: PlaneView,
        x0: int,
        x1: int,
        top: int,
        height: int,
        name: str,
        face: Face,
        size: int,
    ) -> None:
        """Name on the left; hits, or the DESTROYED / EVADED badge, on the right."""
        lang = self.language
        cy = top + height // 2
        flying = plane.status is PlaneStatus.FLYING
        if flying:
            right = _hits(plane, lang)
            right_w = text_width(right, Face.BOLD, 26)
            self.text(x1, cy, right, Face.BOLD, 26, _INK, "rm")
        elif plane.status is PlaneStatus.DESTROYED:
            destroyed = t("picture.sky.destroyed", lang)
            right_w = self.pill(x1, cy, destroyed, _DESTROYED, _WHITE, right=True)
        else:
            evaded = t("picture.sky.evaded", lang)
            right_w = self.pill(x1, cy, evaded, _OUT_BG, _MUTED, right=True)
        name, size = fit_text(name, face, size, x1 - x0 - right_w - 12)
        self.text(x0, cy, name, face, size, _INK if flying else _GREY)
        if not flying:
            # Struck through, so the state reads even in greyscale.
            width = text_width(name, face, size)
            self.items.append(Line(((x0, cy + 1), (x0 + width, cy + 1)), _GREY, 3))
        self.regions.setdefault(f"plane:{plane.ref}", Rect(x0, top, x1, top + height))

    def badge_row(self, plane: PlaneView, x: int, top: int) -> None:
        for text, fill, ink in self.badges(plane):
            x += self.pill(x, top + _BADGE_H // 2, text, fill, ink) + 8

    # engagement arrows

    def arrows(self) -> None:
        for engagement, holder, other in self.index.engagements:
            start, end = self.cards.get(holder.seat), self.cards.get(other.seat)
            if start is None or end is None:
                continue
            label = tr(engagement.position.label, self.language)  # "Tailing" / "Advantaged"
            colour = _OUT_STRIP if _greyed(holder) else _SIDE[holder.side]
            name = f"arrow:{holder.seat}>{other.seat}"
            if start.leader_y == end.leader_y and start.rect.x0 != end.rect.x0:
                self.block_arrow(name, start, end, label, colour)
            else:
                self.line_arrow(name, start, end, label, colour)

    def block_arrow(self, name: str, start: _Card, end: _Card, label: str, colour: RGB) -> None:
        """A horizontal arrow filling the gutter between two cards of one row."""
        rightwards = start.rect.x0 < end.rect.x0
        x0 = (start.rect.x1 if rightwards else start.rect.x0) + (4 if rightwards else -4)
        x1 = (end.rect.x0 if rightwards else end.rect.x1) + (-6 if rightwards else 6)
        y = start.leader_y
        body, head, head_len = 22, 34, 26
        sign = 1 if rightwards else -1
        neck = x1 - sign * head_len
        points = (
            (x0, y - body),
            (neck, y - body),
            (neck, y - head),
            (x1, y),
            (neck, y + head),
            (neck, y + body),
            (x0, y + body),
        )
        self.items.append(Polygon(points, colour, _INK, 2))
        # The label sits in the body; a longer word (En poursuite) may run 12 px into
        # the head, where the triangle is still taller than the text.
        room, label_end = abs(neck - x0) - 8, neck
        if text_width(label, Face.CONDENSED, MIN_TEXT_SIZE) > room:
            room, label_end = room + 12, neck + sign * 12
        text, size = fit_text(label, Face.CONDENSED, 24, room)
        self.text((x0 + label_end) // 2, y, text, Face.CONDENSED, size, _WHITE, "mm")
        self.regions[name] = Rect(min(x0, x1), y - head, max(x0, x1), y + head)

    def line_arrow(self, name: str, start: _Card, end: _Card, label: str, colour: RGB) -> None:
        """A straight arrow between cards on different rows, with a label at its middle."""
        rightwards = start.rect.center[0] <= end.rect.center[0]
        if start.rect.x0 == end.rect.x0:
            # Same column (cannot happen between two sides, but stay drawable).
            sx = ex = start.rect.x1 + 4
        else:
            sx = start.rect.x1 + 4 if rightwards else start.rect.x0 - 4
            ex = end.rect.x0 - 6 if rightwards else end.rect.x1 + 6
        sy, ey = start.leader_y, end.leader_y
        self.items.append(Line(((sx, sy), (ex, ey)), _INK, 10))
        self.items.append(Line(((sx, sy), (ex, ey)), colour, 6))
        # Arrow head: a triangle at the end, along the line's direction.
        dx, dy = ex - sx, ey - sy
        length = max((dx * dx + dy * dy) ** 0.5, 1.0)
        ux, uy = dx / length, dy / length
        bx, by = ex - ux * 26, ey - uy * 26
        head = (
            (ex, ey),
            (round(bx - uy * 16), round(by + ux * 16)),
            (round(bx + uy * 16), round(by - ux * 16)),
        )
        self.items.append(Polygon(head, colour, _INK, 2))
        mx, my = (sx + ex) // 2, (sy + ey) // 2
        width = text_width(label, Face.CONDENSED, 24) + 16
        pill = Rect(mx - width // 2, my - 17, mx + width // 2 + 1, my + 17)
        self.box(pill, colour, _INK, 2, 8)
        self.text(mx, my, label, Face.CONDENSED, 24, _WHITE, "mm")
        self.regions[name] = Rect(min(sx, ex), min(sy, ey) - 17, max(sx, ex), max(sy, ey) + 17)


def layout_table(
    view: DifView, *, language: str = "en", players: Mapping[str, str] | None = None
) -> Layout:
    """Lay out the spectators' picture of ``view`` in ``language`` (see the module
    docstring); ``players``: who flies each seat, named next to it on its card."""
    return _Builder(view, language, players).build()
