"""Fixtures for the Eagles in the Sky system tests: the registered system, random play
over the lobby's kinds of engagement and the scenarios."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from engine.core import registry
from engine.core.contract import SeatPick
from engine.core.events import Event
from engine.eagles.ai import RandomPlayer
from engine.eagles.lobby import EaglesOptions, EaglesPick
from engine.eagles.setup import EaglesSetup
from engine.eagles.state import GameState
from engine.eagles.system import EaglesSystem

LOBBIES: dict[str, tuple[dict[str, object], list[tuple[str, str, tuple[str, ...]]]]] = {
    "patrol": (
        {"engagement": "patrol", "month": "1918-04"},
        [
            ("A1", "allied", ("se5a", "sopwith-camel")),
            ("G1", "german", ("fokker-dri", "albatros-dva")),
        ],
    ),
    "team": (
        {"engagement": "balloon_busting", "month": "1918-06", "flight": "cup 3"},
        [("A1", "allied", ()), ("A2", "allied", ()), ("G1", "german", ())],
    ),
    "bombing": (
        {"engagement": "bombing", "month": "1918-06", "attacker": "allied", "flight": "points 40"},
        [
            ("A1", "allied", ("spad-xiii", "sopwith-camel")),
            ("G1", "german", ("fokker-dvii", "pfalz-diii")),
        ],
    ),
    "strafing": (
        {
            "engagement": "trench_strafing",
            "month": "1917-09",
            "attacker": "german",
            "flight": "cup",
        },
        [("A1", "allied", ()), ("G1", "german", ())],
    ),
}
"""Engagements as a lobby makes them: options and ``(seat, side, aircraft)``."""


def system() -> EaglesSystem:
    found = registry.get("eagles")
    assert isinstance(found, EaglesSystem)
    return found


def lobby_setup(kind: str) -> EaglesSetup:
    options, seats = LOBBIES[kind]
    opts = EaglesOptions.model_validate(options)
    picks = [SeatPick(seat, side, EaglesPick(aircraft=ac)) for seat, side, ac in seats]
    assert system().start_problems(opts, picks) == []
    return system().setup_from_lobby(opts, picks)


def scenario(n: int) -> EaglesSetup:
    opts = EaglesOptions(scenario=n)
    seats = [("A1", "allied", EaglesPick())]
    if not system().solitaire(opts):
        seats.append(("G1", "german", EaglesPick()))
    return system().setup_from_lobby(opts, [SeatPick(a, b, c) for a, b, c in seats])


@dataclass
class Step:
    before: GameState
    seat: str
    action: str
    after: GameState
    events: list[Event]

    @property
    def text(self) -> str:
        """The action's canonical text (:class:`engine.core.present.Played`)."""
        return self.action


def random_game(setup: EaglesSetup, seed: int, limit: int = 3000) -> Iterator[Step]:
    """A game played by steered random players, move by move."""
    sys = system()
    state, _ = sys.new_game(setup, seed)
    players = {}
    rng = random.Random(seed)
    for _ in range(limit):
        if sys.is_over(state):
            return
        pending = sys.pending(state)
        d = rng.choice(pending)
        player = players.setdefault(d.seat, RandomPlayer(seed * 7 + len(players), steer=True))
        a = player.choose(sys.engine, state, d.seat)
        after, events = sys.apply(state, d.seat, a)
        yield Step(state, d.seat, str(a), after, events)
        state = after


@pytest.fixture(scope="session")
def eagles() -> EaglesSystem:
    return system()
