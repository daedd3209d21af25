"""The engine's foundations, shared by the legality, flow and resolution layers:
component lookups, cards moving between piles, weapons, and who must decide now.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.contract import Decision, Scope, Timing
from engine.core.events import Event
from engine.core.rng import Rng
from engine.lockedon import geometry
from engine.lockedon.components import (
    Aircraft,
    CardType,
    Missile,
    MissileType,
    Range,
    Site,
    Skill,
    SkillKind,
)
from engine.lockedon.loader import Components
from engine.lockedon.state import Exchange, GameState, Plane
from engine.lockedon.texts import counted, fixed
from strings import LazyTerm, Term

__all__ = ["DECISIONS", "EngineBase", "Why"]


DECISIONS = (
    "altitude",
    "angle",
    "first",
    "next",
    "afterburner",
    "predraw",
    "altitude_step",
    "speed",
    "play",
    "postdraw",
    "react",
    "teamwork",
    "follow",
    "launch",
    "batturn",
    "trim",
    "site",
)
"""Every kind of decision (:class:`engine.core.contract.Decision`.kind)."""

_TIMING = {
    "altitude": Timing.SIMULTANEOUS,  # L76: secret, revealed together
    "react": Timing.RESPONSE,
    "teamwork": Timing.RESPONSE,
    "follow": Timing.RESPONSE,
    "batturn": Timing.RESPONSE,
    "site": Timing.RESPONSE,
}


class Why(LazyTerm):
    """A refusal not yet put in words: its catalogue key and fields (a Term is made
    only when the reason is shown; ``legal_actions`` only asks *whether*)."""

    __slots__ = ()


class EngineBase:
    """Components and the queries every rule needs; holds no game state."""

    def __init__(self, components: Components) -> None:
        self.components = components
        self.aircraft = components.aircraft
        self.missiles: dict[str, Missile] = dict(components.missiles)
        self.skills: dict[str, Skill] = dict(components.skills)
        self.sites: dict[str, Site] = dict(components.sites)
        types: list[CardType] = []
        for t in components.deck.types:
            types.extend([t] * t.count)
        self.one_deck = tuple(types)
        self.by_code = components.deck.by_code
        self.ace_type = next(t for t in components.deck.types if "any" in t.react_to)
        self._skill_kind = {s.id: s.kind for s in components.skills.values()}

    # --- cards ---------------------------------------------------------------------
    def card_types(self, decks: int) -> tuple[CardType, ...]:
        """Every card of ``decks`` combined decks (L414-415): card id -> its type."""
        return self.one_deck * decks

    def ctype(self, state: GameState, card: int) -> CardType:
        return self.one_deck[card % len(self.one_deck)]

    def code(self, state: GameState, card: int) -> str:
        return self.one_deck[card % len(self.one_deck)].code

    def codes(self, state: GameState, cards: Sequence[int]) -> list[str]:
        n = len(self.one_deck)
        return [self.one_deck[c % n].code for c in cards]

    def find(self, state: GameState, cards: Sequence[int], code: str) -> int | None:
        """The last card of this code in a pile (the one most recently drawn)."""
        n = len(self.one_deck)
        for i in range(len(cards) - 1, -1, -1):
            if self.one_deck[cards[i] % n].code == code:
                return cards[i]
        return None

    def has_codes(self, state: GameState, cards: Sequence[int], codes: Sequence[str]) -> bool:
        """Whether ``cards`` hold every code of ``codes`` (a multiset)."""
        need: dict[str, int] = {}
        for c in codes:
            need[c] = need.get(c, 0) + 1
        have: dict[str, int] = {}
        for c in self.codes(state, cards):
            have[c] = have.get(c, 0) + 1
        return all(have.get(c, 0) >= k for c, k in need.items())

    def label(self, state: GameState, card: int) -> str:
        return self.ctype(state, card).label

    # --- aircraft --------------------------------------------------------------------
    def ac(self, p: Plane) -> Aircraft:
        return self.aircraft[p.aircraft]

    def name(self, state: GameState, seat: str) -> str:
        """``F-15A Eagle (A1)``: how narration names an aircraft; a SAM/AAA site (a
        shooter that is not a seat) by its designation, ``SA-7``."""
        if seat not in state.planes and seat in self.sites:
            return self.sites[seat].name
        return f"{self.aircraft[state.planes[seat].aircraft].name} ({seat})"

    def has_skill(self, p: Plane, kind: SkillKind) -> str | None:
        """The id of ``p``'s skill of this kind, if it has one."""
        for s in p.skills:
            if self._skill_kind.get(s) is kind:
                return s
        return None

    def can_use(self, p: Plane, kind: SkillKind) -> str | None:
        """The id of one of ``p``'s skills of this kind not used yet (once-per-game
        skills are used once, L339-362)."""
        for s in p.skills:
            if self._skill_kind.get(s) is kind and not (
                self.skills[s].once_per_game and s in p.used
            ):
                return s
        return None

    def enemies(self, state: GameState, seat: str) -> list[str]:
        """Flying enemy aircraft (every other side; in a free-for-all, everyone)."""
        side = state.planes[seat].side
        return [s for s, p in state.planes.items() if p.flying and p.side != side]

    def friends(self, state: GameState, seat: str) -> list[str]:
        side = state.planes[seat].side
        return [s for s, p in state.planes.items() if p.flying and p.side == side and s != seat]

    def longest(self, p: Plane) -> Range | None:
        """The range of ``p``'s longest-ranged weapon (gun, missiles left), or None
        (L197)."""
        best: Range | None = Range.GUN if self.ac(p).gun is not None else None
        for m, n in p.missiles.items():
            if n > 0:
                r = self.missiles[m].type.range
                if best is None or r > best:
                    best = r
        return best

    def missile_type(self, missile: str) -> MissileType:
        return self.missiles[missile].type

    # --- piles ---------------------------------------------------------------------
    def take_top(self, state: GameState, events: list[Event]) -> int | None:
        """The top card of the draw pile. An empty pile is rebuilt by shuffling the
        discard pile (the book is silent; docs/rules-decisions.md); None if both are
        empty."""
        if not state.deck:
            if not state.discard:
                return None
            rng = Rng(state.rng)
            state.deck = state.discard
            state.discard = []
            rng.shuffle(state.deck)
            state.rng = rng.state
            events.append(Event("reshuffle", Term("lockedon.event.reshuffle", n=len(state.deck))))
        return state.deck.pop()

    def draw(
        self, state: GameState, seat: str, n: int, events: list[Event], *, why: str
    ) -> list[int]:
        """Draw ``n`` cards into ``seat``'s hand. Nugget and Plumber throw away the cards
        they name as they are drawn, with no re-draw (L331, L334). ``why`` is the
        catalogue key of the reason (``lockedon.why.*``)."""
        if n <= 0:
            return []
        p = state.planes[seat]
        thrown: set[str] = set()
        for s in p.skills:
            if self._skill_kind.get(s) is SkillKind.DISCARD_ON_DRAW:
                thrown.update(self.skills[s].cards)
        got: list[int] = []
        lost: list[int] = []
        for _ in range(n):
            card = self.take_top(state, events)
            if card is None:
                break
            if self.code(state, card) in thrown:
                state.discard.append(card)
                lost.append(card)
            else:
                p.hand.append(card)
                got.append(card)
        reason = fixed(why)
        events.append(
            Event(
                "draw",
                Term(
                    counted("draw", len(got)),
                    plane=self.name(state, seat),
                    n=len(got),
                    why=reason,
                ),
            )
        )
        if got:
            events.append(
                Event(
                    "drawn",
                    Term(
                        "lockedon.event.drawn",
                        cards=", ".join(self.label(state, c) for c in got),
                    ),
                    seat=seat,
                )
            )
        if lost:
            events.append(
                Event(
                    "thrown",
                    Term(
                        "lockedon.event.thrown",
                        plane=self.name(state, seat),
                        cards=", ".join(self.label(state, c) for c in lost),
                    ),
                )
            )
        return got

    def discard_codes(self, state: GameState, pile: list[int], codes: Sequence[str]) -> list[int]:
        """Move the cards of these codes from ``pile`` to the discard pile."""
        out = []
        for code in codes:
            card = self.find(state, pile, code)
            assert card is not None
            pile.remove(card)
            state.discard.append(card)
            out.append(card)
        return out

    # --- who decides ---------------------------------------------------------------
    def to_react(self, x: Exchange) -> str:
        """Who answers next in an exchange: the target after the actor's card, the
        actor after any defender's card (L135)."""
        assert x.target is not None
        return x.target if x.last_seat == x.actor else x.actor

    def pending(self, state: GameState) -> list[Decision]:
        """Who must decide now, and what."""
        step = state.step
        if step == "over":
            return []
        if step == "setup":
            return [
                Decision(s, "altitude", Timing.SIMULTANEOUS, Scope.SEAT, p.side)
                for s, p in state.planes.items()
                if p.pick is None
            ]
        if step == "angle":
            seat = state.angles[0][0]
            return [Decision(seat, "angle", Timing.TURN, Scope.SEAT, state.planes[seat].side)]
        if step == "first":
            assert state.chooser is not None
            seat = state.chooser
            return [Decision(seat, "first", Timing.TURN, Scope.SEAT, state.planes[seat].side)]
        x = state.exchange
        if x is not None:
            seat = x.asking[0] if x.asking else self.to_react(x)
            kind = "teamwork" if x.asking else "react"
            return [Decision(seat, kind, Timing.RESPONSE, Scope.SEAT, state.planes[seat].side)]
        if state.site is not None:
            seat = state.site.target
            return [Decision(seat, "site", Timing.RESPONSE, Scope.SEAT, state.planes[seat].side)]
        if state.launch is not None:
            seat = state.launch.seat
            return [Decision(seat, "launch", Timing.TURN, Scope.SEAT, state.planes[seat].side)]
        if state.follows:
            seat = state.follows[0].seat
            return [Decision(seat, "follow", Timing.RESPONSE, Scope.SEAT, state.planes[seat].side)]
        if state.prompts:
            pr = state.prompts[0]
            return [
                Decision(
                    pr.seat,
                    pr.kind,
                    _TIMING.get(pr.kind, Timing.TURN),
                    Scope.SEAT,
                    state.planes[pr.seat].side,
                )
            ]
        if step == "next":
            side = state.next_side
            return [
                Decision(s, "next", Timing.TURN, Scope.SIDE, side)
                for s, p in state.planes.items()
                if p.flying and p.side == side
            ]
        if state.active is None or step == "done":
            return []
        seat = state.active
        return [Decision(seat, step, Timing.TURN, Scope.SEAT, state.planes[seat].side)]

    def pos(self, state: GameState, a: str, b: str) -> int:
        return int(geometry.pos(state, a, b))
