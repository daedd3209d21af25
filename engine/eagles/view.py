"""What one seat (or a spectator) may see of an Eagles in the Sky engagement.

:func:`build_view` builds these frozen models from the state. They are the only way
information leaves the engine: the bot's messages and the pictures read views, never
the state. A spectator's view (``viewer is None``) holds no card of anyone and no
deck order; a seat's view adds its side's hand (one hand per side, §7, shared by the
side's seats) and, during the Card Draw Phase, its side's own discards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from engine.eagles import mat
from engine.eagles.ratings import defence, rating
from engine.eagles.state import GameState, Plane

if TYPE_CHECKING:
    from engine.eagles.game import EaglesEngine

__all__ = [
    "CardView",
    "DogfightView",
    "EaglesView",
    "PendingView",
    "PlaneView",
    "SideView",
    "build_view",
]

ALTITUDES = "TLMH"


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class CardView(_View):
    """A Maneuver card in a hand."""

    number: int
    name: str
    symbols: tuple[str, ...]
    rating: int
    special: str | None


class PlaneView(_View):
    ref: str
    side: str
    aircraft: str
    """Its id in the data (``balloon`` for a balloon)."""
    name: str
    kind: str
    """``scout``, ``two_seater``, ``balloon``."""
    quality: str
    leader: str | None
    """The Flight Leader's or Ace's name."""
    mission: bool
    altitude: str
    """``T``, ``L``, ``M`` or ``H``."""
    display: int | None
    """The dogfight it is in; None: Unengaged."""
    tailing: str | None
    level: int
    climb: int
    activated: bool
    status: str
    """flying, shot_down, escaped, removed, landed."""
    damage: dict[str, int]
    crew: dict[str, str]
    guns: dict[str, str]
    lewis: str
    bombs: int
    rockets: bool
    incendiary: bool
    on_ground: bool
    ratings: dict[str, int]
    """Climb, Dive, Speed and Agility now (damage, altitude, loads, ace)."""
    defence: str | None
    """Its defence class now (``fragile``... ; None: one more Structure hit downs it)."""
    kills: tuple[str, ...]
    by: str | None

    @property
    def flying(self) -> bool:
        return self.status == "flying"


class DogfightView(_View):
    display: int
    altitude: str
    planes: tuple[str, ...]
    """Refs, the most tailed first."""
    climb: int
    """The display's Climb Progress track (§9.12)."""


class SideView(_View):
    id: str
    seats: tuple[str, ...]
    cards: int
    """Cards in hand (everyone may count them)."""
    hand_size: int
    discard_limit: int
    vp: int
    glory: int
    on_mat: bool


class PendingView(_View):
    """The decision in play, as everyone may read it."""

    kind: str
    """``activate``, ``respond``, ``follow``, ``discard``, ``place``, ``remove``."""
    side: str | None
    actor: str | None = None
    target: str | None = None
    action: str | None = None
    """The activation being answered (public)."""
    total: int = 0
    symbol: str | None = None
    chain: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    """``discard``: the sides still to choose."""


class EaglesView(_View):
    viewer: str | None
    viewer_side: str | None
    turn: int
    turns: int
    engagement: int
    engagements: int
    phase: str
    engagement_type: str
    attacker: str | None
    zone: str
    month: str
    weather: str
    clouds: str | None
    event: str | None
    initiative: str
    to_act: str
    planes: tuple[PlaneView, ...]
    dogfights: tuple[DogfightView, ...]
    sides: tuple[SideView, ...]
    pending: PendingView | None
    hand: tuple[CardView, ...]
    """The viewer's side's hand; empty for a spectator."""
    deck: int
    discards: int
    winner: str | None
    results: tuple[dict[str, object], ...]

    def plane(self, ref: str) -> PlaneView:
        for p in self.planes:
            if p.ref == ref:
                return p
        raise KeyError(ref)


def build_view(e: EaglesEngine, state: GameState, seat: str | None) -> EaglesView:
    """The view of ``seat`` (None: a spectator)."""
    side = next((sd for sd, seats in state.seats.items() if seat in seats), None) if seat else None
    tally = e.tally(state)

    def plane_view(p: Plane) -> PlaneView:
        if p.balloon:
            ratings: dict[str, int] = {}
            cls: str | None = "fragile"
            name = "Balloon"
        else:
            ac = e.ac(p)
            ratings = {r: rating(ac, p, r) for r in ("climb", "dive", "speed", "agility")}
            now = defence(ac, p)
            cls = now.name.lower() if now is not None else None
            name = ac.name
        leader = e.leaders[p.leader].name if p.leader else None
        return PlaneView(
            ref=p.ref,
            side=p.side,
            aircraft=p.aircraft,
            name=name,
            kind=p.kind,
            quality=p.quality,
            leader=leader,
            mission=p.mission,
            altitude=ALTITUDES[p.altitude],
            display=p.display,
            tailing=p.tailing,
            level=p.level,
            climb=p.climb,
            activated=p.activated,
            status=p.status,
            damage=dict(p.damage),
            crew=dict(p.crew),
            guns=dict(p.guns),
            lewis=p.lewis,
            bombs=p.bombs,
            rockets=p.rockets,
            incendiary=p.incendiary,
            on_ground=p.on_ground,
            ratings=ratings,
            defence=cls,
            kills=tuple(p.kills),
            by=p.by,
        )

    fights = []
    for group in mat.dogfights(state):
        ordered = sorted(group, key=lambda q: (-len(mat.tailers(state, q.ref)), q.ref))
        fights.append(
            DogfightView(
                display=group[0].display or 0,
                altitude=ALTITUDES[group[0].altitude],
                planes=tuple(q.ref for q in ordered),
                climb=max(q.climb for q in group),
            )
        )
    sides = []
    for sd in ("allied", "german"):
        size, limit = e.hand_limit(state, sd)
        sides.append(
            SideView(
                id=sd,
                seats=tuple(state.seats.get(sd, [])),
                cards=len(state.hands.get(sd, [])),
                hand_size=size,
                discard_limit=limit,
                vp=tally.vp[sd],
                glory=tally.glory[sd],
                on_mat=tally.on_mat[sd],
            )
        )
    d = e.deciding(state)
    pending: PendingView | None = None
    if d is not None:
        kind, who = d
        pend = state.pending
        pending = PendingView(
            kind=kind,
            side=who or None,
            actor=pend.actor if pend else None,
            target=pend.target if pend else None,
            action=pend.action or None if pend else None,
            total=pend.total if pend else 0,
            symbol=pend.symbol if pend else None,
            chain=tuple(pend.chain) if pend else (),
            waiting=tuple(sd for sd, v in state.discard_picks.items() if v is None),
        )
    hand: tuple[CardView, ...] = ()
    if side is not None:
        hand = tuple(
            CardView(
                number=c.number,
                name=c.name,
                symbols=tuple(s.value for s in c.symbols),
                rating=c.rating,
                special=c.special.value if c.special else None,
            )
            for c in (e.cards[n] for n in sorted(state.hands.get(side, [])))
        )
    return EaglesView(
        viewer=seat,
        viewer_side=side,
        turn=state.turn,
        turns=state.turns,
        engagement=state.engagement,
        engagements=int(state.setup.get("engagements", 1)),
        phase=state.phase,
        engagement_type=str(state.setup.get("engagement")),
        attacker=state.setup.get("attacker"),
        zone=str(state.setup.get("zone")),
        month=str(state.setup.get("month")),
        weather=e.weather(state),
        clouds=ALTITUDES[state.clouds] if state.clouds is not None else None,
        event=state.event,
        initiative=state.initiative,
        to_act=state.to_act,
        planes=tuple(plane_view(p) for p in state.planes),
        dogfights=tuple(fights),
        sides=tuple(sides),
        pending=pending,
        hand=hand,
        deck=len(state.deck),
        discards=len(state.discards),
        winner=state.winner,
        results=tuple(state.results),
    )
