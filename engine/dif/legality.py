"""Legality: one predicate, :meth:`Legality.refusal`, says whether and why not.

``legal_actions`` generates candidate actions and keeps those the predicate allows
(or, for the most frequent decisions, makes only those directly:
:meth:`Legality._legal_choices`, tested to agree with the predicate); ``apply``
refuses with the predicate's message, which names the rule.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from itertools import combinations, groupby

from engine.core.contract import Decision
from engine.dif import tables
from engine.dif.actions import COUNTER, Action
from engine.dif.base import DECISIONS, POSITION_DELTA, EngineBase
from engine.dif.components import (
    BURST_KINDS,
    Altitude,
    CardKind,
    PilotSkill,
    Position,
    Ruleset,
    Side,
)
from engine.dif.state import Element, Exchange, FollowOffer, GameState
from engine.dif.texts import fixed
from strings import LazyTerm, Term

__all__ = ["Legality", "Why"]


class Why(LazyTerm):
    """A refusal not yet put in words: its catalogue key (``dif.refuse.*``) and fields.

    :meth:`Legality.legal_actions` asks about every candidate action and only needs
    to know *whether* one is refused; a :class:`~strings.Term` formats its English
    text when it is made, so the Term is made only when :meth:`Legality.refusal`
    gives the reason.
    """

    __slots__ = ()


class Legality(EngineBase):
    """Which actions a seat may take now (Zero! sections unless marked RotL)."""

    def legal_actions(self, state: GameState, seat: str) -> list[Action]:
        """Every legal action of ``seat`` now, concretely.

        While it asks :meth:`_refusal` about each candidate, what an attack depends on
        besides its card is read once per target (:meth:`_aim`): several cards, and
        each as drawn or declared, are aimed at the same few aircraft; and what the
        predicate reads of the decision itself, once per decision (:meth:`_refuser`)."""
        out: list[Action] = []
        pending = self.pending(state)
        self._aims = (state, {})
        try:
            for p in pending:
                if p.seat != seat:
                    continue
                out.extend(self._legal_of(state, p))
        finally:
            self._aims = None
        self._listed = (state, seat, tuple(out), pending)
        return out

    def was_listed(self, state: GameState, seat: str, action: Action) -> bool:
        """Whether the latest :meth:`legal_actions` was asked of this very state object
        and seat, and listed ``action``: then :meth:`refusal` allows it, and ``apply``
        need not ask again (a seat's move is most often one its menu or a computer
        player took from that list, issue 16).

        It relies on what :class:`engine.core.present.ShownState` relies on: a state
        the rules made is never changed afterwards (``apply`` returns a new one,
        tests/engine/test_apply_copies.py), so the same object gives the same answer.
        One entry, swapped whole. Code that edits a copy of its own in place (the
        sampler) asks ``legal_actions`` again after each edit, before it plays."""
        return self._listed_pending(state, seat, action) is not None

    def _listed_pending(
        self, state: GameState, seat: str, action: Action
    ) -> Sequence[Decision] | None:
        """When :meth:`was_listed`: what was pending then (what ``pending`` says of
        this state, which ``apply`` needs too), else None."""
        listed = self._listed
        if listed is None or listed[0] is not state or listed[1] != seat:
            return None
        for a in listed[2]:  # by identity first: an Action's == compares every field
            if a is action:
                return listed[3]
        return listed[3] if action in listed[2] else None

    def refusal(self, state: GameState, seat: str, action: Action) -> Term | None:
        """Why ``seat`` may not take ``action`` now, or None if it may."""
        return self._refusal_among(state, seat, action, self.pending(state))

    def _refusal_among(
        self, state: GameState, seat: str, action: Action, pending: Sequence[Decision]
    ) -> Term | None:
        """:meth:`refusal`, given what is ``pending`` now (``apply`` needs it too)."""
        if state.step == "over":
            return Term("dif.refuse.game_over")
        mine = [p for p in pending if p.seat == seat]
        if not mine:
            if seat not in state.elements:
                return Term("dif.refuse.no_seat", seat=seat)
            waiting = ", ".join(sorted({p.seat for p in pending}))
            return Term("dif.refuse.not_your_move", waiting=waiting)
        reasons = [self._refusal(state, p, action) for p in mine]
        if any(r is None for r in reasons):
            return None
        first = reasons[0]
        assert first is not None
        return first.term()

    def _candidates(self, state: GameState, p: Decision) -> list[Action]:
        e = state.elements[p.seat]
        if p.kind == "altitude":
            return [Action.altitude(a.code) for a in Altitude]
        if p.kind == "order":
            return [Action.next(seat) for seat in self.order_choice(state)[1]]
        if p.kind == "redraw":
            return self._subsets(e.hand, "redraw")
        if p.kind == "wingman":
            return [Action.simple("skip")] + [
                Action.wingman(ref) for ref in self._within_reach(state, e)
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
            out = [Action.simple("done")]
            if not state.t.played:  # 6.36, 12.1: before the first card of the step only
                out += [Action.simple("giveup"), Action.simple("evade")]
            codes = self._payable(e, e.hand)
            refs = self._within_reach(state, e, state.t.target)
            as_kinds = self._declarable(e, respond=False)
            for c in codes:
                if c == "VER":
                    out.append(Action.vertical("down"))
                    rest = list(e.hand)
                    rest.remove(self._find(e.hand, "VER"))  # type: ignore[arg-type]
                    out.extend(Action.vertical("up", d) for d in self._payable(e, rest))
                attack = c == COUNTER or _code_kind(c) in _ATTACK_AS_DRAWN
                declared = [k for k in as_kinds if k != c] if c != COUNTER else []
                for ref in refs:
                    if attack:
                        out.append(Action.play(c, ref))
                    for k in declared:
                        out.append(Action.play(c, ref, as_kind=k))
            return out
        if p.kind == "respond":
            out = [Action.simple("pass")]
            _, cards, from_hand, codes, last = self._response_offer(state, e)
            as_kinds = self._declarable(e, respond=True) if from_hand else ()
            for c in codes:
                if self._answers(cards, c, last):
                    out.append(Action.respond(c))
                if c != COUNTER:
                    out.extend(
                        Action.respond(c, as_kind=k)
                        for k in as_kinds
                        if k != c and last in self._responds_as(CardKind(k))
                    )
            return out
        if p.kind == "discard":
            return self._subsets(e.hand, "discard")
        return []

    def _legal_of(self, state: GameState, p: Decision) -> list[Action]:
        """The legal actions of the decision ``p``: made directly where they can be
        (:meth:`_legal_choices`), else its candidates its rule allows."""
        legal = self._legal_choices(state, p)
        if legal is not None:  # made legal: no candidate asked
            return legal
        refusal = self._candidate_rule(state, p)
        return [a for a in self._candidates(state, p) if refusal(a) is None]

    def _legal_choices(self, state: GameState, p: Decision) -> list[Action] | None:
        """The legal actions of the decision ``p``, made directly, without asking the
        rule of each candidate (None: :meth:`legal_actions` filters the candidates of
        ``p`` through its rule). The most frequent decisions of a dogfight: a Discard
        step and a redraw (:meth:`_held_choices`), Play Cards (:meth:`_legal_plays`),
        a response (:meth:`_legal_responses`), Adjust Altitude (:meth:`_legal_steps`),
        the Wingman Attack step's target (:meth:`_legal_wingman`) and its cards
        (:meth:`_legal_wingman_plays`), the turn-1 order and the secret starting
        altitude (:meth:`_legal_altitudes`), each the candidates of :meth:`_candidates`
        its rule allows, in the same order (tests/engine/test_legality.py compares them on many
        states). ``apply`` of an action not listed asks the rule as ever. A mission's
        decisions are filtered through its rules
        (:meth:`engine.dif.bombing.MissionRules._legal_choices`)."""
        if self._held_choices(state, p):  # each candidate allowed
            return self._candidates(state, p)
        kind = p.kind
        if kind == "play":
            return self._legal_plays(state, state.elements[p.seat])
        if kind == "respond":
            return self._legal_responses(state, state.elements[p.seat])
        if kind == "altitude_step":
            return self._legal_steps(state, state.elements[p.seat])
        if kind == "wingman":
            return self._legal_wingman(state, state.elements[p.seat])
        if kind == "wingman_attack":
            return self._legal_wingman_plays(state, state.elements[p.seat])
        if kind == "order":  # 4.7: every element still to play that the side may name
            return self._candidates(state, p)
        if kind == "altitude":
            return self._legal_altitudes(state.elements[p.seat])
        return None

    def _legal_altitudes(self, e: Element) -> list[Action]:
        """The secret starting altitudes :meth:`_start_altitude_refusal` allows: Very
        High only turbocharged, never above the aircraft's ceiling (4.5)."""
        ac = self._ac(e)
        return [
            Action.altitude(a.code)
            for a in Altitude
            if (a is not Altitude.VERY_HIGH or ac.turbocharged) and not a > ac.max_altitude
        ]

    def _legal_wingman(self, state: GameState, e: Element) -> list[Action]:
        """The Wingman Attack candidates :meth:`_wm_target_refusal` allows: skip, or a
        flying wingman's attack on an enemy at its altitude it may attack (10.3):
        each target asked of :meth:`_target_refusal` only."""
        out = [Action.simple("skip")]
        if e.wingman is None or not e.wingman.flying:
            return out
        for ref in self._within_reach(state, e):
            if self._target_refusal(state, e, ref, by_leader=False) is None:
                out.append(Action.wingman(ref))
        return out

    def _legal_wingman_plays(self, state: GameState, e: Element) -> list[Action]:
        """The Wingman Attack step's candidates :meth:`_wm_play_refusal` allows: done,
        or a card of the mini-hand, as drawn, at the wingman's target while it flies
        (10.2-10.6). What depends on the target (a small target, a lone leader, the
        position) is read once, not for each card."""
        out = [Action.simple("done")]
        ref = state.t.wm_target
        assert ref is not None
        target = self._plane(state, ref)
        if target is None or not target.flying:
            return out
        them = ref[:-1]
        small = self._ac(target).small_target
        at_leader = target.role == "leader"
        friend = self._lone_engaged(state, e.seat, them) if at_leader else None
        for c in self._codes(e.minihand):
            kind = _code_kind(c)
            if kind in BURST_KINDS and c == "IMS-1B1D" and small:
                continue  # RotL "Small Targets"
            if friend is not None:  # 6.72a
                why = self._lone_card_refusal(state, kind, them, friend, wingman=True)
            elif kind in BURST_KINDS:
                why = None
            elif kind not in POSITION_DELTA or not at_leader:  # 10.52: bursts at a wingman
                continue
            else:
                why = self._position_card_refusal(kind, self.pos(state, e.seat, them))
            if why is None:
                out.append(Action.play(c, ref))
        return out

    def _legal_steps(self, state: GameState, e: Element) -> list[Action]:
        """The Adjust Altitude candidates :meth:`_altitude_rule` allows: stay; dive, not
        below Very Low; climb, not above the ceiling, with any card held or a Full
        Throttle counter (7.21, 7.21b): a candidate names only those."""
        out = [Action.simple("stay")]
        alt = e.altitude or 0
        if not alt <= Altitude.VERY_LOW:
            out.append(Action.simple("dive"))
        if not alt >= self._ac(e).max_altitude:
            out.extend([Action.climb(c) for c in self._payable(e, e.hand)])
        return out

    def _response_offer(
        self, state: GameState, e: Element
    ) -> tuple[Exchange, list[int], bool, list[str], CardKind]:
        """What ``e`` may respond with now: the exchange, the cards it answers from
        (its hand, or a mini-hand: 8.3), whether they are its hand, their codes (a Full
        Throttle counter among them from a hand: 7.21b) and the kind of the last card."""
        x = state.exchange
        assert x is not None
        cards = self._response_cards(state, x)
        from_hand = self._response_source(state, x) is e.hand
        codes = self._payable(e, cards) if from_hand else self._codes(cards)
        return x, cards, from_hand, codes, _code_kind(x.last_kind)

    def _legal_responses(self, state: GameState, e: Element) -> list[Action]:
        """The response candidates :meth:`_respond_refusal` allows (8.3, 8.4): a card
        answers the last card as drawn (:meth:`_answers`), or declared as a kind
        (6.35, RotL "Pilots") its leader may declare now and that answers it; a Full
        Throttle counter only while one is not set aside for a climb (7.21b)."""
        out = [Action.simple("pass")]
        x, cards, from_hand, codes, last = self._response_offer(state, e)
        declared: list[str] = []
        if from_hand:
            own_turn = not x.defender_to_move and x.source == "hand"
            declared = [
                k
                for k in self._declarable(e, respond=True)
                if last in self._responds_as(CardKind(k))
                and self._as_kind_refusal(state, e, k, own_turn=own_turn) is None
            ]
        for c in codes:
            if c == COUNTER:
                reserved = int(not x.defender_to_move and x.climb_discard == self.counter)
                if e.counters - reserved >= 1 and self._answers(cards, c, last):
                    out.append(Action.respond(c))
                continue
            card = self._find(cards, c)
            assert card is not None
            if last in self.cards[card].type.responds_to:
                out.append(Action.respond(c))
            if declared:
                kind = self.kind[card].value
                out.extend(Action.respond(c, as_kind=k) for k in declared if k != c and k != kind)
        return out

    def _legal_plays(self, state: GameState, e: Element) -> list[Action]:
        """The Play Cards candidates :meth:`_play_refusal` allows: each attack asked of
        :meth:`_attack_refusal` only, the checks of the card and the move that every
        candidate passes not asked again."""
        t = state.t
        out = [Action.simple("done")]
        if not t.played:  # 6.36, 12.1: before the first card of the step only
            if self._given_up(state, e):
                out.append(Action.simple("giveup"))
            out.append(Action.simple("evade"))
        codes = self._payable(e, e.hand)
        refs = self._within_reach(state, e, t.target)
        declared = [
            k
            for k in self._declarable(e, respond=False)
            if self._as_kind_refusal(state, e, k, own_turn=True) is None
        ]
        alt = e.altitude or 0
        attack_refusal = self._attack_refusal
        for c in codes:
            if c == "VER":  # 7.22: a Vertical Roll down, not below Very Low; up, not
                # above the ceiling, discarding any card held or a counter (7.21b)
                if not alt <= Altitude.VERY_LOW:
                    out.append(Action.vertical("down"))
                if not alt >= self._ac(e).max_altitude:
                    rest = list(e.hand)
                    rest.remove(self._find(e.hand, "VER"))  # type: ignore[arg-type]
                    out.extend(Action.vertical("up", d) for d in self._payable(e, rest))
            counter = c == COUNTER
            kind = CardKind.FUT if counter else _code_kind(c)
            attack = counter or kind in _ATTACK_AS_DRAWN
            as_kinds = [k for k in declared if k != c and k != kind.value] if not counter else []
            for ref in refs:
                if attack and attack_refusal(state, e, c, kind, ref) is None:
                    out.append(Action.play(c, ref))
                for k in as_kinds:
                    if attack_refusal(state, e, c, _code_kind(k), ref) is None:
                        out.append(Action.play(c, ref, as_kind=k))
        return out

    def _held_choices(self, state: GameState, p: Decision) -> bool:
        """Whether the rule of the decision ``p`` allows every candidate
        :meth:`_candidates` makes of it, so that :meth:`legal_actions` need not ask it
        of each: a Discard step and a Combat Vision redraw (3.5, RotL "Pilots"), whose
        candidates are the choices of cards of the hand (:meth:`_subsets`) and whose
        rule (:meth:`_hand_rule`) only asks that the cards named be held. A hand of
        seven offers up to 128 choices, the most candidates of any decision (issue
        16). An engine whose rule refuses some of them says False
        (:meth:`engine.dif.bombing.MissionRules._held_choices`); ``apply`` of an action
        not listed asks the rule as ever."""
        return p.kind == "discard" or p.kind == "redraw"

    def _within_reach(self, state: GameState, e: Element, target: str | None = None) -> list[str]:
        """The enemy aircraft ``e``'s leader or wingman could attack now: flying and at
        its altitude, which every attack needs (6.5-6.6, 10.3, a gunner's 9.21), and
        only ``target`` once the leader has chosen one this turn (8.21, 8.5b).

        It only narrows the candidates :meth:`legal_actions` asks about, so that the
        ones refused for those reasons are never built; :meth:`_refusal` still decides
        each candidate, and the legal ones come out in the same order (the enemy
        elements' order, each leader before its wingman)."""
        alt = state.elements[e.seat].altitude
        side = e.side
        return [
            p.ref
            for o in state.elements.values()
            if o.side != side and o.altitude == alt
            for p in (o.leader, o.wingman)
            if p is not None and p.status == "flying" and (target is None or p.ref == target)
        ]

    def _answers(self, cards: Sequence[int], code: str, last: CardKind) -> bool:
        """Whether the card ``code`` names among ``cards`` (its lowest copy; a counter
        is a FUT), played as drawn, answers a card of kind ``last`` (8.3, 8.4).

        Like :meth:`_within_reach`, it only spares :meth:`legal_actions` building the
        responses :meth:`_respond_refusal` refuses for that reason."""
        c = self.counter if code == COUNTER else self._find(cards, code)
        return c is not None and last in self.cards[c].type.responds_to

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
        """Every choice of cards of ``hand`` to discard or redraw (3.5, RotL "Pilots")."""
        return list(_subset_actions(tuple(sorted(self.code[c] for c in hand)), verb))

    def _candidate_rule(self, state: GameState, p: Decision) -> Refuser:
        """What :meth:`legal_actions` asks of the candidates of the decision ``p``: the
        rule of its kind (:meth:`_kind_rule`) without :meth:`_refuser`'s check of the
        verb, which a candidate always passes: :meth:`_candidates` makes those of a
        decision with the verbs that answer it (:data:`_VERBS`; a test checks). A
        mission's decisions are asked through :meth:`_refuser`
        (:meth:`engine.dif.bombing.MissionRules._candidate_rule`)."""
        return self._kind_rule(state, state.elements[p.seat], p.kind)

    def _refusal(self, state: GameState, p: Decision, a: Action) -> Why | None:
        """Why ``a`` may not answer the decision ``p`` now (None: it may)."""
        return self._refuser(state, p)(a)

    def _refuser(self, state: GameState, p: Decision) -> Refuser:
        """:meth:`_refusal` for the decision ``p``, to ask of one action after another:
        the element, the decision's verbs and the rule of its kind are looked up once
        (``legal_actions`` asks it of every candidate, issue 16)."""
        kind = p.kind
        verbs = _VERBS[kind]
        rule = self._kind_rule(state, state.elements[p.seat], kind)

        def refusal(a: Action) -> Why | None:
            if a.verb not in verbs:
                return Why(
                    "dif.refuse.wrong_verb",
                    verb=a.verb,
                    decision=fixed(_DECISION[kind]),
                    verbs=" / ".join(verbs),
                )
            return rule(a)

        return refusal

    def _kind_rule(self, state: GameState, e: Element, kind: str) -> Refuser:
        """The rule of a decision of ``kind`` for ``e``'s seat, asked of an action whose
        verb answers that kind (:data:`_VERBS`)."""
        if kind == "discard":
            return self._discard_rule(state, e)
        if kind == "play":
            return functools.partial(self._play_refusal, state, e)
        if kind == "respond":
            x = state.exchange
            assert x is not None
            return lambda a: None if a.verb == "pass" else self._respond_refusal(state, e, x, a)
        if kind == "altitude_step":
            return self._altitude_rule(state, e)
        if kind == "wingman":
            return lambda a: (
                None if a.verb == "skip" else self._wm_target_refusal(state, e, a.target or "")
            )
        if kind == "wingman_attack":
            return lambda a: None if a.verb == "done" else self._wm_play_refusal(state, e, a)
        if kind == "follow":
            f = state.follow
            assert f is not None
            return lambda a: None if a.verb == "nofollow" else self._follow_refusal(state, e, f, a)
        if kind == "altitude":
            return functools.partial(self._start_altitude_refusal, e)
        if kind == "order":
            return functools.partial(self._order_refusal, state)
        assert kind == "redraw"  # every kind of _VERBS
        return self._hand_rule(e.hand, "dif.purpose.redraw")

    def _start_altitude_refusal(self, e: Element, a: Action) -> Why | None:
        """The secret starting altitude: Very High only turbocharged, never above the
        aircraft's ceiling (4.5)."""
        alt = Altitude.from_code(a.arg or "")
        ac = self._ac(e)
        if alt is Altitude.VERY_HIGH and not ac.turbocharged:
            return Why("dif.refuse.start_very_high")
        if alt > ac.max_altitude:
            return Why(
                "dif.refuse.start_too_high", aircraft=ac.name, altitude=ac.max_altitude.label
            )
        return None

    def _order_refusal(self, state: GameState, a: Action) -> Why | None:
        """Turn 1: the side choosing names one of its elements still to play (4.7)."""
        side, seats = self.order_choice(state)
        if a.target not in seats:
            if side is Side.AXIS:
                return Why("dif.refuse.order.axis", seats=", ".join(seats))
            return Why("dif.refuse.order.allied", seats=", ".join(seats))
        return None

    def _discard_rule(self, state: GameState, e: Element) -> Refuser:
        """The Discard step names cards of the hand (3.5)."""
        return self._hand_rule(e.hand, "dif.purpose.discard")

    def _hand_rule(self, hand: Sequence[int], why: str) -> Refuser:
        """:meth:`_hand_refusal` of an action's cards, the hand's codes read once: a
        Discard step is asked about every choice of cards its hand offers (issue 16)."""
        held = list(map(self.code.__getitem__, hand))
        return lambda a: _missing(held, a.cards, why) if a.cards else None

    def _pay_refusal(
        self, e: Element, hand: Sequence[int], codes: Sequence[str], why: str
    ) -> Why | None:
        """Like :meth:`_hand_refusal`, but a Full Throttle counter (``FTC``) may pay too
        (RotL L203, L210: jets discard a counter instead of a card)."""
        return _unpaid(e.counters, list(map(self.code.__getitem__, hand)), codes, why)

    def _hand_refusal(self, hand: Sequence[int], codes: Sequence[str], why: str) -> Why | None:
        """``why``: the catalogue key of what the cards are for (``dif.purpose.*``)."""
        if not codes:
            return None
        return _missing(list(map(self.code.__getitem__, hand)), codes, why)

    def _same_altitude(self, state: GameState, a: str, b: str) -> bool:
        return state.elements[a].altitude == state.elements[b].altitude

    def _target_refusal(
        self, state: GameState, e: Element, ref: str, *, by_leader: bool
    ) -> Why | None:
        """Who a leader's or wingman's attack may go to (6.5-6.6, 7.3, 10.3)."""
        target = self._plane(state, ref)
        if target is None or not target.flying:
            return Why("dif.refuse.target_gone", ref=ref)
        o = state.elements[ref[:-1]]
        if o.side == e.side:
            return Why("dif.refuse.own_side")
        if not self._same_altitude(state, e.seat, o.seat):
            return Why("dif.refuse.other_altitude")
        mine = self.engaged_with(state, e.seat)
        if mine is not None:
            other = self._el_label(state, state.elements[mine])
            if by_leader and ref != f"{mine}L":
                # 6.5 / RotL L86: an Assigned (Engaged) leader attacks only the enemy
                # leader it is engaged with, not even that leader's wingman; it must
                # give up its position first (6.36) or maneuver back to Neutral.
                return Why("dif.refuse.engaged_leader", other=other)
            if not by_leader and o.seat != mine:
                return Why("dif.refuse.engaged_wingman", other=other)
        if ref[-1] == "L" and mine is None:
            theirs = self.engaged_with(state, o.seat)
            if theirs is not None and self._lone_engaged(state, e.seat, o.seat) is None:
                return Why("dif.refuse.engaged_elsewhere", target=self._plane_label(state, ref))
        return None

    def _rolled_refusal(self, state: GameState, ref: str) -> Why | None:
        """RotL L212-214: a leader attacks an aircraft it reached with a Vertical Roll
        only if it was not Engaged and the roll was its first card this Play Cards step.
        An enemy that was at its altitude at its first card (one that followed it
        through the roll, 7.22) is no such aircraft. Zero! 7.3 has no such clause:
        6.5 lets a leader break free by playing a card (docs/rules-decisions.md)."""
        t = state.t
        if state.ruleset != Ruleset.ROTL or t.level is None or t.roll_first:
            return None
        if ref[:-1] in t.level:
            return None
        return Why("dif.refuse.rolled_to_attack")

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
    ) -> Why | None:
        """6.72a: first break the lone leader's position with MAN, HAL, FUT or SCI
        (SCI only while it is Advantaged). RotL's Rules of Engagement let a wingman
        fire bursts at it at once."""
        p = self.pos(state, them, friend)
        name = self._el_label(state, state.elements[friend])
        if kind in BURST_KINDS:
            if wingman and Ruleset(state.ruleset) is Ruleset.ROTL:
                return None
            return Why("dif.refuse.lone_first_break", friend=name)
        if kind is CardKind.SCI and p != Position.ADVANTAGED:
            return Why("dif.refuse.lone_scissors", friend=name)
        if kind not in POSITION_DELTA:
            return Why("dif.refuse.not_an_attack", card=kind.label)
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

    def _wm_target_refusal(self, state: GameState, e: Element, ref: str) -> Why | None:
        if e.wingman is None or not e.wingman.flying:
            return Why("dif.refuse.no_wingman")
        return self._target_refusal(state, e, ref, by_leader=False)

    def _wm_card_refusal(self, e: Element, a: Action) -> Why | None:
        """A wingman plays a card of its mini-hand, as drawn (no other use, no amount)."""
        code = a.card or ""
        if self._find(e.minihand, code) is None:
            return Why("dif.refuse.not_in_wingman_hand", code=code)
        if a.as_kind is not None or a.arg is not None or a.cards:
            return Why("dif.refuse.wingman_as_drawn")
        return None

    def _wm_play_refusal(self, state: GameState, e: Element, a: Action) -> Why | None:
        if a.target != state.t.wm_target:
            return Why("dif.refuse.wingman_target", target=state.t.wm_target)
        why = self._wm_card_refusal(e, a)
        if why is not None:
            return why
        code = a.card or ""
        kind = _code_kind(code)
        target = self._plane(state, a.target or "")
        if target is None or not target.flying:
            return Why("dif.refuse.wingman_target_gone")
        if kind in BURST_KINDS and code == "IMS-1B1D" and self._ac(target).small_target:
            return Why("dif.refuse.small_target", aircraft=self._ac(target).name)
        if target.role == "leader":
            friend = self._lone_engaged(state, e.seat, target.ref[:-1])
            if friend is not None:
                return self._lone_card_refusal(state, kind, target.ref[:-1], friend, wingman=True)
        if kind in BURST_KINDS:
            return None
        if kind not in POSITION_DELTA:
            return Why("dif.refuse.not_an_attack", card=kind.label)
        if target.role == "wingman":
            return Why("dif.refuse.wingman_on_wingman")
        return self._position_card_refusal(kind, self.pos(state, e.seat, target.ref[:-1]))

    def _position_card_refusal(self, kind: CardKind, p: int) -> Why | None:
        if kind is CardKind.MAN and p >= Position.TAILING:
            return Why("dif.refuse.man_tailing")
        if kind is CardKind.HAL and p > Position.NEUTRAL:
            return Why("dif.refuse.hal_one_step")
        if kind is CardKind.SCI and p != Position.DISADVANTAGED:
            return Why("dif.refuse.sci_attack")
        if kind is CardKind.FUT and p >= Position.NEUTRAL:
            return Why("dif.refuse.fut_attack")
        return None

    def _climb_refusal(self, e: Element) -> Why:
        ac = self._ac(e)
        return Why("dif.refuse.ceiling", aircraft=ac.name, altitude=ac.max_altitude.label)

    def _altitude_rule(self, state: GameState, e: Element) -> Refuser:
        """Adjust Altitude (7.21): stay; dive, not below Very Low; climb, not above the
        ceiling, discarding a card or a Full Throttle counter (7.21b). The altitude,
        the ceiling and the hand are read once for every card it may climb with."""
        alt = e.altitude or 0
        at_ceiling = alt >= self._ac(e).max_altitude
        held = list(map(self.code.__getitem__, e.hand))

        def refusal(a: Action) -> Why | None:
            if a.verb == "dive" and alt <= Altitude.VERY_LOW:
                return Why("dif.refuse.very_low")
            if a.verb == "climb":
                if at_ceiling:
                    return self._climb_refusal(e)
                return _unpaid(e.counters, held, (a.card or "",), "dif.purpose.climb")
            return None

        return refusal

    def _follow_refusal(
        self, state: GameState, e: Element, f: FollowOffer, a: Action
    ) -> Why | None:
        n = self._follow_cost(state, f)
        if len(a.cards) != n:
            return Why("dif.refuse.follow_cost", n=n)
        new_alt = state.elements[f.mover].altitude or 0
        if new_alt > self._ac(e).max_altitude:
            return Why("dif.refuse.follow_too_high", aircraft=self._ac(e).name)
        return self._pay_refusal(e, e.hand, a.cards, "dif.purpose.follow")

    def _play_refusal(self, state: GameState, e: Element, a: Action) -> Why | None:
        t = state.t
        if a.verb == "done":
            return None
        if a.verb == "giveup":
            if t.played:
                return Why("dif.refuse.giveup_late")
            if self._given_up(state, e):
                return None
            gained = [o for o in self._enemy_seats(state, e) if self.pos(state, e.seat, o) > 0]
            if gained:
                other = self._el_label(state, state.elements[gained[0]])
                return Why("dif.refuse.giveup_gained", other=other)
            return Why("dif.refuse.giveup_nothing")
        if a.verb == "evade":
            if t.played:
                return Why("dif.refuse.evade_late")
            return None
        code = a.card or ""
        counter = code == COUNTER
        if counter:
            if e.counters < 1:
                return Why("dif.refuse.no_counter")
        elif code not in map(self.code.__getitem__, e.hand):
            return Why("dif.refuse.not_in_hand", code=code)
        kind = CardKind.FUT if counter else _code_kind(code)
        if a.as_kind is not None and (counter or a.as_kind == kind.value):
            return self._as_itself(a, kind)
        if a.arg is not None:  # Vertical Roll altitude change (7.22)
            if code != "VER" or a.arg not in ("up", "down") or a.as_kind or a.target:
                return Why("dif.refuse.vertical_form", shown=str(a))
            alt = e.altitude or 0
            if a.arg == "down":
                if alt <= Altitude.VERY_LOW:
                    return Why("dif.refuse.very_low")
                if a.cards:
                    return Why("dif.refuse.vertical_dive_discard")
                return None
            if alt >= self._ac(e).max_altitude:
                return self._climb_refusal(e)
            if len(a.cards) != 1:
                return Why("dif.refuse.vertical_climb_discard")
            rest = list(e.hand)
            rest.remove(self._find(e.hand, "VER"))  # type: ignore[arg-type]
            return self._pay_refusal(e, rest, a.cards, "dif.purpose.climb")
        if a.as_kind is not None:
            why = self._as_kind_refusal(state, e, a.as_kind, own_turn=True)
            if why:
                return why
            kind = _code_kind(a.as_kind)
        if kind not in BURST_KINDS and kind not in POSITION_DELTA:
            return Why("dif.refuse.response_card", card=kind.label)
        ref = a.target or ""
        if t.target is not None and ref != t.target:
            return Why("dif.refuse.one_target", target=self._plane_label(state, t.target))
        return self._attack_refusal(state, e, code, kind, ref)

    def _attack_refusal(
        self, state: GameState, e: Element, code: str, kind: CardKind, ref: str
    ) -> Why | None:
        """Why ``e``'s leader may not attack ``ref`` (this turn's target, if it has one)
        with the card ``code`` held, played as ``kind`` (an attack's kind, one it may
        declare now): the target, the bursts and the position (8.2, 8.5, 9.2)."""
        t = state.t
        lr = self._leader_ratings(e)
        gunner, why, wingman, small, friend, p = self._aim(state, e, ref)
        if kind in BURST_KINDS and gunner:
            # RotL "Gunners", 9.23: separate bursts, never increased (but by skill G).
            return self._burst_refusal(code, t.gun_used, lr.gunner, gunner=True)
        if why:
            return why
        if wingman:
            if kind in (CardKind.SCI, CardKind.FUT):
                return Why("dif.refuse.position_at_wingman", card=kind.label)
            if kind in BURST_KINDS:
                budget = lr.bursts + t.wm_bonus - small
                return self._burst_refusal(code, t.bursts_used, budget)
            return None
        if friend is not None:
            return self._lone_card_refusal(state, kind, ref[:-1], friend, wingman=False)
        if kind in BURST_KINDS:
            bonus = tables.burst_bonus(p)
            if bonus is None:
                if lr.gunner:
                    return Why("dif.refuse.no_bursts_gunner")
                return Why("dif.refuse.no_bursts")
            return self._burst_refusal(code, t.bursts_used, lr.bursts + bonus - small)
        return self._position_card_refusal(kind, p)

    def _aim(self, state: GameState, e: Element, ref: str) -> _AimFacts:
        """What ``e``'s leader attacking ``ref`` depends on besides its card: whether
        ``ref`` is its gunner's target, why it may not attack ``ref`` whatever the card
        (or None), whether ``ref`` is a wingman, the small target's burst (1 or 0),
        the friendly leader ``ref``'s lone leader holds (or None) and the leader's
        position on ``ref``'s leader.

        Read once per target during a :meth:`legal_actions` call, which asks about
        the same state throughout; asked again otherwise (a state being changed by
        ``apply`` may be asked about between two changes)."""
        memo = self._aims
        if memo is None or memo[0] is not state:
            return self._aim_facts(state, e, ref)
        key = (e.seat, ref)
        facts = memo[1].get(key)
        if facts is None:
            facts = memo[1][key] = self._aim_facts(state, e, ref)
        return facts

    def _aim_facts(self, state: GameState, e: Element, ref: str) -> _AimFacts:
        """:meth:`_aim`, worked out."""
        gunner = self._gunner_target(state, e, ref)
        why = self._target_refusal(state, e, ref, by_leader=True) or self._rolled_refusal(
            state, ref
        )
        if why:
            return gunner, why, False, 0, None, 0
        target = self._plane(state, ref)
        assert target is not None
        # RotL "Small Targets": a leader's Burst Rating is one less against one.
        small = 1 if self._ac(target).small_target else 0
        if target.role == "wingman":
            return gunner, None, True, small, None, 0
        friend = self._lone_engaged(state, e.seat, ref[:-1])
        return gunner, None, False, small, friend, self.pos(state, e.seat, ref[:-1])

    def _given_up(self, state: GameState, e: Element) -> list[str]:
        """The enemy leaders ``e``'s leader would stop being Advantaged on or Tailing by
        giving up its position now: only those it held when its player-turn began
        (6.36, RotL L170), not one its wingman or its cards won since."""
        held = state.t.held
        return [
            o
            for o in self._enemy_seats(state, e)
            if self.pos(state, e.seat, o) > 0 and (held is None or o in held)
        ]

    def _as_kind_refusal(
        self, state: GameState, e: Element, as_kind: str, *, own_turn: bool
    ) -> Why | None:
        """May this element's leader declare a card to be ``as_kind`` now?"""
        ac = self._ac(e)
        t = state.t
        if as_kind == "SCI":
            if not ac.agile:
                return Why("dif.refuse.not_agile", aircraft=ac.name)
            if not own_turn:
                return Why("dif.refuse.agile_own_turn")
            if t.agile_used:
                return Why("dif.refuse.agile_once")
            return None
        if as_kind == "FUT":
            if not ac.very_high_fut:
                return Why("dif.refuse.fut_only_ta152", aircraft=ac.name)
            if not own_turn:
                return Why("dif.refuse.fut_own_turn")
            if t.fut_used:
                return Why("dif.refuse.fut_once")
            if t.start_alt != Altitude.VERY_HIGH or t.moved or e.altitude != Altitude.VERY_HIGH:
                return Why("dif.refuse.fut_very_high")
            return None
        assert e.leader is not None
        if PilotSkill.A.value not in e.leader.pilot:
            return Why("dif.refuse.no_ace")
        return None

    def _burst_refusal(
        self, code: str, used: int, budget: int, *, gunner: bool = False
    ) -> Why | None:
        cost = int(code.split("-")[1][0])
        if used + cost > budget:
            left = max(budget - used, 0)
            if gunner:
                return Why("dif.refuse.gunner_bursts", code=code, cost=cost, left=left)
            return Why("dif.refuse.bursts", code=code, cost=cost, left=left)
        return None

    def _respond_refusal(self, state: GameState, e: Element, x: Exchange, a: Action) -> Why | None:
        code = a.card or ""
        src = self._response_source(state, x)
        from_hand = src is e.hand
        if code == COUNTER:
            if not from_hand:
                return Why("dif.refuse.wingman_counter")
            reserved = int(not x.defender_to_move and x.climb_discard == self.counter)
            if e.counters - reserved < 1:
                if reserved:
                    return Why("dif.refuse.counter_set_aside")
                return Why("dif.refuse.no_counter")
            c: int | None = self.counter
        else:
            c = self._find(self._response_cards(state, x), code)
        if c is None:
            if self._find(src, code) is not None:
                return Why("dif.refuse.card_set_aside", code=code)
            if from_hand:
                return Why("dif.refuse.not_in_hand_respond", code=code)
            return Why("dif.refuse.not_in_minihand", code=code)
        responds = self.cards[c].type.responds_to
        if a.as_kind is not None:
            if code == COUNTER or a.as_kind == self.kind[c].value:
                return self._as_itself(a, self.kind[c])
            if not from_hand:
                return Why("dif.refuse.leader_declares")
            own_turn = not x.defender_to_move and x.source == "hand"
            why = self._as_kind_refusal(state, e, a.as_kind, own_turn=own_turn)
            if why:
                return why
            responds = self._responds_as(CardKind(a.as_kind))
        last = CardKind(x.last_kind)
        if last not in responds:
            shown = f"{code}={a.as_kind}" if a.as_kind else code
            return Why("dif.refuse.no_response", shown=shown, card=last.label)
        return None

    def _as_itself(self, a: Action, kind: CardKind) -> Why:
        """A card is declared only as another kind (``MAN=SCI``), never as what it is
        (``SCI=SCI``); a Full Throttle counter is only ever a FUT. One text per move,
        the one :meth:`legal_actions` lists."""
        return Why("dif.refuse.as_itself", shown=str(a), card=kind.label)

    def _responds_as(self, kind: CardKind) -> frozenset[CardKind]:
        """What a card declared as ``kind`` answers: what the first card of that kind
        answers (6.35, RotL "Pilots")."""
        return self._kind_responds.get(kind, frozenset())


Refuser = Callable[[Action], "Why | None"]
"""A refusal predicate of one decision: why an action may not answer it, or None."""

_AimFacts = tuple[bool, "Why | None", bool, int, "str | None", int]
"""What :meth:`Legality._aim` returns: gunner's target, refusal, at a wingman, small
target, the lone leader's friend, position."""

_VERBS = {
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
}
"""The verbs that answer each kind of decision of the basic game."""

_ATTACK_AS_DRAWN = BURST_KINDS | POSITION_DELTA.keys()
"""The kinds a card played as drawn attacks with (8.2); any other is only a response."""


@functools.lru_cache(maxsize=4096)
def _subset_actions(codes: tuple[str, ...], verb: str) -> tuple[Action, ...]:
    """The ``discard`` or ``redraw`` action of every sub-multiset of these sorted card
    codes, in sorted order: one per distinct choice, each naming its cards sorted.

    Kept (the last 4096 hands): the result depends on its arguments alone and
    Actions are immutable, while a Discard step asks it of every hand it sees."""
    # Each choice is sorted already: the Action is built as Action.discard and
    # Action.redraw would build it, without sorting its cards again.
    return tuple(_choice(verb, c) for c in _sub_multisets(codes))


def _sub_multisets(codes: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct sub-multiset of the sorted ``codes``, each sorted, in sorted
    order: ``sorted(set(combinations(codes, n)))`` over every ``n``, made in that
    order instead of sorted afterwards (half the time; a hand not seen before is
    most of a Discard step's cost, issue 16).

    From the last distinct code to the first: the choices of the codes from one
    holding ``k`` of its copies are the empty choice, then that code followed by each
    choice from it holding ``k - 1`` copies, then the choices of the later codes
    but the empty one; with none of its copies, they are the later codes' choices."""
    later: list[tuple[str, ...]] = [()]  # the choices of the codes after: none yet
    for code, copies in reversed([(c, len(list(g))) for c, g in groupby(codes)]):
        rest = later[1:]
        choices = later  # none of its copies
        head = (code,)
        for _ in range(copies):
            choices = [(), *[head + x for x in choices], *rest]
        later = choices
    return later


@functools.lru_cache(maxsize=8192)
def _choice(verb: str, cards: tuple[str, ...]) -> Action:
    """The ``discard`` or ``redraw`` action of these sorted cards, made once and kept
    (the last 8192): a hand :func:`_subset_actions` has not seen shares most of its
    choices with hands it has (its choices of one or two cards), and an Action, a
    frozen dataclass, costs several times a lookup to make (issue 16)."""
    return Action(verb, None, None, None, None, cards)


def _missing(held: Sequence[str], codes: Sequence[str], why: str) -> Why | None:
    """Why the cards ``codes`` are not all among the ``held`` codes, each held card
    named once (None: they are). ``why``: the catalogue key of what the cards are for
    (``dif.purpose.*``)."""
    left = list(held)
    for code in codes:
        try:
            left.remove(code)
        except ValueError:
            return Why("dif.refuse.not_in_hand_for", code=code, purpose=fixed(why))
    return None


def _unpaid(counters: int, held: Sequence[str], codes: Sequence[str], why: str) -> Why | None:
    """:func:`_missing`, but a Full Throttle counter (``FTC``) may pay too, of the
    ``counters`` held (RotL L203, L210: jets discard a counter instead of a card)."""
    n = codes.count(COUNTER)
    if n > counters:
        return Why("dif.refuse.counters_short", have=counters, need=n)
    return _missing(held, [c for c in codes if c != COUNTER], why)


@functools.cache
def _code_kind(code: str) -> CardKind:
    """The kind of a card code (``IMS-1B2D`` -> IMS)."""
    return CardKind(code.split("-")[0])


_DECISION = {kind: f"dif.decision.{kind}" for kind in DECISIONS}
"""The catalogue key naming each kind of decision, for a refused verb."""
