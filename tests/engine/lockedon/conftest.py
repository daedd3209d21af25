"""Fixtures for the Locked-On engine tests: the shipped engine, game builders, random play."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from engine.core.events import Event
from engine.lockedon.actions import Action
from engine.lockedon.ai import RandomPlayer
from engine.lockedon.game import LockedOnEngine, default_engine
from engine.lockedon.setup import LockedOnSetup
from engine.lockedon.state import GameState


@pytest.fixture(scope="session")
def lo() -> LockedOnEngine:
    return default_engine()


Game = Callable[..., GameState]


def seats_of(*specs: str, **picks: dict[str, Any]) -> list[dict[str, Any]]:
    """``seats_of("A1 A f-15a", "B1 B mig-29", A1={"skills": ["cocky"]})``."""
    out = []
    for spec in specs:
        seat, side, aircraft = spec.split()
        out.append({"seat": seat, "side": side, "aircraft": aircraft, **picks.get(seat, {})})
    return out


@pytest.fixture
def game(lo: LockedOnEngine) -> Game:
    """``game(seats=..., **setup)``: a started game. By default an F-15A (A1) against a
    MiG-29 (B1), both at Medium, side A first: the game waits on A1's Afterburners."""

    def make(seed: int = 0, seats: list[dict[str, Any]] | None = None, **setup: Any) -> GameState:
        data: dict[str, Any] = {
            "seats": seats or seats_of("A1 A f-15a", "B1 B mig-29"),
            "first_side": "A",
        }
        data["altitudes"] = {s["seat"]: "M" for s in data["seats"]}
        data.update(setup)
        state, _ = lo.new_game(LockedOnSetup.model_validate(data), seed)
        return state

    return make


Act = Callable[..., GameState]


@pytest.fixture
def act(lo: LockedOnEngine) -> Act:
    """``act(state, "A1", "stay", "end", ...)``: the state after these legal actions of
    that seat (each ``seat:text`` word overrides the seat for one action)."""

    def step(state: GameState, seat: str, *texts: str) -> GameState:
        for text in texts:
            who, _, what = (
                text.partition(":") if ":" in text and text[0].isupper() else ("", "", text)
            )
            state, _ = lo.apply(state, who or seat, Action.from_text(what))
        return state

    return step


@dataclass
class Step:
    before: GameState
    seat: str
    action: Action
    after: GameState
    events: list[Event]


KINDS = ("1v1", "2v2", "ffa3", "2v1", "mission")

MISSION_SITES = ("sa-7", "sa-6", "sa-9", "zsu-23-4", "s-60")
"""Sites of random missions: low and close envelopes, so they often attack."""


def random_setup(lo: LockedOnEngine, rng: random.Random, kind: str) -> LockedOnSetup:
    """Random aircraft and skills (any that need no rating choice) for a 1v1, a 2v2,
    a 3-player free-for-all, a 2v1 with Teamwork, or a campaign mission (one or two
    aircraft against one, SAM/AAA sites, campaign-only skills too); altitudes picked
    in play or fixed."""
    mission = kind == "mission"
    if mission:
        kind = rng.choice(["1v1", "2v1"])
    layout = {
        "1v1": ["A1 A", "B1 B"],
        "2v2": ["A1 A", "A2 A", "B1 B", "B2 B"],
        "ffa3": ["A1 A", "B1 B", "C1 C"],
        "2v1": ["A1 A", "A2 A", "B1 B"],
    }[kind]
    skills = sorted(
        s.id
        for s in lo.skills.values()
        if (mission or not s.campaign_only) and s.ratings is None and s.kind.value != "no_teamwork"
    )
    aircraft = sorted(lo.aircraft)
    seats = []
    for spec in layout:
        seat, side = spec.split()
        ac = lo.aircraft[rng.choice(aircraft)]
        picked = rng.sample(skills, rng.choice([0, 0, 1, 2, 3]))
        if mission and rng.random() < 0.5:
            extra = rng.choice(["angle-90", "angle-0", "nfod"])
            picked = [x for x in picked if x != extra] + [extra]
        if ac.gun is None and "fighter-pilot" in picked:
            picked.remove("fighter-pilot")
        seats.append({"seat": seat, "side": side, "aircraft": ac.id, "skills": picked})
    data: dict[str, Any] = {
        "options": {
            "free_for_all": kind == "ffa3",
            "sides": 3 if kind == "ffa3" else 2,
            "team_games": kind in ("2v1", "2v2"),
            "teamwork": kind in ("2v1", "2v2"),
            "second_deck": rng.random() < 0.15,
            "rounds": 6,
        },
        "seats": seats,
    }
    if mission:
        data["mission"] = {
            "number": rng.randint(1, 6),
            "title": "Random",
            "vp": {"A": rng.randint(0, 90), "B": rng.randint(0, 90)},
            "sites": {
                side: rng.sample(MISSION_SITES, rng.choice([0, 1, 1, 2])) for side in ("A", "B")
            },
        }
    if rng.random() < 0.6:  # a shared altitude and close ranges: more combat
        alt = rng.choice("LMH") if not mission else rng.choice("LLMMH")
        data["altitudes"] = {s["seat"]: alt for s in seats}
        if rng.random() < 0.5:
            data["ranges"] = {s["seat"]: rng.choice(["G", "HS", "RH"]) for s in seats}
    return LockedOnSetup.model_validate(data)


def random_game(
    lo: LockedOnEngine, seed: int, kind: str | None = None, *, steer: bool | None = None
) -> Iterator[Step]:
    """Every step of one game played to the end by random players."""
    rng = random.Random(seed)
    setup = random_setup(lo, rng, kind or KINDS[seed % len(KINDS)])
    state, _ = lo.new_game(setup, seed)
    steer = seed % 3 != 0 if steer is None else steer
    players: dict[str, RandomPlayer] = {}
    while state.step != "over":
        seat = lo.pending(state)[0].seat
        player = players.setdefault(seat, RandomPlayer(seed * 31 + len(players), steer=steer))
        action = player.choose(lo, state, seat)
        after, events = lo.apply(state, seat, action)
        yield Step(state, seat, action, after, events)
        state = after
