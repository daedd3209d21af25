"""Standing orders: private instructions a player leaves for while they are away.

An order never decides anything the rules do not allow: it only *chooses* among
:meth:`DifEngine.legal_actions`, like a player would. The bot stores a seat's orders
(visible to their owner only), asks :func:`order_action` whenever that seat must
decide, and applies the answer like any other move; :func:`expired` says when an
order with a time limit ends.

=====================  =============================================================
order                  meaning
=====================  =============================================================
``pass-responses``     pass every response until my next player-turn
``cheapest-response``  answer any attack on my leader with the cheapest legal
                       response (none: pass)
``save-ace``           never spend an Ace Pilot (the card or my pilot's ace ability)
                       against a wingman's attack; a constraint on the other orders
``auto-pass``          pass at once when I hold no legal response (DESIGN's
                       auto-pass: the quick pass tells the others I had none)
=====================  =============================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING

from engine.dif.actions import COUNTER, Action
from engine.dif.components import CardKind
from engine.dif.state import GameState
from engine.dif.texts import fixed
from strings import Term

if TYPE_CHECKING:
    from engine.dif.game import DifEngine

__all__ = ["Order", "expired", "order_action"]


class Order(StrEnum):
    PASS_RESPONSES = "pass-responses"
    CHEAPEST_RESPONSE = "cheapest-response"
    SAVE_ACE = "save-ace"
    AUTO_PASS = "auto-pass"

    @property
    def label(self) -> Term:
        """What the order does, in words (its value is what players type)."""
        return fixed(_LABELS[self])


_LABELS = {
    Order.PASS_RESPONSES: "dif.order.pass_responses",
    Order.CHEAPEST_RESPONSE: "dif.order.cheapest_response",
    Order.SAVE_ACE: "dif.order.save_ace",
    Order.AUTO_PASS: "dif.order.auto_pass",
}


# Cheapest first: how much a card is worth keeping (an Ace Pilot answers anything).
_COST = {
    CardKind.TIT: 1,
    CardKind.BAR: 1,
    CardKind.SCI: 2,
    CardKind.VER: 3,
    CardKind.FUT: 3,
    CardKind.MAN: 4,
    CardKind.HAL: 4,
    CardKind.IMS: 5,
    CardKind.OOS: 5,
    CardKind.ACE: 9,
}


def _cost(engine: DifEngine, a: Action) -> tuple[int, str]:
    if a.as_kind is not None:  # declaring a card as another spends an ability too
        return (10 if a.as_kind == "ACE" else 6, str(a))
    if a.card == COUNTER:
        return (3, str(a))
    kind = CardKind((a.card or "").split("-")[0])
    return (_COST.get(kind, 5), str(a))


def _spends_ace(a: Action) -> bool:
    return a.as_kind == "ACE" or (a.card or "").startswith("ACE")


def order_action(
    engine: DifEngine, state: GameState, seat: str, orders: Iterable[Order]
) -> Action | None:
    """The move ``seat``'s standing orders make now, or None (the player decides)."""
    active = set(orders)
    pending = [p for p in engine.pending(state) if p.seat == seat]
    if not pending or pending[0].kind != "respond" or state.exchange is None:
        return None
    x = state.exchange
    legal = engine.legal_actions(state, seat)
    if Order.SAVE_ACE in active and x.source == "minihand":
        legal = [a for a in legal if not _spends_ace(a)]
    passing = next((a for a in legal if a.verb == "pass"), None)
    if Order.PASS_RESPONSES in active:
        return passing
    if Order.AUTO_PASS in active and [a.verb for a in legal] == ["pass"]:
        return passing
    defending_leader = x.defender_to_move and x.target == f"{seat}L"
    if Order.CHEAPEST_RESPONSE in active and defending_leader:
        answers = [a for a in legal if a.verb == "respond"]
        return min(answers, key=lambda a: _cost(engine, a)) if answers else passing
    return None


def expired(order: Order, engine: DifEngine, state: GameState, seat: str) -> bool:
    """Whether a time-limited order has run out: ``pass-responses`` ends when the
    seat's own player-turn begins (or the game ends)."""
    if state.step == "over":
        return True
    if order is Order.PASS_RESPONSES:
        return state.active == seat and state.exchange is None
    return False
