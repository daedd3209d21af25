"""The after-action report of a Locked-On dogfight, in Locked-On's words: each aircraft's
fate (from the typed :class:`~engine.core.contract.Outcome`: who shot it down and in
which round, whom it shot down) and the decisive exchanges: every gun attack and every
missile fired, with the reactions played against it and how it ended.

A shot either destroys its target or is defeated (L136-138, L259-264): there is no
damage in Locked-On, so an aircraft's "hits taken" is 1 if it was shot down and its
"hits given" the aircraft it shot down. The exchanges are read from the moves: a move
that resolves a gun or missile exchange (the one open before it is gone after it)
ends it, and the target's fate after it says how.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from engine.core.contract import Fate, Outcome
from engine.core.present import Played, ReportLine, WrittenReport
from engine.lockedon.state import Exchange, GameState
from engine.lockedon.words import then
from strings import Term

if TYPE_CHECKING:
    from engine.lockedon.ui import LockedOnPresenter

__all__ = ["FATE_KEYS", "written"]

FATE_KEYS = {
    Fate.SHOT_DOWN: "lockedon.ui.report.fate.shot_down",
    Fate.UNHARMED: "lockedon.ui.report.fate.unharmed",
    Fate.DAMAGED: "lockedon.ui.report.fate.unharmed",
    Fate.LEFT: "lockedon.ui.report.fate.unharmed",
}
"""Each fate in words (their English texts are the report picture's fate ids)."""
ATTACKS = ("guns", "missile")


def written(
    presenter: LockedOnPresenter,
    start: GameState,
    moves: Sequence[Played],
    outcome: Outcome,
    players: Mapping[str, str],
) -> WrittenReport:
    """Every aircraft's line (side after side, by seat) and the decisive exchanges. Its
    words are :class:`Term` texts (English as ``str``)."""
    final: GameState = moves[-1].after if moves else start
    labels = {seat: presenter.seat_label(final, seat) for seat in final.planes}
    kills: dict[str, list[str]] = {}
    for f in outcome.fates:
        if f.fate is Fate.SHOT_DOWN and f.by is not None:
            kills.setdefault(f.by, []).append(f.ref)
    given = Counter({seat: len(refs) for seat, refs in kills.items()})
    lines = []
    for f in sorted(outcome.fates, key=lambda f: (f.side, f.seat)):
        detail: str = ""
        if f.fate is Fate.SHOT_DOWN and f.by is not None:
            detail = Term(
                "lockedon.ui.report.by", plane=labels.get(f.by, f.by), round=f.turn or "?"
            )
        mine = kills.get(f.seat)
        if mine:
            planes = ", ".join(labels.get(r, r) for r in mine)
            detail = (
                Term("lockedon.ui.report.and_kills", detail=detail, planes=planes)
                if detail
                else Term("lockedon.ui.report.kills", planes=planes)
            )
        lines.append(
            ReportLine(
                ref=f.ref,
                side=f.side,
                label=labels.get(f.seat, f.seat),
                player=players.get(f.seat, "?"),
                fate=Term(FATE_KEYS[f.fate]),
                detail=detail,
                hits_taken=1 if f.fate is Fate.SHOT_DOWN else 0,
                hits_given=given[f.seat],
            )
        )
    return WrittenReport(tuple(lines), tuple(_exchanges(presenter, moves, labels)))


def _resolved(x: Exchange, after: GameState) -> bool:
    """The exchange ``x`` is over once the move is applied."""
    y = after.exchange
    return (
        y is None
        or (y.kind, y.actor, y.target, y.card) != (x.kind, x.actor, x.target, x.card)
        or len(y.chain) < len(x.chain)
    )


def _exchanges(
    presenter: LockedOnPresenter, moves: Sequence[Played], labels: Mapping[str, str]
) -> list[tuple[int, str]]:
    e = presenter.engine
    out: list[tuple[int, str]] = []
    for m in moves:
        before: GameState = m.before
        after: GameState = m.after
        x = before.exchange
        if x is None or x.kind not in ATTACKS or x.target is None or not _resolved(x, after):
            continue
        cards = presenter.chain(before)
        if x.kind == "guns":
            attack = cards[0]
        else:
            assert x.missile is not None
            attack = Term("lockedon.ui.report.missiles", n=x.n, missile=e.missiles[x.missile].name)
        down = before.planes[x.target].flying and not after.planes[x.target].flying
        if down:
            result = Term("lockedon.ui.report.fate.shot_down")
        else:
            result = Term(f"lockedon.ui.report.{'defeated' if x.kind == 'missile' else 'missed'}")
        answers = (
            Term("lockedon.ui.report.answered", cards=then(cards[1:]))
            if len(cards) > 1
            else Term("lockedon.ui.report.unanswered")
        )
        out.append(
            (
                before.round,
                Term(
                    "lockedon.ui.report.exchange",
                    by=labels.get(x.actor, x.actor),
                    target=labels.get(x.target, x.target),
                    attack=attack,
                    answers=answers,
                    outcome=result,
                ),
            )
        )
    return out
