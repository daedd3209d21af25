"""The ``search`` level: information-set Monte Carlo search over the heuristic's choices.

The deciding seat does not know the other hands, the deck's order or the dice to come:
the states it cannot tell apart form its information set. Each round draws one of them
(``Situation.sample``, the system's :class:`~engine.core.contract.Sampling`) and a
playout seed, and tries every candidate action in that same state: the action, then
every seat played by the system's heuristic, each from its own view, for ``depth``
decisions, scored by :func:`evaluate`. The candidate with the best total is played.

This is the root of an information-set tree searched flat (determinized Monte Carlo
over one information set, Cowling, Powley & Whitehouse, "Information Set Monte Carlo
Tree Search", IEEE TCIAIG 2012, section IV; one-step rollout policy improvement,
Tesauro & Galperin, NIPS 1996), with two choices that make a small budget count:

* the candidates are the heuristic's ``width`` best-rated actions, not every legal one
  (Eagles in the Sky lists a hundred);
* every candidate meets the same hidden cards and the same dice in a round (common
  random numbers): their difference measures the action, not the luck of the draw.

A full tree (SO-ISMCTS over every legal action, with UCB) was measured first: at the
budget a decision may spend, it grew a handful of nodes below the root and won about
half its games against the heuristic it plays out with (``bench/ai.py``).

The budget is ``iterations`` rounds and a time limit, whichever runs out first; a round
is complete or not counted, so every candidate has as many samples. With a time limit
the choice depends on the machine's speed (it is still logged like any move, so games
replay); with ``seconds=None`` it follows from the seed alone.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from engine.ai.base import Score, Situation, best, top_rated
from engine.core.contract import Fate, GameSystem
from engine.core.errors import RuleViolation

__all__ = ["SearchPolicy", "evaluate"]

_LOSS = {Fate.SHOT_DOWN: 1.0, Fate.LEFT: 0.5, Fate.DAMAGED: 0.3, Fate.UNHARMED: 0.0}
"""What losing an aircraft this way costs its side, in aircraft."""


def evaluate(system: GameSystem[Any, Any, Any], state: Any) -> dict[str, float]:
    """Each side's value of ``state`` in [0, 1]: 1 won, 0 lost, 0.5 drawn once over;
    while it runs, the losses (and hits) it inflicted against those it took and its
    Victory Points lead, squashed into (0, 1)."""
    o = system.outcome(state)
    sides = [sd.id for sd in system.sides(state)]
    if o.over:
        return {sd: 0.5 if o.winner is None else float(o.winner == sd) for sd in sides}
    loss = dict.fromkeys(sides, 0.0)
    for f in o.fates:
        loss[f.side] = loss.get(f.side, 0.0) + _LOSS[f.fate] + 0.15 * f.hits_taken
    out = {}
    for sd in sides:
        others = [x for x in sides if x != sd]
        margin = max((loss[x] for x in others), default=0.0) - loss[sd]
        lead = o.vp.get(sd, 0) - max((o.vp.get(x, 0) for x in others), default=0)
        out[sd] = 0.5 + 0.5 * math.tanh(margin + 0.1 * lead)
    return out


class SearchPolicy:
    """Determinized Monte Carlo search over the heuristic's ``width`` best actions,
    with heuristic playouts of ``depth`` decisions (``score``: the system's heuristic)."""

    wants_sampler = True

    def __init__(
        self,
        system: GameSystem[Any, Any, Any],
        score: Score,
        seed: int,
        *,
        iterations: int = 12,
        seconds: float | None = 0.5,
        depth: int = 30,
        width: int = 3,
    ) -> None:
        self.system, self.score, self.rng = system, score, random.Random(seed)
        self.iterations, self.seconds, self.depth, self.width = iterations, seconds, depth, width

    def decide(self, situation: Situation) -> Any:
        candidates = self.candidates(situation)
        if len(candidates) == 1 or situation.sample is None:
            return candidates[0]
        stop = None if self.seconds is None else time.perf_counter() + self.seconds
        totals = [0.0] * len(candidates)
        for i in range(self.iterations):
            if i and stop is not None and time.perf_counter() > stop:
                break
            for k, value in enumerate(self._round(situation, candidates)):
                totals[k] += value
        return candidates[max(range(len(candidates)), key=totals.__getitem__)]

    def candidates(self, situation: Situation) -> list[Any]:
        """The heuristic's ``width`` best-rated legal actions, its favourite first (ties
        broken by the seeded generator, as the heuristic level breaks them); every
        action is rated once."""
        legal = situation.legal
        if len(legal) == 1:
            return [legal[0]]
        rated = [(self.score(situation.view, a), a) for a in legal]
        favourite = top_rated(rated, self.rng)
        rest = sorted(((r, a) for r, a in rated if a != favourite), key=lambda ra: -ra[0])
        return [favourite, *(a for _, a in rest[: self.width - 1])]

    def _round(self, situation: Situation, candidates: list[Any]) -> list[float]:
        """Each candidate's value in one sampled state with one playout seed."""
        assert situation.sample is not None
        state = situation.sample(self.rng)
        side = next(sd.id for sd in self.system.sides(state) if situation.seat in sd.seats)
        seed = self.rng.getrandbits(64)
        values = []
        for action in candidates:
            after = self._apply(state, situation.seat, action)
            if after is None:
                values.append(-1.0)
                continue
            end = self._playout(after, random.Random(seed))
            values.append(evaluate(self.system, end).get(side, 0.5))
        return values

    def _playout(self, state: Any, rng: random.Random) -> Any:
        """Up to ``depth`` decisions by the heuristic, every seat from its own view."""
        system = self.system
        for _ in range(self.depth):
            pending = system.pending(state)
            if not pending or system.is_over(state):
                break
            seat = pending[0].seat
            legal = system.legal_actions(state, seat)
            after = self._apply(state, seat, best(self.score, system.view(state, seat), legal, rng))
            if after is None:
                break
            state = after
        return state

    def _apply(self, state: Any, seat: str, action: Any) -> Any | None:
        """The state after ``action``; None if the rules refuse one of their own legal
        actions (seen once in an Eagles in the Sky playout: a legality mismatch of the
        engine, which the search must survive; the candidate or the playout ends)."""
        try:
            return self.system.apply(state, seat, action)[0]
        except RuleViolation:
            return None
