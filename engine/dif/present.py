"""Build :class:`~engine.dif.view.DifView` from a state: the only way out of the engine.

Every hidden thing is filtered here, once: hands and mini-hands appear only in their
owner's view, the deck only as a count, unrevealed altitude picks only as "chosen".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.dif import tables
from engine.dif.components import Aircraft, Altitude, Position, Ruleset, Side
from engine.dif.state import GameState, Plane
from engine.dif.view import (
    DifView,
    ElementView,
    EngagementView,
    ExchangeView,
    PendingView,
    PlaneStatus,
    PlaneView,
    ResultView,
)

if TYPE_CHECKING:
    from engine.dif.game import DifEngine

__all__ = ["abilities", "build_view", "pending_prompt"]

_PROMPTS = {
    "altitude": "pick a secret starting altitude",
    "wingman": "choose the wingman's target, or skip",
    "wingman_attack": "play the wingman's mini-hand",
    "altitude_step": "stay, climb or dive",
    "follow": "follow the altitude change, or not",
    "play": "play cards",
    "respond": "respond, or pass",
    "discard": "discard, then draw",
    "order": "name the element of your side that plays next",
    "redraw": "Combat Vision: redraw any cards of your first hand, once",
}


def pending_prompt(kind: str) -> str:
    return _PROMPTS.get(kind, kind)


def _plane(engine: DifEngine, p: Plane) -> PlaneView:
    undamaged, damaged = engine._capacity(p)
    return PlaneView(
        ref=p.ref,
        role=p.role,
        aircraft=engine.aircraft[p.aircraft].name,
        hits=p.hits,
        damaged=p.damaged,
        capacity=damaged if p.damaged else undamaged,
        status=PlaneStatus(p.status),
        promoted=p.promoted,
        pilot=tuple(p.pilot),
    )


def abilities(ac: Aircraft) -> tuple[str, ...]:
    """The printed abilities of an aircraft, in words, for views and lobbies."""
    out = []
    lr = ac.leader.undamaged
    if lr.gunner:
        out.append(f"gunner {lr.gunner}")
    if lr.heavy_cannon:
        out.append(f"heavy cannon +{lr.heavy_cannon}")
    for flag, word in (
        (ac.agile, "agile"),
        (ac.small_target, "small target"),
        (ac.turbocharged and not ac.jet, "turbocharged"),
        (ac.jet and not ac.rocket, f"jet (speed {ac.speed}, thrust {ac.thrust or 0})"),
        (ac.rocket, "rocket"),
        (ac.methanol, "methanol"),
        (ac.very_high_fut, "Full Throttle at Very High"),
    ):
        if flag:
            out.append(word)
    if ac.ceiling is not None:
        out.append(f"ceiling {ac.ceiling.label}")
    return tuple(out)


def build_view(engine: DifEngine, s: GameState, viewer: str | None) -> DifView:
    """The state as ``viewer`` may see it (None: a spectator)."""
    from engine.dif.game import STEPS

    rs = Ruleset(s.ruleset)
    elements = []
    for e in s.elements.values():
        own = viewer == e.seat
        leader = e.leader if e.leader is not None else None
        wingman = e.wingman
        if leader is None and e.lost:
            leader = e.lost[-1]
        elements.append(
            ElementView(
                seat=e.seat,
                side=Side(e.side),
                label=engine._el_label(s, e),
                altitude=Altitude(e.altitude) if e.altitude is not None else None,
                altitude_chosen=e.altitude is not None or e.pick is not None,
                leader=_plane(engine, leader) if leader else None,
                wingman=_plane(engine, wingman) if wingman else None,
                lost=tuple(_plane(engine, p) for p in e.lost),
                hand_count=len(e.hand),
                in_fight=e.in_fight,
                agile=engine.aircraft[e.aircraft].agile,
                counters=e.counters,
                abilities=abilities(engine.aircraft[e.aircraft]),
                hand=tuple(engine.code[c] for c in sorted(e.hand)) if own else None,
                minihand=tuple(engine.code[c] for c in sorted(e.minihand + e.defence))
                if own
                else None,
                pick=Altitude(e.pick) if own and e.pick is not None else None,
            )
        )
    engagements = []
    for key, value in sorted(s.positions.items()):
        a, b = key.split("|")
        if value < 0:
            a, b, value = b, a, -value
        engagements.append(EngagementView(leader=a, on=b, position=Position(value)))
    exchange = None
    if s.exchange is not None:
        x = s.exchange
        cards = [_as_played(engine, c, k) for c, k in [(x.card, x.kind), *x.chain]]
        exchange = ExchangeView(
            attacker=x.attacker,
            target=x.target,
            cards=tuple(cards),
            waiting_on=engine._responder(s, x),
        )
    pending = tuple(
        PendingView(seat=p.seat, kind=p.kind, prompt=pending_prompt(p.kind))
        for p in engine.pending(s)
    )
    vp = engine.victory_points(s)
    result = None
    if s.result is not None:
        result = ResultView(
            vp={Side(k): v for k, v in s.result["vp"].items()},
            winner=Side(s.result["winner"]) if s.result["winner"] else None,
            verdict=s.result["verdict"],
        )
    return DifView(
        ruleset=rs,
        viewer=viewer,
        turn=s.turn,
        max_turns=s.max_turns,
        step=STEPS[s.step],
        active=s.active,
        order=tuple(s.order),
        elements=tuple(elements),
        engagements=tuple(engagements),
        exchange=exchange,
        pending=pending,
        deck_count=len(s.deck),
        discard_count=len(s.discard),
        vp=vp,
        result=result,
        bursts_left=_bursts_left(engine, s, viewer),
    )


_AS = {"SCI": " (as Scissors)", "FUT": " (as Full Throttle)", "ACE": " (as an ace)"}


def _as_played(engine: DifEngine, card: int, kind: str) -> str:
    declared = kind != engine.kind[card].value and kind in _AS
    return engine.label[card] + (_AS[kind] if declared else "")


def _bursts_left(engine: DifEngine, s: GameState, viewer: str | None) -> int | None:
    """Bursts the active leader may still fire at its target (public: all cards are face up).

    Before the leader has attacked anything, an engaged leader's only possible target
    is the leader it is engaged with (6.5), so its position counts already; an
    unengaged leader shows its printed rating.
    """
    active = s.active
    if active is None or s.step not in ("play", "discard"):
        return None
    e = s.elements[active]
    if e.leader is None or not e.leader.flying:
        return None
    lr = engine._leader_ratings(e)
    t = s.t
    if t.target is not None:
        target = engine._plane(s, t.target)
        if target is None or not target.flying:
            return 0  # the one aircraft attacked this turn is gone (8.21)
        small = int(engine.aircraft[target.aircraft].small_target)  # RotL "Small Targets"
        if t.target.endswith("W"):
            return max(lr.bursts + t.wm_bonus - t.bursts_used - small, 0)
        bonus = tables.burst_bonus(engine.pos(s, active, t.target[:-1]))
        return 0 if bonus is None else max(lr.bursts + bonus - t.bursts_used - small, 0)
    enemy = engine.engaged_with(s, active)
    if enemy is None:
        return max(lr.bursts - t.bursts_used, 0)
    bonus = tables.burst_bonus(engine.pos(s, active, enemy))
    return 0 if bonus is None else max(lr.bursts + bonus - t.bursts_used, 0)
