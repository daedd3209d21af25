"""The ``search`` level: single-observer information-set Monte Carlo tree search.

Each iteration draws a full state the deciding seat cannot tell from the real one
(``Situation.sample``, the system's :class:`~engine.core.contract.Sampling`), walks
down one tree shared by every such state (Cowling, Powley & Whitehouse, "Information
Set Monte Carlo Tree Search", IEEE TCIAIG 2012: SO-ISMCTS), choosing among the actions
legal in that state by UCB with availability counts, adds one node, then plays on with
the system's heuristic for a few decisions and scores where it got to
(:func:`evaluate`). The most visited first action is played.

The budget is an iteration count and a time limit, whichever runs out first. With a
time limit the choice depends on the machine's speed (it is still logged like any
move, so games replay); with ``seconds=None`` it follows from the seed alone.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from engine.ai.base import Score, Situation, best
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


@dataclass(slots=True)
class _Node:
    side: str = ""
    """The side of the seat whose action led here: the values kept are that side's."""
    visits: int = 0
    total: float = 0.0
    avail: int = 1
    children: dict[str, _Node] = field(default_factory=dict)

    def ucb(self, explore: float) -> float:
        return self.total / self.visits + explore * math.sqrt(math.log(self.avail) / self.visits)


class SearchPolicy:
    """SO-ISMCTS with heuristic playouts (``score``: the system's heuristic)."""

    wants_sampler = True

    def __init__(
        self,
        system: GameSystem[Any, Any, Any],
        score: Score,
        seed: int,
        *,
        iterations: int = 200,
        seconds: float | None = 0.15,
        depth: int = 10,
        explore: float = 0.5,
        prior: int = 6,
    ) -> None:
        self.system, self.score, self.rng = system, score, random.Random(seed)
        self.iterations, self.seconds, self.depth = iterations, seconds, depth
        self.explore, self.prior = explore, prior
        self.stop: float | None = None
        """When the decision under way must end (``perf_counter``), if it is timed."""

    def decide(self, situation: Situation) -> Any:
        legal = list(situation.legal)
        if len(legal) == 1 or situation.sample is None:
            return best(self.score, situation.view, legal, self.rng)
        self.stop = None if self.seconds is None else time.perf_counter() + self.seconds
        state = situation.sample(self.rng)
        sides = {s: sd.id for sd in self.system.sides(state) for s in sd.seats}
        root = self._root(situation, sides.get(situation.seat, ""))
        for i in range(self.iterations):
            if i:
                if self.out_of_time():
                    break
                state = situation.sample(self.rng)
            self._iterate(root, state, situation.seat, legal, sides)
        first = {f"{situation.seat} {a}": a for a in legal}
        return first[max(first, key=lambda k: root.children[k].visits)]

    def out_of_time(self) -> bool:
        """The time budget is spent (checked between iterations and within a playout,
        whose decisions can be slow: Eagles in the Sky lists a hundred actions)."""
        return self.stop is not None and time.perf_counter() > self.stop

    def _root(self, situation: Situation, side: str) -> _Node:
        """The root with every legal action, the heuristic's choice ahead by ``prior``
        virtual visits at a winning value (prior knowledge, Gelly & Silver 2007): the
        search plays the heuristic unless its samples find better."""
        favourite = best(self.score, situation.view, situation.legal, self.rng)
        root = _Node()
        for a in situation.legal:
            n = self.prior if a == favourite else 1
            value = 0.6 if a == favourite else 0.5
            root.children[f"{situation.seat} {a}"] = _Node(side, visits=n, total=n * value)
        return root

    def _iterate(
        self, root: _Node, state: Any, seat: str, legal: list[Any], sides: dict[str, str]
    ) -> None:
        """One sample: selection and expansion down the tree, a playout, the update."""
        system, node, path = self.system, root, [root]
        while not system.is_over(state) and system.pending(state):
            mover = seat if node is root else system.pending(state)[0].seat
            acts = legal if node is root else system.legal_actions(state, mover)
            keyed = {f"{mover} {a}": a for a in acts}
            for key in keyed.keys() & node.children.keys():
                node.children[key].avail += 1
            untried = [k for k in keyed if k not in node.children]
            if untried:
                key = self.rng.choice(untried)
                node.children[key] = _Node(sides.get(mover, ""))
            else:
                key = max(keyed, key=lambda k: node.children[k].ucb(self.explore))
            node = node.children[key]
            path.append(node)
            after = self._apply(state, mover, keyed[key])
            if after is None:
                break
            state = after
            if untried:
                break
        values = evaluate(system, self._playout(state))
        for n in path[1:]:
            n.visits += 1
            n.total += values.get(n.side, 0.5)

    def _playout(self, state: Any) -> Any:
        """Up to ``depth`` decisions by the heuristic, every seat from its own view."""
        system = self.system
        for _ in range(self.depth):
            pending = system.pending(state)
            if system.is_over(state) or not pending or self.out_of_time():
                break
            seat = pending[0].seat
            legal = system.legal_actions(state, seat)
            after = self._apply(
                state, seat, best(self.score, system.view(state, seat), legal, self.rng)
            )
            if after is None:
                break
            state = after
        return state

    def _apply(self, state: Any, seat: str, action: Any) -> Any | None:
        """The state after ``action``; None if the rules refuse one of their own legal
        actions (seen once in an Eagles in the Sky playout: a legality mismatch of the
        engine, which the search must survive; the playout ends there)."""
        try:
            return self.system.apply(state, seat, action)[0]
        except RuleViolation:
            return None
