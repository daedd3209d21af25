"""The after-action report of a Down in Flames game, in DiF's words: each aircraft's
line from the typed outcome (its fate, who caused it and when, its hits), with what
only DiF says (a fuel tank hit, a loss while evading, a wingman taking over as leader,
11.2), and the decisive exchanges (who hit whom with which card), from the game's
bookkeeping (:mod:`engine.dif.fates`). Aircraft are named by the ref they started with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.contract import AircraftFate, Fate, Outcome
from engine.core.present import Played, ReportLine, WrittenReport
from engine.dif.components import Side
from engine.dif.game import DifEngine
from engine.dif.state import GameState
from engine.dif.view import ElementView, PlaneView
from strings import Term

__all__ = ["written"]

FATE_KEYS = {
    Fate.SHOT_DOWN: "dif.ui.report.fate.shot_down",
    Fate.LEFT: "dif.ui.report.fate.evaded",
    Fate.DAMAGED: "dif.ui.report.fate.damaged",
    Fate.UNHARMED: "dif.ui.report.fate.unharmed",
}
"""Each fate in words (their English texts are the picture's fate ids); an aircraft
unharmed in the rules' sense that took hits is ``dif.ui.report.fate.hit``."""


def written(
    engine: DifEngine,
    start: GameState,
    moves: Sequence[Played],
    outcome: Outcome,
    players: Mapping[str, str],
) -> WrittenReport:
    """Every aircraft's line (Allied first, by seat) and the decisive exchanges. Its
    words are :class:`Term` texts (English as ``str``)."""
    final: GameState = moves[-1].after if moves else start
    books = final.fates or {}
    fates = {f.ref: f for f in outcome.fates}
    view = engine.view(final, None)
    labels: dict[str, str] = {}
    planes: list[tuple[ElementView, str, PlaneView]] = []
    for el in sorted(view.elements, key=lambda e: (e.side is not Side.ALLIED, e.seat)):
        for ref, p in sorted(_planes_by_origin(el).items()):
            labels[ref] = _original_label(p.aircraft, el.seat, ref, promoted=p.promoted)
            planes.append((el, ref, p))
    lines = []
    for el, ref, p in planes:
        fate = fates[ref]
        detail = _detail(fate, books, labels)
        if p.promoted:
            detail = (
                Term("dif.ui.report.promoted_then", detail=detail)
                if detail
                else Term("dif.ui.report.promoted")
            )
        fate_words = Term(FATE_KEYS[fate.fate])
        if fate.fate is Fate.UNHARMED and fate.hits_taken:
            # Hits below the damage threshold leave the card as it was (5.21): a
            # spectator reads "hit", not "unharmed" next to the hits it took.
            fate_words = Term("dif.ui.report.fate.hit")
            detail = Term("dif.ui.report.not_flipped")
        lines.append(
            ReportLine(
                ref=ref,
                side=el.side.value,
                label=labels[ref],
                player=players.get(el.seat, "?"),
                fate=fate_words,
                detail=detail,
                hits_taken=fate.hits_taken,
                hits_given=fate.hits_given,
            )
        )
    exchanges = tuple(
        (
            turn,
            Term(
                "dif.ui.report.exchange",
                by=labels.get(by, by),
                target=labels.get(target, target),
                card=engine.card_label(card),
                outcome=Term(f"dif.ui.report.fate.{outcome_key}"),
            ),
        )
        for turn, by, target, card, outcome_key in books.get("exchanges", [])
    )
    quiet = None
    if not exchanges:
        hit = any(line.hits_taken for line in lines)
        quiet = Term("dif.ui.report.no_flip" if hit else "dif.ui.report.no_hit")
    return WrittenReport(tuple(lines), exchanges, quiet)


def _detail(fate: AircraftFate, books: Mapping[str, object], labels: Mapping[str, str]) -> str:
    """How: by whom and when, a fuel tank, a loss while evading, leaving the fight."""
    by = labels.get(fate.by, fate.by) if fate.by is not None else None
    if fate.fate is Fate.SHOT_DOWN:
        killer = books.get("killer", {})
        if by is not None:
            fuel = bool(killer[fate.ref][2]) if isinstance(killer, dict) else False
            key = "dif.ui.report.by_fuel" if fuel else "dif.ui.report.by"
            return Term(key, plane=by, turn=fate.turn)
        evading = books.get("evading", [])
        if isinstance(evading, list) and fate.ref in evading:
            return Term("dif.ui.report.lost_evading")
        return ""
    if fate.fate is Fate.LEFT:
        return Term("dif.ui.report.left_damaged" if fate.damaged else "dif.ui.report.left")
    if fate.fate is Fate.DAMAGED and by is not None:
        return Term("dif.ui.report.by", plane=by, turn=fate.turn)
    return ""


def _original_label(aircraft: str, seat: str, ref: str, *, promoted: bool = False) -> str:
    """``Buffalo I (A1 leader)``, ``Buffalo I (wingman of A1, then leader)`` (a :class:`Term`)."""
    if ref.endswith("W"):
        key = "dif.ui.plane.wingman_promoted" if promoted else "dif.ui.plane.wingman"
        return Term(key, name=aircraft, seat=seat)
    return Term("dif.ui.plane.leader", name=aircraft, seat=seat)


def _planes_by_origin(el: ElementView) -> dict[str, PlaneView]:
    """An element's aircraft in a view, keyed by the ref each started with: a leader
    shot down and replaced is ``A1L-lost1`` in the view but ``A1L`` here (11.2)."""
    out: dict[str, PlaneView] = {}
    for p in el.lost:
        out[f"{el.seat}L"] = p
    if el.leader is not None:
        out[f"{el.seat}W" if el.leader.promoted else f"{el.seat}L"] = el.leader
    if el.wingman is not None:
        out[f"{el.seat}W"] = el.wingman
    return out
