"""The after-action report of an Eagles in the Sky engagement, in its words: each
aircraft's fate (from the typed :class:`~engine.core.contract.Outcome`: who shot it
down and on which turn, whom it shot down, its damage) and the decisive exchanges:
every move after which an aircraft was shot down or took damage, with who acted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from engine.core.contract import Fate, Outcome
from engine.core.errors import EngineError
from engine.core.present import Played, ReportLine, WrittenReport
from engine.eagles.actions import Action
from engine.eagles.state import GameState
from strings import Term, has

if TYPE_CHECKING:
    from engine.eagles.ui import EaglesPresenter

__all__ = ["FATE_KEYS", "written"]

FATE_KEYS = {
    Fate.SHOT_DOWN: "eagles.ui.report.fate.shot_down",
    Fate.DAMAGED: "eagles.ui.report.fate.damaged",
    Fate.LEFT: "eagles.ui.report.fate.evaded",
    Fate.UNHARMED: "eagles.ui.report.fate.unharmed",
}
"""Each fate in words (their English texts are the report picture's fate ids)."""


def written(
    presenter: EaglesPresenter,
    start: GameState,
    moves: Sequence[Played],
    outcome: Outcome,
    players: Mapping[str, str],
) -> WrittenReport:
    """Every aircraft's line (Allies first) and the decisive exchanges."""
    final: GameState = moves[-1].after if moves else start
    labels = {p.ref: presenter.plane(final, p.ref) for p in final.planes}
    lines = []
    for f in sorted(outcome.fates, key=lambda f: (f.side, int(f.ref[1:]))):
        detail: str = ""
        if f.fate is Fate.SHOT_DOWN:
            by = labels.get(f.by or "", f.by) if f.by else Term("eagles.ui.report.unknown")
            if f.by in labels:
                detail = Term("eagles.ui.report.by", plane=by, turn=f.turn or "?")
            elif f.by:
                key = f"eagles.cause.{f.by}"
                cause = Term(key) if has(key) else f.by
                detail = Term("eagles.ui.report.by_cause", cause=cause, turn=f.turn or "?")
        p = final.find(f.ref)
        kills = [labels.get(r, r) for r in (p.kills if p is not None else [])]
        if kills:
            shot = Term("eagles.ui.report.kills", planes=", ".join(kills))
            detail = Term("eagles.ui.report.and", a=detail, b=shot) if detail else shot
        lines.append(
            ReportLine(
                ref=f.ref,
                side=f.side,
                label=labels.get(f.ref, f.ref),
                player=players.get(f.seat, "?"),
                fate=Term(FATE_KEYS[f.fate]),
                detail=detail,
                hits_taken=f.hits_taken,
                hits_given=f.hits_given,
            )
        )
    return WrittenReport(tuple(lines), tuple(_exchanges(presenter, moves, labels)))


def _exchanges(
    presenter: EaglesPresenter, moves: Sequence[Played], labels: Mapping[str, str]
) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for m in moves:
        before: GameState = m.before
        after: GameState = m.after
        try:
            a = Action.from_text(m.text)
        except EngineError:
            continue
        actor = a.plane or (before.pending.actor if before.pending is not None else None)
        for p in after.planes:
            q = before.find(p.ref)
            if q is None or not q.flying:
                continue
            who = labels.get(actor or "", "") if actor and actor != p.ref else ""
            if not p.flying and p.status == "shot_down":
                result: str = Term("eagles.ui.report.fate.shot_down")
            elif sum(p.damage.values()) > sum(q.damage.values()):
                n = sum(p.damage.values()) - sum(q.damage.values())
                result = Term("eagles.ui.report.hits", n=n)
            else:
                continue
            out.append(
                (
                    before.turn,
                    Term(
                        "eagles.ui.report.exchange",
                        by=who or "-",
                        target=labels.get(p.ref, p.ref),
                        outcome=result,
                    ),
                )
            )
    return out
