"""A snapshot plus the log's tail is the game the whole log replays (issue 16's cold
load): at every point of every conformance vector, and of random games of every system."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.conformance import checker, load_vector
from engine.core import registry
from engine.core.snapshots import resume
from tests.engine.ai.conftest import SYSTEMS, duel

VECTORS = sorted((Path(__file__).parents[1] / "conformance").rglob("*.yaml"))


def played(data: dict[str, Any]) -> tuple[Any, Any, int, list[tuple[str, str]]] | None:
    """A game vector's system, setup, seed and the actions it applies (refusals change
    nothing), or None for a campaign vector or a refused setup."""
    if "campaign" in data or "setup_refused" in data:
        return None
    system_id = str(data.get("system", "dif"))
    system = checker(system_id).prepare(registry.get(system_id), data)
    setup = system.setup_model.model_validate(data["setup"])
    log = [(str(s["seat"]), str(s["do"])) for s in data.get("steps", []) if "do" in s]
    return system, setup, int(data.get("seed", 0)), log


def snapshot_at(system: Any, setup: Any, seed: int, log: list[tuple[str, str]], k: int) -> Any:
    """The state after the first ``k`` actions, as stored: through JSON."""
    return json.loads(json.dumps(system.dump_state(system.replay(setup, seed, log[:k]))))


GAMES = [p for p in VECTORS if played(load_vector(p)) is not None]


def test_most_vectors_are_games() -> None:
    assert len(GAMES) >= 150


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_vector_resumes_from_every_point_to_its_replay(path: Path) -> None:
    game = played(load_vector(path))
    assert game is not None
    system, setup, seed, log = game
    whole = system.dump_state(system.replay(setup, seed, log))
    for k in range(len(log) + 1):
        state = resume(system, snapshot_at(system, setup, seed, log, k), log[k:])
        assert system.dump_state(state) == whole, f"snapshot after {k}"


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_random_games_resume_from_any_point_to_their_replay(system_id: str) -> None:
    system = registry.get(system_id)
    for seed in range(4):
        rng = random.Random(seed)
        state, _ = system.new_game(duel(system_id), seed)
        log: list[tuple[str, str]] = []
        while not system.is_over(state) and len(log) < 400:
            seat = system.pending(state)[0].seat
            action = rng.choice(system.legal_actions(state, seat))
            state, _ = system.apply(state, seat, action)
            log.append((seat, str(action)))
        whole = system.dump_state(state)
        for k in sorted({0, 1, len(log) // 3, len(log) // 2, len(log) - 1, len(log)}):
            again = resume(system, snapshot_at(system, duel(system_id), seed, log, k), log[k:])
            assert system.dump_state(again) == whole, f"seed {seed}: snapshot after {k}"
