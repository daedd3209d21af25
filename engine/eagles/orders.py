"""Standing orders: private instructions a player leaves for while they are away.

An order never decides anything the rules do not allow: it only *chooses* among the
legal actions, like a player would. Orders act only on decisions taken in answer to
the other side (``Timing.RESPONSE``: a Response to a Targeted Activation, following
an altitude change), never on the side's own activations or discards.

=====================  =============================================================
order                  meaning
=====================  =============================================================
``pass-responses``     until the next turn, answer every Targeted Activation with no
                       Response card (§8.42), and never follow an altitude change
``always-follow``      follow every altitude change I may follow (§11.51)
``auto-pass``          pass at once when my side holds no Response card that answers
=====================  =============================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING

from engine.core.contract import Timing
from engine.eagles.actions import Action
from engine.eagles.state import GameState
from strings import Term

if TYPE_CHECKING:
    from engine.eagles.game import EaglesEngine

__all__ = ["Order", "expired", "order_action"]


class Order(StrEnum):
    PASS_RESPONSES = "pass-responses"
    ALWAYS_FOLLOW = "always-follow"
    AUTO_PASS = "auto-pass"

    @property
    def label(self) -> Term:
        """What the order does, in words (its value is what players type)."""
        return Term(f"eagles.ui.order.{self.name.lower()}")


_VALUES = frozenset(o.value for o in Order)


def order_action(
    engine: EaglesEngine, state: GameState, seat: str, orders: Iterable[str]
) -> Action | None:
    """The move ``seat``'s standing orders make now, or None (the player decides)."""
    active = {Order(o) for o in orders if o in _VALUES and not expired(o, state, seat)}
    if not active:
        return None
    mine = [d for d in engine.pending(state) if d.seat == seat]
    if not mine or mine[0].timing is not Timing.RESPONSE:
        return None
    legal = engine.legal_actions(state, seat)
    texts = {str(a): a for a in legal}
    if mine[0].kind == "follow":
        if Order.ALWAYS_FOLLOW in active and "follow" in texts:
            return texts["follow"]
        if Order.PASS_RESPONSES in active and "stay" in texts:
            return texts["stay"]
        return None
    passing = texts.get("pass")
    if Order.PASS_RESPONSES in active:
        return passing
    answers = [a for a in legal if a.verb == "respond"]
    if Order.AUTO_PASS in active and not answers:
        return passing
    return None


def expired(order: str, state: GameState, seat: str) -> bool:
    """Every order ends with the game; ``pass-responses`` also once the turn it was
    given in is over (it is kept with the turn: ``pass-responses`` stays until the
    Card Draw Phase that follows)."""
    if state.phase == "over":
        return True
    if order == Order.PASS_RESPONSES:
        return state.phase == "discard"
    return False
