"""Computer players: pick a legal action for a seat.

The random player is what the offline demo and the property tests use. Its choices
come from its own ``random.Random`` (a player's decisions are inputs recorded in the
action log, not game randomness), so a game with computer players still replays
exactly from its log.
"""

from __future__ import annotations

import random
from bisect import bisect
from itertools import accumulate

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
        # What ``self.rng.choices(actions, weights)[0]`` picks, without its checks
        # (positive finite weights) and its keyword handling: the same draw of the
        # same generator, a bisection of the cumulated weights (issue 16).
        cum = list(accumulate(map(_weight, actions)))
        return actions[bisect(cum, self.rng.random() * cum[-1], 0, len(actions) - 1)]


def _weight(a: Action) -> float:
    """How much more likely than an action of weight 1 the random player is to pick
    ``a`` (:class:`RandomPlayer`'s steering)."""
    verb = a.verb
    if verb == "play":
        if a.arg is not None:  # a Vertical Roll away
            return 0.5
        return 8.0 if (a.target or "").endswith("L") else 3.0
    if verb == "discard":  # the most numerous choices: a weight by the number of cards
        n = len(a.cards)
        return _DISCARD_WEIGHTS[n] if n < len(_DISCARD_WEIGHTS) else 4.0 / (1 + n**2)
    if verb == "alt":
        return 6.0 if a.arg == "M" else 1.0
    return _WEIGHTS.get(verb, 1.0)


_DISCARD_WEIGHTS = tuple(4.0 / (1 + n**2) for n in range(16))
"""The weight of discarding ``n`` cards, by ``n``: a Discard step offers up to 128
choices, each weighed (issue 16)."""


_WEIGHTS = {
    "respond": 3.0,
    "climb": 0.15,
    "dive": 0.15,
    "wm": 4.0,
    "stay": 3.0,
    "done": 1.5,
    "pass": 1.5,
    "skip": 1.5,
    "nofollow": 1.5,
    "evade": 0.05,
    "jettison": 0.1,  # a mission: keep the bombs and fly Over the Target, mostly
    "abandon": 0.1,
    "bomb": 6.0,
    "strafe": 6.0,
}
"""The random player's weight of each verb whose weight does not depend on the rest
of the move (1.0 for any other)."""
