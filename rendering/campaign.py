"""A campaign's sheet as a picture: what ``/campaign status`` posts.

:func:`layout_sheet` turns a :class:`~engine.core.campaign.CampaignSheet` into a
:class:`~rendering.shapes.Layout` (shapes plus named ``regions`` the tests check
without pixels); :func:`render_sheet` paints it with the painter every picture uses
(:mod:`rendering.table`). Generic over systems: the sheet brings its sides, missions,
totals and the system's own tables, all as texts; sides take their colour and marker
by their order in ``sheet.sides``.

The picture, top to bottom, on a 960 px wide canvas (no text under 22 px):

- a header: the campaign's title, its options, how many missions are flown;
- the result, once the campaign is over, in a gold-edged card: the verdict, then
  each side's level and total;
- the missions: a header row with each side's name in its colour, one row per
  mission (number, title, a badge saying flown / next / ahead, each side's score
  once flown, the row's note underneath), and the running totals;
- what comes next, in lines;
- the reader's own secret decisions (``sheet.secrets``: only in a side's own sheet),
  in an amber box of its own, so a shared screenshot shows at once that it is not
  the spectators' picture;
- each of the system's tables (a roster, the front), as a grid.

Colour is never the only signal: the state badges are words, the sides have their
markers and names. Titles wrap to two lines, then are cut with "…"; columns shrink
when there are more sides; the picture grows with the missions. Words come from
``picture.campaign.*`` in the ``language`` asked for; the sheet's texts are put in it
with :func:`strings.tr`. The same sheet always gives the same layout and bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.campaign import CampaignResult, CampaignSheet, MissionRow, MissionState, SheetTable
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
    Drawing,
    Layout,
    Line,
    Rect,
    text_width,
    wrap_text,
)
from rendering.table import draw_layout, encode_png
from strings import t, tr

__all__ = [
    "MAX_TABLE_ROWS",
    "WIDTH",
    "layout_sheet",
    "mission_window",
    "render_sheet",
    "sheet_alt_text",
]

WIDTH = 960
MAX_TABLE_ROWS = 30
"""Rows of one of the system's tables drawn at most (a note says how many more)."""
MAX_MISSION_ROWS = 12
"""Missions drawn at most: the ones around the next (a note says how many are left
out before and after; ``/campaign log`` and the alt text keep them all)."""
MAX_ALT_TEXT = 1000
"""Discord's attachment description holds 1024 characters."""

_M = 20  # outer margin
_PAD = 16  # inside a card
_INNER = WIDTH - 2 * _M - 2 * _PAD  # the width of a card's contents
_CELL = 10  # padding inside a grid cell
_ROW = 44  # a mission's first line
_MORE_ROW = 32  # each more line of a mission's title
_NOTE_ROW = 30  # each line of a mission's note
_CELL_ROW = 38  # a row of a system's table
_MIN_COLUMN = 100  # a system's table column is never narrower (else columns are dropped)

_HEAD_ROW_BG: RGB = (226, 232, 240)
_RULE: RGB = (203, 213, 225)
_NEXT_BG: RGB = (254, 249, 195)
_TOTAL_BG: RGB = (241, 245, 249)
_SECRET_BG: RGB = (255, 247, 237)
_SECRET_EDGE: RGB = (194, 65, 12)
_SECRET_INK: RGB = (124, 45, 18)
_STATE_BG: dict[MissionState, RGB] = {
    MissionState.FLOWN: (22, 101, 52),
    MissionState.NEXT: GOLD_LIGHT,
    MissionState.AHEAD: (226, 232, 240),
}
_STATE_KEYS: dict[MissionState, str] = {
    MissionState.FLOWN: "picture.campaign.state.flown",
    MissionState.NEXT: "picture.campaign.state.next",
    MissionState.AHEAD: "picture.campaign.state.ahead",
}
_STATE_INK: dict[MissionState, RGB] = {
    MissionState.FLOWN: WHITE,
    MissionState.NEXT: INK,
    MissionState.AHEAD: MUTED,
}


# --- text helpers -----------------------------------------------------------------


def _lines(text: str, face: Face, size: int, width: int, most: int) -> list[str]:
    """``text`` wrapped to ``width``, at most ``most`` lines, the last one cut with …
    if more were needed."""
    lines = wrap_text(text, face, size, width)
    if len(lines) <= most:
        return lines
    rest = " ".join(lines[most - 1 :])
    return [*lines[: most - 1], _fit(rest, face, width, size)]


def _fit(text: str, face: Face, width: int, size: int = MIN_TEXT_SIZE) -> str:
    """``text`` cut with … to fit ``width`` at ``size`` (the size it is drawn at)."""
    if text_width(text, face, size) <= width:
        return text
    while text and text_width(text + "…", face, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _is_number(text: str) -> bool:
    return text.strip().lstrip("+-−").isdigit()


# --- the picture ------------------------------------------------------------------


class _Sheet:
    """The layout under construction: a :class:`Drawing` and the height reached."""

    def __init__(self, sheet: CampaignSheet, language: str) -> None:
        self.sheet = sheet
        self.language = language
        self.d = Drawing()
        self.y = 0

    def say(self, key: str, **fields: object) -> str:
        return t(key, self.language, **fields)

    def tr(self, text: object) -> str:
        return tr(text, self.language)

    def side_name(self, n: int) -> str:
        return self.tr(self.sheet.sides[n].name)

    # --- header and result ----------------------------------------------------------

    def header(self) -> None:
        sheet, d = self.sheet, self.d
        width = WIDTH - 2 * _M
        rows: list[tuple[str, Face, int, RGB, int]] = [
            (line, Face.BOLD, 32, WHITE, 44)
            for line in _lines(self.tr(sheet.title), Face.BOLD, 32, width, 2)
        ]
        options = " · ".join(self.tr(o) for o in sheet.options)
        for line in _lines(options, Face.REGULAR, 24, width, 2) if options else []:
            rows.append((line, Face.REGULAR, 24, HEADER_SUB, 36))
        flown = sum(m.state is MissionState.FLOWN for m in sheet.missions)
        progress = self.say("picture.campaign.flown", flown=flown, total=len(sheet.missions))
        rows.append((_fit(progress, Face.REGULAR, width, 24), Face.REGULAR, 24, HEADER_SUB, 36))
        height = _PAD + sum(r[4] for r in rows) + _PAD
        area = Rect(0, 0, WIDTH, height)
        d.box(area, HEADER_BG)
        d.regions["header"] = area
        y = _PAD
        for text, face, size, fill, step in rows:
            d.text(_M, y + step // 2, text, face, size, fill)
            y += step
        self.y = height + 16

    def result(self, result: CampaignResult) -> None:
        """The end of the campaign, in a gold-edged dark card: its verdict, then each
        side's level on its chart and total."""
        d, sheet = self.d, self.sheet
        x0, x1 = _M, WIDTH - _M
        verdict = _lines(self.tr(result.verdict), Face.BOLD, 30, _INNER, 3)
        label = self.tr(sheet.total_label)
        sides: list[tuple[str, RGB]] = []
        for n, side in enumerate(sheet.sides):
            total = result.totals.get(side.id, sheet.totals.get(side.id, 0))
            level = result.levels.get(side.id)
            said = self.say(
                "picture.campaign.result.level" if level else "picture.campaign.result.total",
                side=self.side_name(n),
                level=self.tr(level or ""),
                total=total,
                label=label,
            )
            colour = SIDE_ON_DARK[n % len(SIDE_ON_DARK)]
            sides.append((_fit(f"{side_marker(n)} {said}", Face.BOLD, _INNER, 24), colour))
        top = self.y
        height = _PAD + 34 + 42 * len(verdict) + 8 + 38 * len(sides) + _PAD
        area = Rect(x0, top, x1, top + height)
        d.box(area, HEADER_BG, GOLD_LIGHT, width=4, radius=12)
        d.regions["result"] = area
        y = top + _PAD
        d.text(x0 + _PAD, y + 17, self.say("picture.campaign.over"), Face.BOLD, 24, GOLD_LIGHT)
        y += 34
        for line in verdict:
            d.text(x0 + _PAD, y + 21, line, Face.BOLD, 30, WHITE)
            y += 42
        y += 8
        for text, colour in sides:
            d.text(x0 + _PAD, y + 19, text, Face.BOLD, 24, colour)
            y += 38
        self.y = top + height + 16

    # --- the missions ---------------------------------------------------------------

    def mission_columns(self) -> tuple[int, int, int, int]:
        """The widths of the number, title, state and each side's column: the sides'
        columns shrink as sides are added, the title takes what is left."""
        number = max(56, text_width("00", Face.BOLD, 24) + 2 * _CELL)
        state = max(
            text_width(self.say(_STATE_KEYS[s]), Face.CONDENSED, MIN_TEXT_SIZE) + 18
            for s in MissionState
        )
        state += 2 * _CELL
        n = max(len(self.sheet.sides), 1)
        room = _INNER - number - state
        side = max(64, min(130, (room - 280) // n))
        # Beyond the eight sides the palette tells apart, the title keeps 160 px.
        side = min(side, (room - 160) // n)
        title = room - n * side
        return number, title, state, side

    def missions(self) -> None:
        d, sheet = self.d, self.sheet
        x0, x1 = _M, WIDTH - _M
        number_w, title_w, state_w, side_w = self.mission_columns()
        cx = x0 + _PAD
        title_x = cx + number_w
        state_x = title_x + title_w
        sides_x = state_x + state_w
        shown, before, after = mission_window(sheet.missions)
        rows = [self._mission_lines(m, title_w, x1 - _PAD - title_x) for m in shown]
        head_h, total_h = 46, 48
        skipped = [
            plural_of(key, self.language, n)
            for key, n in (
                ("picture.campaign.earlier_missions", before),
                ("picture.campaign.later_missions", after),
            )
            if n
        ]
        names = [f"{side_marker(n)} {self.side_name(n)}" for n in range(len(sheet.sides))]
        # A name too long for its column: the columns show the markers only, and a
        # legend above them names the sides.
        cut = any(text_width(name, Face.CONDENSED, 22) > side_w - 8 for name in names)
        legend = _flow(names, _INNER, 24) if cut else []
        legend_h = (34 * (max(at for at, _, _ in legend) + 1) + 8) if legend else 0
        body = sum(_row_height(title, note) for title, note in rows) + _NOTE_ROW * len(skipped)
        top = self.y
        height = _PAD // 2 + legend_h + head_h + body + total_h + _PAD // 2
        area = Rect(x0, top, x1, top + height)
        d.box(area, CARD_BG, CARD_BORDER, width=2, radius=10)
        d.regions["missions"] = area
        y = top + _PAD // 2
        for at, x, n in legend:
            name = _fit(names[n], Face.BOLD, _INNER)
            d.text(cx + x, y + 4 + 34 * at + 17, name, Face.BOLD, 22, side_colour(n))
        if legend:
            d.regions["legend"] = Rect(x0, y, x1, y + legend_h)
        y += legend_h
        # The header row: each side's name (or its marker) in its colour.
        d.box(Rect(x0 + 2, y, x1 - 2, y + head_h), _HEAD_ROW_BG)
        mid = y + head_h // 2
        d.text(
            cx + number_w // 2,
            mid,
            self.say("picture.campaign.column.number"),
            Face.BOLD,
            22,
            MUTED,
            "mm",
        )
        d.text(
            title_x + _CELL, mid, self.say("picture.campaign.column.mission"), Face.BOLD, 22, MUTED
        )
        for n in range(len(sheet.sides)):
            sx = sides_x + n * side_w
            name = side_marker(n) if cut else names[n]
            d.text(sx + side_w // 2, mid, name, Face.CONDENSED, 22, side_colour(n), "mm")
            d.regions[f"side:{sheet.sides[n].id}"] = Rect(sx, y, sx + side_w, y + head_h)
        y += head_h
        if before:
            d.text(title_x + _CELL, y + _NOTE_ROW // 2, skipped[0], Face.REGULAR, 22, MUTED)
            y += _NOTE_ROW
        for mission, (title, note) in zip(shown, rows, strict=True):
            h = _row_height(title, note)
            row = Rect(x0 + 2, y, x1 - 2, y + h)
            if mission.state is MissionState.NEXT:
                d.box(row, _NEXT_BG)
            d.regions[f"mission:{mission.number}"] = row
            ink = MUTED if mission.state is MissionState.AHEAD else INK
            first = y + 4 + _ROW // 2
            d.text(cx + number_w // 2, first, str(mission.number), Face.BOLD, 24, ink, "mm")
            for i, line in enumerate(title):
                d.text(title_x + _CELL, first + i * _MORE_ROW, line, Face.BOLD, 24, ink)
            self._state(mission.state, state_x + _CELL, first, state_w - 2 * _CELL)
            if mission.state is MissionState.FLOWN:
                for n, side in enumerate(sheet.sides):
                    score = mission.vp.get(side.id)
                    text = "–" if score is None else str(score)
                    sx = sides_x + n * side_w + side_w // 2
                    d.text(sx, first, text, Face.BOLD, 26, side_colour(n), "mm")
            ny = y + 4 + _ROW + _MORE_ROW * (len(title) - 1)
            for line in note:
                d.text(title_x + _CELL, ny + _NOTE_ROW // 2, line, Face.REGULAR, 22, MUTED)
                ny += _NOTE_ROW
            y += h
            d.items.append(Line(((x0 + 2, y - 1), (x1 - 3, y - 1)), _RULE, 1))
        if after:
            d.text(title_x + _CELL, y + _NOTE_ROW // 2, skipped[-1], Face.REGULAR, 22, MUTED)
            y += _NOTE_ROW
        # The running totals.
        totals = Rect(x0 + 2, y, x1 - 2, y + total_h)
        d.box(totals, _TOTAL_BG)
        d.regions["totals"] = totals
        mid = y + total_h // 2
        label = self.say("picture.campaign.total", label=self.tr(sheet.total_label))
        d.text(
            title_x + _CELL,
            mid,
            _fit(label, Face.BOLD, title_w + state_w - 2 * _CELL, 24),
            Face.BOLD,
            24,
            INK,
        )
        for n, side in enumerate(sheet.sides):
            sx = sides_x + n * side_w + side_w // 2
            total = str(sheet.totals.get(side.id, 0))
            d.text(sx, mid, total, Face.BOLD, 28, side_colour(n), "mm")
        self.y = top + height + 16

    def _mission_lines(
        self, m: MissionRow, title_w: int, note_w: int
    ) -> tuple[list[str], list[str]]:
        title = _lines(self.tr(m.title), Face.BOLD, 24, title_w - 2 * _CELL, 2) or [""]
        note = self.tr(m.note) if m.note else ""
        return title, _lines(note, Face.REGULAR, 22, note_w - _CELL, 2) if note else []

    def _state(self, state: MissionState, x: int, y: int, width: int) -> None:
        """The mission's badge: words on a colour."""
        label = _fit(self.say(_STATE_KEYS[state]), Face.CONDENSED, width - 12)
        self.d.box(Rect(x, y - 15, x + width, y + 15), _STATE_BG[state], radius=8)
        self.d.text(x + width // 2, y, label, Face.CONDENSED, 22, _STATE_INK[state], "mm")

    # --- next, secrets ------------------------------------------------------------

    def section(self, title: str) -> None:
        title = _fit(title, Face.BOLD, WIDTH - 2 * _M, 26)
        self.d.text(_M, self.y + 20, title, Face.BOLD, 26, INK)
        self.y += 44

    def next_lines(self) -> None:
        lines = self.sheet.next
        self.section(self.say("picture.campaign.next"))
        wrapped = [
            (i, part)
            for line in lines
            for i, part in enumerate(wrap_text(self.tr(line), Face.REGULAR, 24, _INNER - 24))
        ]
        top = self.y
        height = _PAD + 36 * len(wrapped) + _PAD
        area = Rect(_M, top, WIDTH - _M, top + height)
        self.d.box(area, CARD_BG, CARD_BORDER, width=2, radius=10)
        self.d.regions["next"] = area
        y = top + _PAD
        for i, part in wrapped:
            if i == 0:
                self.d.text(_M + _PAD, y + 18, "▶", Face.CONDENSED, 22, MUTED)
            self.d.text(_M + _PAD + 24, y + 18, part, Face.REGULAR, 24, INK)
            y += 36
        self.y = top + height + 16

    def secrets(self) -> None:
        """The reader's side's own secret decisions, boxed apart: amber, thick edge."""
        d = self.d
        title = _fit(self.say("picture.campaign.secrets.title"), Face.BOLD, _INNER, 28)
        hint = wrap_text(self.say("picture.campaign.secrets.hint"), Face.REGULAR, 22, _INNER)
        lines = [
            (i, part)
            for line in self.sheet.secrets
            for i, part in enumerate(wrap_text(self.tr(line), Face.BOLD, 24, _INNER - 24))
        ]
        top = self.y
        height = _PAD + 40 + 32 * len(hint) + 8 + 36 * len(lines) + _PAD
        area = Rect(_M, top, WIDTH - _M, top + height)
        d.box(area, _SECRET_BG, _SECRET_EDGE, width=4, radius=12)
        d.regions["secrets"] = area
        y = top + _PAD
        d.text(_M + _PAD, y + 20, title, Face.BOLD, 28, _SECRET_EDGE)
        y += 40
        for part in hint:
            d.text(_M + _PAD, y + 16, part, Face.REGULAR, 22, _SECRET_INK)
            y += 32
        y += 8
        for i, part in lines:
            if i == 0:
                d.text(_M + _PAD, y + 18, "•", Face.BOLD, 24, _SECRET_EDGE)
            d.text(_M + _PAD + 24, y + 18, part, Face.BOLD, 24, INK)
            y += 36
        self.y = top + height + 16

    # --- the system's tables ------------------------------------------------------

    def table(self, index: int, table: SheetTable) -> None:
        """One of the system's tables as a grid: the columns take their natural width
        when they fit, else share the card (the widest cut with …); columns that
        cannot have :data:`_MIN_COLUMN` px are left out, and said so."""
        d = self.d
        self.section(self.tr(table.title))
        header = [self.tr(c) for c in table.columns]
        rows = [[self.tr(c) for c in row] for row in table.rows]
        ncols = max([len(header), *(len(r) for r in rows)], default=0)
        header += [""] * (ncols - len(header))
        rows = [r + [""] * (ncols - len(r)) for r in rows]
        shown_cols = min(ncols, _INNER // _MIN_COLUMN)
        shown_rows = rows[:MAX_TABLE_ROWS]
        widths = _column_widths(
            [
                max(
                    [text_width(header[c], Face.BOLD, 22)]
                    + [text_width(r[c], Face.REGULAR, 22) for r in shown_rows]
                )
                + 2 * _CELL
                for c in range(shown_cols)
            ],
            _INNER,
        )
        # A column of numbers is centred, its heading too.
        numeric = [
            any(r[c] for r in shown_rows) and all(_is_number(r[c]) for r in shown_rows if r[c])
            for c in range(shown_cols)
        ]
        notes = []
        if len(rows) > len(shown_rows):
            more = len(rows) - len(shown_rows)
            notes.append(plural_of("picture.campaign.more_rows", self.language, more))
        if ncols > shown_cols:
            more = ncols - shown_cols
            notes.append(plural_of("picture.campaign.more_columns", self.language, more))
        top = self.y
        height = _PAD // 2 + _CELL_ROW * (1 + len(shown_rows)) + 32 * len(notes) + _PAD // 2
        area = Rect(_M, top, WIDTH - _M, top + height)
        d.box(area, CARD_BG, CARD_BORDER, width=2, radius=10)
        d.regions[f"table:{index}"] = area
        y = top + _PAD // 2
        d.box(Rect(_M + 2, y, WIDTH - _M - 2, y + _CELL_ROW), _HEAD_ROW_BG)
        for r, cells in enumerate([header[:shown_cols], *(row[:shown_cols] for row in shown_rows)]):
            face = Face.BOLD if r == 0 else Face.REGULAR
            x = _M + _PAD
            ink = MUTED if r == 0 else INK
            for cell, w, centred in zip(cells, widths, numeric, strict=True):
                text = _fit(cell, face, w - 2 * _CELL)
                if text and centred:
                    d.text(x + w // 2, y + _CELL_ROW // 2, text, face, 22, ink, "mm")
                elif text:
                    d.text(x + _CELL, y + _CELL_ROW // 2, text, face, 22, ink)
                x += w
            y += _CELL_ROW
            if r:
                d.items.append(Line(((_M + 2, y - 1), (WIDTH - _M - 3, y - 1)), _RULE, 1))
        for note in notes:
            d.text(_M + _PAD, y + 16, _fit(note, Face.REGULAR, _INNER), Face.REGULAR, 22, MUTED)
            y += 32
        self.y = top + height + 16


def mission_window(
    missions: Sequence[MissionRow], most: int = MAX_MISSION_ROWS
) -> tuple[Sequence[MissionRow], int, int]:
    """The missions the picture draws, and how many it leaves out before and after:
    all of them if they fit; else the next mission with the ones flown just before
    it and, after it, a quarter of the rows (the end of the campaign: the last ones)."""
    if len(missions) <= most:
        return missions, 0, 0
    at = next((i for i, m in enumerate(missions) if m.state is not MissionState.FLOWN), None)
    if at is None:
        start = len(missions) - most
    else:
        start = max(0, min(at - (most - max(1, most // 4)), len(missions) - most))
    return missions[start : start + most], start, len(missions) - start - most


def _flow(texts: Sequence[str], width: int, gap: int) -> list[tuple[int, int, int]]:
    """``texts`` set side by side at 22 px bold, onto more lines when full: each
    one's (line, x, index); one too long for a line is cut there."""
    placed: list[tuple[int, int, int]] = []
    row, x = 0, 0
    for i, text in enumerate(texts):
        w = min(text_width(text, Face.BOLD, 22), width)
        if x and x + w > width:
            row, x = row + 1, 0
        placed.append((row, x, i))
        x += w + gap
    return placed


def _row_height(title: Sequence[str], note: Sequence[str]) -> int:
    """A mission's row: its title's lines, then its note's."""
    return 4 + _ROW + _MORE_ROW * (len(title) - 1) + _NOTE_ROW * len(note) + 4


def _column_widths(natural: Sequence[int], room: int) -> list[int]:
    """Widths of columns sharing ``room``: their natural widths, stretched alike when
    they fit; else the narrow ones keep theirs and the wide ones share the rest."""
    if not natural:
        return []
    total = sum(natural)
    if total <= room:
        widths = [w * room // total for w in natural]
    else:
        widths = list(natural)
        left, wide = room, list(range(len(natural)))
        while wide:
            share = left // len(wide)
            narrow = [c for c in wide if natural[c] <= share]
            if not narrow:
                for c in wide:
                    widths[c] = share
                break
            for c in narrow:
                left -= natural[c]
                wide.remove(c)
    widths[-1] += room - sum(widths)  # rounding: the grid fills the card exactly
    return widths


def layout_sheet(sheet: CampaignSheet, *, language: str = "en") -> Layout:
    """The campaign's sheet as shapes, in ``language`` (see the module docstring).

    Regions: ``header``, ``result`` (once over), ``missions``, ``side:<id>`` (its
    column's header), ``mission:<number>``, ``totals``, ``next`` (if any lines),
    ``secrets`` (only if the sheet has some), ``table:<i>``."""
    s = _Sheet(sheet, language)
    s.header()
    if sheet.result is not None:
        s.result(sheet.result)
    s.missions()
    if sheet.next:
        s.next_lines()
    if sheet.secrets:
        s.secrets()
    for i, table in enumerate(sheet.tables):
        s.table(i, table)
    height = s.y - 16 + _M
    return Layout(WIDTH, height, PAGE, tuple(s.d.items), dict(s.d.regions))


def render_sheet(sheet: CampaignSheet, *, language: str = "en") -> bytes:
    """The campaign's sheet as PNG bytes in ``language`` (deterministic)."""
    return encode_png(draw_layout(layout_sheet(sheet, language=language)))


def sheet_alt_text(sheet: CampaignSheet, language: str = "en") -> str:
    """The picture in a few words, for Discord's alt text: the title, missions
    flown, the totals, the next mission, the result. Never the secrets (the alt text
    travels with the picture wherever it is shared)."""

    label = tr(sheet.total_label, language)
    totals = ", ".join(
        t(
            "picture.campaign.alt.side_total",
            language,
            side=tr(side.name, language),
            total=sheet.totals.get(side.id, 0),
            label=label,
        )
        for side in sheet.sides
    )
    flown = sum(m.state is MissionState.FLOWN for m in sheet.missions)
    parts = [
        t("picture.campaign.alt.title", language, title=tr(sheet.title, language)),
        t("picture.campaign.alt.flown", language, flown=flown, total=len(sheet.missions)),
        t("picture.campaign.alt.totals", language, totals=totals),
    ]
    upcoming = next((m for m in sheet.missions if m.state is MissionState.NEXT), None)
    if upcoming is not None:
        parts.append(
            t(
                "picture.campaign.alt.next",
                language,
                number=upcoming.number,
                title=tr(upcoming.title, language),
            )
        )
    if sheet.result is not None:
        parts.append(
            t("picture.campaign.alt.result", language, verdict=tr(sheet.result.verdict, language))
        )
    text = " ".join(parts)
    return text if len(text) <= MAX_ALT_TEXT else text[: MAX_ALT_TEXT - 1].rstrip() + "…"
