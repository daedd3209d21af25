"""Computer players: pick a legal action for a seat.

The random player is what the property tests, the demo and a seat handed to the
computer use. Its choices come from its own seeded ``random.Random`` (a player's
decisions are inputs recorded in the action log, not the game's randomness), so a game
with computer players still replays exactly from its log.
"""

from __future__ import annotations

import random

from engine.eagles.actions import Action
from engine.eagles.game import EaglesEngine
from engine.eagles.state import GameState

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Uniformly random among the legal actions (``steer=False``, the default).

    ``steer=True`` keeps the play random but eventful: attacks and responses are likelier
    than passing or idling, firing likelier than holding fire, and discards stay small
    (a hand offers hundreds of discard sets)."""

    def __init__(self, seed: int, *, steer: bool = False) -> None:
        self.rng = random.Random(seed)
        self.steer = steer

    def choose(self, engine: EaglesEngine, state: GameState, seat: str) -> Action:
        actions = engine.legal_actions(state, seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        if not self.steer:
            return self.rng.choice(actions)
        weights = [self._weight(a) for a in actions]
        return self.rng.choices(actions, weights)[0]

    @staticmethod
    def _weight(a: Action) -> float:
        held = 0.3 if a.has("hold") or a.has("giveup") else 1.0
        if a.verb in ("tail", "headon", "balloon", "strafe", "bomb"):
            return 6.0 * held / (3.0 if a.verb == "balloon" else 1.0)
        if a.verb == "respond":
            return 5.0 * held
        if a.verb in ("escape", "leaf"):
            return 0.6
        if a.verb == "discard":
            return 3.0 / (1 + len(a.cards) ** 2)
        if a.verb in ("pass", "allow"):
            return 1.5 * held
        if a.verb == "end":
            return 0.5
        if a.verb in ("dive", "climb", "idle"):
            return 0.5
        return 1.0
