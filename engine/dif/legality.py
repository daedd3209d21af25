"""Legality: one predicate, :meth:`Legality.refusal`, says whether and why not.

``legal_actions`` generates candidate actions and keeps those the predicate allows;
``apply`` refuses with the predicate's message, which names the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.dif import tables
from engine.dif.actions import COUNTER, Action
from engine.dif.base import POSITION_DELTA, EngineBase, Pending
from engine.dif.components import (
    BURST_KINDS,
    Altitude,
    CardKind,
    PilotSkill,
    Position,
    Ruleset,
)
from engine.dif.state import Element, Exchange, FollowOffer, GameState

__all__ = ["Legality"]


class Legality(EngineBase):
    """Which actions a seat may take now (Zero! sections unless marked RotL)."""

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
        if p.kind == "order":
            return [Action.next(seat) for seat in self.order_choice(state)[1]]
        if p.kind == "redraw":
            return self._subsets(e.hand, "redraw")
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
                Action.climb(c) for c in self._payable(e, e.hand)
            ]
        if p.kind == "follow":
            assert state.follow is not None
            n = self._follow_cost(state, state.follow)
            pool = e.hand + [self.counter] * min(e.counters, n)
            combos = {tuple(sorted(self.code[c] for c in combo)) for combo in combinations(pool, n)}
            return [Action.simple("nofollow")] + [Action.follow(c) for c in sorted(combos)]
        if p.kind == "play":
            out = [Action.simple("done"), Action.simple("giveup"), Action.simple("evade")]
            codes = self._payable(e, e.hand)
            refs = self._enemy_refs(state, e)
            as_kinds = self._declarable(e, respond=False)
            for c in codes:
                if c == "VER":
                    out.append(Action.vertical("down"))
                    rest = list(e.hand)
                    rest.remove(self._find(e.hand, "VER"))  # type: ignore[arg-type]
                    out.extend(Action.vertical("up", d) for d in self._payable(e, rest))
                for ref in refs:
                    out.append(Action.play(c, ref))
                    if c != COUNTER:
                        out.extend(Action.play(c, ref, as_kind=k) for k in as_kinds if k != c)
            return out
        if p.kind == "respond":
            x = state.exchange
            assert x is not None
            out = [Action.simple("pass")]
            cards = self._response_cards(state, x)
            from_hand = self._response_source(state, x) is e.hand
            codes = self._payable(e, cards) if from_hand else self._codes(cards)
            as_kinds = self._declarable(e, respond=True) if from_hand else ()
            for c in codes:
                out.append(Action.respond(c))
                if c != COUNTER:
                    out.extend(Action.respond(c, as_kind=k) for k in as_kinds if k != c)
            return out
        if p.kind == "discard":
            return self._subsets(e.hand, "discard")
        return []

    def _payable(self, e: Element, cards: Sequence[int]) -> list[str]:
        """Codes of these cards, plus ``FTC`` when the element holds a counter."""
        codes = self._codes(cards)
        return [*codes, COUNTER] if e.counters > 0 else codes

    def _declarable(self, e: Element, *, respond: bool) -> tuple[str, ...]:
        """What this leader may declare a card to be, by its abilities (not yet checked
        for this moment: :meth:`_as_kind_refusal` does that)."""
        if e.leader is None:
            return ()
        ac = self._ac(e)
        out = []
        if ac.agile:
            out.append("SCI")
        if ac.very_high_fut:
            out.append("FUT")
        if respond and PilotSkill.A.value in e.leader.pilot:
            out.append("ACE")
        return tuple(out)

    def _subsets(self, hand: Sequence[int], verb: str) -> list[Action]:
        codes = [self.code[c] for c in hand]
        combos: set[tuple[str, ...]] = set()
        for n in range(len(codes) + 1):
            combos.update(tuple(sorted(c)) for c in combinations(codes, n))
        make = Action.discard if verb == "discard" else Action.redraw
        return [make(c) for c in sorted(combos)]

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
            "order": ("next",),
            "redraw": ("redraw",),
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
        if kind == "order":
            side, seats = self.order_choice(state)
            if a.target not in seats:
                names = ", ".join(seats)
                return (
                    f"The {side.value} side names its next element from {names}: each "
                    "element plays once in turn 1's order (4.7)."
                )
            return None
        if kind == "redraw":
            return self._hand_refusal(e.hand, a.cards, "redraw (Combat Vision)")
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

    def _pay_refusal(
        self, e: Element, hand: Sequence[int], codes: Sequence[str], why: str
    ) -> str | None:
        """Like :meth:`_hand_refusal`, but a Full Throttle counter (``FTC``) may pay too
        (RotL L203, L210: jets discard a counter instead of a card)."""
        n = sum(1 for c in codes if c == COUNTER)
        if n > e.counters:
            return f"You have {e.counters} Full Throttle counter(s), not {n} (RotL L203)."
        return self._hand_refusal(hand, [c for c in codes if c != COUNTER], why)

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
            if theirs is not None and self._lone_engaged(state, e.seat, o.seat) is None:
                return (
                    f"{self._plane_label(state, ref)} is engaged with another leader: only its "
                    "wingman may be attacked, unless it flies without a wingman and is "
                    "Advantaged or Tailing (6.6d, 6.71)."
                )
        return None

    def _lone_engaged(self, state: GameState, me: str, them: str) -> str | None:
        """The friendly leader an enemy leader without a wingman is Advantaged on or
        Tailing, when that is not ``me`` (6.71, RotL "Attacking a Lone Leader")."""
        friend = self.engaged_with(state, them)
        if friend is None or friend == me:
            return None
        o = state.elements[them]
        if o.wingman is not None and o.wingman.flying:
            return None
        return friend if self.pos(state, them, friend) > 0 else None

    def _lone_card_refusal(
        self, state: GameState, kind: CardKind, them: str, friend: str, *, wingman: bool
    ) -> str | None:
        """6.72a: first break the lone leader's position with MAN, HAL, FUT or SCI
        (SCI only while it is Advantaged). RotL's Rules of Engagement let a wingman
        fire bursts at it at once."""
        p = self.pos(state, them, friend)
        name = self._el_label(state, state.elements[friend])
        if kind in BURST_KINDS:
            if wingman and Ruleset(state.ruleset) is Ruleset.ROTL:
                return None
            return (
                f"First play Maneuvering, Half Loop, Full Throttle or Scissors until that "
                f"leader loses its position on {name} (6.72a)."
            )
        if kind is CardKind.SCI and p != Position.ADVANTAGED:
            return (
                f"Scissors may break a lone leader's position only while it is Advantaged on "
                f"{name}, not Tailing (6.72a)."
            )
        if kind not in POSITION_DELTA:
            return f"{kind.label} cannot be played as an attack (2.2)."
        return None

    def _gunner_target(self, state: GameState, e: Element, ref: str) -> bool:
        """A gunner / machine gun fires only at an enemy leader Advantaged on or Tailing
        its aircraft, or at that leader's wingman (RotL "Gunners", 9.21, 9.24)."""
        if not self._leader_ratings(e).gunner:
            return False
        target = self._plane(state, ref)
        if target is None or not target.flying:
            return False
        o = state.elements[ref[:-1]]
        return (
            o.side != e.side
            and self._same_altitude(state, e.seat, o.seat)
            and self.pos(state, o.seat, e.seat) > 0
        )

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
        if kind in BURST_KINDS and code == "IMS-1B1D" and self._ac(target).small_target:
            return (
                f"{self._ac(target).name} is a small target: a wingman may not use In My "
                'Sights (1B/1D) against it (RotL "Small Targets").'
            )
        if target.role == "leader":
            friend = self._lone_engaged(state, e.seat, target.ref[:-1])
            if friend is not None:
                return self._lone_card_refusal(state, kind, target.ref[:-1], friend, wingman=True)
        if kind in BURST_KINDS:
            return None
        if kind not in POSITION_DELTA:
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
            return self._pay_refusal(e, e.hand, [a.card or ""], "discard for the climb (7.21b)")
        return None

    def _follow_refusal(
        self, state: GameState, e: Element, f: FollowOffer, a: Action
    ) -> str | None:
        n = self._follow_cost(state, f)
        if len(a.cards) != n:
            return f"Following this altitude change costs exactly {n} discard(s) (7.21d, 7.22)."
        new_alt = state.elements[f.mover].altitude or 0
        if new_alt > self._ac(e).max_altitude:
            return f"{self._ac(e).name} cannot fly that high (7.2)."
        return self._pay_refusal(e, e.hand, a.cards, "discard to follow")

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
        counter = code == COUNTER
        if counter:
            if e.counters < 1:
                return "You have no Full Throttle counter left (RotL L134-136, L326)."
        elif self._find(e.hand, code) is None:
            return f"You have no {code} in your hand."
        kind = CardKind.FUT if counter else CardKind(code.split("-")[0])
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
            return self._pay_refusal(e, rest, a.cards, "discard for the climb (7.21b)")
        if a.as_kind is not None:
            why = self._as_kind_refusal(state, e, a.as_kind, own_turn=True)
            if why:
                return why
            kind = CardKind(a.as_kind)
        if kind not in BURST_KINDS and kind not in POSITION_DELTA:
            return f"{kind.label} is a response card: it cannot be played as an attack (2.2)."
        ref = a.target or ""
        if t.target is not None and ref != t.target:
            return (
                f"Your leader already attacked {self._plane_label(state, t.target)} this turn: "
                "attack cards go against one aircraft per turn (8.5b)."
            )
        lr = self._leader_ratings(e)
        if kind in BURST_KINDS and self._gunner_target(state, e, ref):
            # RotL "Gunners", 9.23: separate bursts, never increased (but by skill G).
            return self._burst_refusal(code, t.gun_used, lr.gunner, "gunner's ")
        why = self._target_refusal(state, e, ref, by_leader=True)
        if why:
            return why
        target = self._plane(state, ref)
        assert target is not None
        # RotL "Small Targets": a leader's Burst Rating is one less against one.
        small = 1 if self._ac(target).small_target else 0
        if target.role == "wingman":
            if kind in (CardKind.SCI, CardKind.FUT):
                return (
                    f"{kind.label} changes position between leaders: it cannot be played at "
                    "a wingman (10.61)."
                )
            if kind in BURST_KINDS:
                budget = lr.bursts + t.wm_bonus - small
                return self._burst_refusal(code, t.bursts_used, budget)
            return None
        friend = self._lone_engaged(state, e.seat, ref[:-1])
        if friend is not None:
            return self._lone_card_refusal(state, kind, ref[:-1], friend, wingman=False)
        p = self.pos(state, e.seat, ref[:-1])
        if kind in BURST_KINDS:
            bonus = tables.burst_bonus(p)
            if bonus is None:
                if lr.gunner:
                    return (
                        "A Disadvantaged or Tailed leader may not fire its bursts; its gunner "
                        "fires only at a leader Advantaged on or Tailing it (6.4, 9.21)."
                    )
                return "A Disadvantaged or Tailed leader may not fire its bursts (6.4)."
            return self._burst_refusal(code, t.bursts_used, lr.bursts + bonus - small)
        return self._position_card_refusal(kind, p)

    def _as_kind_refusal(
        self, state: GameState, e: Element, as_kind: str, *, own_turn: bool
    ) -> str | None:
        """May this element's leader declare a card to be ``as_kind`` now?"""
        ac = self._ac(e)
        t = state.t
        if as_kind == "SCI":
            if not ac.agile:
                return (
                    f"{ac.name} is not agile: only agile aircraft play a card as Scissors (5.26)."
                )
            if not own_turn:
                return "An agile aircraft may treat a card as Scissors only on its own turn (6.35)."
            if t.agile_used:
                return "An agile aircraft treats a card as Scissors only once per turn (5.26)."
            return None
        if as_kind == "FUT":
            if not ac.very_high_fut:
                return f"Only the Ta-152H-1 may play a card as Full Throttle ({ac.name} cannot)."
            if not own_turn:
                return "The Ta-152H-1 plays a card as Full Throttle only during its own turn."
            if t.fut_used:
                return "The Ta-152H-1 treats only one card a turn as Full Throttle (RotL L332)."
            if t.start_alt != Altitude.VERY_HIGH or t.moved or e.altitude != Altitude.VERY_HIGH:
                return (
                    "The Ta-152H-1 must begin its turn at Very High and stay there to play a "
                    "card as Full Throttle (RotL L331-332)."
                )
            return None
        assert e.leader is not None
        if PilotSkill.A.value not in e.leader.pilot:
            return (
                "Only a leader whose pilot has skill A, not yet used, may declare a card to "
                'be an Ace Pilot (RotL "Pilots").'
            )
        return None

    def _burst_refusal(self, code: str, used: int, budget: int, whose: str = "") -> str | None:
        cost = int(code.split("-")[1][0])
        if used + cost > budget:
            left = max(budget - used, 0)
            rule = "9.23" if whose else "5.24, 6.4, 8.5a"
            return (
                f"{code} needs {cost} burst(s) and you have {left} {whose}left this turn ({rule})."
            )
        return None

    def _respond_refusal(self, state: GameState, e: Element, x: Exchange, a: Action) -> str | None:
        code = a.card or ""
        src = self._response_source(state, x)
        from_hand = src is e.hand
        if code == COUNTER:
            if not from_hand:
                return "A wingman's mini-hand has no Full Throttle counters (RotL L134)."
            reserved = int(not x.defender_to_move and x.climb_discard == self.counter)
            if e.counters - reserved < 1:
                if reserved:
                    return (
                        "Your last Full Throttle counter pays for the Vertical Roll climb (7.22)."
                    )
                return "You have no Full Throttle counter left (RotL L134-136, L326)."
            c: int | None = self.counter
        else:
            c = self._find(self._response_cards(state, x), code)
        if c is None:
            where = "hand" if from_hand else "mini-hand"
            if self._find(src, code) is not None:
                return f"Your {code} is set aside to pay for the Vertical Roll climb (7.22)."
            return f"Your {where} holds no {code}."
        responds = self.cards[c].type.responds_to
        if a.as_kind is not None:
            if not from_hand:
                return 'Only a leader may declare a card as another (5.26, RotL "Pilots").'
            own_turn = not x.defender_to_move and x.source == "hand"
            why = self._as_kind_refusal(state, e, a.as_kind, own_turn=own_turn)
            if why:
                return why
            responds = self._responds_as(CardKind(a.as_kind))
        last = CardKind(x.last_kind)
        if last not in responds:
            shown = f"{code}={a.as_kind}" if a.as_kind else code
            return f"{shown} does not respond to {last.label} (8.31, 8.42)."
        return None

    def _responds_as(self, kind: CardKind) -> frozenset[CardKind]:
        for c in self.cards:
            if c.type.kind is kind:
                return c.type.responds_to
        return frozenset()


_DECISION = {
    "altitude": "secret choice of a starting altitude",
    "wingman": "wingman attack step",
    "wingman_attack": "wingman's attack",
    "altitude_step": "adjust altitude step",
    "follow": "choice to follow an altitude change",
    "play": "play cards step",
    "respond": "response to the card just played",
    "discard": "discard step",
    "order": "choice of the element that plays next (4.7)",
    "redraw": "Combat Vision redraw",
}


def _expect(verbs: tuple[str, ...]) -> str:
    return "expected " + " / ".join(verbs)
