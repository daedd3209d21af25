"""Eagles in the Sky moves in words: how an aircraft and a card are named, and what an
action does, self-contained (a button's label): ``SPAD XIII (A1) tails Albatros D.V
(G2) with Wingover (37) as Dive: total 7``. The base of the presenter
(:mod:`engine.eagles.ui`): its prompts, seat lines and menus use these words. Texts:
``eagles.ui.action.*``; altitudes, ratings, sides are the engine's words
(``eagles.altitude.*``...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.present import ShownState
from engine.eagles.actions import Action
from engine.eagles.ratings import rating
from engine.eagles.state import GameState, Plane
from strings import Term, t, tr

if TYPE_CHECKING:
    from engine.eagles.game import EaglesEngine

__all__ = ["ALTITUDES", "Describing", "altitude_word", "rating_word", "side_word"]

ALTITUDES = "TLMH"
FLAGS = ("hold", "giveup", "jettison", "+1", "rockets", "change", "gunner", "sun")


def altitude_word(code: str | int) -> Term:
    """``Medium``: an altitude by code (``M``) or value (2)."""
    if isinstance(code, int):
        code = ALTITUDES[code]
    return Term(f"eagles.altitude.{code}")


def rating_word(symbol: str) -> Term:
    """``Dive``: a Performance Rating (a card's symbol)."""
    return Term(f"eagles.rating.{symbol}")


def side_word(side: str) -> Term:
    """``Allies``: a side in a lobby or a menu."""
    return Term(f"eagles.ui.side.{side}")


class Describing:
    """Names and moves in words, for one :class:`EaglesEngine` (its cards, aircraft and
    leaders)."""

    def __init__(self, engine: EaglesEngine) -> None:
        self.engine = engine
        self.shown_view = ShownState(engine.view)
        """The views shown last (a seat's message reads it twice)."""
        self.shown_legal = ShownState(engine.legal_actions)
        """The legal actions shown last (a seat's hand marks them, its menu lists them)."""

    # --- naming -------------------------------------------------------------------
    def seat_label(self, state: GameState, seat: str) -> str:
        """A seat's flight as narration names it: ``Allies (A1)``; the aircraft's own
        name for an aircraft reference (``SPAD XIII (A1)``)."""
        side = next((sd for sd, seats in state.seats.items() if seat in seats), None)
        if side is not None:
            return Term("eagles.ui.seat_label", side=side_word(side), seat=seat)
        p = state.find(seat)
        return self.engine.name(p) if p is not None else seat

    def plane(self, state: GameState, ref: str | None) -> str:
        """``SPAD XIII (A1)``; ``the ground`` for a strafe of the trenches."""
        if ref is None:
            return ""
        if ref == "ground":
            return Term("eagles.ui.action.ground")
        p = state.find(ref)
        return self.engine.name(p) if p is not None else ref

    def card(self, number: int | None) -> str:
        """``Wingover (37)``: a card by its printed name and number."""
        if number is None or number not in self.engine.cards:
            return str(number)
        return self.engine.card_name(number)

    def card_note(self, number: int, language: str) -> str:
        """``Climb / Dive · MR 2 · Fire 4``: what a card shows."""
        c = self.engine.cards[number]
        symbols = " / ".join(tr(rating_word(s.value), language) for s in c.symbols)
        special = " · " + t(f"eagles.ui.special.{c.special.value}", language) if c.special else ""
        fire = str(c.fire) if c.fire is not None else t("eagles.ui.hand.jam", language)
        return t(
            "eagles.ui.hand.card_note",
            language,
            symbols=symbols or "-",
            mr=c.rating,
            fire=fire,
            special=special,
        )

    def played(self, a: Action, language: str) -> str:
        """The card of a move: ``Wingover (37) as Dive``, ``… as a Snap Turn``."""
        card = self.card(a.card)
        if a.as_card:
            return t(f"eagles.ui.action.as_{a.as_card}", language, card=card)
        if a.symbol:
            return t(
                "eagles.ui.action.as",
                language,
                card=card,
                rating=tr(rating_word(a.symbol), language),
            )
        return card

    def flags(self, a: Action, language: str) -> str:
        """``, holding fire, giving up its position``: a move's options in words."""
        return "".join(
            t(f"eagles.ui.action.flag.{'plus' if f == '+1' else f}", language)
            for f in FLAGS
            if a.has(f)
        )

    def total(self, state: GameState, a: Action, *, response: bool = False) -> int | None:
        """The total a Targeted Activation or a Response makes: the Performance Rating
        plus the card's Maneuver Rating (§8.27), or None when it makes none."""
        e = self.engine
        if a.card is None or a.card not in e.cards:
            return None
        if response:
            pend = state.pending
            p = state.find(pend.target or "") if pend is not None else None
        else:
            p = state.find(a.plane or "")
        if p is None or p.balloon:
            return None
        card = e.cards[a.card]
        symbol = e.symbol_of(card, a.symbol, a.as_card)
        try:
            return rating(e.ac(p), p, symbol) + e.value(
                p, a, capped=True, penalty=True, response=response
            )
        except (KeyError, ValueError):
            return None

    # --- moves --------------------------------------------------------------------
    def describe(self, state: GameState, action: str, language: str) -> str:
        return self.describe_action(state, Action.from_text(action), language)

    def describe_action(self, state: GameState, a: Action, language: str = "en") -> str:
        """An action in words, self-contained (a button's label)."""

        def say(key: str, **fields: Any) -> str:
            return t(f"eagles.ui.action.{key}", language, **fields)

        v = a.verb
        pend = state.pending
        if v in ("accept", "refuse") and pend is not None and pend.kind == "withdraw":
            return say(f"withdraw_{v}")
        if v in ("end", "allow", "follow", "stay", "offer", "accept", "refuse"):
            return say(v)
        if v == "pass":
            if pend is not None and pend.kind == "respond":
                return say("no_response_hold" if a.has("hold") else "no_response")
            return say("pass")
        if v == "discard":
            if not a.cards:
                return say("keep")
            return say("discard", cards=", ".join(self.card(c) for c in a.cards))
        if v == "place":
            return say("place", altitude=tr(altitude_word(a.word or "L"), language))
        if v == "remove":
            trouble = pend is not None and pend.kind == "trouble"
            return say("trouble" if trouble else "remove", plane=self.plane(state, a.word))
        if v == "convert":
            return say("convert", kind=tr(Term(f"eagles.damage.{a.word}"), language))
        if v == "lower":
            return say("lower", plane=self.plane(state, a.plane))
        if v == "respond":
            total = self.total(state, a, response=True)
            return say(
                "respond",
                card=self.played(a, language),
                total=total if total is not None else "?",
                flags=self.flags(a, language),
            )
        fields: dict[str, Any] = {
            "plane": self.plane(state, a.plane),
            "card": self.played(a, language),
            "target": self.plane(state, a.target),
            "flags": self.flags(a, language),
        }
        if v in ("tail", "headon", "escape") and a.verb != "leaf":
            total = self.total(state, a)
            fields["total"] = total if total is not None else "?"
        if v == "escape":
            return say("escape_from" if a.target else "escape", **fields)
        if v == "strafe":
            return say("strafe_ground" if a.target == "ground" else "strafe", **fields)
        if v == "balloon":
            return say("balloon", fv=a.fv, **fields)
        if v in ("dive", "climb"):
            p = state.find(a.plane or "")
            step = -1 if v == "dive" else 1
            to = p.altitude + step if p is not None else None
            altitude = tr(altitude_word(to), language) if to is not None and 0 <= to <= 3 else "?"
            return say(v, altitude=altitude, **fields)
        return say(v, **fields)

    # --- an aircraft ----------------------------------------------------------------
    def where(self, state: GameState, p: Plane, language: str) -> str:
        """``Medium, tailing Albatros D.V (G2) at level 3; tailed by …`` or
        ``Low, Unengaged``."""
        parts = [tr(altitude_word(p.altitude), language)]
        if p.on_ground:
            parts.append(t("eagles.ui.hand.on_ground", language))
        tailers = [q for q in state.planes if q.flying and q.tailing == p.ref]
        if p.tailing is not None:
            parts.append(
                t(
                    "eagles.ui.hand.tailing",
                    language,
                    target=self.plane(state, p.tailing),
                    level=p.level,
                )
            )
        if tailers:
            parts.append(
                t(
                    "eagles.ui.hand.tailed",
                    language,
                    planes=", ".join(f"{self.engine.name(q)} ({q.level})" for q in tailers),
                )
            )
        if p.tailing is None and not tailers and not p.on_ground:
            parts.append(t("eagles.ui.hand.unengaged", language))
        if p.climb:
            parts.append(t("eagles.ui.hand.climb", language, n=p.climb))
        return ", ".join(parts)
