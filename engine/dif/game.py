"""The Down in Flames basic game: the engine contract of DESIGN.md.

:class:`DifEngine` holds the components (deck, aircraft) and implements
``new_game``, ``pending``, ``legal_actions``, ``apply``, ``view`` and ``replay`` over
:class:`~engine.dif.state.GameState`. Legality has one truth, :meth:`DifEngine.refusal`:
``legal_actions`` filters generated candidates through it and ``apply`` refuses
with its message, which names the rule. Section numbers are Zero!'s unless marked
RotL (line numbers of the Rise of the Luftwaffe rulebook).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.core.errors import RuleViolation, SetupError
from engine.core.events import Event
from engine.core.rng import Rng
from engine.dif import tables
from engine.dif.actions import Action
from engine.dif.components import (
    BURST_KINDS,
    Aircraft,
    Altitude,
    CardKind,
    Deck,
    LeaderRatings,
    Position,
    Ruleset,
    Side,
    WingmanRatings,
)
from engine.dif.present import build_view
from engine.dif.setup import DifSetup
from engine.dif.state import Element, Exchange, FollowOffer, GameState, Plane, TurnState
from engine.dif.view import DifView

__all__ = ["STEPS", "DifEngine", "Pending", "default_engine"]

STEPS = {
    "setup": "Secret starting altitudes",
    "wingman": "Wingman attack",
    "wingman_attack": "Wingman attack",
    "altitude": "Adjust altitude",
    "play": "Play cards",
    "discard": "Discard",
    "over": "Game over",
}

_POSITION_DELTA = {CardKind.MAN: 1, CardKind.HAL: 2, CardKind.SCI: 2, CardKind.FUT: 1}
_BURST_BUY = {CardKind.MAN: 1, CardKind.HAL: 2}  # vs a wingman (10.61)


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision some seat must take now."""

    seat: str
    kind: str
    """``altitude`` (secret pick), ``wingman``, ``wingman_attack``, ``altitude_step``,
    ``play``, ``discard``, ``respond`` or ``follow``."""


def _key(a: str, b: str) -> tuple[str, int]:
    return (f"{a}|{b}", 1) if a < b else (f"{b}|{a}", -1)


class DifEngine:
    """The rules of the basic game for one set of components."""

    def __init__(self, deck: Deck, aircraft: dict[str, Aircraft]) -> None:
        self.deck = deck
        self.aircraft = aircraft
        self.cards = deck.cards
        self.code = [c.type.code for c in deck.cards]
        self.kind = [c.type.kind for c in deck.cards]
        self.label = [c.type.label for c in deck.cards]

    # ------------------------------------------------------------------ set-up
    def new_game(self, setup: DifSetup, seed: int) -> tuple[GameState, list[Event]]:
        """Create a game (4.1-4.7). Raises SetupError for an impossible setup."""
        seats = [e.seat for e in setup.elements]
        if len(set(seats)) != len(seats):
            raise SetupError("two elements share a seat")
        for side in Side:
            if not any(e.side is side for e in setup.elements):
                raise SetupError(f"the {side.label(setup.ruleset)} side has no element (4.2)")
        elements: dict[str, Element] = {}
        count = 0
        for e in setup.elements:
            ac = self.aircraft.get(e.aircraft)
            if ac is None:
                raise SetupError(f"unknown aircraft {e.aircraft!r}")
            if ac.side is not e.side:
                raise SetupError(f"{ac.name} flies for the {ac.side.label(setup.ruleset)} side")
            if setup.ruleset not in ac.rulesets:
                raise SetupError(f"{ac.name} is not part of the {setup.ruleset.value} game")
            if ac.year > setup.year:
                raise SetupError(
                    f"{ac.name} entered service in {ac.year}, after {setup.year} (4.3)"
                )
            if e.wingman and ac.wingman is None:
                raise SetupError(f"{ac.name} has no wingman card")
            leader = Plane(f"{e.seat}L", ac.id, "leader")
            wingman = Plane(f"{e.seat}W", ac.id, "wingman") if e.wingman else None
            elements[e.seat] = Element(e.seat, e.side.value, ac.id, leader, wingman)
            count += 2 if e.wingman else 1
        rng = Rng(seed)
        deck = list(range(len(self.cards)))
        rng.shuffle(deck)
        state = GameState(
            ruleset=setup.ruleset.value,
            seed=seed,
            rng=rng.state,
            year=setup.year,
            max_turns=None if setup.to_the_death else 6,
            elements=elements,
            deck=deck,
            aircraft_at_start=count,
        )
        for ref, hits in setup.hits.items():
            plane = self._plane(state, ref)
            if plane is None:
                raise SetupError(f"no aircraft {ref}")
            self._hit(state, plane, hits, [])
        if setup.hands is not None:
            for seat, codes in setup.hands.items():
                if seat not in elements:
                    raise SetupError(f"no seat {seat}")
                elements[seat].hand = [self._take(state, c) for c in codes]
        if setup.deck_top:
            top = [self._take(state, c) for c in setup.deck_top]
            state.deck.extend(reversed(top))
        events = [Event("setup", self._setup_text(state))]
        if setup.altitudes is not None:
            for seat, alt in setup.altitudes.items():
                elements[seat].pick = int(alt)
        state.first_side = setup.first_side.value if setup.first_side else None
        preset_order = list(setup.order) if setup.order else None
        for p in setup.positions:
            self._set_pos(state, p.leader, p.on, int(p.position))
        self._maybe_reveal(state, events, order=preset_order)
        return state, events

    def _take(self, state: GameState, code: str) -> int:
        for i in range(len(state.deck) - 1, -1, -1):
            if self.code[state.deck[i]] == code:
                return state.deck.pop(i)
        raise SetupError(f"no card {code} left in the deck")

    def _setup_text(self, state: GameState) -> str:
        rs = Ruleset(state.ruleset)
        sides = []
        for side in Side:
            names = [self._el_label(state, e) for e in state.elements.values() if e.side == side]
            sides.append(f"{side.label(rs)}: {', '.join(names)}")
        return f"Dogfight, {state.year}. " + "; ".join(sides) + "."

    def _maybe_reveal(
        self, state: GameState, events: list[Event], *, order: list[str] | None = None
    ) -> None:
        """Once every seat has picked, reveal altitudes, deal, flip the coin (4.5-4.7)."""
        if any(e.pick is None for e in state.elements.values()):
            return
        rs = Ruleset(state.ruleset)
        for e in state.elements.values():
            e.altitude, e.pick = e.pick, None
        events.append(
            Event(
                "reveal",
                "Altitudes revealed: "
                + ", ".join(
                    f"{self._el_label(state, e)} {Altitude(e.altitude or 0).label}"
                    for e in state.elements.values()
                )
                + ".",
            )
        )
        for e in state.elements.values():
            # 4.6: deal each hand; a hand fixed by the setup (examples, tests) is kept.
            if not e.hand:
                self._draw(state, e, self._leader_ratings(e).hand_size, e.hand, events)
        rng = Rng(state.rng)
        if state.first_side is None:
            state.first_side = Side.AXIS.value if rng.coin() else Side.ALLIED.value
        state.rng = rng.state
        first = Side(state.first_side)
        events.append(
            Event("initiative", f"Coin flip: the {first.label(rs)} side goes first (4.7).")
        )
        if order is None:
            by_side = {
                s: sorted(e.seat for e in state.elements.values() if e.side == s.value)
                for s in Side
            }
            order = []
            turn = first
            while by_side[Side.AXIS] or by_side[Side.ALLIED]:
                if by_side[turn]:
                    order.append(by_side[turn].pop(0))
                turn = turn.other
        state.order = order
        events.append(
            Event(
                "order",
                "Player order: "
                + ", ".join(self._el_label(state, state.elements[s]) for s in order)
                + ".",
            )
        )
        state.turn, state.index = 1, 0
        self._start_turn(state, events)

    # ------------------------------------------------------------------ lookups
    def _ac(self, e: Element | Plane) -> Aircraft:
        return self.aircraft[e.aircraft]

    def _leader_ratings(self, e: Element) -> LeaderRatings:
        assert e.leader is not None
        sides = self._ac(e.leader).leader
        return sides.damaged if e.leader.damaged else sides.undamaged

    def _wingman_ratings(self, p: Plane) -> WingmanRatings:
        sides = self._ac(p).wingman
        assert sides is not None
        return sides.damaged if p.damaged else sides.undamaged

    def _capacity(self, p: Plane) -> tuple[int, int]:
        ac = self._ac(p)
        if p.role == "leader":
            return ac.leader.undamaged.damage_capacity, ac.leader.damaged.damage_capacity
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
        name = self._ac(e).name
        if lost:
            return f"{name} ({e.seat}, shot down)"
        return f"{name} ({e.seat})" if base[-1] == "L" else f"{name} wingman ({e.seat})"

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

    # ------------------------------------------------------------------ cards
    def _draw_one(self, state: GameState, events: list[Event]) -> int | None:
        if not state.deck:
            if not state.discard:
                return None
            # 4.61: shuffle the discard pile into a new draw pile.
            state.deck, state.discard = state.discard, []
            rng = Rng(state.rng)
            rng.shuffle(state.deck)
            state.rng = rng.state
            events.append(
                Event("reshuffle", "The discard pile is shuffled into a new draw pile (4.61).")
            )
        return state.deck.pop()

    def _draw(
        self,
        state: GameState,
        e: Element,
        n: int,
        into: list[int],
        events: list[Event],
        what: str = "hand",
    ) -> None:
        drawn: list[int] = []
        for _ in range(max(n, 0)):
            c = self._draw_one(state, events)
            if c is None:
                break
            drawn.append(c)
        into.extend(drawn)
        if drawn or n > 0:
            noun = "card" if len(drawn) == 1 else "cards"
            events.append(
                Event(
                    "draw",
                    f"{self._el_label(state, e)} draws {len(drawn)} {noun}"
                    + ("" if what == "hand" else f" for the {what}")
                    + ".",
                    data={"seat": e.seat, "count": len(drawn)},
                )
            )
            if drawn:
                events.append(
                    Event(
                        "drew",
                        f"You drew {', '.join(self.label[c] for c in drawn)}"
                        + ("" if what == "hand" else f" ({what})")
                        + ".",
                        seat=e.seat,
                        data={"cards": [self.code[c] for c in drawn]},
                    )
                )

    def _find(self, cards: Sequence[int], code: str) -> int | None:
        best: int | None = None
        for c in cards:
            if self.code[c] == code and (best is None or c < best):
                best = c
        return best

    def _codes(self, cards: Iterable[int]) -> list[str]:
        return sorted({self.code[c] for c in cards})

    def _discard(self, state: GameState, cards: Iterable[int]) -> None:
        state.discard.extend(cards)

    # ------------------------------------------------------------------ pending
    def pending(self, state: GameState) -> list[Pending]:
        """Who must decide now, and what (DESIGN.md engine contract)."""
        if state.step == "over":
            return []
        if state.step == "setup":
            return [Pending(e.seat, "altitude") for e in state.elements.values() if e.pick is None]
        if state.follow is not None:
            return [Pending(state.follow.follower, "follow")]
        if state.exchange is not None:
            return [Pending(self._responder(state, state.exchange), "respond")]
        active = state.active
        assert active is not None
        kind = "altitude_step" if state.step == "altitude" else state.step
        return [Pending(active, kind)]

    def _responder(self, state: GameState, x: Exchange) -> str:
        return x.target[:-1] if x.defender_to_move else x.attacker[:-1]

    # ------------------------------------------------------------------ legality
    def legal_actions(self, state: GameState, seat: str) -> list[Action]:
        """Every legal action of ``seat`` now, concretely."""
        out = []
        for p in self.pending(state):
            if p.seat != seat:
                continue
            for a in self._candidates(state, p):
                if self._refusal(state, p, a) is None:
                    out.append(a)
        return out

    def refusal(self, state: GameState, seat: str, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now, or None if it may."""
        if state.step == "over":
            return "The game is over."
        mine = [p for p in self.pending(state) if p.seat == seat]
        if not mine:
            if seat not in state.elements:
                return f"There is no seat {seat} in this game."
            waiting = ", ".join(sorted({p.seat for p in self.pending(state)}))
            return f"It is not your move: waiting for {waiting}."
        reasons = [self._refusal(state, p, action) for p in mine]
        if any(r is None for r in reasons):
            return None
        return reasons[0]

    def _candidates(self, state: GameState, p: Pending) -> list[Action]:
        e = state.elements[p.seat]
        if p.kind == "altitude":
            return [Action.altitude(a.code) for a in Altitude]
        if p.kind == "wingman":
            return [Action.simple("skip")] + [
                Action.wingman(ref) for ref in self._enemy_refs(state, e)
            ]
        if p.kind == "wingman_attack":
            tgt = state.t.wm_target
            assert tgt is not None
            target = self._plane(state, tgt)
            if target is None or not target.flying:
                return [Action.simple("done")]
            return [Action.simple("done")] + [Action.play(c, tgt) for c in self._codes(e.minihand)]
        if p.kind == "altitude_step":
            return [Action.simple("stay"), Action.simple("dive")] + [
                Action.climb(c) for c in self._codes(e.hand)
            ]
        if p.kind == "follow":
            assert state.follow is not None
            n = self._follow_cost(state, state.follow)
            combos = {
                tuple(sorted(self.code[c] for c in combo)) for combo in combinations(e.hand, n)
            }
            return [Action.simple("nofollow")] + [Action.follow(c) for c in sorted(combos)]
        if p.kind == "play":
            out = [Action.simple("done"), Action.simple("giveup"), Action.simple("evade")]
            codes = self._codes(e.hand)
            refs = self._enemy_refs(state, e)
            for c in codes:
                if c == "VER":
                    out.append(Action.vertical("down"))
                    rest = list(e.hand)
                    rest.remove(self._find(e.hand, "VER"))  # type: ignore[arg-type]
                    out.extend(Action.vertical("up", d) for d in self._codes(rest))
                for ref in refs:
                    out.append(Action.play(c, ref))
                    if c != "SCI":
                        out.append(Action.play(c, ref, as_sci=True))
            return out
        if p.kind == "respond":
            x = state.exchange
            assert x is not None
            out = [Action.simple("pass")]
            for c in self._codes(self._response_cards(state, x)):
                out.append(Action.respond(c))
                if c != "SCI":
                    out.append(Action.respond(c, as_sci=True))
            return out
        if p.kind == "discard":
            codes = [self.code[c] for c in e.hand]
            combos = set()
            for n in range(len(codes) + 1):
                combos.update(tuple(sorted(c)) for c in combinations(codes, n))
            return [Action.discard(c) for c in sorted(combos)]
        return []

    def _enemy_refs(self, state: GameState, e: Element) -> list[str]:
        out = []
        for o in state.elements.values():
            if o.side != e.side:
                for p in (o.leader, o.wingman):
                    if p is not None and p.flying:
                        out.append(p.ref)
        return out

    def _refusal(self, state: GameState, p: Pending, a: Action) -> str | None:
        e = state.elements[p.seat]
        kind = p.kind
        verbs = {
            "altitude": ("alt",),
            "wingman": ("wm", "skip"),
            "wingman_attack": ("play", "done"),
            "altitude_step": ("stay", "dive", "climb"),
            "follow": ("follow", "nofollow"),
            "play": ("play", "done", "giveup", "evade"),
            "respond": ("respond", "pass"),
            "discard": ("discard",),
        }[kind]
        if a.verb not in verbs:
            return f"You cannot '{a.verb}' now: it is the {_DECISION[kind]} ({_expect(verbs)})."
        if kind == "altitude":
            alt = Altitude.from_code(a.arg or "")
            ac = self._ac(e)
            if alt is Altitude.VERY_HIGH and not ac.turbocharged:
                return "Only turbocharged elements may start at Very High (4.5)."
            if alt > ac.max_altitude:
                return f"{ac.name} cannot fly above {ac.max_altitude.label} (7.2)."
            return None
        if kind == "wingman":
            return None if a.verb == "skip" else self._wm_target_refusal(state, e, a.target or "")
        if kind == "wingman_attack":
            if a.verb == "done":
                return None
            return self._wm_play_refusal(state, e, a)
        if kind == "altitude_step":
            return self._altitude_refusal(state, e, a)
        if kind == "follow":
            if a.verb == "nofollow":
                return None
            assert state.follow is not None
            return self._follow_refusal(state, e, state.follow, a)
        if kind == "play":
            return self._play_refusal(state, e, a)
        if kind == "respond":
            if a.verb == "pass":
                return None
            assert state.exchange is not None
            return self._respond_refusal(state, e, state.exchange, a)
        return self._hand_refusal(e.hand, a.cards, "discard")

    def _hand_refusal(self, hand: Sequence[int], codes: Sequence[str], why: str) -> str | None:
        left = list(hand)
        for code in codes:
            c = self._find(left, code)
            if c is None:
                return f"You have no {code} left in your hand to {why}."
            left.remove(c)
        return None

    def _same_altitude(self, state: GameState, a: str, b: str) -> bool:
        return state.elements[a].altitude == state.elements[b].altitude

    def _target_refusal(
        self, state: GameState, e: Element, ref: str, *, by_leader: bool
    ) -> str | None:
        """Who a leader's or wingman's attack may go to (6.5-6.6, 7.3, 10.3)."""
        target = self._plane(state, ref)
        if target is None or not target.flying:
            return f"{ref} is not an aircraft still in the fight."
        o = state.elements[ref[:-1]]
        if o.side == e.side:
            return "You cannot attack an aircraft of your own side (8.21)."
        if not self._same_altitude(state, e.seat, o.seat):
            return "You may only attack an aircraft at your own altitude (7.3)."
        mine = self.engaged_with(state, e.seat)
        if mine is not None:
            other = self._el_label(state, state.elements[mine])
            if by_leader and ref != f"{mine}L":
                # 6.5 / RotL L86: an Assigned (Engaged) leader attacks only the enemy
                # leader it is engaged with, not even that leader's wingman; it must
                # give up its position first (6.36) or maneuver back to Neutral.
                return (
                    f"Your leader is engaged with {other}: it may only attack that leader "
                    "(6.5); give up your position first to attack another aircraft (6.36)."
                )
            if not by_leader and o.seat != mine:
                return (
                    f"Your leader is engaged with {other}: your wingman may only attack "
                    "that leader or its wingman (10.3a)."
                )
        if ref[-1] == "L" and mine is None:
            theirs = self.engaged_with(state, o.seat)
            if theirs is not None:
                return (
                    f"{self._plane_label(state, ref)} is engaged with another leader: only its "
                    "wingman may be attacked (6.6d)."
                )
        return None

    def _wm_target_refusal(self, state: GameState, e: Element, ref: str) -> str | None:
        if e.wingman is None or not e.wingman.flying:
            return "Your element has no wingman."
        return self._target_refusal(state, e, ref, by_leader=False)

    def _wm_play_refusal(self, state: GameState, e: Element, a: Action) -> str | None:
        if a.target != state.t.wm_target:
            return f"Your wingman attacks {state.t.wm_target} this turn (8.21)."
        code = a.card or ""
        if self._find(e.minihand, code) is None:
            return f"Your wingman's mini-hand holds no {code}."
        if a.as_sci or a.arg is not None:
            return (
                "A wingman plays its mini-hand as drawn: no agility, and no Vertical Roll "
                "as an attack (5.26, RotL L209)."
            )
        kind = CardKind(code.split("-")[0])
        target = self._plane(state, a.target or "")
        if target is None or not target.flying:
            return "Your wingman's target is no longer in the fight."
        if kind in BURST_KINDS:
            return None
        if kind not in _POSITION_DELTA:
            return f"{kind.label} cannot be played as an attack (2.2)."
        if target.role == "wingman":
            return (
                "A wingman attacking a wingman may only play In My Sights or Out of the Sun "
                "(10.52)."
            )
        return self._position_card_refusal(kind, self.pos(state, e.seat, target.ref[:-1]))

    def _position_card_refusal(self, kind: CardKind, p: int) -> str | None:
        if kind is CardKind.MAN and p >= Position.TAILING:
            return "You are already Tailing: Maneuvering cannot improve your position (6.31)."
        if kind is CardKind.HAL and p > Position.NEUTRAL:
            return "A Half Loop changes position by exactly two steps, never one (6.32)."
        if kind is CardKind.SCI and p != Position.DISADVANTAGED:
            return "Scissors may be played as an attack only when Disadvantaged (6.34)."
        if kind is CardKind.FUT and p >= Position.NEUTRAL:
            return (
                "Full Throttle may be played as an attack only when Disadvantaged or Tailed (6.33)."
            )
        return None

    def _altitude_refusal(self, state: GameState, e: Element, a: Action) -> str | None:
        alt = e.altitude or 0
        if a.verb == "dive" and alt <= Altitude.VERY_LOW:
            return "You are already at Very Low (7.2)."
        if a.verb == "climb":
            if alt >= self._ac(e).max_altitude:
                return (
                    f"{self._ac(e).name} cannot climb above {self._ac(e).max_altitude.label} (7.2)."
                )
            return self._hand_refusal(e.hand, [a.card or ""], "discard for the climb (7.21b)")
        return None

    def _follow_cost(self, state: GameState, f: FollowOffer) -> int:
        p = Position(self.pos(state, f.follower, f.mover))
        return tables.follow_cost(Ruleset(state.ruleset), p, f.direction > 0, f.vertical)

    def _follow_refusal(
        self, state: GameState, e: Element, f: FollowOffer, a: Action
    ) -> str | None:
        n = self._follow_cost(state, f)
        if len(a.cards) != n:
            return f"Following this altitude change costs exactly {n} discard(s) (7.21d, 7.22)."
        new_alt = state.elements[f.mover].altitude or 0
        if new_alt > self._ac(e).max_altitude:
            return f"{self._ac(e).name} cannot fly that high (7.2)."
        return self._hand_refusal(e.hand, a.cards, "discard to follow")

    def _play_refusal(self, state: GameState, e: Element, a: Action) -> str | None:
        t = state.t
        if a.verb == "done":
            return None
        if a.verb == "giveup":
            if t.played:
                return (
                    "Give up a position at the start of the Play Cards step, before any card "
                    "(6.36)."
                )
            if not any(self.pos(state, e.seat, o) > 0 for o in self._enemy_seats(state, e)):
                return (
                    "Your leader is neither Advantaged nor Tailing: there is no position to "
                    "give up (6.36)."
                )
            return None
        if a.verb == "evade":
            if t.played:
                return (
                    "Evasion replaces playing cards: it must come before any card "
                    "(12.11, RotL L292)."
                )
            return None
        code = a.card or ""
        if self._find(e.hand, code) is None:
            return f"You have no {code} in your hand."
        kind = CardKind(code.split("-")[0])
        if a.arg is not None:  # Vertical Roll altitude change (7.22)
            alt = e.altitude or 0
            if a.arg == "down":
                if alt <= Altitude.VERY_LOW:
                    return "You are already at Very Low (7.2)."
                if a.cards:
                    return "Diving with a Vertical Roll discards nothing (7.21b)."
                return None
            if alt >= self._ac(e).max_altitude:
                return (
                    f"{self._ac(e).name} cannot climb above {self._ac(e).max_altitude.label} (7.2)."
                )
            if len(a.cards) != 1:
                return "Climbing costs one discard besides the Vertical Roll (7.21b)."
            rest = list(e.hand)
            rest.remove(self._find(e.hand, "VER"))  # type: ignore[arg-type]
            return self._hand_refusal(rest, a.cards, "discard for the climb (7.21b)")
        if a.as_sci:
            if not self._ac(e).agile:
                return (
                    f"{self._ac(e).name} is not agile: only agile aircraft play a card as "
                    "Scissors (5.26)."
                )
            if t.agile_used:
                return "An agile aircraft treats a card as Scissors only once per turn (5.26)."
            kind = CardKind.SCI
        if kind not in BURST_KINDS and kind not in _POSITION_DELTA:
            return f"{kind.label} is a response card: it cannot be played as an attack (2.2)."
        ref = a.target or ""
        if t.target is not None and ref != t.target:
            return (
                f"Your leader already attacked {self._plane_label(state, t.target)} this turn: "
                "attack cards go against one aircraft per turn (8.5b)."
            )
        why = self._target_refusal(state, e, ref, by_leader=True)
        if why:
            return why
        target = self._plane(state, ref)
        assert target is not None
        lr = self._leader_ratings(e)
        if target.role == "wingman":
            if kind in (CardKind.SCI, CardKind.FUT):
                return (
                    f"{kind.label} changes position between leaders: it cannot be played at "
                    "a wingman (10.61)."
                )
            if kind in BURST_KINDS:
                budget = lr.bursts + t.wm_bonus
                return self._burst_refusal(code, t.bursts_used, budget)
            return None
        p = self.pos(state, e.seat, ref[:-1])
        if kind in BURST_KINDS:
            bonus = tables.burst_bonus(p)
            if bonus is None:
                return "A Disadvantaged or Tailed leader may not fire its bursts (6.4)."
            return self._burst_refusal(code, t.bursts_used, lr.bursts + bonus)
        return self._position_card_refusal(kind, p)

    def _burst_refusal(self, code: str, used: int, budget: int) -> str | None:
        cost = int(code.split("-")[1][0])
        if used + cost > budget:
            left = max(budget - used, 0)
            return (
                f"{code} needs {cost} burst(s) and you have {left} left this turn "
                "(5.24, 6.4, 8.5a)."
            )
        return None

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

    def _respond_refusal(self, state: GameState, e: Element, x: Exchange, a: Action) -> str | None:
        code = a.card or ""
        src = self._response_source(state, x)
        c = self._find(self._response_cards(state, x), code)
        if c is None:
            where = "mini-hand" if src is not e.hand else "hand"
            if self._find(src, code) is not None:
                return f"Your {code} is set aside to pay for the Vertical Roll climb (7.22)."
            return f"Your {where} holds no {code}."
        responds = self.cards[c].type.responds_to
        if a.as_sci:
            own_turn = not x.defender_to_move and x.source == "hand"
            if not self._ac(e).agile:
                return f"{self._ac(e).name} is not agile (5.26)."
            if not own_turn:
                return "An agile aircraft may treat a card as Scissors only on its own turn (6.35)."
            if state.t.agile_used:
                return "An agile aircraft treats a card as Scissors only once per turn (5.26)."
            responds = self._sci_responds
        last = CardKind(x.last_kind)
        if last not in responds:
            return (
                f"{code}{'=SCI' if a.as_sci else ''} does not respond to {last.label} (8.31, 8.42)."
            )
        return None

    @functools.cached_property
    def _sci_responds(self) -> frozenset[CardKind]:
        for c in self.cards:
            if c.type.kind is CardKind.SCI:
                return c.type.responds_to
        return frozenset()

    # ------------------------------------------------------------------ apply
    def apply(self, state: GameState, seat: str, action: Action) -> tuple[GameState, list[Event]]:
        """Apply one action; returns the new state and what happened.

        Raises :class:`RuleViolation` (naming the rule) and leaves ``state`` as it was.
        """
        why = self.refusal(state, seat, action)
        if why is not None:
            raise RuleViolation(why)
        s = state.clone()
        events: list[Event] = []
        kind = next(p.kind for p in self.pending(state) if p.seat == seat)
        getattr(self, f"_do_{kind}")(s, s.elements[seat], action, events)
        self._check_end(s, events)
        return s, events

    def _do_altitude(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        e.pick = int(Altitude.from_code(a.arg or ""))
        ev.append(Event("pick", f"{self._el_label(s, e)} has chosen a starting altitude."))
        self._maybe_reveal(s, ev)

    def _do_wingman(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        if a.verb == "skip":
            ev.append(Event("skip", f"{self._el_label(s, e)}: no wingman attack."))
            s.step = "altitude"
            return
        ref = a.target or ""
        assert e.wingman is not None
        s.t.wm_target = ref
        ev.append(
            Event(
                "wm",
                f"{self._plane_label(s, e.wingman.ref)} attacks {self._plane_label(s, ref)} (3.1).",
            )
        )
        off = (
            self._wingman_ratings(e.wingman).offensive
            + tables.wingman_modifiers(Altitude(e.altitude or 0), self._ac(e).turbocharged)[0]
        )
        self._draw(s, e, off, e.minihand, ev, "wingman's mini-hand")
        if ref[-1] == "W":  # 10.51: the defending wingman draws its mini-hand too
            self._draw_defence(s, s.elements[ref[:-1]], ev)
        s.step = "wingman_attack"
        self._maybe_end_wingman_attack(s, e, ev)

    def _draw_defence(self, s: GameState, o: Element, ev: list[Event]) -> None:
        assert o.wingman is not None
        d = (
            self._wingman_ratings(o.wingman).defensive
            + tables.wingman_modifiers(Altitude(o.altitude or 0), self._ac(o).turbocharged)[1]
        )
        self._draw(s, o, d, o.defence, ev, "wingman's defensive mini-hand")

    def _maybe_end_wingman_attack(self, s: GameState, e: Element, ev: list[Event]) -> None:
        if s.step != "wingman_attack" or s.exchange is not None:
            return
        p = Pending(e.seat, "wingman_attack")
        if any(a.verb == "play" and self._refusal(s, p, a) is None for a in self._candidates(s, p)):
            return
        self._end_wingman_attack(s, e, ev)

    def _end_wingman_attack(self, s: GameState, e: Element, ev: list[Event]) -> None:
        if e.minihand:
            ev.append(
                Event(
                    "discard",
                    f"{self._el_label(s, e)} discards the rest of the wingman's mini-hand: "
                    f"{', '.join(self.label[c] for c in e.minihand)}.",
                )
            )
        self._discard(s, e.minihand)
        e.minihand = []
        self._discard_defences(s, e, ev)
        s.step = "altitude"

    def _discard_defences(self, s: GameState, e: Element, ev: list[Event]) -> None:
        for o in s.elements.values():
            if o.defence:
                ev.append(
                    Event(
                        "discard",
                        f"{self._el_label(s, o)} discards its wingman's mini-hand: "
                        f"{', '.join(self.label[c] for c in o.defence)}.",
                    )
                )
                self._discard(s, o.defence)
                o.defence = []

    def _do_wingman_attack(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        if a.verb == "done":
            self._end_wingman_attack(s, e, ev)
            return
        assert e.wingman is not None
        self._open_exchange(s, e, e.wingman.ref, a, "minihand", ev)

    def _do_altitude_step(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        s.step = "play"
        if a.verb == "stay":
            ev.append(
                Event("stay", f"{self._el_label(s, e)} stays at {Altitude(e.altitude or 0).label}.")
            )
            return
        self._change_altitude(s, e, 1 if a.verb == "climb" else -1, a.card, False, ev)

    def _change_altitude(
        self,
        s: GameState,
        e: Element,
        direction: int,
        discard: str | int | None,
        vertical: bool,
        ev: list[Event],
    ) -> None:
        """Steps a-d of 7.21 (and 7.22 for a Vertical Roll)."""
        e.altitude = (e.altitude or 0) + direction
        verb = "climbs" if direction > 0 else "dives"
        how = " with a Vertical Roll" if vertical else ""
        if direction > 0:
            c = discard if isinstance(discard, int) else self._find(e.hand, str(discard))
            assert c is not None
            e.hand.remove(c)
            self._discard(s, [c])
            ev.append(
                Event(
                    "altitude",
                    f"{self._el_label(s, e)} {verb}{how} to {Altitude(e.altitude).label}, "
                    f"discarding {self.label[c]}.",
                )
            )
        else:
            ev.append(
                Event(
                    "altitude",
                    f"{self._el_label(s, e)} {verb}{how} to {Altitude(e.altitude).label}.",
                )
            )
            self._draw(s, e, 1, e.hand, ev)
        follower = None
        for o in self._enemy_seats(s, e):
            p = self.pos(s, e.seat, o)
            if p > 0:  # 7.21c: lose Advantaged / Tailing
                self._set_pos(s, e.seat, o, 0)
                ev.append(
                    Event(
                        "position",
                        f"{self._el_label(s, e)} loses its position on "
                        f"{self._el_label(s, s.elements[o])} (7.21c).",
                    )
                )
            elif p < 0:
                follower = o
        if follower is not None:
            s.follow = FollowOffer(e.seat, follower, direction, vertical)

    def _do_follow(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        f = s.follow
        assert f is not None
        s.follow = None
        mover = s.elements[f.mover]
        if a.verb == "nofollow":
            self._set_pos(s, e.seat, mover.seat, 0)
            ev.append(
                Event(
                    "follow", f"{self._el_label(s, e)} does not follow and becomes Neutral (7.24)."
                )
            )
        else:
            paid = []
            for code in a.cards:
                c = self._find(e.hand, code)
                assert c is not None
                e.hand.remove(c)
                paid.append(c)
            self._discard(s, paid)
            e.altitude = mover.altitude
            cost = f", discarding {', '.join(self.label[c] for c in paid)}" if paid else ""
            ev.append(
                Event(
                    "follow",
                    f"{self._el_label(s, e)} follows to "
                    f"{Altitude(e.altitude or 0).label}{cost} (7.21d).",
                )
            )
            if f.direction < 0:
                self._draw(s, e, 1, e.hand, ev)
        self._after_exchange(s, ev)

    def _do_play(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        if a.verb == "done":
            s.step = "discard"
            return
        if a.verb == "giveup":
            for o in self._enemy_seats(s, e):
                if self.pos(s, e.seat, o) > 0:
                    self._set_pos(s, e.seat, o, 0)
                    ev.append(
                        Event(
                            "position",
                            f"{self._el_label(s, e)} gives up its position on "
                            f"{self._el_label(s, s.elements[o])} (6.36).",
                        )
                    )
            return
        if a.verb == "evade":
            self._evade(s, e, ev)
            return
        assert e.leader is not None
        s.t.played = True
        self._open_exchange(s, e, e.leader.ref, a, "hand", ev)

    def _open_exchange(
        self, s: GameState, e: Element, attacker: str, a: Action, source: str, ev: list[Event]
    ) -> None:
        pile = e.minihand if source == "minihand" else e.hand
        c = self._find(pile, a.card or "")
        assert c is not None
        pile.remove(c)
        s.in_play.append(c)
        if a.arg is not None:  # Vertical Roll
            direction = 1 if a.arg == "up" else -1
            discard = self._find(e.hand, a.cards[0]) if a.cards else None
            stopper = next((o for o in self._enemy_seats(s, e) if self.pos(s, e.seat, o) < 0), None)
            ev.append(
                Event(
                    "play",
                    f"{self._el_label(s, e)} plays Vertical Roll to "
                    + ("climb." if direction > 0 else "dive."),
                )
            )
            x = Exchange(
                attacker,
                f"{stopper}L" if stopper else attacker,
                c,
                "VER",
                source,
                direction=direction,
                climb_discard=discard,
            )
            if stopper is None:
                # 7.23, RotL L205: only an Advantaged or Tailing enemy leader may stop a
                # Vertical Roll; a Neutral or Advantaged mover's roll takes effect at once.
                self._resolve(s, x, ev)
            else:
                s.exchange = x
            return
        kind = "SCI" if a.as_sci else CardKind(self.code[c].split("-")[0]).value
        if a.as_sci:
            s.t.agile_used = True
        ref = a.target or ""
        first_at_wingman = ref[-1] == "W" and source == "hand" and s.t.target != ref
        if source == "hand":
            s.t.target = ref
        if kind in ("IMS", "OOS") and source == "hand":
            s.t.bursts_used += self.cards[c].type.bursts
        as_text = " as Scissors" if a.as_sci else ""
        who = self._plane_label(s, attacker)
        ev.append(
            Event(
                "play",
                f"{who} plays {self.label[c]}{as_text} on {self._plane_label(s, ref)}.",
                data={"card": self.code[c], "target": ref},
            )
        )
        if first_at_wingman:  # 10.63: one defensive mini-hand for all the leader's attacks
            self._draw_defence(s, s.elements[ref[:-1]], ev)
        s.exchange = Exchange(attacker, ref, c, kind, source)

    def _do_respond(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        x = s.exchange
        assert x is not None
        if a.verb == "pass":
            who = "does not respond" if x.defender_to_move else "does not answer the response"
            ev.append(Event("pass", f"{self._el_label(s, e)} {who}."))
            s.exchange = None
            self._resolve(s, x, ev)
            return
        src = self._response_source(s, x)
        c = self._find(self._response_cards(s, x), a.card or "")
        assert c is not None
        src.remove(c)
        s.in_play.append(c)
        kind = "SCI" if a.as_sci else CardKind(self.code[c].split("-")[0]).value
        if a.as_sci:
            s.t.agile_used = True
        x.chain.append([c, kind])
        responder = x.target if len(x.chain) % 2 == 1 else x.attacker
        ev.append(
            Event(
                "respond",
                f"{self._plane_label(s, responder)} responds with {self.label[c]}"
                f"{' as Scissors' if a.as_sci else ''}.",
                data={"card": self.code[c]},
            )
        )

    def _resolve(self, s: GameState, x: Exchange, ev: list[Event]) -> None:
        """8.44: the last card played decides; the attack takes effect if it was the attacker's."""
        success = len(x.chain) % 2 == 0
        if x.kind == "VER":
            attacker = s.elements[x.attacker[:-1]]
            if success:
                self._change_altitude(s, attacker, x.direction, x.climb_discard, True, ev)
            else:
                ev.append(Event("negated", "The Vertical Roll is stopped (7.23)."))
        elif not success:
            ev.append(Event("negated", f"{self.label[x.card]} is negated."))
        else:
            self._effect(s, x, ev)
        if Ruleset(s.ruleset) is Ruleset.ROTL:  # RotL L238: discarded after each exchange
            self._discard(s, s.in_play)
            s.in_play = []
        if s.follow is None:
            self._after_exchange(s, ev)

    def _effect(self, s: GameState, x: Exchange, ev: list[Event]) -> None:
        kind = CardKind(x.kind)
        target = self._plane(s, x.target)
        assert target is not None
        attacker_seat = x.attacker[:-1]
        if kind in BURST_KINDS:
            card = self.cards[x.card].type
            if card.fuel_tank:
                ev.append(
                    Event(
                        "damage", f"Fuel tank hit! {self._plane_label(s, x.target)} is destroyed."
                    )
                )
                self._destroy(s, target, ev)
                return
            hits = card.damage
            if x.source == "hand":
                hits += self._leader_ratings(s.elements[attacker_seat]).heavy_cannon
            self._hit(s, target, hits, ev)
            return
        if target.role == "wingman":  # 10.61: buying bursts against a wingman
            s.t.wm_bonus += _BURST_BUY[kind]
            lr = self._leader_ratings(s.elements[attacker_seat])
            ev.append(
                Event(
                    "bursts",
                    f"{self._el_label(s, s.elements[attacker_seat])} now has "
                    f"{lr.bursts + s.t.wm_bonus - s.t.bursts_used} burst(s) left against "
                    "the wingman (10.61).",
                )
            )
            return
        p = self.pos(s, attacker_seat, target.ref[:-1]) + _POSITION_DELTA[kind]
        self._set_pos(s, attacker_seat, target.ref[:-1], p)
        me = self._el_label(s, s.elements[attacker_seat])
        them = self._el_label(s, s.elements[target.ref[:-1]])
        ev.append(
            Event(
                "position",
                f"{me} is now {Position(p).label} on {them}.",
                data={"leader": attacker_seat, "on": target.ref[:-1], "position": p},
            )
        )

    def _hit(self, s: GameState, p: Plane, hits: int, ev: list[Event]) -> None:
        """Damage points, flipping and shooting down (5.21; G-R9: one hit may do both)."""
        if hits <= 0:
            return
        p.hits += hits
        undamaged, damaged = self._capacity(p)
        label = self._plane_label(s, p.ref)
        ev.append(
            Event(
                "damage",
                f"{label} takes {hits} damage point{'s' if hits != 1 else ''} ({p.hits} in all).",
                data={"ref": p.ref, "hits": hits},
            )
        )
        if not p.damaged and p.hits >= undamaged:
            p.damaged = True
            ev.append(
                Event("damaged", f"{label} is damaged: its card flips to the damaged side (5.21).")
            )
        if p.hits >= damaged:
            self._destroy(s, p, ev)

    def _destroy(self, s: GameState, p: Plane, ev: list[Event]) -> None:
        e = s.elements[p.ref[:-1]]
        label = self._plane_label(s, p.ref)
        p.status = "destroyed"
        ev.append(Event("destroyed", f"{label} is shot down!", data={"ref": p.ref}))
        if p.role == "wingman":
            self._discard(s, e.defence)
            e.defence = []
            return
        self._drop_positions(s, e.seat)
        self._discard(s, e.hand)
        e.hand = []
        wm = e.wingman
        if wm is None or not wm.flying:
            ev.append(Event("eliminated", f"{self._el_label(s, e)} has no aircraft left (4.91)."))
            return
        # 11.2: the wingman becomes the leader, keeps its damage, draws capacity - 1.
        e.lost.append(p)
        p.ref = f"{e.seat}L-lost{len(e.lost)}"
        # 8.21: the attacks of this turn were against the aircraft shot down; the
        # promoted wingman is another aircraft, so nobody may go on attacking "L".
        if s.t.target == f"{e.seat}L":
            s.t.target = p.ref
        if s.t.wm_target == f"{e.seat}L":
            s.t.wm_target = p.ref
        self._discard(s, e.defence)
        e.defence = []
        e.leader = Plane(f"{e.seat}L", wm.aircraft, "leader", wm.hits, wm.damaged, "flying", True)
        e.wingman = None
        ev.append(
            Event("promoted", f"The wingman of {self._el_label(s, e)} becomes the leader (11.2).")
        )
        self._draw(s, e, self._leader_ratings(e).hand_size - 1, e.hand, ev)

    def _after_exchange(self, s: GameState, ev: list[Event]) -> None:
        if s.step == "wingman_attack":
            active = s.active
            assert active is not None
            self._maybe_end_wingman_attack(s, s.elements[active], ev)

    def _evade(self, s: GameState, e: Element, ev: list[Event]) -> None:
        """Voluntary evasion / disengagement (12.1; RotL L288-324)."""
        rs = Ruleset(s.ruleset)
        engaged = self.engaged_with(s, e.seat)
        p = self.pos(s, e.seat, engaged) if engaged else 0
        enemies_here = any(
            o.in_fight and o.altitude == e.altitude for o in s.elements.values() if o.side != e.side
        )
        ev.append(Event("evade", f"{self._el_label(s, e)} attempts to evade (12.1)."))
        for plane in [q for q in (e.leader, e.wingman) if q is not None and q.flying]:
            c = self._draw_one(s, ev)
            if c is None:
                continue
            t = self.cards[c].type
            base = tables.evasion_level(t.kind, t.bursts, t.fuel_tank)
            # 12.12 / RotL L307-318: "down" moves toward I (escapes), "up" toward A.
            level = base + tables.evasion_shift(rs, p, plane.damaged, enemies_here)
            outcome = tables.evasion_result(rs, level, plane.damaged)
            self._discard(s, [c])
            final = tables.EVASION_LEVELS[min(max(level, 0), 8)]
            ev.append(
                Event(
                    "evasion",
                    f"{self._plane_label(s, plane.ref)} draws {self.label[c]}: level "
                    f"{tables.EVASION_LEVELS[base]}, modified to {final}: {outcome}.",
                )
            )
            if outcome == "destroyed":
                plane.status = "destroyed"
                ev.append(
                    Event(
                        "destroyed",
                        f"{self._plane_label(s, plane.ref)} is shot down while evading!",
                    )
                )
            else:
                if outcome == "damaged":
                    plane.damaged = True
                plane.status = "evaded"
        self._drop_positions(s, e.seat)
        self._discard(s, e.hand)
        e.hand = []
        self._end_turn(s, ev)

    def _do_discard(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        gone = []
        for code in a.cards:
            c = self._find(e.hand, code)
            assert c is not None
            e.hand.remove(c)
            gone.append(c)
        self._discard(s, gone)
        if gone:
            ev.append(
                Event(
                    "discard",
                    f"{self._el_label(s, e)} discards {', '.join(self.label[c] for c in gone)}.",
                )
            )
        # 3.5 / 5.22 / 5.23: draw up to the altitude-modified draw rating, never past
        # the hand limit; a hand at or over the limit draws nothing.
        lr = self._leader_ratings(e)
        n = lr.draw + tables.draw_modifier(Altitude(e.altitude or 0), self._ac(e).turbocharged)
        room = lr.hand_size - len(e.hand)
        self._draw(s, e, max(min(n, room), 0), e.hand, ev)
        self._end_turn(s, ev)

    # ------------------------------------------------------------------ turn flow
    def _end_turn(self, s: GameState, ev: list[Event]) -> None:
        self._discard(s, s.in_play)
        s.in_play = []
        self._discard_defences(s, s.elements[s.order[s.index]], ev)
        self._next_player(s, ev)

    def _next_player(self, s: GameState, ev: list[Event]) -> None:
        """Pass to the next element still in the fight, in the turn-1 order (3.0, 4.7).

        The game ends after the sixth game turn (4.8) unless fought to the death, or as
        soon as one side has no aircraft left in the fight (4.91). ``turn`` stays on
        the last game turn played.
        """
        while True:
            if self._side_out(s):
                s.step = "over"
                return
            s.index += 1
            if s.index >= len(s.order):
                if s.max_turns is not None and s.turn >= s.max_turns:
                    s.step = "over"
                    return
                s.index = 0
                s.turn += 1
                ev.append(Event("turn", f"Game turn {s.turn} begins."))
            if s.elements[s.order[s.index]].in_fight:
                break
        self._start_turn(s, ev)

    def _start_turn(self, s: GameState, ev: list[Event]) -> None:
        if self._side_out(s):
            s.step = "over"
            return
        if not s.elements[s.order[s.index]].in_fight:
            self._next_player(s, ev)
            return
        s.t = TurnState()
        e = s.elements[s.order[s.index]]
        ev.append(
            Event(
                "player_turn",
                f"Turn {s.turn}: {self._el_label(s, e)} to play.",
                data={"seat": e.seat},
            )
        )
        s.step = "wingman"
        first = s.turn == 1 and s.index == 0  # 3.1: the first player skips it on turn 1
        p = Pending(e.seat, "wingman")
        if (
            first
            or e.wingman is None
            or not e.wingman.flying
            or not any(
                self._refusal(s, p, Action.wingman(r)) is None for r in self._enemy_refs(s, e)
            )
        ):
            s.step = "altitude"

    def _side_out(self, s: GameState) -> bool:
        return any(
            not any(e.in_fight for e in s.elements.values() if e.side == side.value)
            for side in Side
        )

    def _check_end(self, s: GameState, ev: list[Event]) -> None:
        if (
            s.step != "over"
            and s.step != "setup"
            and s.exchange is None
            and s.follow is None
            and self._side_out(s)
        ):
            s.step = "over"
        if s.step == "over" and s.result is None:
            self._discard(s, s.in_play)
            s.in_play = []
            vp = self.victory_points(s)
            winner, verdict = tables.victory_verdict(
                Ruleset(s.ruleset), vp[Side.AXIS], vp[Side.ALLIED], s.aircraft_at_start
            )
            s.result = {
                "vp": {k.value: v for k, v in vp.items()},
                "winner": winner,
                "verdict": verdict,
            }
            rs = Ruleset(s.ruleset)
            ev.append(
                Event(
                    "result",
                    f"Game over: {verdict}. VP {Side.AXIS.label(rs)} {vp[Side.AXIS]}, "
                    f"{Side.ALLIED.label(rs)} {vp[Side.ALLIED]}.",
                    data=dict(s.result),
                )
            )

    def victory_points(self, s: GameState) -> dict[Side, int]:
        """4.92 / RotL L64-65: 5 per enemy fighter destroyed, 2 per damaged and/or evaded."""
        vp = {Side.AXIS: 0, Side.ALLIED: 0}
        for e in s.elements.values():
            scorer = Side(e.side).other
            for p in e.planes():
                if p.status == "destroyed":
                    vp[scorer] += 5
                elif p.damaged or p.status == "evaded":
                    vp[scorer] += 2
        return vp

    # ------------------------------------------------------------------ views
    def view(self, state: GameState, seat: str | None) -> DifView:
        """What ``seat`` may see (None: spectators). See :mod:`engine.dif.present`."""
        return build_view(self, state, seat)

    def is_over(self, state: GameState) -> bool:
        return state.step == "over"

    # ------------------------------------------------------------------ replay
    def replay(self, setup: DifSetup, seed: int, log: Iterable[tuple[str, str]]) -> GameState:
        """Rebuild a game from its setup, seed and ``(seat, action text)`` log."""
        state, _ = self.new_game(setup, seed)
        for seat, text in log:
            state, _ = self.apply(state, seat, Action.from_text(text))
        return state


_DECISION = {
    "altitude": "secret choice of a starting altitude",
    "wingman": "wingman attack step",
    "wingman_attack": "wingman's attack",
    "altitude_step": "adjust altitude step",
    "follow": "choice to follow an altitude change",
    "play": "play cards step",
    "respond": "response to the card just played",
    "discard": "discard step",
}


def _expect(verbs: tuple[str, ...]) -> str:
    return "expected " + " / ".join(verbs)


@functools.cache
def default_engine() -> DifEngine:
    """The engine over the shipped components (loaded once)."""
    from engine.dif.loader import load_aircraft, load_deck

    return DifEngine(load_deck(), load_aircraft())
