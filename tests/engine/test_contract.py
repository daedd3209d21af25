"""The game-system contract: the registry, and Down in Flames implementing it."""

from __future__ import annotations

import json

from engine.core import registry
from engine.core.contract import Decision, Fate, GameSystem, HostedSystem, Scope, SeatPick, Timing
from engine.dif.ai import RandomPlayer
from tests.scenarios import SHOOT_DOWN_SEED, shoot_down_game


def test_the_registry_lists_each_system_once_and_builds_dif() -> None:
    ids = registry.system_ids()
    assert ids[0] == "dif" and len(set(ids)) == len(ids)
    dif = registry.get("dif")
    assert dif.id == "dif" and registry.get("dif") is dif
    members = [m for m in vars(GameSystem) if not m.startswith("_")]
    missing = [m for m in members if not hasattr(dif, m)]
    assert not missing, f"dif lacks {missing}"


def test_a_dif_lobby_builds_a_game_through_the_contract() -> None:
    dif = registry.get("dif")
    options = dif.options_model(ruleset="zero", year=1942)
    sides = [s.id for s in dif.lobby_sides(options)]
    assert sides == ["allied", "axis"]
    choices = {c.id for c in dif.aircraft_choices(options, "axis")}
    assert "a6m2" in choices and not {c.id for c in dif.aircraft_choices(options, "allied")} & {
        "a6m2"
    }
    refusal = dif.pick_refusal(options, "allied", dif.pick_model(aircraft="a6m2"))
    assert refusal is not None and "A6M2" in str(refusal)
    seats = [
        SeatPick(dif.seat_name("allied", 1), "allied", dif.pick_model(aircraft="f4f")),
    ]
    assert dif.start_problems(options, seats), "an empty side keeps the lobby from starting"
    seats.append(SeatPick(dif.seat_name("axis", 1), "axis", dif.pick_model(aircraft="a6m2")))
    assert dif.start_problems(options, seats) == []
    setup = dif.setup_from_lobby(options, seats)
    state, events = dif.new_game(setup, seed=5)
    assert events
    pending = dif.pending(state)
    assert {d.seat for d in pending} == {"A1", "X1"}
    assert all(d.timing is Timing.SIMULTANEOUS for d in pending), "secret altitudes (4.5)"


def test_a_dif_game_plays_to_its_typed_outcome_through_the_contract() -> None:
    dif = registry.get("dif")
    options = dif.options_model(ruleset="rotl", year=1941)
    seats = [
        SeatPick("A1", "allied", dif.pick_model(aircraft="spitfire-i")),
        SeatPick("A2", "allied", dif.pick_model(aircraft="hurricane-i")),
        SeatPick("X1", "axis", dif.pick_model(aircraft="bf-109e")),
        SeatPick("X2", "axis", dif.pick_model(aircraft="bf-109e")),
    ]
    setup = dif.setup_from_lobby(options, seats)
    state, _ = dif.new_game(setup, seed=11)
    player = RandomPlayer(3)
    log: list[tuple[str, str]] = []
    kinds: set[tuple[str, Timing, Scope]] = set()
    while not dif.is_over(state):
        d: Decision = dif.pending(state)[0]
        kinds.add((d.kind, d.timing, d.scope))
        if d.scope is Scope.SIDE:
            assert d.side is not None
        action = player.choose(dif.engine, state, d.seat)  # type: ignore[attr-defined]
        assert dif.parse_action(str(action)) == action
        log.append((d.seat, str(action)))
        state, _ = dif.apply(state, d.seat, action)
    assert ("respond", Timing.RESPONSE, Scope.SEAT) in kinds
    assert ("order", Timing.TURN, Scope.SIDE) in kinds
    out = dif.outcome(state)
    assert out.over and set(out.vp) == {"allied", "axis"}
    assert len(out.fates) == 8
    assert out.winner in (None, "allied", "axis")
    lost = {f.side for f in out.fates if f.fate is Fate.SHOT_DOWN}
    assert all(out.vp[{"allied": "axis", "axis": "allied"}[s]] >= 5 for s in lost)
    assert dif.replay(setup, 11, log) == state
    dumped = json.loads(json.dumps(dif.dump_state(state)))
    assert dif.load_state(dumped) == state


def test_dif_masks_secret_picks_in_public_notation() -> None:
    dif = registry.get("dif")
    assert dif.public_text("alt H", secret_picks=True) == "alt ?"
    assert dif.public_text("alt H", secret_picks=False) == "alt H"


def test_dif_is_hosted_and_its_outcome_says_who_shot_down_whom_and_when() -> None:
    """A 2v2 where the P-40B (A2) shoots down the A6M2 leader of X2 on turn 1 and its
    wingman takes over (11.2): the typed outcome names the aircraft by the refs they
    started with, the attacker and the turn, and hits given match hits taken."""
    dif = registry.get("dif")
    assert isinstance(dif, HostedSystem)
    setup, log = shoot_down_game()
    state = dif.replay(setup, SHOOT_DOWN_SEED, [(seat, text) for _, seat, text in log])
    fates = {f.ref: f for f in dif.outcome(state).fates}
    assert set(fates) == {"A1L", "A1W", "A2L", "A2W", "X1L", "X1W", "X2L", "X2W"}
    x2l = fates["X2L"]
    assert (x2l.fate, x2l.by, x2l.turn, x2l.side) == (Fate.SHOT_DOWN, "A2L", 1, "axis")
    assert x2l.hits_taken >= 2 and fates["A2L"].hits_given >= 2
    assert fates["X2W"].fate in (Fate.UNHARMED, Fate.DAMAGED), "the wingman now leads"
    assert sum(f.hits_given for f in fates.values()) == sum(f.hits_taken for f in fates.values())
    again = dif.load_state(json.loads(json.dumps(dif.dump_state(state))))
    assert dif.outcome(again) == dif.outcome(state), "the bookkeeping round-trips"
