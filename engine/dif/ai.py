"""Computer players: pick a legal action for a seat.

The random player is what the offline demo and the property tests use. Its choices
come from its own ``random.Random`` (a player's decisions are inputs recorded in the
action log, not game randomness), so a game with computer players still replays
exactly from its log.
"""

from __future__ import annotations

import random

from engine.dif.actions import Action
from engine.dif.game import DifEngine
from engine.dif.state import GameState

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Uniformly random among legal actions, lightly steered so games get played.

    Without steering, ``done`` and ``pass`` end most turns at once and a random
    discard step throws hands away; the weights keep the play random but eventful.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, engine: DifEngine, state: GameState, seat: str) -> Action:
        actions = engine.legal_actions(state, seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        weights = [self._weight(a) for a in actions]
        return self.rng.choices(actions, weights)[0]

    @staticmethod
    def _weight(a: Action) -> float:
        if a.verb == "play":
            if a.arg is not None:  # a Vertical Roll away
                return 0.5
            return 8.0 if (a.target or "").endswith("L") else 3.0
        if a.verb == "respond":
            return 3.0
        if a.verb in ("climb", "dive"):
            return 0.15
        if a.verb == "alt":
            return 6.0 if a.arg == "M" else 1.0
        if a.verb == "wm":
            return 4.0
        if a.verb == "stay":
            return 3.0
        if a.verb in ("done", "pass", "skip", "nofollow"):
            return 1.5
        if a.verb == "evade":
            return 0.05
        if a.verb in ("jettison", "abandon"):
            return 0.1  # a mission: keep the bombs and fly Over the Target, mostly
        if a.verb in ("bomb", "strafe"):
            return 6.0
        if a.verb == "discard":
            return 4.0 / (1 + len(a.cards) ** 2)
        return 1.0
