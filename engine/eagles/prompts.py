"""What each Eagles in the Sky decision asks, in words (a :class:`strings.Term`),
naming the side that decides and, for a Response, the activating aircraft, its card and
total (public: the card was played face up, §8.27); never a card of a hand. Texts:
``eagles.ui.decision.*``, ``eagles.ui.prompt.*``.
"""

from __future__ import annotations

from engine.core.contract import Decision
from engine.core.present import Phase
from engine.eagles.actions import Action
from engine.eagles.describe import Describing, altitude_word, rating_word, side_word
from engine.eagles.lobby import EaglesOptions
from engine.eagles.state import GameState
from strings import Term, has

__all__ = ["Prompting"]

KINDS = (
    "activate",
    "respond",
    "follow",
    "discard",
    "place",
    "remove",
    "convert",
    "consent",
    "withdraw",
    "trouble",
)


class Prompting(Describing):
    """The decisions of a game in words."""

    def decision_words(self, kind: str) -> str:
        key = f"eagles.ui.decision.{kind}"
        return Term(key) if has(key) else kind

    def prompt(self, state: GameState, decision: Decision) -> str:
        """What ``decision.seat``'s side must decide (public: no card of a hand)."""
        d = decision
        e = self.engine
        side = self.engine.side_of(state, d.seat) if d.seat else (d.side or "")
        me = Term("eagles.ui.seat_label", side=side_word(side), seat=d.seat)
        pend = state.pending
        if d.kind == "respond" and pend is not None:
            act = Action.from_text(pend.action)
            card = self.card(act.card)
            if act.verb == "headon":
                key = "eagles.ui.prompt.headon"
            elif act.verb == "escape":
                key = "eagles.ui.prompt.escape"
            else:
                key = "eagles.ui.prompt.respond"
            barred = bool(pend.data.get("barred") or pend.data.get("headon"))
            return Term(
                key,
                me=me,
                actor=self.plane(state, pend.actor),
                target=self.plane(state, pend.target),
                card=card,
                rating=rating_word(pend.symbol or "speed"),
                total=pend.total,
                how=Term("eagles.ui.prompt.no_card" if barred else "eagles.ui.prompt.how"),
            )
        if d.kind == "follow" and pend is not None and pend.chain:
            q = state.plane(pend.chain[0])
            mover = state.plane(pend.actor or "")
            if pend.direction == 0:
                return Term(
                    "eagles.ui.prompt.follow_balloon",
                    me=me,
                    plane=e.name(q),
                    balloon=e.name(mover),
                )
            way = "dive" if pend.direction < 0 else "climb"
            return Term(
                f"eagles.ui.prompt.follow_{way}",
                me=me,
                plane=e.name(q),
                mover=e.name(mover),
                altitude=altitude_word(mover.altitude),
            )
        if d.kind == "discard":
            low, high = e.discard_bounds(state, side)
            size = state.hand_size.get(side, e.hand_limit(state, side)[0])
            return Term("eagles.ui.prompt.discard", me=me, low=low, high=high, size=size)
        if d.kind == "place" and pend is not None:
            return Term(
                "eagles.ui.prompt.place",
                me=me,
                plane=self.plane(state, pend.actor),
                altitudes=", ".join(str(altitude_word(c)) for c in pend.chain),
            )
        if d.kind == "remove" and pend is not None:
            return Term(
                "eagles.ui.prompt.remove",
                me=me,
                planes=", ".join(self.plane(state, r) for r in pend.chain),
            )
        if d.kind == "consent":
            return Term("eagles.ui.prompt.consent", me=me)
        if d.kind == "withdraw":
            return Term("eagles.ui.prompt.withdraw", me=me)
        if d.kind == "trouble" and pend is not None:
            return Term(
                "eagles.ui.prompt.trouble",
                me=me,
                planes=", ".join(self.plane(state, r) for r in pend.chain),
            )
        if d.kind == "convert" and pend is not None:
            return Term(
                "eagles.ui.prompt.convert",
                me=me,
                plane=self.plane(state, pend.actor),
                target=self.plane(state, pend.target),
            )
        if d.kind == "activate":
            ready = [p.ref for p in state.planes if p.side == side and e.may_activate(state, p)]
            return Term(
                "eagles.ui.prompt.activate",
                me=me,
                planes=", ".join(ready) or "-",
                cards=len(state.hands.get(side, [])),
            )
        return Term("eagles.ui.prompt.decide", me=me, decision=self.decision_words(d.kind))

    def phase(self, state: GameState) -> Phase:
        step = state.phase
        if state.phase == "activation" and state.pending is not None:
            step = state.pending.kind
        return Phase(state.turn, Term(f"eagles.ui.step.{step}"))

    def begins(self, options: EaglesOptions) -> str:
        return Term("eagles.ui.dogfight.begins")
