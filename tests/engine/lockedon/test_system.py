"""Locked-On on the game-system contract: the registry, the lobby, a whole game through
the contract, the typed outcome, notation, public text, undo and storage."""

from __future__ import annotations

import json

from engine.core import registry
from engine.core.contract import Decision, Fate, GameSystem, Scope, SeatPick, Timing
from engine.lockedon.ai import RandomPlayer
from engine.lockedon.system import LockedOnSystem

from .conftest import Act, Game


def _system() -> LockedOnSystem:
    sys = registry.get("lockedon")
    assert isinstance(sys, LockedOnSystem)
    return sys


def test_the_registry_builds_lockedon_with_every_member_of_the_contract() -> None:
    assert "lockedon" in registry.system_ids()
    lo = registry.get("lockedon")
    assert lo.id == "lockedon" and registry.get("lockedon") is lo
    members = [m for m in vars(GameSystem) if not m.startswith("_")]
    assert [m for m in members if not hasattr(lo, m)] == []


def test_a_lobby_builds_a_team_game_through_the_contract() -> None:
    lo = _system()
    options = lo.options_model(vp_limit=120, year=1985, team_games=True, teamwork=True)
    assert [s.id for s in lo.lobby_sides(options)] == ["A", "B"]
    assert str(lo.lobby_sides(options)[0].name) == "Side A"
    assert lo.seat_name("B", 2) == "B2"
    labels = {c.id: c.label for c in lo.aircraft_choices(options, "A")}
    assert labels["f-15a"] == "F-15A Eagle (United States 1976, 62/92 VP)"
    assert "f-16c" not in labels, "entered service in 1991, after 1985 (C-L3)"
    assert lo.pick_refusal(options, "A", lo.pick_model(aircraft="f-16c")) is not None
    seats = [SeatPick("A1", "A", lo.pick_model(aircraft="f-15a"))]
    problems = lo.start_problems(options, seats)
    assert problems and "Side B has no aircraft" in problems[0]
    seats += [
        SeatPick("B1", "B", lo.pick_model(aircraft="mig-21bis")),
        SeatPick("B2", "B", lo.pick_model(aircraft="mig-23mf")),
    ]
    assert lo.start_problems(options, seats) == []
    setup = lo.setup_from_lobby(options, seats)
    state, events = lo.new_game(setup, seed=9)
    assert events and {d.seat for d in lo.pending(state)} == {"A1", "B1", "B2"}
    assert all(d.timing is Timing.SIMULTANEOUS for d in lo.pending(state)), "L76"
    assert [s.seats for s in lo.sides(state)] == [("A1",), ("B1", "B2")]


def test_the_lobby_checks_the_agreed_vp_per_side() -> None:
    """L68-70, L389: no side over the agreed total (each aircraft's least value first)."""
    lo = _system()
    tight = lo.options_model(vp_limit=90)
    why = lo.pick_refusal(tight, "A", lo.pick_model(aircraft="f-14d"))  # at least 117 - 23
    assert why is not None and "worth 94 VP, over the agreed 90" in why
    assert lo.pick_refusal(tight, "A", lo.pick_model(aircraft="f-15a")) is None  # 92 - 14
    options = lo.options_model(vp_limit=100, team_games=True)
    seats = [
        SeatPick("A1", "A", lo.pick_model(aircraft="f-15a")),
        SeatPick("A2", "A", lo.pick_model(aircraft="f-5e")),
        SeatPick("B1", "B", lo.pick_model(aircraft="mig-29")),
    ]
    problems = lo.start_problems(options, seats)
    assert len(problems) == 1 and "Side A is worth 132 VP" in problems[0]


def test_a_free_for_all_lobby_has_one_side_per_player() -> None:
    lo = _system()
    options = lo.options_model(free_for_all=True, sides=3)
    assert [s.id for s in lo.lobby_sides(options)] == ["A", "B", "C"]
    seats = [
        SeatPick("A1", "A", lo.pick_model(aircraft="f-15a")),
        SeatPick("A2", "A", lo.pick_model(aircraft="f-15a")),
        SeatPick("B1", "B", lo.pick_model(aircraft="mig-29")),
        SeatPick("C1", "C", lo.pick_model(aircraft="mig-29")),
    ]
    assert lo.start_problems(options, seats), "two aircraft on one side of a free-for-all"
    assert lo.start_problems(options, [seats[0], *seats[2:]]) == []


def test_several_aircraft_a_side_need_the_team_games_rule() -> None:
    lo = _system()
    seats = [
        SeatPick("A1", "A", lo.pick_model(aircraft="f-15a")),
        SeatPick("A2", "A", lo.pick_model(aircraft="f-15a")),
        SeatPick("B1", "B", lo.pick_model(aircraft="mig-29")),
    ]
    problems = lo.start_problems(lo.options_model(), seats)
    assert problems and "Team Games" in problems[0]
    assert lo.start_problems(lo.options_model(team_games=True), seats) == []


def test_a_game_plays_to_its_typed_outcome_through_the_contract() -> None:
    lo = _system()
    options = lo.options_model(team_games=True, teamwork=True)
    seats = [
        SeatPick("A1", "A", lo.pick_model(aircraft="f-15a", skills=("timely",))),
        SeatPick("A2", "A", lo.pick_model(aircraft="f-16a")),
        SeatPick("B1", "B", lo.pick_model(aircraft="mig-29")),
        SeatPick("B2", "B", lo.pick_model(aircraft="su-27")),
    ]
    setup = lo.setup_from_lobby(options, seats)
    kinds: set[tuple[str, Timing, Scope]] = set()
    for seed in range(12):
        state, _ = lo.new_game(setup, seed)
        player = RandomPlayer(seed, steer=True)
        log: list[tuple[str, str]] = []
        while not lo.is_over(state):
            d: Decision = lo.pending(state)[0]
            kinds.add((d.kind, d.timing, d.scope))
            if d.scope is Scope.SIDE:
                assert d.side is not None
            action = player.choose(lo.engine, state, d.seat)
            assert lo.parse_action(str(action)) == action
            log.append((d.seat, str(action)))
            state, _ = lo.apply(state, d.seat, action)
        out = lo.outcome(state)
        assert out.over and set(out.vp) == {"A", "B"} and len(out.fates) == 4
        for f in out.fates:
            if f.fate is Fate.SHOT_DOWN:
                assert f.by is not None and state.planes[f.by].side != f.side
                assert f.turn is not None
        down = {f.ref: f for f in out.fates if f.fate is Fate.SHOT_DOWN}
        for side in ("A", "B"):
            scored = sum(state.planes[r].value for r, f in down.items() if f.side != side)
            assert out.vp[side] == scored
        if out.winner is not None:
            assert all(f.fate is Fate.SHOT_DOWN for f in out.fates if f.side != out.winner)
        assert lo.replay(setup, seed, log) == state
        assert lo.load_state(json.loads(json.dumps(lo.dump_state(state)))) == state
    assert ("altitude", Timing.SIMULTANEOUS, Scope.SEAT) in kinds
    assert ("next", Timing.TURN, Scope.SIDE) in kinds
    assert ("react", Timing.RESPONSE, Scope.SEAT) in kinds
    assert ("play", Timing.TURN, Scope.SEAT) in kinds


def test_a_running_game_has_an_outcome_too(game: Game) -> None:
    lo = _system()
    out = lo.outcome(game())
    assert not out.over and out.winner is None and str(out.verdict) == "The dogfight goes on"


def test_public_text_masks_secret_picks_and_unseen_discards() -> None:
    lo = _system()
    assert lo.public_text("alt H", secret_picks=True) == "alt ?"
    assert lo.public_text("alt H", secret_picks=False) == "alt H"
    assert lo.public_text("discard BR TT", secret_picks=False) == "discard ?×2"
    assert lo.public_text("climb BR", secret_picks=False) == "climb ?×1"
    assert lo.public_text("follow BR TT", secret_picks=False) == "follow ?×2"
    assert lo.public_text("timely ACE", secret_picks=False) == "timely ?×1"
    assert lo.public_text("play GUN B1 paying SCI TT", secret_picks=False) == (
        "play GUN B1 paying ?×2"
    )
    assert lo.public_text("play VR up B1 paying BR", secret_picks=False) == (
        "play VR up B1 paying ?×1"
    )
    assert lo.public_text("play GUN B1", secret_picks=False) == "play GUN B1"
    assert lo.public_text("nonsense words", secret_picks=False) == "nonsense words"


def test_undo_is_refused_after_a_draw_a_reveal_or_a_private_line(game: Game, act: Act) -> None:
    lo = _system()
    state = game(hands={"A1": ["TT"] * 8, "B1": ["BR"]}, ranges={"A1": "HS", "B1": "HS"})
    after, events = lo.apply(state, "A1", lo.parse_action("ab off"))
    assert lo.undo_refusal(state, after, events) is None
    drawn, events = lo.apply(after, "A1", lo.parse_action("discard TT"))
    assert "drawn" in str(lo.undo_refusal(after, drawn, events))
    stay, events = lo.apply(drawn, "A1", lo.parse_action("stay"))
    assert lo.undo_refusal(drawn, stay, events) is None
    played, events = lo.apply(stay, "A1", lo.parse_action("play TT pos 1 B1"))
    assert lo.undo_refusal(stay, played, events) is None, "a played card is public"
    from engine.lockedon.setup import LockedOnSetup

    setup = LockedOnSetup.model_validate(
        {
            "seats": [
                {"seat": "A1", "side": "A", "aircraft": "f-15a"},
                {"seat": "B1", "side": "B", "aircraft": "mig-29"},
            ]
        }
    )
    s0, _ = lo.new_game(setup, 1)
    s1, e1 = lo.apply(s0, "A1", lo.parse_action("alt M"))
    assert lo.undo_refusal(s0, s1, e1) is None
    s2, e2 = lo.apply(s1, "B1", lo.parse_action("alt L"))
    assert "revealed" in str(lo.undo_refusal(s1, s2, e2))
