"""Computer players for every system on the contract, at three levels.

A system's ``computer_player(seed, level)`` (what the bot and the demo ask for) is
:func:`seat_player`; the benches name the system: :func:`player`. Either is a
:class:`~engine.core.contract.ComputerPlayer` (``choose(state, seat)``) that hands its
level only the seat's view, its legal actions and (for ``search``) a sampler of states
consistent with that view (:mod:`engine.ai.base`).

* ``random``: uniform among the legal actions;
* ``heuristic``: the system's short policy from its rules' tactics
  (:mod:`engine.ai.dif`, :mod:`engine.ai.lockedon`, :mod:`engine.ai.eagles`);
* ``search``: information-set Monte Carlo search over the heuristic's best actions,
  with the heuristic for playouts (:mod:`engine.ai.search`), on systems with a
  sampler (:class:`~engine.core.contract.Sampling`).

Adding a system is one line in :data:`HEURISTICS`.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.ai.base import Policy, RandomPolicy, Score, ScoredPolicy, SeatPlayer
from engine.ai.search import SearchPolicy
from engine.core import registry
from engine.core.contract import COMPUTER_LEVELS, DEFAULT_COMPUTER_LEVEL, GameSystem

__all__ = [
    "DEFAULT_LEVEL",
    "HEURISTICS",
    "LEVELS",
    "SeatPlayer",
    "UnknownLevel",
    "player",
    "policy",
    "seat_player",
]

LEVELS = COMPUTER_LEVELS
DEFAULT_LEVEL = DEFAULT_COMPUTER_LEVEL

HEURISTICS = {
    "dif": "engine.ai.dif",
    "lockedon": "engine.ai.lockedon",
    "eagles": "engine.ai.eagles",
}
"""Each system's module with its heuristic ``score(view, action)``."""


class UnknownLevel(ValueError):
    """No computer level has this name."""


def heuristic(system_id: str) -> Score:
    """The system's heuristic: ``score(view, action)``."""
    score: Score = importlib.import_module(HEURISTICS[system_id]).score
    return score


def search_budget(system_id: str) -> dict[str, Any]:
    """The search's default budget for the system: its heuristic module's
    ``SEARCH_BUDGET`` (a system whose decisions cost more plays out fewer), if any."""
    budget: dict[str, Any] = getattr(
        importlib.import_module(HEURISTICS[system_id]), "SEARCH_BUDGET", {}
    )
    return dict(budget)


def policy(system: GameSystem[Any, Any, Any], level: str, seed: int, **budget: Any) -> Policy:
    """The level's policy for the system; ``budget`` sets the search's
    (``iterations``, ``seconds``, ``depth``, ``width``)."""
    if level == "random":
        return RandomPolicy(seed)
    if level == "heuristic":
        return ScoredPolicy(heuristic(system.id), seed)
    if level == "search":
        return SearchPolicy(
            system, heuristic(system.id), seed, **{**search_budget(system.id), **budget}
        )
    raise UnknownLevel(level)


def seat_player(
    system: GameSystem[Any, Any, Any], level: str, seed: int, **budget: Any
) -> SeatPlayer:
    """A computer player of ``system`` at this level, its choices following from
    ``seed``. Raises :class:`UnknownLevel`."""
    return SeatPlayer(system, policy(system, level, seed, **budget))


def player(system_id: str, level: str, seed: int, **budget: Any) -> SeatPlayer:
    """:func:`seat_player` of the registered system. Raises :class:`UnknownLevel` or
    :class:`engine.core.registry.UnknownSystem`."""
    return seat_player(registry.get(system_id), level, seed, **budget)
