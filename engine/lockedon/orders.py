"""Standing orders: private instructions a player leaves for while they are away.

An order never decides anything the rules do not allow: it only *chooses* among
:meth:`~engine.lockedon.legality.Legality.legal_actions`, like a player would. The bot
stores a seat's orders (visible to their owner only), asks :func:`order_action` whenever
that seat must decide, and applies the answer like any other move; :func:`expired` says
when an order with a time limit ends.

Orders act only on decisions taken in answer to someone else (``Timing.RESPONSE``:
a reaction, a Teamwork reaction, following an altitude change, Bat-Turn), and never
during the seat's own turn (its own counter-reactions, its missile's cards are its
turn's play), except a campaign mission's SAM/AAA site attacking it at the start of
its Play Cards step (L296-298): ``defend`` answers that as a missile (a SAM's Tone) or
a gun attack (AAA), ``auto-pass`` passes when nothing can react; ``pass-responses``
has ended by then. They never spend Timely.

=====================  =============================================================
order                  meaning
=====================  =============================================================
``pass-responses``     until my next turn, pass every reaction, Teamwork call and
                       Bat-Turn, and follow an altitude change only when it is free
                       (Tailing, diving: L230-231)
``defend``             answer every gun attack and missile on my aircraft (a site's
                       attack too) with the cheapest card that can (a
                       Countermeasures counter first against a missile or a
                       SAM), or pass if none can; leave the rest to me
``save-ace``           never spend an Ace Pilot (the card, or a card or counter played
                       as one with Agile, Jink or Lucky) on a reaction: a constraint
                       on the other orders
``auto-pass``          pass at once when I hold no reaction (my only answer is to pass
                       or not to follow)
=====================  =============================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING

from engine.core.contract import Timing
from engine.lockedon.actions import COUNTER, Action
from engine.lockedon.state import GameState
from strings import Term

if TYPE_CHECKING:
    from engine.lockedon.game import LockedOnEngine

__all__ = ["CARD_COST", "Order", "expired", "order_action", "spends_ace"]


class Order(StrEnum):
    PASS_RESPONSES = "pass-responses"
    DEFEND = "defend"
    SAVE_ACE = "save-ace"
    AUTO_PASS = "auto-pass"

    @property
    def label(self) -> Term:
        """What the order does, in words (its value is what players type)."""
        return Term(f"lockedon.ui.order.{self.name.lower()}")


CARD_COST = {
    "BR": 1,
    "TT": 2,
    "SCI": 2,
    "BRK": 3,
    "YOYO": 3,
    "RED": 4,
    "SPS": 4,
    "VR": 5,
    "TONE": 6,
    "TG": 6,
    "GUN": 6,
    "GUNG": 7,
    "TONES": 7,
    "GUNGR": 8,
    "ACE": 10,
}
"""How much a card is worth keeping, cheapest first (an Ace Pilot answers anything;
the plentiful Barrel Roll least)."""
_VALUES = frozenset(o.value for o in Order)
_START_STEPS = frozenset({"afterburner", "predraw"})
"""The steps a turn begins with (Sequence of Play, L95)."""


def spends_ace(a: Action) -> bool:
    """The action spends an Ace Pilot: the card, or any card or counter played as one."""
    return a.verb == "react" and (a.ace or a.card == "ACE")


def _cost(a: Action) -> tuple[float, str]:
    if a.verb == "react" and a.card == COUNTER:
        return (11.0 if a.ace else 0.5, str(a))
    if a.ace:
        return (12.0, str(a))
    base = float(CARD_COST.get(a.card or "", 5))
    return (base + (0.25 if a.side else 0.0), str(a))


def order_action(
    engine: LockedOnEngine, state: GameState, seat: str, orders: Iterable[str]
) -> Action | None:
    """The move ``seat``'s standing orders make now, or None (the player decides)."""
    active = {Order(o) for o in orders if o in _VALUES and not expired(o, state, seat)}
    if not active:
        return None
    mine = [d for d in engine.pending(state) if d.seat == seat]
    if not mine or mine[0].timing is not Timing.RESPONSE:
        return None
    kind = mine[0].kind
    if state.active == seat and kind != "site":
        return None
    legal = [a for a in engine.legal_actions(state, seat) if a.verb != "timely"]
    if Order.SAVE_ACE in active:
        legal = [a for a in legal if not spends_ace(a)]
    passing = next((a for a in legal if a.verb in ("pass", "nofollow")), None)
    free_follow = next((a for a in legal if a.verb == "follow" and not a.cards), None)
    if Order.PASS_RESPONSES in active and kind != "site":
        return free_follow or passing
    answers = [a for a in legal if a.verb in ("react", "follow", "batturn", "alert")]
    if Order.AUTO_PASS in active and not answers:
        return passing
    x = state.exchange
    attacked = kind == "site" or (
        kind == "react" and x is not None and x.kind in ("guns", "missile") and x.target == seat
    )
    if Order.DEFEND in active and attacked:
        cards = [a for a in legal if a.verb == "react"]
        return min(cards, key=_cost) if cards else passing
    return None


def expired(order: str, state: GameState, seat: str) -> bool:
    """Whether a time-limited order has run out: ``pass-responses`` ends when the
    seat's next turn begins (its Afterburners or Pre-Turn step) or the seat is shot
    down; every order ends with the game."""
    if state.step == "over":
        return True
    p = state.planes.get(seat)
    if p is None or not p.flying:
        return True
    if order == Order.PASS_RESPONSES:
        return state.active == seat and state.step in _START_STEPS and state.exchange is None
    return False
