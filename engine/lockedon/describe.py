"""Locked-On moves in words: how an aircraft and a card are named, and what an action
does, self-contained (a button's label): ``Tight Turn: Position +2 on MiG-29 (B1), to
Tailing``. The base of the presenter (:mod:`engine.lockedon.ui`): its prompts, its
seat lines and its menus use these words. Texts: ``lockedon.ui.action.*``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.core.present import Seating, ShownState
from engine.lockedon import geometry
from engine.lockedon.actions import COUNTER, Action
from engine.lockedon.components import Range
from engine.lockedon.state import GameState
from engine.lockedon.texts import fixed
from engine.lockedon.words import altitude_word, position_word, range_word
from strings import t, tr

if TYPE_CHECKING:
    from engine.lockedon.game import LockedOnEngine

__all__ = ["Describing"]


class Describing:
    """Names and moves in words, for one :class:`LockedOnEngine` (its cards, aircraft
    and missiles)."""

    def __init__(self, engine: LockedOnEngine) -> None:
        self.engine = engine
        self.shown_view = ShownState(engine.view)
        """The views shown last (a seat's message reads it twice)."""
        self.shown_legal = ShownState(engine.legal_actions)
        """The legal actions shown last (a seat's hand marks them, its menu lists them)."""

    # --- naming -------------------------------------------------------------------
    def seat_label(self, state: GameState, seat: str) -> str:
        """``F-15A Eagle (A1)``, as the narration names an aircraft."""
        return self.engine.name(state, seat) if seat in state.planes else seat

    def card(self, code: str | None) -> str:
        """A card by its printed title (``Guns (Good Angle)``); ``CM``: Countermeasures."""
        if code == COUNTER:
            return fixed("lockedon.countermeasures")
        t_ = self.engine.by_code.get(code or "")
        return t_.label if t_ is not None else str(code)

    def played(self, a: Action, language: str) -> str:
        """The card of a play or reaction: ``Tight Turn``, ``Tight Turn (Aircraft
        Expertise)``, ``Tight Turn as an Ace Pilot``."""
        card = tr(self.card(a.card), language)
        if a.side:
            card = t("lockedon.ui.action.expertise", language, card=card)
        if a.ace:
            card = t("lockedon.ui.action.as_ace", language, card=card)
        return card

    def cards(self, codes: Sequence[str], language: str) -> str:
        return ", ".join(tr(self.card(c), language) for c in codes)

    def describe(self, state: GameState, action: str, language: str) -> str:
        return self.describe_action(state, Action.from_text(action), language)

    def describe_action(self, state: GameState, a: Action, language: str = "en") -> str:
        """An action in words, self-contained (a button's label): ``Tight Turn:
        Position +2 on MiG-29 (B1), to Tailing``."""
        e = self.engine

        def say(key: str, **fields: Any) -> str:
            return t(f"lockedon.ui.action.{key}", language, **fields)

        def plane(seat: str | None) -> str:
            return self.seat_label(state, seat) if seat else ""

        def alt(step: int, seat: str | None = None) -> str:
            """The altitude the aircraft would be at ("" if the state does not say)."""
            p = state.planes.get(seat or state.active or "")
            if p is None or p.altitude is None or not 0 <= p.altitude + step <= 2:
                return ""
            return tr(altitude_word(p.altitude + step), language)

        def at(key: str, step: int, **fields: Any) -> str:
            """``key`` with the altitude reached, or its ``_plain`` form without it."""
            to = alt(step)
            return say(key, altitude=to, **fields) if to else say(f"{key}_plain", **fields)

        v = a.verb
        active = state.active
        if v == "alt":
            return tr(fixed(f"lockedon.altitude.{a.mode}"), language)
        if v in ("first", "second", "nolaunch", "nofollow", "pass", "alert", "batturn"):
            return say(v)
        if v == "next":
            return say("next", plane=plane(a.target))
        if v == "angle":
            band = tr(range_word(Range.from_code(a.mode or "AH")), language)
            return say("angle", range=band, plane=plane(a.target))
        if v == "ab":
            p = state.planes.get(active or "")
            if a.mode == "on":
                return say("ab_on", n=max(0, (p.ab_left if p else 1) - 1))
            return say("ab_off")
        if v == "discard":
            return say("discard", cards=self.cards(a.cards, language)) if a.cards else say("keep")
        if v == "trim":
            return say("trim", cards=self.cards(a.cards, language))
        if v == "timely":
            return say("timely", cards=self.cards(a.cards, language))
        if v == "stay":
            return at("stay", 0)
        if v == "dive":
            return at("dive", -1)
        if v == "climb":
            return at("climb", 1, card=self.cards(a.cards, language))
        if v == "end":
            return say("end_speed" if state.step == "speed" else "end_play")
        if v == "giveup":
            pos = geometry.pos(state, active, a.target) if active and a.target else 1
            return say(
                "giveup", position=tr(position_word(max(pos, 1)), language), plane=plane(a.target)
            )
        if v == "launch":
            la = state.launch
            missile = e.missiles[la.missile].name if la is not None else ""
            if la is not None and la.seat in state.planes:
                k = e.missile_cards(state, la.seat, la, a.n)
                return say("launch", n=a.n, missile=missile, k=k)
            return say("launch_bare", n=a.n)
        if v == "follow":
            paying = self.cards(a.cards, language)
            if not state.follows:
                return say("follow_plain", cards=paying) if a.cards else say("follow_plain_free")
            offer = state.follows[0]
            to = alt(offer.direction, offer.seat)
            if a.cards:
                return say("follow", altitude=to, cards=paying)
            return say("follow_free", altitude=to)
        if v == "react":
            if a.card == COUNTER:
                p = state.planes.get(self._reactor(state) or "")
                n = p.cm if p is not None else 0
                return say("cm_ace") if a.ace else say("cm", n=n)
            return say("react", card=self.played(a, language))
        if v == "speed":
            if a.mode == "pos":
                return say(
                    "speed_pos", plane=plane(a.target), position=self.pos_after(state, a, language)
                )
            return say("speed_range", range=self.range_words(state, a, language))
        # play
        card = self.played(a, language)
        t_ = e.ace_type if a.ace else e.by_code.get(a.card or "")
        if a.mode == "pos":
            return say(
                "pos",
                card=card,
                n=a.n,
                plane=plane(a.target),
                position=self.pos_after(state, a, language),
            )
        if a.mode == "range":
            return say("range", card=card, range=self.range_words(state, a, language))
        if a.mode == "up":
            return at(
                "vr_up", 1, card=card, pay=self.cards(a.cards, language), plane=plane(a.target)
            )
        if a.mode == "down":
            return at("vr_down", -1, card=card, plane=plane(a.target))
        if a.missile is not None:
            return say("tone", card=card, plane=plane(a.target), missile=e.missiles[a.missile].name)
        if t_ is not None and t_.is_guns and a.target is not None:
            paying = (
                say("paying", cards=self.cards(a.cards, language)) if a.cards else say("no_discard")
            )
            gf = say("gun_fighter") if a.gf else ""
            return say("guns", card=card, plane=plane(a.target), paying=paying, gf=gf)
        if a.target is None:
            return say("tactic", card=card)
        return say("at", card=card, plane=plane(a.target))

    def _reactor(self, state: GameState) -> str | None:
        x = state.exchange
        if x is None:
            return state.site.target if state.site is not None else None
        return x.asking[0] if x.asking else self.engine.to_react(x)

    def pos_after(self, state: GameState, a: Action, language: str) -> str:
        """The position the actor would hold on the target: ``to Tailing``."""
        active = state.active
        if active is None or a.target is None or a.target not in state.planes:
            return ""
        n = a.n if a.mode == "pos" and a.verb == "play" else 1
        new = max(-2, min(2, geometry.pos(state, active, a.target) + n))
        return t("lockedon.ui.action.to", language, position=tr(position_word(new), language))

    def range_words(self, state: GameState, a: Action, language: str) -> str:
        """``me 1 closer (to Heat Seeking), MiG-29 (B1) 1 farther (to Active Homing)``."""

        def say(key: str, **fields: Any) -> str:
            return t(f"lockedon.ui.action.{key}", language, **fields)

        def change(delta: int, now: int) -> str:
            word = say("closer" if delta < 0 else "farther", n=abs(delta))
            band = tr(range_word(max(0, min(3, now + delta))), language)
            return say("change", change=word, band=band)

        parts = []
        active = state.planes.get(state.active or "")
        if a.own:
            parts.append(say("me", change=change(a.own, active.range if active else 3)))
        if a.target is not None:
            name = self.seat_label(state, a.target)
            target = state.planes.get(a.target)
            if a.enemy:
                parts.append(
                    say("them", plane=name, change=change(a.enemy, target.range if target else 3))
                )
            else:
                parts.append(say("may_react", plane=name))
        return ", ".join(parts)

    def target_note(
        self, state: GameState, viewer: str, target: str, seating: Seating, language: str
    ) -> str:
        """A short line about an enemy for a menu: who flies it, where it is, and the
        viewer's position and range to it."""
        p = state.planes.get(target)
        if p is None:
            return ""
        where = (
            tr(altitude_word(p.altitude), language)
            if p.altitude is not None
            else t("lockedon.ui.note.secret", language)
        )
        rng = geometry.range_between(state, viewer, target) if p.altitude is not None else None
        pos = geometry.pos(state, viewer, target) if viewer in state.planes else 0
        return t(
            "lockedon.ui.note.line",
            language,
            name=seating.players.get(target) or seating.names.get(target, "?"),
            where=where,
            range=tr(range_word(rng), language) if rng is not None else "?",
            position=tr(position_word(pos), language),
        )[:100]
