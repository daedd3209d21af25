"""Computer players: pick a legal action for a seat.

The random player is what the property tests, the benches and the demo use. Its
choices come from its own seeded ``random.Random`` (a player's decisions are inputs
recorded in the action log, not game randomness), so a game with computer players
still replays exactly from its log.
"""

from __future__ import annotations

import random

from engine.lockedon.actions import Action
from engine.lockedon.game import LockedOnEngine
from engine.lockedon.state import GameState

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Uniformly random among the legal actions (``steer=False``, the default).

    ``steer=True`` keeps the play random but eventful, for tests and benches that want
    fights rather than card shuffling: attacks and reactions are likelier than
    Maneuvering for Range (a card offers many range splits), discards are smaller.
    """

    def __init__(self, seed: int, *, steer: bool = False) -> None:
        self.rng = random.Random(seed)
        self.steer = steer

    def choose(self, engine: LockedOnEngine, state: GameState, seat: str) -> Action:
        actions = engine.legal_actions(state, seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        if not self.steer:
            return self.rng.choice(actions)
        weights = [self._weight(a) for a in actions]
        return self.rng.choices(actions, weights)[0]

    @staticmethod
    def _weight(a: Action) -> float:
        if a.verb == "play":
            if a.mode == "range":
                return 0.3
            if a.mode == "pos":
                return 2.0
            return 8.0
        if a.verb in ("react", "launch", "follow", "batturn", "alert"):
            return 6.0
        if a.verb == "speed":
            return 2.0
        if a.verb in ("discard", "trim", "timely"):
            return 4.0 / (1 + len(a.cards) ** 2) if a.verb != "timely" else 0.2
        if a.verb in ("end", "pass", "nofollow", "nolaunch"):
            return 1.5
        if a.verb in ("climb", "dive"):
            return 0.5
        return 1.0
