"""The after-action report of a finished dogfight, as a picture.

:class:`ReportView` is what the report shows, as plain public data: the result, VP
by side, each aircraft's fate, hits given and taken, and the decisive exchanges.
The bot computes it from the replayed game (:mod:`bot.report`, each aircraft's line
in its system's words); this module only lays it out and paints it, with the shapes,
fonts, palette and painter shared by every picture (:mod:`rendering.shapes`,
:mod:`rendering.palette`, :mod:`rendering.table`). Generic over systems: sides come
with their names, and take their colour and marker by their order.

The picture is 960 px wide with no text under 22 px, like the picture of the sky,
so it stays legible once Discord shrinks it to a phone's width. Side colours come
with the side's marker glyph and name, never colour alone. The output depends on
the view only: the same report always gives the same bytes.

The picture's own words come from the strings catalogue (``picture.report.*``) in
the ``language`` asked for; the report's texts (title, verdict, labels, details,
exchanges) are put in it with :func:`strings.tr` when they are
:class:`strings.Term` texts, as :func:`bot.report.after_action_report` makes them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.contract import SideInfo
from engine.core.present import ReportLine
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
    WHITE,
    plural,
    side_colour,
    side_marker,
)
from rendering.shapes import (
    MIN_TEXT_SIZE,
    RGB,
    Box,
    Item,
    Layout,
    Rect,
    Text,
    fit_text,
    text_width,
    wrap_text,
)
from rendering.table import draw_layout, encode_png
from strings import t, tr

__all__ = [
    "FATES",
    "AircraftLine",
    "ExchangeLine",
    "ReportView",
    "layout_report",
    "render_report",
]

FATES = ("shot down", "damaged", "evaded", "hit", "unharmed")
"""An aircraft's fate, worst first: ids (the English words of ``report.fate.*``); the
picture writes them with ``picture.report.fate.*``."""
_FATE_KEYS = {fate: f"picture.report.fate.{fate.replace(' ', '_')}" for fate in FATES}


AircraftLine = ReportLine
"""One aircraft of the report (:class:`engine.core.present.ReportLine`): its ref,
side, label, player, fate (a plain id of :data:`FATES` or a Term whose English text is
one), how (``by Ki-43 Oscar (X1 leader), turn 3``), hits taken and given."""


@dataclass(frozen=True, slots=True)
class ExchangeLine:
    """An attack that shot down or damaged an aircraft."""

    turn: int
    text: str
    """``Ki-43 Oscar (X1 leader) → Buffalo I (A1 leader), In My Sights (2B/3D): shot down``."""


@dataclass(frozen=True, slots=True)
class ReportView:
    """Everything the after-action report shows (public information only)."""

    title: str
    """``Dogfight #12: after-action report``."""
    verdict: str
    sides: tuple[SideInfo, ...]
    """The game's sides in order, with their names (Terms)."""
    winner: str | None
    vp: dict[str, int]
    turns: int
    """Game turns played."""
    aircraft: tuple[AircraftLine, ...]
    exchanges: tuple[ExchangeLine, ...]
    no_exchanges: str | None = None
    """What the exchanges section says when it has none (a Term, the system's words);
    None: ``picture.report.no_exchanges``."""


# --- layout -------------------------------------------------------------------

WIDTH = 960
MAX_EXCHANGES = 12
"""Decisive exchanges drawn at most (the message text lists them all)."""

_M = 20  # outer margin
_PAD = 16  # inside a card
_FATE_BG: dict[str, RGB] = {
    "shot down": (55, 65, 81),
    "damaged": (251, 191, 36),
    "evaded": (15, 118, 110),
    "hit": (194, 65, 12),
    "unharmed": (22, 101, 52),
}
_FATE_INK: dict[str, RGB] = {
    "shot down": WHITE,
    "damaged": INK,
    "evaded": WHITE,
    "hit": WHITE,
    "unharmed": WHITE,
}


class _Column:
    """Items stacked top to bottom."""

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.y = 0

    def text(self, x: int, text: str, face: Face, size: int, fill: RGB, height: int) -> None:
        self.items.append(Text(x, self.y + height // 2, text, face, size, fill))
        self.y += height


def _fate(fate: str, language: str) -> str:
    """The fate badge's words: ``SHOT DOWN``."""
    key = _FATE_KEYS.get(fate)
    return t(key, language) if key is not None else tr(fate, language).upper()


def _header(report: ReportView, col: _Column, language: str) -> None:
    title, size = fit_text(tr(report.title, language), Face.BOLD, 32, WIDTH - 2 * _M)
    lines: list[tuple[str, Face, int, RGB]] = [(title, Face.BOLD, size, WHITE)]
    for part in wrap_text(tr(report.verdict, language), Face.BOLD, 28, WIDTH - 2 * _M):
        lines.append((part, Face.BOLD, 28, GOLD_LIGHT))
    turns = plural("picture.report.turns", language, report.turns)
    vp = " · ".join(
        f"{side_marker(i)} "
        + t("picture.report.vp", language, side=tr(s.name, language), vp=report.vp.get(s.id, 0))
        for i, s in enumerate(report.sides)
    )
    sub = fit_text(f"{vp} · {turns}", Face.REGULAR, 24, WIDTH - 2 * _M)
    top = col.y
    height = _PAD + sum(44 if size > 28 else 38 for _, _, size, _ in lines) + 36 + _PAD
    col.items.append(Box(Rect(0, top, WIDTH, top + height), HEADER_BG))
    col.y += _PAD
    for text, face, size, fill in lines:
        col.text(_M, text, face, size, fill, 44 if size > 28 else 38)
    col.text(_M, sub[0], Face.REGULAR, sub[1], HEADER_SUB, 36)
    col.y = top + height


def _aircraft_card(line: AircraftLine, side: SideInfo, n: int, col: _Column, language: str) -> None:
    x0, x1 = _M, WIDTH - _M
    inner = x1 - x0 - 2 * _PAD
    top = col.y
    strip_h, name_h, row_h = 34, 40, 34
    said = tr(line.detail, language) if line.detail else ""
    detail = wrap_text(said, Face.REGULAR, 22, inner) if said else []
    height = strip_h + name_h + row_h * (1 + len(detail)) + _PAD // 2
    colour = side_colour(n)
    col.items.append(Box(Rect(x0, top, x1, top + height), CARD_BG, CARD_BORDER, width=2, radius=10))
    col.items.append(Box(Rect(x0, top, x1, top + strip_h), colour, radius=10))
    col.items.append(Box(Rect(x0, top + strip_h - 10, x1, top + strip_h), colour))
    # The fate badge, right-aligned in the strip: words, not only a colour; wider
    # than 170 px only for a longer word (ENDOMMAGÉ).
    badge = _fate(line.fate, language)
    bw = max(170, text_width(badge, Face.BOLD, MIN_TEXT_SIZE) + 12)
    side_name = tr(side.name, language)
    player = tr(line.player, language)
    who = fit_text(f"{side_marker(n)} {side_name} · {player}", Face.BOLD, 22, inner - bw - 10)
    col.items.append(Text(x0 + _PAD, top + strip_h // 2, who[0], Face.BOLD, who[1], WHITE))
    col.items.append(
        Box(
            Rect(x1 - _PAD - bw, top + 4, x1 - _PAD, top + strip_h - 4),
            _FATE_BG.get(line.fate, MUTED),
            WHITE,
            width=1,
            radius=6,
        )
    )
    col.items.append(
        Text(
            x1 - _PAD - bw // 2,
            top + strip_h // 2,
            fit_text(badge, Face.BOLD, 22, bw - 8)[0],
            Face.BOLD,
            MIN_TEXT_SIZE,
            _FATE_INK.get(line.fate, WHITE),
            anchor="mm",
        )
    )
    col.y = top + strip_h
    name = fit_text(tr(line.label, language), Face.CONDENSED, 28, inner)
    col.text(x0 + _PAD, name[0], Face.CONDENSED, name[1], INK, name_h)
    if line.hits_given or line.hits_taken:
        taken, given = line.hits_taken, line.hits_given
        hits = t("picture.report.hits", language, taken=taken, given=given)
    else:
        hits = t("picture.report.no_hits", language)
    col.text(x0 + _PAD, hits, Face.BOLD, 22, INK, row_h)
    for part in detail:
        col.text(x0 + _PAD, part, Face.REGULAR, 22, MUTED, row_h)
    col.y = top + height + 12


def _section(title: str, col: _Column) -> None:
    col.y += 6
    col.text(_M, title, Face.BOLD, 26, INK, 44)


def layout_report(report: ReportView, *, language: str = "en") -> Layout:
    """The report as shapes, in ``language``: header, one card per aircraft (side
    after side, in the game's order), exchanges."""
    col = _Column()
    _header(report, col, language)
    col.y += 12
    for n, side in enumerate(report.sides):
        planes = [a for a in report.aircraft if a.side == side.id]
        if not planes:
            continue
        _section(f"{side_marker(n)} {tr(side.name, language)}", col)
        for line in planes:
            _aircraft_card(line, side, n, col, language)
    _section(t("picture.report.exchanges", language), col)
    shown = report.exchanges[:MAX_EXCHANGES]
    if not shown:
        none = (
            tr(report.no_exchanges, language)
            if report.no_exchanges
            else t("picture.report.no_exchanges", language)
        )
        for part in wrap_text(none, Face.REGULAR, 22, WIDTH - 2 * _M):
            col.text(_M, part, Face.REGULAR, 22, MUTED, 34)
    for x in shown:
        said = t("picture.report.exchange", language, turn=x.turn, text=tr(x.text, language))
        parts = wrap_text(said, Face.REGULAR, 22, WIDTH - 2 * _M - 16)
        for i, part in enumerate(parts):
            col.text(_M + (16 if i else 0), part, Face.REGULAR, 22, INK, 32)
        col.y += 6
    if len(report.exchanges) > len(shown):
        more = len(report.exchanges) - len(shown)
        said = t("picture.report.more", language, n=more)
        col.text(_M, said, Face.REGULAR, 22, MUTED, 34)
    col.y += _M
    return Layout(WIDTH, col.y, PAGE, tuple(col.items))


def render_report(report: ReportView, *, language: str = "en") -> bytes:
    """The after-action report as PNG bytes in ``language`` (deterministic)."""
    return encode_png(draw_layout(layout_report(report, language=language)))
