"""The engine's foundations, shared by the legality, flow and resolution layers.

Component lookups (ratings of the side a card shows), positions between leaders,
cards moving between piles, and who must decide now.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.core.contract import Decision, Scope, Timing
from engine.core.events import Event
from engine.core.rng import Rng
from engine.dif import tables
from engine.dif.actions import COUNTER, Action
from engine.dif.components import (
    Aircraft,
    BombResult,
    Card,
    CardKind,
    CardType,
    Deck,
    LeaderRatings,
    PilotSkill,
    Position,
    Ruleset,
    Side,
    WingmanRatings,
)
from engine.dif.state import Element, Exchange, FollowOffer, GameState, Plane
from engine.dif.texts import fixed, join
from strings import LazyTerm, Term

__all__ = ["BURST_BUY", "DRAWS", "POSITION_DELTA", "EngineBase", "Pending"]


# Position steps a successful card gives its leader (6.31-6.34): SCI goes from
# Disadvantaged to Advantaged, two steps.
POSITION_DELTA = {CardKind.MAN: 1, CardKind.HAL: 2, CardKind.SCI: 2, CardKind.FUT: 1}
BURST_BUY = {CardKind.MAN: 1, CardKind.HAL: 2}  # vs a wingman (10.61)
DRAWS = {
    why: (f"dif.event.draws.{why}.one", f"dif.event.draws.{why}.other")
    for why in ("deal", "dive", "step", "redraw", "promoted", "minihand", "defence")
}
"""Each reason to draw (the first hand 4.6, a dive 7.21, the Draw step 3.5, a Combat
Vision redraw, a new leader's hand 11.2, the attacking and the defending wingman's
mini-hands), and the narration keys of drawing one card and drawing ``n``."""


DECISIONS = (
    "altitude",
    "wingman",
    "wingman_attack",
    "altitude_step",
    "follow",
    "play",
    "respond",
    "discard",
    "order",
    "redraw",
    "abandon",
    "jettison",
    "bomb",
    "strafe",
    "aa",
)
"""Every kind of :class:`Pending` decision (the last five: a campaign mission's,
:mod:`engine.dif.bombing`)."""


_TIMING = {
    "altitude": Timing.SIMULTANEOUS,  # 4.5: secret, revealed together
    "redraw": Timing.SIMULTANEOUS,  # RotL Combat Vision, before the first turn
    "respond": Timing.RESPONSE,
    "follow": Timing.RESPONSE,
}


@functools.lru_cache(maxsize=1024)
def Pending(seat: str, kind: str, side: str | None = None) -> Decision:
    """A decision some seat must take now, as the contract's :class:`Decision`.

    ``kind`` is ``altitude`` (secret pick), ``redraw`` (Combat Vision), ``order`` (turn
    1: which element of the side plays next, any player of ``side`` may answer),
    ``wingman``, ``wingman_attack``, ``altitude_step``, ``play``, ``discard``,
    ``respond`` or ``follow``. A Decision is a frozen value, so one made is kept
    (``pending`` is asked several times an action)."""
    if kind == "order":
        return Decision(seat, kind, Timing.TURN, Scope.SIDE, side)
    return Decision(seat, kind, _TIMING.get(kind, Timing.TURN), Scope.SEAT, side)


def _key(a: str, b: str) -> tuple[str, int]:
    return (f"{a}|{b}", 1) if a < b else (f"{b}|{a}", -1)


class EngineBase:
    """Components and the queries every rule needs; holds no game state."""

    def __init__(self, deck: Deck | Mapping[Ruleset, Deck], aircraft: dict[str, Aircraft]) -> None:
        """``deck`` is one deck for both rulesets, or one deck per ruleset.

        Card ids are indices into one list of every distinct deck's cards (Zero!'s
        first), so a state's piles are plain ints whatever its ruleset.
        """
        decks = {rs: deck for rs in Ruleset} if isinstance(deck, Deck) else dict(deck)
        cards: list[Card] = []
        offsets: dict[str, int] = {}
        self.deck_ids: dict[Ruleset, tuple[int, ...]] = {}
        for rs in (Ruleset.ZERO, Ruleset.ROTL):
            d = decks[rs]
            if d.id not in offsets:
                offsets[d.id] = len(cards)
                cards.extend(d.cards)
            start = offsets[d.id]
            self.deck_ids[rs] = tuple(range(start, start + len(d.cards)))
        self.decks = decks
        self.aircraft = aircraft
        # A Full Throttle counter is played exactly like a FUT card (RotL L165): it is
        # a virtual card after the real ones, never in a pile, paid from ``counters``.
        fut = next((c.type for c in cards if c.type.kind is CardKind.FUT), None)
        self.counter = len(cards)
        cards.append(
            Card(
                id=self.counter,
                type=CardType(
                    kind=CardKind.FUT,
                    responds_to=fut.responds_to if fut else frozenset({CardKind.FUT}),
                ),
                bomb=BombResult.MISS,
                over_target="miss",
                spoiled_attack=False,
            )
        )
        self.cards = tuple(cards)
        self.code = [c.type.code for c in self.cards]
        self.kind = [c.type.kind for c in self.cards]
        self.label = [c.type.label for c in self.cards]
        self._label_of_code = {c.type.code: c.type.label for c in self.cards}
        self.code[self.counter] = COUNTER
        # Card names stay as printed (English); a counter is not a card, so it has a text.
        self.label[self.counter] = fixed("dif.card.counter")
        self._label_of_code[COUNTER] = self.label[self.counter]
        self._kind_responds: dict[CardKind, frozenset[CardKind]] = {}
        """What the first card of each kind answers (a card declared as that kind)."""
        for c in self.cards:
            self._kind_responds.setdefault(c.type.kind, c.type.responds_to)
        self._rated: dict[tuple[str, bool, tuple[str, ...]], LeaderRatings] = {}
        self._plane_labels: dict[tuple[str, str, str], str] = {}
        self._listed: tuple[GameState, str, tuple[Action, ...], list[Decision]] | None = None
        """The latest answer of ``legal_actions``: its state, seat, actions and what was
        pending (:meth:`engine.dif.legality.Legality.was_listed`)."""
        self._aims: tuple[GameState, dict[tuple[str, str], Any]] | None = None
        """While ``legal_actions`` runs: its state, and what an attack at each target
        depends on besides its card (:meth:`engine.dif.legality.Legality._aim`)."""

    def _ac(self, e: Element | Plane) -> Aircraft:
        return self.aircraft[e.aircraft]

    def _leader_ratings(self, e: Element) -> LeaderRatings:
        """The leader card's side in play, with its pilot's skills (RotL "Pilots")."""
        p = e.leader
        assert p is not None
        key = (p.aircraft, p.damaged, tuple(p.pilot))
        r = self._rated.get(key)
        if r is None:
            sides = self._ac(p).leader_card
            r = sides.damaged if p.damaged else sides.undamaged
            if p.pilot:
                sk = set(p.pilot)
                r = r.model_copy(
                    update={
                        "bursts": r.bursts + (PilotSkill.BU in sk),
                        "draw": r.draw + (PilotSkill.H in sk),
                        "hand_size": r.hand_size + (PilotSkill.P in sk),
                        "gunner": r.gunner + (PilotSkill.G in sk and r.gunner > 0),
                    }
                )
            self._rated[key] = r
        return r

    def _wingman_ratings(self, p: Plane) -> WingmanRatings:
        sides = self._ac(p).wingman
        assert sides is not None
        return sides.damaged if p.damaged else sides.undamaged

    def _capacity(self, p: Plane) -> tuple[int, int]:
        ac = self._ac(p)
        if p.role == "leader":
            d = int(PilotSkill.D in p.pilot)  # +1 on each side of the card
            card = ac.leader_card
            return card.undamaged.damage_capacity + d, card.damaged.damage_capacity + d
        assert ac.wingman is not None
        return ac.wingman.undamaged.damage_capacity, ac.wingman.damaged.damage_capacity

    def _plane(self, state: GameState, ref: str) -> Plane | None:
        e = state.elements.get(ref[:-1])
        if e is None:
            return None
        return e.leader if ref[-1] == "L" else e.wingman

    def _el_label(self, state: GameState, e: Element) -> str:
        return f"{self._ac(e).name} ({e.seat})"

    def _plane_label(self, state: GameState, ref: str) -> str:
        base, _, lost = ref.partition("-")  # "A1L-lost1": a leader shot down (11.2)
        e = state.elements[base[:-1]]
        role = "lost" if lost else base[-1]
        key = (e.aircraft, e.seat, role)
        label = self._plane_labels.get(key)
        if label is None:
            name = self._ac(e).name
            if lost:
                label = Term("dif.plane.shot_down", aircraft=name, seat=e.seat)
            elif role == "L":
                label = f"{name} ({e.seat})"
            else:
                label = Term("dif.plane.wingman", aircraft=name, seat=e.seat)
            self._plane_labels[key] = label
        return label

    def pos(self, state: GameState, a: str, b: str) -> int:
        """Position of leader ``a`` on leader ``b`` (symmetric: pos(b, a) == -pos(a, b))."""
        k, sign = _key(a, b)
        return state.positions.get(k, 0) * sign

    def _set_pos(self, state: GameState, a: str, b: str, value: int) -> None:
        k, sign = _key(a, b)
        if value:
            state.positions[k] = value * sign
        else:
            state.positions.pop(k, None)

    def engaged_with(self, state: GameState, seat: str) -> str | None:
        """The enemy leader this leader is Assigned to (6.5), if any."""
        for k in state.positions:
            a, b = k.split("|")
            if a == seat:
                return b
            if b == seat:
                return a
        return None

    def _drop_positions(self, state: GameState, seat: str) -> None:
        for k in [k for k in state.positions if seat in k.split("|")]:
            del state.positions[k]

    def _draw_one(self, state: GameState, events: list[Event]) -> int | None:
        if not state.deck:
            if not state.discard:
                return None
            # 4.61: shuffle the discard pile into a new draw pile.
            state.deck, state.discard = state.discard, []
            rng = Rng(state.rng)
            rng.shuffle(state.deck)
            state.rng = rng.state
            events.append(Event("reshuffle", LazyTerm("dif.event.reshuffle")))
        return state.deck.pop()

    def _draw(
        self,
        state: GameState,
        e: Element,
        n: int,
        into: list[int],
        events: list[Event],
        why: str,
    ) -> None:
        """Draw ``n`` cards into ``into`` (the hand, the attacking wingman's
        ``minihand`` or the defending wingman's ``defence``), and say whose draw it is
        and what for (``why``, a key of :data:`DRAWS`): a spectator tells a dive's
        card from the Draw step's."""
        drawn: list[int] = []
        for _ in range(max(n, 0)):
            c = self._draw_one(state, events)
            if c is None:
                break
            drawn.append(c)
        into.extend(drawn)
        if drawn or n > 0:
            el = self._el_label(state, e)
            count = len(drawn)
            one, other = DRAWS[why]
            text = LazyTerm(one, element=el) if count == 1 else LazyTerm(other, element=el, n=count)
            events.append(Event("draw", text, data={"seat": e.seat, "count": count}))
            if drawn:
                cards = join([self.label[c] for c in drawn])
                if why == "minihand":
                    text = LazyTerm("dif.event.drew.minihand", cards=cards)
                elif why == "defence":
                    text = LazyTerm("dif.event.drew.defence", cards=cards)
                else:
                    text = LazyTerm("dif.event.drew.hand", cards=cards)
                events.append(
                    Event(
                        "drew",
                        text,
                        seat=e.seat,
                        data={"cards": [self.code[c] for c in drawn]},
                    )
                )

    def _find(self, cards: Sequence[int], code: str) -> int | None:
        best: int | None = None
        codes = self.code
        for c in cards:
            if codes[c] == code and (best is None or c < best):
                best = c
        return best

    def _take_from_hand(self, e: Element, codes: Iterable[str]) -> list[int]:
        """Remove the named cards from a hand (legality has checked they are there)."""
        taken = []
        for code in codes:
            c = self._find(e.hand, code)
            assert c is not None, f"{code} not in hand: refusal() should have caught it"
            e.hand.remove(c)
            taken.append(c)
        return taken

    def _pay(self, e: Element, codes: Iterable[str]) -> list[int]:
        """Remove the named cards (and Full Throttle counters, ``FTC``) a seat pays
        with; returns the real cards, for the discard pile (RotL L203, L210)."""
        real = [c for c in codes if c != COUNTER]
        e.counters -= sum(1 for c in codes if c == COUNTER)
        return self._take_from_hand(e, real)

    def card_label(self, code: str) -> str:
        """The printed name of a card code, e.g. ``IMS-1B2D`` -> ``In My Sights (1B/2D)``."""
        return self._label_of_code.get(code, code)

    def _codes(self, cards: Iterable[int]) -> list[str]:
        return sorted(set(map(self.code.__getitem__, cards)))

    def _discard(self, state: GameState, cards: Iterable[int]) -> None:
        state.discard.extend(cards)

    def pending(self, state: GameState) -> list[Decision]:
        """Who must decide now, and what (DESIGN.md engine contract)."""
        if state.step == "over":
            return []
        if state.step == "setup":
            return [Pending(e.seat, "altitude") for e in state.elements.values() if e.pick is None]
        if state.step == "redraw":
            return [Pending(e.seat, "redraw") for e in state.elements.values() if e.cv]
        if state.step == "order":
            side, seats = self.order_choice(state)
            return [Pending(seat, "order", side.value) for seat in seats]
        if state.follow is not None:
            return [Pending(state.follow.follower, "follow")]
        if state.exchange is not None:
            return [Pending(self._responder(state, state.exchange), "respond")]
        active = state.active
        assert active is not None
        kind = "altitude_step" if state.step == "altitude" else state.step
        return [Pending(active, kind)]

    def order_choice(self, s: GameState) -> tuple[Side, list[str]]:
        raise NotImplementedError  # engine.dif.flow

    def _responder(self, state: GameState, x: Exchange) -> str:
        return x.target[:-1] if x.defender_to_move else x.attacker[:-1]

    def _follow_cost(self, state: GameState, f: FollowOffer) -> int:
        p = Position(self.pos(state, f.follower, f.mover))
        return tables.follow_cost(Ruleset(state.ruleset), p, f.direction > 0, f.vertical)

    def _enemy_seats(self, state: GameState, e: Element) -> list[str]:
        return [o.seat for o in state.elements.values() if o.side != e.side]

    def _response_source(self, state: GameState, x: Exchange) -> list[int]:
        if x.defender_to_move:
            o = state.elements[x.target[:-1]]
            return o.defence if x.target[-1] == "W" else o.hand
        a = state.elements[x.attacker[:-1]]
        return a.minihand if x.source == "minihand" else a.hand

    def _response_cards(self, state: GameState, x: Exchange) -> list[int]:
        """The cards the responder may answer with now.

        A climbing Vertical Roll names the card it will discard (7.21b, 7.22); that card
        is set aside until the roll resolves, so the mover cannot also play it as a
        response in the same exchange.
        """
        src = self._response_source(state, x)
        if not x.defender_to_move and x.climb_discard is not None:
            return [c for c in src if c != x.climb_discard]
        return list(src)

    def _discard_defences(self, s: GameState, e: Element, ev: list[Event]) -> None:
        for seat in list(s.elements):
            o = s.elements[seat]
            if o.defence:
                o = s.own_element(seat)
                ev.append(
                    Event(
                        "discard",
                        LazyTerm(
                            "dif.event.discard_defence",
                            element=self._el_label(s, o),
                            cards=join([self.label[c] for c in o.defence]),
                        ),
                    )
                )
                self._discard(s, o.defence)
                o.defence = []

    def _side_out(self, s: GameState) -> bool:
        """A side has no element left in the fight (4.91).

        :attr:`Element.in_fight` spelled out, and done at the first element in the
        fight of the second side (asked several times by every action: two property
        calls an element cost more than the test). There are two sides (:class:`Side`)."""
        first = None
        for e in s.elements.values():
            leader = e.leader
            if leader is not None and leader.status == "flying":
                if first is None:
                    first = e.side
                elif e.side != first:
                    return False
        return True

    def victory_points(self, s: GameState) -> dict[Side, int]:
        """4.92 / RotL L64-65: 5 per enemy fighter destroyed, 2 per damaged and/or
        evaded, doubled for jets and rockets; plus any balancing bonus (13.1)."""
        vp = {side: s.bonus.get(side.value, 0) for side in Side}
        for e in s.elements.values():
            scorer = Side(e.side).other
            for p in e.planes():
                factor = 2 if self._ac(p).double_vp else 1
                if p.status == "destroyed":
                    vp[scorer] += 5 * factor
                elif p.damaged or p.status == "evaded":
                    vp[scorer] += 2 * factor
        return vp
