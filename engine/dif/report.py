"""The after-action report of a Down in Flames game, in DiF's words: each aircraft's
fate and who caused it, and the decisive exchanges (who hit whom with which card).

Read from the engine's events of every action in effect (``play`` data ``by``/
``target``/``card``, then ``damage``, ``damaged``, ``destroyed``, ``promoted``; a loss
while evading names no attacker) and the final spectator view. A leader shot down and
replaced by its wingman (11.2) is matched back to the aircraft it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.core.contract import Outcome
from engine.core.present import Played, ReportLine, WrittenReport
from engine.dif.components import Side
from engine.dif.game import DifEngine
from engine.dif.state import GameState
from engine.dif.view import ElementView, PlaneStatus, PlaneView
from strings import Term

__all__ = ["written"]


def written(
    engine: DifEngine,
    start: GameState,
    moves: Sequence[Played],
    outcome: Outcome,
    players: Mapping[str, str],
) -> WrittenReport:
    """Every aircraft's line (Allied first, by seat) and the decisive exchanges. Its
    words are :class:`Term` texts (English as ``str``)."""
    final = moves[-1].after if moves else start
    view = engine.view(final, None)
    labels: dict[str, str] = {}
    planes: list[tuple[ElementView, str, PlaneView]] = []
    for el in sorted(view.elements, key=lambda e: (e.side is not Side.ALLIED, e.seat)):
        for ref, p in sorted(_planes_by_origin(el).items()):
            labels[ref] = _original_label(p.aircraft, el.seat, ref, promoted=p.promoted)
            planes.append((el, ref, p))
    t = _tally(engine, start, moves, labels)
    lines = []
    for el, ref, p in planes:
        detail: str = ""
        if p.status is PlaneStatus.DESTROYED:
            fate = Term("dif.ui.report.fate.shot_down")
            if ref in t.killer:
                by, turn, fuel = t.killer[ref]
                key = "dif.ui.report.by_fuel" if fuel else "dif.ui.report.by"
                detail = Term(key, plane=labels.get(by, by), turn=turn)
            elif ref in t.evading:
                detail = Term("dif.ui.report.lost_evading")
        elif p.status is PlaneStatus.EVADED:
            fate = Term("dif.ui.report.fate.evaded")
            detail = Term("dif.ui.report.left_damaged" if p.damaged else "dif.ui.report.left")
        elif p.damaged:
            fate = Term("dif.ui.report.fate.damaged")
            by_turn = t.damager.get(ref)
            if by_turn:
                detail = Term(
                    "dif.ui.report.by", plane=labels.get(by_turn[0], by_turn[0]), turn=by_turn[1]
                )
        else:
            fate = Term("dif.ui.report.fate.unharmed")
        if p.promoted:
            detail = (
                Term("dif.ui.report.promoted_then", detail=detail)
                if detail
                else Term("dif.ui.report.promoted")
            )
        lines.append(
            ReportLine(
                ref=ref,
                side=el.side.value,
                label=labels[ref],
                player=players.get(el.seat, "?"),
                fate=fate,
                detail=detail,
                hits_taken=t.taken[ref],
                hits_given=t.given[ref],
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
                outcome=outcome_words,
            ),
        )
        for turn, by, target, card, outcome_words in t.exchanges
    )
    return WrittenReport(tuple(lines), exchanges)


def _original_label(aircraft: str, seat: str, ref: str, *, promoted: bool = False) -> str:
    """``Buffalo I (A1 leader)``, ``Buffalo I (wingman of A1, then leader)`` (a :class:`Term`)."""
    if ref.endswith("W"):
        return Term(
            "dif.ui.plane.wingman_promoted" if promoted else "dif.ui.plane.wingman",
            name=aircraft,
            seat=seat,
        )
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


@dataclass
class _Tally:
    """What the events of a game say about each aircraft (by original ref)."""

    labels: dict[str, str]
    taken: Counter[str] = field(default_factory=Counter)
    given: Counter[str] = field(default_factory=Counter)
    killer: dict[str, tuple[str, int, bool]] = field(default_factory=dict)
    """Shot down -> (by, turn, fuel tank)."""
    damager: dict[str, tuple[str, int]] = field(default_factory=dict)
    evading: set[str] = field(default_factory=set)
    exchanges: list[tuple[int, str, str, str, str]] = field(default_factory=list)
    """(turn, by, target, card, outcome)."""


def _tally(
    engine: DifEngine, start: GameState, moves: Sequence[Played], labels: dict[str, str]
) -> _Tally:
    t = _Tally(labels)
    # Refs change when a leader is shot down and its wingman takes over (11.2): the
    # engine then calls the old leader A1L-lost1 and the wingman A1L. ``ident`` maps
    # the refs of the moment to the refs each aircraft started with.
    ident: dict[str, str] = {}
    lost: Counter[str] = Counter()
    for el in start.elements.values():
        for plane in (el.leader, el.wingman):
            if plane is not None:
                ident[plane.ref] = plane.ref
    attack: tuple[str, str, str] | None = None  # (by, target, card code), original refs
    for m in moves:
        turn = max(m.before.turn, 1)
        last_hit: str | None = None
        last_destroyed: str | None = None
        flipped: int | None = None  # index of this move's "damaged" exchange
        fuel = False
        for ev in m.events:
            d = ev.data
            if ev.kind == "play":
                target = d.get("target")
                attack = (
                    (ident.get(d["by"], d["by"]), ident.get(target, target), str(d.get("card")))
                    if target and "by" in d
                    else None
                )
            elif ev.kind == "damage" and "ref" in d:
                o = ident.get(d["ref"], d["ref"])
                hits = int(d.get("hits", 0))
                t.taken[o] += hits
                if attack is not None and attack[1] == o:
                    t.given[attack[0]] += hits
                last_hit = o
            elif ev.kind == "damage":
                fuel = True  # "Fuel tank hit!": the destroyed event follows
            elif ev.kind == "damaged" and last_hit is not None:
                if attack is not None and attack[1] == last_hit:
                    t.damager.setdefault(last_hit, (attack[0], turn))
                    damaged = Term("dif.ui.report.fate.damaged")
                    t.exchanges.append((turn, attack[0], last_hit, attack[2], damaged))
                    flipped = len(t.exchanges) - 1
            elif ev.kind == "destroyed" and "ref" in d:
                o = ident.get(d["ref"], d["ref"])
                last_destroyed = d["ref"]
                if attack is not None and attack[1] == o:
                    t.killer[o] = (attack[0], turn, fuel)
                    if flipped is not None and t.exchanges[flipped][2] == o:
                        del t.exchanges[flipped]  # damaged and shot down by one hit (G-R9)
                    outcome = Term(
                        "dif.ui.report.fate.shot_down_fuel"
                        if fuel
                        else "dif.ui.report.fate.shot_down"
                    )
                    t.exchanges.append((turn, attack[0], o, attack[2], outcome))
                fuel = False
                flipped = None
            elif ev.kind == "promoted" and last_destroyed is not None:
                seat = last_destroyed[:-1]
                lost[seat] += 1
                ident[f"{seat}L-lost{lost[seat]}"] = ident.get(f"{seat}L", f"{seat}L")
                ident[f"{seat}L"] = ident.pop(f"{seat}W", f"{seat}W")
        if m.text.strip() == "evade":  # shot down while evading: the event names no ref
            after = engine.view(m.after, None)
            mine = next((x for x in after.elements if x.seat == m.seat), None)
            for pv in (mine.leader, mine.wingman) if mine is not None else ():
                if pv is not None and pv.status is PlaneStatus.DESTROYED:
                    t.evading.add(ident.get(pv.ref, pv.ref))
    return t
