"""Build :class:`~engine.dif.view.DifView` from a state: the only way out of the engine.

Every hidden thing is filtered here, once: hands and mini-hands appear only in their
owner's view, the deck only as a count, unrevealed altitude picks only as "chosen".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.dif import tables
from engine.dif.base import DECISIONS
from engine.dif.components import Aircraft, Altitude, Position, Ruleset, Side
from engine.dif.state import GameState, Plane
from engine.dif.texts import fixed, step_label
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
from strings import Term

if TYPE_CHECKING:
    from engine.dif.game import DifEngine

__all__ = ["abilities", "build_view", "pending_prompt"]

_PROMPTS = {kind: f"dif.prompt.{kind}" for kind in DECISIONS}
"""The catalogue key of what each kind of decision asks for (``play cards``)."""


def pending_prompt(kind: str) -> str:
    """What a decision of this kind asks for, e.g. ``respond, or pass`` (a Term)."""
    key = _PROMPTS.get(kind)
    return fixed(key) if key is not None else kind


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
    """The printed abilities of an aircraft, in words (Terms), for views and lobbies."""
    found = _ABILITIES.get(ac.id)
    if found is not None and found[0] is ac:
        return found[1]
    out: list[str] = []
    lr = ac.leader_card.undamaged
    if lr.gunner:
        out.append(Term("dif.ability.gunner", n=lr.gunner))
    if lr.heavy_cannon:
        out.append(Term("dif.ability.heavy_cannon", n=lr.heavy_cannon))
    if ac.agile:
        out.append(fixed("dif.ability.agile"))
    if ac.small_target:
        out.append(fixed("dif.ability.small_target"))
    if ac.turbocharged and not ac.jet:
        out.append(fixed("dif.ability.turbocharged"))
    if ac.jet and not ac.rocket:
        out.append(Term("dif.ability.jet", speed=ac.speed, thrust=ac.thrust or 0))
    if ac.rocket:
        out.append(fixed("dif.ability.rocket"))
    if ac.methanol:
        out.append(fixed("dif.ability.methanol"))
    if ac.very_high_fut:
        out.append(fixed("dif.ability.very_high_fut"))
    if ac.ceiling is not None:
        out.append(Term("dif.ability.ceiling", altitude=ac.ceiling.label))
    _ABILITIES[ac.id] = (ac, tuple(out))
    return tuple(out)


_ABILITIES: dict[str, tuple[Aircraft, tuple[str, ...]]] = {}
"""Each aircraft's abilities, made once (views are built for every message)."""


def build_view(engine: DifEngine, s: GameState, viewer: str | None) -> DifView:
    """The state as ``viewer`` may see it (None: a spectator)."""
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
                ceiling=engine.aircraft[e.aircraft].ceiling,
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
            verdict=_verdict(s),
        )
    return DifView(
        ruleset=rs,
        viewer=viewer,
        turn=s.turn,
        max_turns=s.max_turns,
        step=step_label(s.step),
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
        mission=engine.mission_view(s, viewer) if s.mission is not None else None,
    )


def _verdict(s: GameState) -> str:
    """The recorded verdict; as a Term again after a JSON round trip (which keeps
    only its English text) when it is the rules' verdict for the recorded VP. A
    verdict the bot wrote (a resignation) stays as it is."""
    assert s.result is not None
    verdict: str = s.result["verdict"]
    if isinstance(verdict, Term):
        return verdict
    vp = s.result.get("vp") or {}
    rs = Ruleset(s.ruleset)
    axis, allied = vp.get(Side.AXIS.value, 0), vp.get(Side.ALLIED.value, 0)
    _, again = tables.victory_verdict(rs, axis, allied, s.aircraft_at_start)
    return again if again == verdict else verdict


_AS = {"SCI": "dif.exchange.as_sci", "FUT": "dif.exchange.as_fut", "ACE": "dif.exchange.as_ace"}
"""A card played as another, in an exchange's list: ``Maneuvering (as Scissors)``."""


def _as_played(engine: DifEngine, card: int, kind: str) -> str:
    declared = kind != engine.kind[card].value and kind in _AS
    return Term(_AS[kind], card=engine.label[card]) if declared else engine.label[card]


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
        if s.mission is not None and engine._bomber(s, t.target) is not None:
            return max(engine._bomber_budget(s, e, t.target) - t.bursts_used, 0)  # Zero! §20.22
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
