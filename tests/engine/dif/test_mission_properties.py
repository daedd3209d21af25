"""Random computer players fly random campaign missions to the end: every invariant of
the basic game holds (cards, views, narration, pending), a replay of the log gives the
same state, no seat sees another's hand or mini-hand, and every legal move of a
mission is reachable from the Discord menus."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.dif.actions import Action
from engine.dif.ai import RandomPlayer
from engine.dif.campaign_data import load_scoresheets, load_targets
from engine.dif.components import Side
from engine.dif.game import DifEngine, default_engine
from engine.dif.setup import DifSetup
from tests.bot.test_ui_components import play_checking_menus
from tests.engine.conftest import Step
from tests.engine.test_properties import check_cards, check_narration, check_pending, check_views

from .test_mission_rules import drive

TARGETS = load_targets()
AWARDS = load_scoresheets().land.model_dump(mode="json")
FIGHTERS = {
    Side.AXIS: ["ki-43", "a6m2"],
    Side.ALLIED: ["buffalo-i", "hurricane-iib", "f4f", "p-40e"],
}
BOMBERS = {Side.AXIS: ["ki-30", "d3a1", "b5n2"], Side.ALLIED: ["sbd", "tbd", "vildebeest"]}
FORMATIONS = {Side.AXIS: ["ki-21", "g4m", "h6k"], Side.ALLIED: ["b-17e", "b-26", "hudson"]}
GAMES = 24


@pytest.fixture(scope="module")
def engine() -> DifEngine:
    return default_engine()


def random_mission(engine: DifEngine, rng: random.Random) -> DifSetup:
    """Two to four elements a side, light bombers loaded (level, dive or torpedo by
    their card), a random target, Arrival and Return Home of 0-2 turns; one game in
    six a dogfight-kind mission; one strike in three under Clouds Over the Target, one
    in two with the Angle of Attack option (§20.31). A
    strike flies up to two formations of the attacker's bombers (saturation, or a
    torpedo at Very Low against a ship); then one in four has no element of the
    attacker, and one in six no defender at all (§24.43)."""
    attacker = rng.choice(list(Side))
    target = rng.choice(sorted(TARGETS))
    naval = TARGETS[target].naval
    elements: list[dict[str, Any]] = []
    bombs: dict[str, str] = {}
    for side in Side:
        letter = "A" if side is Side.ALLIED else "X"
        for i in range(1, rng.randint(1, 3) + 1):
            pool = FIGHTERS[side] + (BOMBERS[side] if side is attacker else [])
            ac = engine.aircraft[rng.choice(pool)]
            seat = f"{letter}{i}"
            elements.append({"seat": seat, "side": side.value, "aircraft": ac.id})
            if ac.bombing is not None and side is attacker:
                modes = sorted(m.value for m in ac.bombing.modes)
                modes = [m for m in modes if m != "saturation" and (naval or m != "torpedo")]
                if modes:
                    bombs[seat] = rng.choice(modes)
    dogfight = rng.random() < 1 / 6
    mission: dict[str, Any] = {
        "attacker": attacker.value,
        "arrival": rng.randint(0, 2),
        "home": rng.randint(0, 2),
        "awards": AWARDS if rng.random() < 0.5 else None,
    }
    if dogfight:
        mission.update(kind="dogfight", turns=rng.randint(2, 4), arrival=0, home=0)
    else:
        mission["formations"] = random_formations(engine, rng, attacker, naval)
        if mission["formations"] and rng.random() < 1 / 4:
            elements = [e for e in elements if e["side"] != attacker.value]
        if rng.random() < 1 / 6:
            elements = [e for e in elements if e["side"] == attacker.value]
        bombs = {seat: m for seat, m in bombs.items() if any(e["seat"] == seat for e in elements)}
        mission.update(
            target=TARGETS[target].model_dump(mode="json", exclude={"id", "sheet", "printed"}),
            bombs=bombs,
        )
    altitudes = {e["seat"]: rng.choice(["VL", "L", "M"]) for e in elements}
    picked = altitudes if rng.random() < 0.7 else None
    if not dogfight and rng.random() < 1 / 3:
        mission["clouds"] = {
            "draw": rng.randint(1, 3),
            "result_shift": rng.randint(0, 2),
            "aa": rng.randint(-2, 1),
            "torpedo": rng.random() < 0.5,
        }
    mission["angle_of_attack"] = not dogfight and rng.random() < 0.5
    return DifSetup.model_validate(
        {
            "ruleset": "zero",
            "year": 1942,
            "elements": elements,
            "mixed": True,
            "altitudes": picked,
            "mission": mission,
        }
    )


def random_formations(
    engine: DifEngine, rng: random.Random, side: Side, naval: bool
) -> list[dict[str, Any]]:
    """Zero to two formations of one bomber up to as many as their Formation
    holds (§17.22a), by their card's modes (a torpedo at Very Low, §21.52), or none."""
    letter = "A" if side is Side.ALLIED else "X"
    out = []
    for i in range(rng.randint(0, 2)):
        ac = engine.aircraft[rng.choice(FORMATIONS[side])]
        assert ac.bombing is not None and ac.formation_size is not None
        modes = [m.value for m in ac.bombing.modes if naval or m.value != "torpedo"]
        mode = rng.choice([*sorted(modes), None])
        altitude = "VL" if mode == "torpedo" else rng.choice(["L", "M", "H"])
        size = rng.randint(1, ac.formation_size)
        out.append(
            {
                "seat": f"{letter}{7 + i}",
                "side": side.value,
                "aircraft": [ac.id] * size,
                "altitude": altitude,
                "mode": mode,
            }
        )
    return out


def play(engine: DifEngine, setup: DifSetup, seed: int) -> None:
    state, _ = engine.new_game(setup, seed)
    seats = [*state.elements, *(state.mission or {})["formations"]]  # formations answer (§20.5)
    players = {seat: RandomPlayer(seed * 31 + i) for i, seat in enumerate(seats)}
    log: list[tuple[str, str]] = []
    for _ in range(3000):
        if state.step == "over":
            break
        seat = engine.pending(state)[0].seat
        action = players[seat].choose(engine, state, seat)
        assert Action.from_text(str(action)) == action
        after, events = engine.apply(state, seat, action)
        step = Step(state, seat, action, after, events)
        check_cards(engine, after)
        check_views(engine, after)
        check_narration(engine, step)
        check_pending(engine, after)
        log.append((seat, str(action)))
        state = after
    else:
        raise AssertionError(f"seed {seed}: the mission never ends")
    assert state.result is not None and "target_damage" in state.result
    assert engine.replay(setup, seed, log).to_json() == state.to_json()


@pytest.mark.parametrize("chunk", range(3))
def test_random_missions_end_replay_and_hide_hands(engine: DifEngine, chunk: int) -> None:
    for seed in range(chunk, GAMES, 3):
        setup = random_mission(engine, random.Random(seed))
        try:
            play(engine, setup, seed)
        except AssertionError as exc:
            raise AssertionError(f"seed {seed}: {exc}") from exc


def test_random_missions_bomb_and_fire(engine: DifEngine) -> None:
    """The random games reach the mission's rules: bombs dropped, strafing, AA answered."""
    kinds: set[str] = set()
    for seed in range(GAMES):
        setup = random_mission(engine, random.Random(seed))
        state, _ = engine.new_game(setup, seed)
        player = RandomPlayer(seed)
        while state.step != "over":
            seat = engine.pending(state)[0].seat
            state, events = engine.apply(state, seat, player.choose(engine, state, seat))
            kinds |= {e.kind for e in events}
            kinds |= {engine.pending(state)[0].kind} if state.step != "over" else set()
    assert {"bombs", "bombing", "fire", "aa", "abandon", "jettison", "bomb"} <= kinds


async def test_every_mission_move_is_offered_in_the_menus(engine: DifEngine) -> None:
    verbs: set[str] = set()
    for seed in range(6):
        setup = random_mission(engine, random.Random(seed))
        verbs |= play_checking_menus(engine, setup, seed, max_steps=400)[1]
    assert {"abandon", "continue", "hold", "keep"} <= verbs


def test_drive_reaches_the_end(engine: DifEngine) -> None:
    setup = random_mission(engine, random.Random(99))
    state, _ = engine.new_game(setup, 99)
    state = drive(engine, state, lambda s: False)
    assert state.step == "over"
