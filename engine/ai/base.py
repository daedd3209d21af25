"""The computer player's interface: it sees its seat's view and legal actions only.

A :class:`Policy` decides from a :class:`Situation`: the seat, its view (the system's
``view(state, seat)``), its legal actions, and a sampler of full states consistent
with that view (the system's :class:`~engine.core.contract.Sampling`, for the search).
It never receives the state. :class:`SeatPlayer` is the adapter that satisfies the
contract's :class:`~engine.core.contract.ComputerPlayer` (``choose(state, seat)``):
it computes the view and the legal actions itself and hands the policy only those.

Every level draws from its own seeded ``random.Random`` (a player's decisions are
inputs recorded in the action log, not the game's randomness), so a game with
computer players replays exactly from its log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core.contract import GameSystem, Sampling

__all__ = [
    "Policy",
    "RandomPolicy",
    "Sampler",
    "ScoredPolicy",
    "SeatPlayer",
    "Situation",
    "signed_position",
]

Sampler = Callable[[random.Random], Any]
"""Draws one full state consistent with the seat's view, from the given generator."""


@dataclass(frozen=True, slots=True)
class Situation:
    """Everything a computer player may know when it decides."""

    seat: str
    view: Any
    """The system's view for ``seat``."""
    legal: Sequence[Any]
    """The seat's legal actions, in the system's order (never empty)."""
    sample: Sampler | None
    """Full states ``seat`` cannot tell from the real one; None when the system has no
    sampler (:class:`~engine.core.contract.Sampling`) or the policy asked for none."""


class Policy(Protocol):
    """One level of computer play."""

    wants_sampler: bool
    """The policy reads ``Situation.sample`` (the search)."""

    def decide(self, situation: Situation) -> Any:
        """One of ``situation.legal``."""
        ...


class RandomPolicy:
    """The ``random`` level: uniform among the legal actions."""

    wants_sampler = False

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, situation: Situation) -> Any:
        return self.rng.choice(list(situation.legal))


Score = Callable[[Any, Any], float]
"""A system's heuristic: how good one legal action looks from a view (higher: better)."""


class ScoredPolicy:
    """The ``heuristic`` level: the legal action the system's :data:`Score` rates
    highest, ties broken at random (a policy that never varies is easy to read)."""

    wants_sampler = False

    def __init__(self, score: Score, seed: int) -> None:
        self.score, self.rng = score, random.Random(seed)

    def decide(self, situation: Situation) -> Any:
        return best(self.score, situation.view, situation.legal, self.rng)


def best(score: Score, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    """The action of ``legal`` that ``score`` rates highest, ties broken by ``rng``."""
    if len(legal) == 1:
        return legal[0]
    return top_rated([(score(view, a), a) for a in legal], rng)


def top_rated(rated: Sequence[tuple[float, Any]], rng: random.Random) -> Any:
    """The action rated highest among ``(rating, action)`` pairs, ties broken by ``rng``."""
    top = max(r for r, _ in rated)
    return rng.choice([a for r, a in rated if r == top])


def signed_position(engagements: Iterable[tuple[str, str, int]], me: str, on: str) -> int:
    """``me``'s position on ``on`` from ``(holder, on, position)`` rows (2 Tailing, 1
    Advantaged, 0 Neutral; negative: ``on`` holds that position on ``me``)."""
    for holder, target, value in engagements:
        if holder == me and target == on:
            return value
        if holder == on and target == me:
            return -value
    return 0


class SeatPlayer:
    """A :class:`Policy` as the contract's ``ComputerPlayer``: ``choose(state, seat)``
    hands the policy the seat's view, legal actions and (if it asks) sampler only."""

    def __init__(self, system: GameSystem[Any, Any, Any], policy: Policy) -> None:
        self.system, self.policy = system, policy

    def choose(self, state: Any, seat: str) -> Any:
        legal = self.system.legal_actions(state, seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        return self.policy.decide(
            Situation(seat, self.system.view(state, seat), legal, self.sampler(state, seat))
        )

    def sampler(self, state: Any, seat: str) -> Sampler | None:
        """The system's sampler bound to this state and seat, if the policy wants one."""
        system = self.system
        if not self.policy.wants_sampler or not isinstance(system, Sampling):
            return None
        return lambda rng: system.sample_state(state, seat, rng)
