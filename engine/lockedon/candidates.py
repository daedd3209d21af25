"""Candidate actions: every action a decision might take, for the legality predicate to
filter (:meth:`engine.lockedon.legality.Legality.legal_actions`).

Generation is only as clever as keeping the lists short needs (Range changes within
the counters' bounds, Position steps up to Tailing); whether a candidate is legal is
decided by the one predicate, never here. A :class:`Ctx` holds what both need about
the deciding seat, computed once per call.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations, product

from engine.core.contract import Decision
from engine.lockedon import geometry, ratings
from engine.lockedon.actions import COUNTER, Action
from engine.lockedon.base import EngineBase
from engine.lockedon.components import (
    Aircraft,
    Altitude,
    CardEffect,
    CardType,
    Position,
    Range,
    SkillKind,
)
from engine.lockedon.state import FollowOffer, GameState, Plane

__all__ = ["Candidates", "Ctx", "submultisets"]


class Ctx:
    """The deciding seat and what every candidate's check needs about it."""

    __slots__ = ("_enemies", "_hand_codes", "_holding", "ac", "kind", "p", "seat", "state")

    def __init__(self, engine: Candidates, state: GameState, d: Decision) -> None:
        self.state = state
        self.seat = d.seat
        self.kind = d.kind
        self.p: Plane = state.planes[d.seat]
        self.ac: Aircraft = engine.ac(self.p)
        self._enemies: list[str] | None = None
        self._holding: tuple[str, Position] | bool | None = False
        self._hand_codes: Counter[str] | None = None

    def enemies(self, engine: Candidates) -> list[str]:
        if self._enemies is None:
            self._enemies = engine.enemies(self.state, self.seat)
        return self._enemies

    def holding(self) -> tuple[str, Position] | None:
        if self._holding is False:
            self._holding = geometry.holding(self.state, self.seat)
        return self._holding  # type: ignore[return-value]

    def hand_codes(self, engine: Candidates) -> Counter[str]:
        if self._hand_codes is None:
            self._hand_codes = Counter(engine.codes(self.state, self.p.hand))
        return self._hand_codes


class Candidates(EngineBase):
    """The candidate actions of a decision."""

    def _follow_cost(self, state: GameState, offer: FollowOffer) -> int:
        """Cards a follower discards: 1 if Advantaged (Tailing: none), plus 1 to climb
        (L230-231)."""
        advantaged = geometry.pos(state, offer.seat, offer.mover) == Position.ADVANTAGED
        return int(advantaged) + int(offer.direction > 0)

    def _gun_cost(self, p: Plane, t: CardType, *, gf: bool) -> int:
        """Cards discarded for a gun attack: the card's cost less the Gun Rating
        (L172, L19); none with In my Sights! (L367); 2 fewer once with Gun Fighter
        (L339)."""
        if self.has_skill(p, SkillKind.NO_GUN_DISCARD):
            return 0
        gun = ratings.gun(self.ac(p), p) or 0
        cost = max(0, (t.guns_discard or 0) - gun)
        if gf:
            s = self.can_use(p, SkillKind.GUN_DISCARD)
            cost = max(0, cost - (self.skills[s].amount or 0 if s else 0))
        return cost

    def _candidates(self, c: Ctx) -> Iterator[Action]:
        state, p, kind = c.state, c.p, c.kind
        if kind != "altitude" and self.can_use(p, SkillKind.REDRAW) and p.hand:
            for combo in submultisets(c.hand_codes(self)):
                if combo:
                    yield Action("timely", cards=combo)
        if kind == "altitude":
            yield from (Action("alt", mode=a.code) for a in Altitude)
        elif kind == "angle":
            for r in Range:
                for e in c.enemies(self):
                    yield Action("angle", mode=r.code, target=e)
        elif kind == "first":
            yield Action("first")
            yield Action("second")
        elif kind == "next":
            for s in self._next_choices(state):
                yield Action("next", target=s)
        elif kind == "afterburner":
            yield Action("ab", mode="off")
            yield Action("ab", mode="on")
        elif kind in ("predraw", "postdraw"):
            for combo in submultisets(c.hand_codes(self)):
                yield Action("discard", cards=combo)
        elif kind == "trim":
            k = len(p.hand) - ratings.performance(c.ac, p)
            for combo in submultisets(c.hand_codes(self), size=k):
                yield Action("trim", cards=combo)
        elif kind == "altitude_step":
            yield Action("stay")
            yield Action("dive")
            for code in sorted(c.hand_codes(self)):
                yield Action("climb", cards=(code,))
        elif kind == "speed":
            yield Action("end")
            for e in c.enemies(self):
                yield Action("speed", mode="pos", target=e)
                yield Action("speed", mode="range", own=-1, target=e)
                yield Action("speed", mode="range", own=1, target=e)
                yield Action("speed", mode="range", enemy=-1, target=e)
                yield Action("speed", mode="range", enemy=1, target=e)
            yield Action("speed", mode="range", own=-1)
            yield Action("speed", mode="range", own=1)
        elif kind == "play":
            yield from self._play_candidates(c)
        elif kind in ("react", "teamwork"):
            yield Action("pass")
            if kind == "react":
                yield Action("alert")
            yield from self._react_candidates(c)
        elif kind == "follow":
            yield Action("nofollow")
            n = self._follow_cost(state, state.follows[0])
            for combo in submultisets(c.hand_codes(self), size=n):
                yield Action("follow", cards=combo)
        elif kind == "launch":
            yield Action("nolaunch")
            yield Action("launch", n=1)
            yield Action("launch", n=2)
        elif kind == "batturn":
            yield Action("pass")
            yield Action("batturn")
        elif kind == "site":
            yield Action("pass")
            yield from self._answers(c, cm=True)

    def _sources(self, c: Ctx) -> list[tuple[str, bool, bool]]:
        """(code, from the side cards, as Ace Pilot) for every card ``c`` may play."""
        codes = sorted(c.hand_codes(self))
        out = [(code, False, False) for code in codes]
        if c.p.side_hand and c.p.expertise_turn != c.state.turns:
            out += [(code, True, False) for code in sorted(set(self.codes(c.state, c.p.side_hand)))]
        if self.can_use(c.p, SkillKind.ANY_AS_ACE):
            out += [(code, side, True) for code, side, _ in list(out) if code != self.ace_type.code]
        return out

    def _play_candidates(self, c: Ctx) -> Iterator[Action]:
        state, p = c.state, c.p
        yield Action("end")
        held = c.holding()
        if held is not None:
            yield Action("giveup", target=held[0])
        enemies = c.enemies(self)
        hand = c.hand_codes(self)
        gf = self.can_use(p, SkillKind.GUN_DISCARD) is not None
        for code, side, ace in self._sources(c):
            t = self.ace_type if ace else self.by_code[code]
            for e in enemies:
                room = Position.TAILING - geometry.pos(state, c.seat, e)
                for n in range(1, min(t.positioning, room) + 1):
                    yield Action("play", code, side, ace, mode="pos", n=n, target=e)
            if t.range:
                yield from self._range_candidates(c, t.range, code, side, ace)
            if ace:
                continue
            rest = hand if side else hand - Counter({code: 1})
            if t.is_guns:
                for e in enemies:
                    for combo in submultisets(rest, size=self._gun_cost(p, t, gf=False)):
                        yield Action("play", code, side, target=e, cards=combo)
                    if gf:
                        for combo in submultisets(rest, size=self._gun_cost(p, t, gf=True)):
                            yield Action("play", code, side, target=e, gf=True, cards=combo)
            if t.is_tone:
                for e in enemies:
                    for m in sorted(p.missiles):
                        yield Action("play", code, side, target=e, missile=m)
            if t.effect in (CardEffect.BARREL_ROLL, CardEffect.SCISSORS):
                for e in enemies:
                    yield Action("play", code, side, target=e)
            elif t.effect is CardEffect.MISSILE_BONUS:
                yield Action("play", code, side)
            elif t.effect is CardEffect.VERTICAL_ROLL:
                for e in enemies:
                    yield Action("play", code, side, mode="down", target=e)
                    for pay in sorted(+rest):
                        yield Action("play", code, side, mode="up", target=e, cards=(pay,))

    def _range_candidates(
        self, c: Ctx, value: int, code: str, side: bool, ace: bool
    ) -> Iterator[Action]:
        state = c.state
        mine = c.p.range
        owns = range(-min(value, mine), min(value, Range.ACTIVE - mine) + 1)
        for own in owns:
            if own:
                yield Action("play", code, side, ace, mode="range", own=own)
        for e in c.enemies(self):
            theirs = state.planes[e].range
            for own in owns:
                left = value - abs(own)
                for enemy in range(-min(left, theirs), min(left, Range.ACTIVE - theirs) + 1):
                    if own or enemy:
                        yield Action(
                            "play", code, side, ace, mode="range", own=own, enemy=enemy, target=e
                        )

    def _react_candidates(self, c: Ctx) -> Iterator[Action]:
        x = c.state.exchange
        assert x is not None
        if c.seat == x.actor and x.kind == "missile":
            for code in sorted(set(self.codes(c.state, x.mini))):
                yield Action("react", card=code)
            return
        yield from self._answers(c, cm=c.kind == "react")

    def _answers(self, c: Ctx, *, cm: bool) -> Iterator[Action]:
        """Every card (and, with ``cm``, Countermeasures counter) ``c`` might react with."""
        for code, side, ace in self._sources(c):
            yield Action("react", card=code, side=side, ace=ace)
        if c.p.cm > 0 and cm:
            yield Action("react", card=COUNTER)
            yield Action("react", card=COUNTER, ace=True)

    def _next_choices(self, state: GameState) -> list[str]:
        return [
            s
            for s, p in state.planes.items()
            if p.flying and p.side == state.next_side and s not in state.acted
        ]


def submultisets(codes: Counter[str], size: int | None = None) -> Iterator[tuple[str, ...]]:
    """Every sub-multiset of ``codes`` as a sorted tuple (of ``size`` cards if given)."""
    keys = sorted(codes)
    if size is not None and (size < 0 or size > sum(codes.values())):
        return
    if size is not None and size <= 3:
        seen: set[tuple[str, ...]] = set()
        flat = [k for k in keys for _ in range(codes[k])]
        for combo in combinations(flat, size):
            if combo not in seen:
                seen.add(combo)
                yield combo
        return
    for counts in product(*(range(codes[k] + 1) for k in keys)):
        if size is not None and sum(counts) != size:
            continue
        yield tuple(k for k, n in zip(keys, counts, strict=True) for _ in range(n))
