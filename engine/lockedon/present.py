"""Build :class:`~engine.lockedon.view.LockedOnView` from a state: the only way out of
the engine.

Every hidden thing is filtered here, once: hands, Aircraft Expertise cards and a
missile's mini-hand appear only in their owner's view, the deck only as a count,
unrevealed altitude picks only as "chosen".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lockedon import geometry, ratings
from engine.lockedon.base import DECISIONS
from engine.lockedon.components import Altitude, Position, Range
from engine.lockedon.state import GameState, Plane
from engine.lockedon.texts import fixed
from engine.lockedon.view import (
    AircraftView,
    EngagementView,
    ExchangeView,
    LaunchView,
    LockedOnView,
    MissileView,
    MissionView,
    PairRangeView,
    PendingView,
    RatingsView,
    ResultView,
    SiteView,
    SkillView,
)
from strings import Term

if TYPE_CHECKING:
    from engine.lockedon.game import LockedOnEngine

__all__ = ["PROMPTS", "STEPS", "build_view", "pending_prompt", "step_label"]

STEPS = {
    step: f"lockedon.step.{step}"
    for step in (
        "setup",
        "angle",
        "first",
        "next",
        "afterburner",
        "predraw",
        "altitude_step",
        "speed",
        "play",
        "postdraw",
        "done",
        "over",
    )
}
"""Each value of ``GameState.step`` and the catalogue key of its name."""

PROMPTS = {kind: f"lockedon.prompt.{kind}" for kind in DECISIONS}
"""The catalogue key of what each kind of decision asks for."""


def step_label(step: str) -> Term:
    return fixed(STEPS[step])


def pending_prompt(kind: str) -> str:
    key = PROMPTS.get(kind)
    return fixed(key) if key is not None else kind


def _aircraft(engine: LockedOnEngine, s: GameState, p: Plane, viewer: str | None) -> AircraftView:
    ac = engine.ac(p)
    own = viewer == p.seat
    r = ratings.Ratings(ac, p)
    return AircraftView(
        seat=p.seat,
        side=p.side,
        aircraft=ac.id,
        name=ac.name,
        nation=ac.nation,
        year=ac.year,
        value=p.value,
        altitude=Altitude(p.altitude) if p.altitude is not None else None,
        altitude_chosen=p.altitude is not None or p.pick is not None,
        range=Range(p.range),
        ratings=RatingsView(
            speed=r.speed,
            performance=r.performance,
            thrust_pre=r.thrust_pre,
            thrust_post=r.thrust_post,
            ab_pre=r.ab_pre,
            ab_post=r.ab_post,
            gun=r.gun,
            ew=r.ew,
        ),
        afterburner_on=p.ab_on,
        afterburner_counters=p.ab_left,
        missiles=tuple(
            MissileView(
                id=m,
                name=engine.missiles[m].name,
                type=engine.missiles[m].type,
                count=n,
            )
            for m, n in p.missiles.items()
        ),
        countermeasures=p.cm,
        hand_count=len(p.hand),
        side_count=len(p.side_hand),
        skills=tuple(
            SkillView(
                id=sid,
                name=engine.skills[sid].name,
                cost=engine.skills[sid].cost,
                once_per_game=engine.skills[sid].once_per_game,
                used=sid in p.used,
            )
            for sid in p.skills
        ),
        destroyed=not p.flying,
        destroyed_by=p.by,
        acted=p.seat in s.acted,
        hand=tuple(engine.codes(s, p.hand)) if own else None,
        side_hand=tuple(engine.codes(s, p.side_hand)) if own else None,
        pick=Altitude(p.pick) if own and p.pick is not None else None,
    )


def _exchange(engine: LockedOnEngine, s: GameState, viewer: str | None) -> ExchangeView | None:
    x = s.exchange
    if x is None:
        return None
    if x.speed:
        first: str = fixed("lockedon.speed_point")
    elif x.card is not None:
        first = engine.label(s, x.card)
    else:
        first = fixed("lockedon.title.missile")
    cards = [first]
    for entry in x.chain:
        card = int(entry[1])
        cards.append(fixed("lockedon.countermeasures") if card < 0 else engine.label(s, card))
    waiting = engine.pending(s)
    return ExchangeView(
        kind=x.kind,
        actor=x.actor,
        target=x.target,
        speed=x.speed,
        cards=tuple(cards),
        waiting_on=waiting[0].seat if waiting else None,
        missile=engine.missiles[x.missile].name if x.missile else None,
        missiles=x.n if x.kind == "missile" else 0,
        mini_count=len(x.mini),
        mini=tuple(engine.codes(s, x.mini)) if viewer == x.actor else None,
    )


def _sites(engine: LockedOnEngine, s: GameState) -> tuple[SiteView, ...]:
    if s.mission is None:
        return ()
    out = []
    for side, ids in sorted(s.mission.sites.items()):
        for sid in ids:
            site = engine.sites[sid]
            out.append(
                SiteView(
                    id=sid,
                    name=site.name,
                    side=side,
                    ranges=tuple(sorted(site.ranges)),
                    altitudes=tuple(sorted(site.altitudes)),
                    cards=site.cards,
                    looks_for=tuple(sorted(site.looks_for)),
                )
            )
    return tuple(out)


def build_view(engine: LockedOnEngine, s: GameState, viewer: str | None) -> LockedOnView:
    """What ``viewer`` (a seat, or None for spectators) may see of ``s``."""
    engagements = []
    for key, value in sorted(s.positions.items()):
        first, _, second = key.partition("|")
        holder, on = (first, second) if value > 0 else (second, first)
        engagements.append(EngagementView(seat=holder, on=on, position=Position(abs(value))))
    ranges = []
    flying = [seat for seat, p in s.planes.items() if p.flying and p.altitude is not None]
    for i, a in enumerate(flying):
        for b in flying[i + 1 :]:
            if s.planes[a].side != s.planes[b].side:
                ranges.append(PairRangeView(a=a, b=b, range=geometry.range_between(s, a, b)))
    result = None
    if s.result is not None:
        verdict = s.result["verdict"]
        if not isinstance(verdict, Term):
            winner = s.result.get("winner")
            verdict = (
                Term("lockedon.verdict.win", side=winner)
                if winner
                else fixed("lockedon.verdict.draw")
            )
        result = ResultView(
            winner=s.result.get("winner"), verdict=verdict, vp=dict(s.result.get("vp", {}))
        )
    launch = None
    if s.launch is not None:
        launch = LaunchView(
            seat=s.launch.seat,
            target=s.launch.target,
            missile=engine.missiles[s.launch.missile].name,
        )
    return LockedOnView(
        viewer=viewer,
        round=s.round,
        rounds=s.rounds,
        step=step_label(s.step),
        active=s.active,
        sides=tuple(s.sides),
        aircraft=tuple(_aircraft(engine, s, p, viewer) for p in s.planes.values()),
        engagements=tuple(engagements),
        ranges=tuple(ranges),
        exchange=_exchange(engine, s, viewer),
        launch=launch,
        pending=tuple(
            PendingView(seat=d.seat, kind=d.kind, prompt=pending_prompt(d.kind))
            for d in engine.pending(s)
        ),
        deck_count=len(s.deck),
        discard_count=len(s.discard),
        missile_bonus=s.t.bonus,
        speed_left=max(0, s.t.speed_points - sum(s.t.speed_used.values())),
        vp=engine.victory_points(s),
        result=result,
        mission=(
            MissionView(
                number=s.mission.number,
                title=s.mission.title,
                vp=dict(s.mission.vp),
                names=dict(s.mission.names),
            )
            if s.mission is not None
            else None
        ),
        sites=_sites(engine, s),
    )
